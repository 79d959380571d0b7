// RUN: aotc-opt %s -split-input-file -aotc-merge-transpose-loops | FileCheck %s

// A depthwise convolution's input packed into blocks of 16 channels: the
// image's unit, row and column loops, adjacent and in order in both
// operands, become one loop of 196 pixels (the batch and block loops are
// left: the one non-unit loop among them moves nothing).

// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @pack
// CHECK:         %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2], [3, 4, 5]] : tensor<1x30x16x1x14x14xf32> into tensor<1x30x16x196xf32>
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]] : tensor<1x30x16x196xf32>) outs(%{{.*}} : tensor<1x30x196x16xf32>)
// CHECK:         tensor.expand_shape %[[T]] {{\[}}[0], [1], [2, 3, 4], [5]] output_shape [1, 30, 1, 14, 14, 16] : tensor<1x30x196x16xf32> into tensor<1x30x1x14x14x16xf32>
func.func @pack(%x: tensor<1x30x16x1x14x14xf32>) -> tensor<1x30x1x14x14x16xf32> {
  %e = tensor.empty() : tensor<1x30x1x14x14x16xf32>
  %t = linalg.transpose ins(%x : tensor<1x30x16x1x14x14xf32>) outs(%e : tensor<1x30x1x14x14x16xf32>) permutation = [0, 1, 3, 4, 5, 2]
  return %t : tensor<1x30x1x14x14x16xf32>
}

// -----

// A blocked result assembled from parts (a peeled depthwise convolution's
// interior and border strips, inserted into one tensor) is a whole buffer
// too: moved back to NCHW over 196 pixels.

// CHECK-LABEL: func.func @parts
// CHECK:         %[[P:.*]] = tensor.insert_slice
// CHECK:         %[[X:.*]] = tensor.collapse_shape %[[P]] {{\[}}[0], [1, 2], [3]] : tensor<2x14x14x16xf32> into tensor<2x196x16xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[X]] : tensor<2x196x16xf32>) outs(%{{.*}} : tensor<2x16x196xf32>)
func.func @parts(%a: tensor<2x14x14x16xf32>, %strip: tensor<2x1x14x16xf32>) -> tensor<2x16x14x14xf32> {
  %p = tensor.insert_slice %strip into %a[0, 13, 0, 0] [2, 1, 14, 16] [1, 1, 1, 1] : tensor<2x1x14x16xf32> into tensor<2x14x14x16xf32>
  %e = tensor.empty() : tensor<2x16x14x14xf32>
  %t = linalg.transpose ins(%p : tensor<2x14x14x16xf32>) outs(%e : tensor<2x16x14x14xf32>) permutation = [0, 3, 1, 2]
  return %t : tensor<2x16x14x14xf32>
}

// -----

// The only group of adjacent loops holds two unit loops (the result of a
// contraction computed transposed, [1, 1, 49, 64] -> [1, 1, 64, 49]):
// unchanged.

// CHECK-LABEL: func.func @unit_group
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.transpose
func.func @unit_group(%x: tensor<1x1x49x64xf32>) -> tensor<1x1x64x49xf32> {
  %e = tensor.empty() : tensor<1x1x64x49xf32>
  %t = linalg.transpose ins(%x : tensor<1x1x49x64xf32>) outs(%e : tensor<1x1x64x49xf32>) permutation = [0, 1, 3, 2]
  return %t : tensor<1x1x64x49xf32>
}

// -----

// A transpose whose result is inserted into a larger tensor (a concat
// computed in place), and one that reads a slice: collapsing either would
// need a copy; unchanged.

// CHECK-LABEL: func.func @inserted
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.transpose
// CHECK-LABEL: func.func @slice
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.transpose
func.func @inserted(%x: tensor<2x16x4x4xf32>, %big: tensor<2x8x4x16xf32>) -> tensor<2x8x4x16xf32> {
  %e = tensor.empty() : tensor<2x4x4x16xf32>
  %t = linalg.transpose ins(%x : tensor<2x16x4x4xf32>) outs(%e : tensor<2x4x4x16xf32>) permutation = [0, 2, 3, 1]
  %r = tensor.insert_slice %t into %big[0, 0, 0, 0] [2, 4, 4, 16] [1, 1, 1, 1] : tensor<2x4x4x16xf32> into tensor<2x8x4x16xf32>
  return %r : tensor<2x8x4x16xf32>
}
func.func @slice(%big: tensor<2x16x8x4xf32>) -> tensor<2x4x4x16xf32> {
  %x = tensor.extract_slice %big[0, 0, 0, 0] [2, 16, 4, 4] [1, 1, 1, 1] : tensor<2x16x8x4xf32> to tensor<2x16x4x4xf32>
  %e = tensor.empty() : tensor<2x4x4x16xf32>
  %t = linalg.transpose ins(%x : tensor<2x16x4x4xf32>) outs(%e : tensor<2x4x4x16xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<2x4x4x16xf32>
}

// -----

// An elementwise op (nothing transposed) keeps its loops.

// CHECK-LABEL: func.func @elementwise
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
func.func @elementwise(%x: tensor<4x14x14xf32>) -> tensor<4x14x14xf32> {
  %e = tensor.empty() : tensor<4x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x14x14xf32>) outs(%e : tensor<4x14x14xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x14x14xf32>
  return %r : tensor<4x14x14xf32>
}
