// RUN: aotc-opt %s -split-input-file -aotc-normalize-contractions | FileCheck %s

// A Linear layer on a channels-last image: the rows run over the image's
// batch, height and width loops, which every operand reads adjacent and in
// order; they become one loop of 1 x 2 x 3 = 6 rows.

// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[O:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @channels_last_linear
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<1x2x3x8xf32> into tensor<6x8xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[XC]], %{{.*}} : tensor<6x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<6x16xf32>)
// CHECK:         tensor.expand_shape %[[R]] {{\[}}[0, 1, 2], [3]] output_shape [1, 2, 3, 16] : tensor<6x16xf32> into tensor<1x2x3x16xf32>
func.func @channels_last_linear(%x: tensor<1x2x3x8xf32>, %w: tensor<8x16xf32>, %c: tensor<1x2x3x16xf32>) -> tensor<1x2x3x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, w, n, k) -> (b, h, w, k)>, affine_map<(b, h, w, n, k) -> (k, n)>, affine_map<(b, h, w, n, k) -> (b, h, w, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x2x3x8xf32>, tensor<8x16xf32>) outs(%c : tensor<1x2x3x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x16xf32>
  return %r : tensor<1x2x3x16xf32>
}

// -----

// The rows are read in another order by the output (a transposed result):
// no collapse.

// CHECK-LABEL: func.func @rows_out_of_order
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<2x3x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<3x2x16xf32>)
func.func @rows_out_of_order(%x: tensor<2x3x8xf32>, %w: tensor<8x16xf32>, %c: tensor<3x2x16xf32>) -> tensor<3x2x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(h, w, n, k) -> (h, w, k)>, affine_map<(h, w, n, k) -> (k, n)>, affine_map<(h, w, n, k) -> (w, h, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x3x8xf32>, tensor<8x16xf32>) outs(%c : tensor<3x2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2x16xf32>
  return %r : tensor<3x2x16xf32>
}

// -----

// A 1x1 convolution on a channels-first image: the image's height and width
// are the output's innermost loops, the lanes, and stay as they are.

// CHECK-LABEL: func.func @channels_first_pointwise
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        outs(%{{.*}} : tensor<16x4x5xf32>)
func.func @channels_first_pointwise(%w: tensor<16x8xf32>, %x: tensor<8x4x5xf32>, %c: tensor<16x4x5xf32>) -> tensor<16x4x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(f, h, w, k) -> (f, k)>, affine_map<(f, h, w, k) -> (k, h, w)>, affine_map<(f, h, w, k) -> (f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %x : tensor<16x8xf32>, tensor<8x4x5xf32>) outs(%c : tensor<16x4x5xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x4x5xf32>
  return %r : tensor<16x4x5xf32>
}

// -----

// Inside a loop (a slice of a symbolic batch), the rows stay as they are:
// collapsing a slice may need a copy in the loop.

// CHECK-LABEL: func.func @in_loop
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @in_loop(%x: tensor<1x2x3x8xf32>, %w: tensor<8x16xf32>, %c: tensor<1x2x3x16xf32>) -> tensor<1x2x3x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %l = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc0 = %c) -> (tensor<1x2x3x16xf32>) {
    %r = linalg.generic {indexing_maps = [affine_map<(b, h, w, n, k) -> (b, h, w, k)>, affine_map<(b, h, w, n, k) -> (k, n)>, affine_map<(b, h, w, n, k) -> (b, h, w, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x2x3x8xf32>, tensor<8x16xf32>) outs(%acc0 : tensor<1x2x3x16xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<1x2x3x16xf32>
    scf.yield %r : tensor<1x2x3x16xf32>
  }
  return %l : tensor<1x2x3x16xf32>
}
