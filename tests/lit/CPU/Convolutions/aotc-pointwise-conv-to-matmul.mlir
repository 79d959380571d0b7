// RUN: aotc-opt %s -split-input-file -aotc-pointwise-conv-to-matmul | FileCheck %s

// An NCHW 1x1 convolution (groups as a dimension, as the ONNX importer
// writes it): the image collapses into one dimension, the window loops
// disappear, and the op is a contraction over the input channels.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-DAG:   #[[XM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG:   #[[WM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// CHECK-DAG:   #[[OM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv1x1
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x8x7x7xf32>, %[[W:.*]]: tensor<1x16x8x1x1xf32>, %[[O:.*]]: tensor<1x1x16x7x7xf32>)
// CHECK-DAG:     %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x8x7x7xf32> into tensor<1x1x8x49xf32>
// CHECK-DAG:     %[[WC:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1], [2, 3, 4]] : tensor<1x16x8x1x1xf32> into tensor<1x16x8xf32>
// CHECK-DAG:     %[[OC:.*]] = tensor.collapse_shape %[[O]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x16x7x7xf32> into tensor<1x1x16x49xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[XM]], #[[WM]], #[[OM]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[XC]], %[[WC]] : tensor<1x1x8x49xf32>, tensor<1x16x8xf32>) outs(%[[OC]] : tensor<1x1x16x49xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 1, 16, 7, 7]
// CHECK:         return %[[E]]
func.func @conv1x1(%x: tensor<1x1x8x7x7xf32>, %w: tensor<1x16x8x1x1xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x7x7xf32>, tensor<1x16x8x1x1xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}

// -----

// Stride 2 (input 13x13, output 7x7): the input is not read at the output
// position; left alone (aotc-vectorize-convolutions handles it).

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @conv1x1_stride2
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x8x13x13xf32>, tensor<1x16x8x1x1xf32>)
func.func @conv1x1_stride2(%x: tensor<1x1x8x13x13xf32>, %w: tensor<1x16x8x1x1xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x13x13xf32>, tensor<1x16x8x1x1xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}

// -----

// A 3x3 window: not pointwise, left alone.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @conv3x3
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
func.func @conv3x3(%x: tensor<1x1x8x9x9xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x9x9xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}
