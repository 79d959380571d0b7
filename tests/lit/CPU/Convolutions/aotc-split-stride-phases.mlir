// RUN: aotc-opt %s -split-input-file -aotc-split-stride-phases -canonicalize -cse | FileCheck %s

// A 3-tap window with stride 2 along the columns (row stride 1), 2 input
// and 2 output channels: the padded input [1, 2, 4, 8] is copied into its column
// phases [1, 2, 4, 2, 4]; the even columns (taps 0 and 2) are contracted
// with phase 0, then the odd one (tap 1) with phase 1 into that result,
// each reading column ow + q. The filter's columns are split at compile
// time: [[1, 2, 3], [4, 5, 6], ...] -> [[1, 3], [4, 6], ...] and [[2], [5],
// ...].

#xmap = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow * 2 + kw)>
#wmap = affine_map<(n, o, oh, ow, c, kh, kw) -> (o, c, kh, kw)>
#omap = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, o, oh, ow)>
// CHECK-DAG:   #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK-DAG:   #[[WMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-LABEL: func.func @three_taps
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x4x8xf32>, %[[O:.*]]: tensor<1x2x4x3xf32>)
// CHECK-DAG:     %[[W1:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00]], {{\[\[}}5.000000e+00]]], {{\[\[\[}}8.000000e+00]], {{\[\[}}1.100000e+01]]]]> : tensor<2x2x1x1xf32>
// CHECK-DAG:     %[[W0:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00]], {{\[\[}}4.000000e+00, 6.000000e+00]]], {{\[\[\[}}7.000000e+00, 9.000000e+00]], {{\[\[}}1.000000e+01, 1.200000e+01]]]]> : tensor<2x2x1x2xf32>
// CHECK:         %[[PAIRS:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 2, 4, 4, 2]
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x2x4x2x4xf32>
// CHECK:         %[[PHASES:.*]] = linalg.transpose ins(%[[PAIRS]] : tensor<1x2x4x4x2xf32>) outs(%[[EMPTY]] : tensor<1x2x4x2x4xf32>) permutation = [0, 1, 2, 4, 3]
// CHECK:         %[[EVEN:.*]] = tensor.extract_slice %[[PHASES]][0, 0, 0, 0, 0] [1, 2, 4, 1, 4] [1, 1, 1, 1, 1] : tensor<1x2x4x2x4xf32> to tensor<1x2x4x4xf32>
// CHECK:         %[[R0:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #{{.*}}]
// CHECK-SAME:      ins(%[[EVEN]], %[[W0]] : tensor<1x2x4x4xf32>, tensor<2x2x1x2xf32>) outs(%[[O]] : tensor<1x2x4x3xf32>)
// CHECK:         %[[ODD:.*]] = tensor.extract_slice %[[PHASES]][0, 0, 0, 1, 0] [1, 2, 4, 1, 4] [1, 1, 1, 1, 1] : tensor<1x2x4x2x4xf32> to tensor<1x2x4x4xf32>
// CHECK:         %[[R1:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #{{.*}}]
// CHECK-SAME:      ins(%[[ODD]], %[[W1]] : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%[[R0]] : tensor<1x2x4x3xf32>)
// CHECK:         return %[[R1]]
func.func @three_taps(%x: tensor<1x2x4x8xf32>, %o: tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], [[[7.0, 8.0, 9.0]], [[10.0, 11.0, 12.0]]]]> : tensor<2x2x1x3xf32>
  %r = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x4x8xf32>, tensor<2x2x1x3xf32>) outs(%o : tensor<1x2x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x3xf32>
  return %r : tensor<1x2x4x3xf32>
}

// -----

// Left alone: an odd padded width (no whole column pairs), a filter that is
// not a constant, and a column stride of 1.

#xmap = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow * 2 + kw)>
#x1map = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wmap = affine_map<(n, o, oh, ow, c, kh, kw) -> (o, c, kh, kw)>
#omap = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, o, oh, ow)>
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     linalg.transpose
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @unchanged(%x: tensor<1x2x4x9xf32>, %xe: tensor<1x2x4x8xf32>, %wv: tensor<2x2x1x3xf32>, %o: tensor<1x2x4x4xf32>, %o3: tensor<1x2x4x3xf32>, %o6: tensor<1x2x4x6xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x3xf32>, tensor<1x2x4x6xf32>) {
  %w = arith.constant dense<1.0> : tensor<2x2x1x3xf32>
  %odd = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x4x9xf32>, tensor<2x2x1x3xf32>) outs(%o : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %var = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xe, %wv : tensor<1x2x4x8xf32>, tensor<2x2x1x3xf32>) outs(%o3 : tensor<1x2x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x3xf32>
  %unit = linalg.generic {indexing_maps = [#x1map, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xe, %w : tensor<1x2x4x8xf32>, tensor<2x2x1x3xf32>) outs(%o6 : tensor<1x2x4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x6xf32>
  return %odd, %var, %unit : tensor<1x2x4x4xf32>, tensor<1x2x4x3xf32>, tensor<1x2x4x6xf32>
}
