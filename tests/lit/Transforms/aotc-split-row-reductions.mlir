// RUN: aotc-opt %s -split-input-file -aotc-split-row-reductions | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-split-row-reductions=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// A row sum: 64 columns become 4 steps of one 16-lane register of partial
// sums per row (inner split parallel), then one reduction of the 16 lanes.

// CHECK-DAG:   #[[IN3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ACC3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xf32>, %[[INIT:.*]]: tensor<4xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [4, 4, 16] : tensor<4x64xf32> into tensor<4x4x16xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[IN3]], #[[ACC3]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[E]] : tensor<4x4x16xf32>) outs(%[[Z]] : tensor<4x16xf32>)
// CHECK:           arith.addf
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[P]] : tensor<4x16xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK:           arith.addf
// CHECK:         return %[[S]]
// AVX2-LABEL:  func.func @row_sum
// AVX2:          tensor.expand_shape %{{.*}} output_shape [4, 8, 8] : tensor<4x64xf32> into tensor<4x8x8xf32>
// AVX2:          linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Softmax's sum of exp(x - max): the row maximum is read once per row (its
// map gains the new loop but not the split one); partial max of a maximum
// reduction starts from -inf.

// CHECK-LABEL: func.func @sum_exp
// CHECK-SAME:    (%[[X:.*]]: tensor<2x32xf32>, %[[M:.*]]: tensor<2xf32>, %[[INIT:.*]]: tensor<2xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [2, 2, 16]
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[E]], %[[M]] : tensor<2x2x16xf32>, tensor<2xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[P]] : tensor<2x16xf32>) outs(%[[INIT]] : tensor<2xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_exp(%x: tensor<2x32xf32>, %m: tensor<2xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<2x32xf32>, tensor<2xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @row_max
// CHECK:         %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<3x16xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:           arith.maximumf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maximumf
func.func @row_max(%x: tensor<3x48xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x48xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Left alone: a reduction over the outer dimension (columns are already
// the vector), a matmul (the GEMM path), a row of one register, and a row
// that is not a multiple of a register.

// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     linalg.fill
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @untouched(%x: tensor<64x64xf32>, %c: tensor<64xf32>, %a: tensor<8x16xf32>,
                     %r: tensor<8xf32>, %b: tensor<8x40xf32>, %w: tensor<64x64xf32>,
                     %mm: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<64x64xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%c : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<8x40xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%mm : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<64x64xf32>
}
