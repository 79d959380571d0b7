// RUN: aotc-opt %s -aotc-winograd-convolutions="min-channels=1 vector-bits=256" --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s

// 128 input and 16 output channels on a 14 x 14 image: 49 tiles, which
// whole 16-column register tiles would pad to 64. The output channels are
// the contractions' lanes instead: m[e, t, k] = sum_c v[e, c, t] u[e, c, k],
// the tiles padded to whole 6-row tiles (54), u laid out [16, C, K]; the
// output transform reads m as [4, 4, 7, 7, K] and its last stage writes the
// image's columns from k-contiguous rows.

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-DAG:   #[[V:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG:   #[[U:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[M:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG:   #[[S:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d7, d3, d5, d2)>
// CHECK-LABEL: func.func @channels_last
// CHECK:         %[[VC:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4]] : tensor<4x4x128x7x7xf32> into tensor<16x128x49xf32>
// CHECK:         %[[VP:.*]] = tensor.pad %[[VC]] low[0, 0, 0] high[0, 0, 5]
// CHECK:         } : tensor<16x128x49xf32> to tensor<16x128x54xf32>
// CHECK:         %[[UC:.*]] = arith.constant dense_resource<__elided__> : tensor<16x128x16xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [#[[V]], #[[U]], #[[M]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[VP]], %[[UC]] : tensor<16x128x54xf32>, tensor<16x128x16xf32>) outs(%{{.*}} : tensor<16x54x16xf32>)
// CHECK:         %[[MS:.*]] = tensor.extract_slice %[[MM]][0, 0, 0] [16, 49, 16] [1, 1, 1] : tensor<16x54x16xf32> to tensor<16x49x16xf32>
// CHECK:         %[[ME:.*]] = tensor.expand_shape %[[MS]] {{\[}}[0, 1], [2, 3], [4]] output_shape [4, 4, 7, 7, 16]
// CHECK:         tensor.extract_slice %[[ME]][0, 0, 0, 0, 0] [1, 4, 7, 7, 16] [1, 1, 1, 1, 1] : tensor<4x4x7x7x16xf32> to tensor<4x7x7x16xf32>
// CHECK:         %[[HALF:.*]] = tensor.insert_slice %{{.*}}[1, 0, 0, 0, 0] [1, 4, 7, 7, 16] [1, 1, 1, 1, 1] : tensor<1x4x7x7x16xf32> into tensor<2x4x7x7x16xf32>
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[S]], #{{.*}}],
// CHECK-SAME:        ins(%{{.*}}, %[[HALF]] : tensor<2x4xf32>, tensor<2x4x7x7x16xf32>) outs(%{{.*}} : tensor<1x1x16x7x2x7x2xf32>)
// CHECK:         tensor.collapse_shape %[[Y]] {{.*}} into tensor<1x1x16x14x14xf32>
func.func @channels_last(%x: tensor<1x1x128x16x16xf32>, %init: tensor<1x1x16x14x14xf32>) -> tensor<1x1x16x14x14xf32> {
  %w = arith.constant dense<1.0> : tensor<1x16x128x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x128x16x16xf32>, tensor<1x16x128x3x3xf32>) outs(%init : tensor<1x1x16x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x14x14xf32>
  return %y : tensor<1x1x16x14x14xf32>
}
