// RUN: aotc-opt %s -split-input-file -aotc-winograd-convolutions="min-channels=1 vector-bits=256" | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-winograd-convolutions | FileCheck %s --check-prefix=DEFAULT
// RUN: aotc-opt %s -split-input-file -aotc-winograd-convolutions="min-channels=1 vector-bits=256 max-tile=2" | FileCheck %s --check-prefix=F2

// A 3x3 stride-1 convolution (the importer's NCHW form, batch 1, one group)
// of a padded 12 x 16 input into a 10 x 14 output: 5 x 7 tiles of 2 x 2. The
// input transform takes the input without its unit dims; its columns 2j + b
// (b = 0..3: four stride-2 views) are combined by the rows of B^T, one add
// or subtract per element (x0 - x2, x1 + x2, x2 - x1, x1 - x3) into the
// rows of w[4, c, h, j], then w's rows 2i + a the same way into the tiles
// v[4, 4, c, i, j]; the filter is transformed at compile time (all ones:
// U[xi, nu] = r[xi] * r[nu] with r = G * (1, 1, 1) = (1, 1.5, 0.5, 1)); the
// 35 tiles are padded to 40 columns (whole registers of 8 lanes);
// the output transform's rows are the signed sums m0 + m1 + m2 and
// m1 - m2 - m3, its columns accumulate into the init viewed as
// [1, 1, 3, 5, 2, 7, 2].

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-DAG:   #[[TAP3:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-DAG:   #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[TAP4:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
// CHECK-DAG:   #[[ID5:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG:   #[[U:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[V:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[M:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OCols:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d7, d2, d3, d5)>
// CHECK-LABEL: func.func @conv3x3
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x2x12x16xf32>, %[[INIT:.*]]: tensor<1x1x3x10x14xf32>)
// CHECK-DAG:     %[[ATC:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, -1.000000e+00, -1.000000e+00]]> : tensor<2x4xf32>
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3], [4]] : tensor<1x1x2x12x16xf32> into tensor<2x12x16xf32>
// CHECK:         %[[C0:.*]] = tensor.extract_slice %[[XC]][0, 0, 0] [2, 12, 7] [1, 1, 2]
// CHECK:         %[[C1:.*]] = tensor.extract_slice %[[XC]][0, 0, 1] [2, 12, 7] [1, 1, 2]
// CHECK:         %[[C2:.*]] = tensor.extract_slice %[[XC]][0, 0, 2] [2, 12, 7] [1, 1, 2]
// CHECK:         %[[C3:.*]] = tensor.extract_slice %[[XC]][0, 0, 3] [2, 12, 7] [1, 1, 2]
// CHECK:         %[[W:.*]] = tensor.empty() : tensor<4x2x12x7xf32>
// CHECK:         %[[W0S:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [1, 2, 12, 7]
// CHECK:         %[[W0:.*]] = linalg.generic {indexing_maps = [#[[TAP3]], #[[TAP3]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[C0]], %[[C2]] : {{.*}}) outs(%[[W0S]] : tensor<1x2x12x7xf32>) attrs =  {aotc.sibling_parts = [[G:[0-9]+]] : i64}
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[D]]
// CHECK:         %[[W0I:.*]] = tensor.insert_slice %[[W0]] into %[[W]][0, 0, 0, 0] [1, 2, 12, 7]
// CHECK:         linalg.generic {{.*}} ins(%[[C1]], %[[C2]] : {{.*}}) outs({{.*}}) attrs =  {aotc.sibling_parts = [[G]] : i64}
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[C1]], %[[C2]] : {{.*}})
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.subf %[[B]], %[[A]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[C1]], %[[C3]] : {{.*}})
// CHECK:           arith.subf
// CHECK:         %[[WS:.*]] = tensor.insert_slice %{{.*}}[3, 0, 0, 0] [1, 2, 12, 7] [1, 1, 1, 1] : tensor<1x2x12x7xf32> into tensor<4x2x12x7xf32>
// CHECK:         %[[R0:.*]] = tensor.extract_slice %[[WS]][0, 0, 0, 0] [4, 2, 5, 7] [1, 1, 2, 1]
// CHECK:         %[[R1:.*]] = tensor.extract_slice %[[WS]][0, 0, 1, 0] [4, 2, 5, 7] [1, 1, 2, 1]
// CHECK:         %[[R2:.*]] = tensor.extract_slice %[[WS]][0, 0, 2, 0] [4, 2, 5, 7] [1, 1, 2, 1]
// CHECK:         %[[R3:.*]] = tensor.extract_slice %[[WS]][0, 0, 3, 0] [4, 2, 5, 7] [1, 1, 2, 1]
// CHECK:         tensor.empty() : tensor<4x4x2x5x7xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[TAP4]], #[[TAP4]], #[[ID5]]], {{.*}} ins(%[[R0]], %[[R2]] : {{.*}}) outs({{.*}}) attrs =  {aotc.sibling_parts = [[G2:[0-9]+]] : i64}
// CHECK:         linalg.generic {{.*}} ins(%[[R1]], %[[R2]] : {{.*}})
// CHECK:         linalg.generic {{.*}} ins(%[[R1]], %[[R2]] : {{.*}})
// CHECK:         linalg.generic {{.*}} ins(%[[R1]], %[[R3]] : {{.*}}) outs({{.*}}) attrs =  {aotc.sibling_parts = [[G2]] : i64}
// CHECK:         %[[TILES:.*]] = tensor.insert_slice %{{.*}}[3, 0, 0, 0, 0] [1, 4, 2, 5, 7] [1, 1, 1, 1, 1] : tensor<1x4x2x5x7xf32> into tensor<4x4x2x5x7xf32>
// CHECK:         %[[VC:.*]] = tensor.collapse_shape %[[TILES]] {{\[}}[0, 1], [2], [3, 4]] : tensor<4x4x2x5x7xf32> into tensor<16x2x35xf32>
// CHECK:         %[[VP:.*]] = tensor.pad %[[VC]] low[0, 0, 0] high[0, 0, 5]
// CHECK:         } : tensor<16x2x35xf32> to tensor<16x2x40xf32>
// CHECK:         %[[UC:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 1.000000e+00], {{.*}}], {{\[\[}}1.500000e+00, 1.500000e+00], {{.*}}], {{\[\[}}5.000000e-01, 5.000000e-01], {{.*}}], {{\[\[}}1.000000e+00, 1.000000e+00], {{.*}}], {{\[\[}}1.500000e+00, 1.500000e+00], {{.*}}], {{\[\[}}2.250000e+00, 2.250000e+00], {{.*}} : tensor<16x3x2xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [#[[U]], #[[V]], #[[M]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[UC]], %[[VP]] : tensor<16x3x2xf32>, tensor<16x2x40xf32>) outs(%{{.*}} : tensor<16x3x40xf32>)
// CHECK:         %[[MS:.*]] = tensor.extract_slice %[[MM]][0, 0, 0] [16, 3, 35] [1, 1, 1] : tensor<16x3x40xf32> to tensor<16x3x35xf32>
// CHECK:         %[[ME:.*]] = tensor.expand_shape %[[MS]] {{\[}}[0, 1], [2], [3, 4]] output_shape [4, 4, 3, 5, 7]
// CHECK:         %[[M0:.*]] = tensor.extract_slice %[[ME]][0, 0, 0, 0, 0] [1, 4, 3, 5, 7] [1, 1, 1, 1, 1] : tensor<4x4x3x5x7xf32> to tensor<4x3x5x7xf32>
// CHECK:         %[[M1:.*]] = tensor.extract_slice %[[ME]][1, 0, 0, 0, 0]
// CHECK:         %[[M2:.*]] = tensor.extract_slice %[[ME]][2, 0, 0, 0, 0]
// CHECK:         %[[M3:.*]] = tensor.extract_slice %[[ME]][3, 0, 0, 0, 0]
// CHECK:         linalg.generic {{.*}} ins(%[[M0]], %[[M1]], %[[M2]] : {{.*}})
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      arith.addf %[[AB]], %[[C]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[M1]], %[[M2]], %[[M3]] : {{.*}})
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[AB:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:      arith.subf %[[AB]], %[[C]] : f32
// CHECK:         %[[S:.*]] = tensor.insert_slice %{{.*}}[1, 0, 0, 0, 0] [1, 4, 3, 5, 7] [1, 1, 1, 1, 1] : tensor<1x4x3x5x7xf32> into tensor<2x4x3x5x7xf32>
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] output_shape [1, 1, 3, 5, 2, 7, 2]
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[OCols]], #{{.*}}],
// CHECK-SAME:        ins(%[[ATC]], %[[S]] : tensor<2x4xf32>, tensor<2x4x3x5x7xf32>) outs(%[[IE]] : tensor<1x1x3x5x2x7x2xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x3x5x2x7x2xf32> into tensor<1x1x3x10x14xf32>
// CHECK:         return %[[R]]
// Two input and three output channels are fewer than the default minimum.
// DEFAULT-LABEL: func.func @conv3x3
// DEFAULT-NOT:     tensor.pad
// DEFAULT:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x2x12x16xf32>, tensor<1x3x2x3x3xf32>)
func.func @conv3x3(%x: tensor<1x1x2x12x16xf32>, %init: tensor<1x1x3x10x14xf32>) -> tensor<1x1x3x10x14xf32> {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x12x16xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x10x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x10x14xf32>
  return %y : tensor<1x1x3x10x14xf32>
}

// -----

// An odd 11 x 11 output (6 x 6 tiles, 36 columns padded to 40): the input
// gets one more row and column of zeros (13 x 13 -> 14 x 14), the init is
// padded to 12 x 12 and the result sliced back to 11 x 11.

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @odd_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x2x13x13xf32>, %[[INIT:.*]]: tensor<1x1x3x11x11xf32>)
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3], [4]] : tensor<1x1x2x13x13xf32> into tensor<2x13x13xf32>
// CHECK:         %[[XP:.*]] = tensor.pad %[[XC]] low[0, 0, 0] high[0, 1, 1]
// CHECK:         } : tensor<2x13x13xf32> to tensor<2x14x14xf32>
// CHECK:         tensor.extract_slice %[[XP]][0, 0, 0] [2, 14, 6] [1, 1, 2] : tensor<2x14x14xf32> to tensor<2x14x6xf32>
// CHECK:         tensor.extract_slice %[[XP]][0, 0, 3] [2, 14, 6] [1, 1, 2] : tensor<2x14x14xf32> to tensor<2x14x6xf32>
// CHECK:         tensor.empty() : tensor<4x2x14x6xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 3, 0] [4, 2, 6, 6] [1, 1, 2, 1] : tensor<4x2x14x6xf32> to tensor<4x2x6x6xf32>
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 4]
// CHECK:         } : tensor<16x2x36xf32> to tensor<16x2x40xf32>
// CHECK:         %[[IP:.*]] = tensor.pad %[[INIT]] low[0, 0, 0, 0, 0] high[0, 0, 0, 1, 1]
// CHECK:         } : tensor<1x1x3x11x11xf32> to tensor<1x1x3x12x12xf32>
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[IP]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] output_shape [1, 1, 3, 6, 2, 6, 2]
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} outs(%[[IE]] : tensor<1x1x3x6x2x6x2xf32>)
// CHECK:         %[[YC:.*]] = tensor.collapse_shape %[[Y]] {{.*}} into tensor<1x1x3x12x12xf32>
// CHECK:         %[[R:.*]] = tensor.extract_slice %[[YC]][0, 0, 0, 0, 0] [1, 1, 3, 11, 11] [1, 1, 1, 1, 1]
// CHECK:         return %[[R]]
func.func @odd_image(%x: tensor<1x1x2x13x13xf32>, %init: tensor<1x1x3x11x11xf32>) -> tensor<1x1x3x11x11xf32> {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x13x13xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x11x11xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x11x11xf32>
  return %y : tensor<1x1x3x11x11xf32>
}

// -----

// The same odd image as the convolution's own zero padding of an 11 x 11
// image (as aotc-decompose-ops leaves an ONNX Conv's pads: inserted into
// zeros, expanded to the group dims): the 11 x 11 image is inserted into
// zeros of 14 x 14 at (1, 1) directly, both paddings in one, not its 13 x 13
// padding padded again.

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @padded_odd_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x11x11xf32>, %[[INIT:.*]]: tensor<1x1x3x11x11xf32>)
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2], [3]] : tensor<1x2x11x11xf32> into tensor<2x11x11xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x14x14xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<2x14x14xf32>)
// CHECK:         %[[XP:.*]] = tensor.insert_slice %[[XC]] into %[[Z]][0, 1, 1] [2, 11, 11] [1, 1, 1] : tensor<2x11x11xf32> into tensor<2x14x14xf32>
// CHECK-NOT:     tensor.pad %{{.*}} : tensor<2x13x13xf32> to tensor<2x14x14xf32>
// CHECK:         tensor.extract_slice %[[XP]][0, 0, 0] [2, 14, 6] [1, 1, 2] : tensor<2x14x14xf32> to tensor<2x14x6xf32>
func.func @padded_odd_image(%x: tensor<1x2x11x11xf32>, %init: tensor<1x1x3x11x11xf32>) -> tensor<1x1x3x11x11xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x13x13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x13x13xf32>) -> tensor<1x2x13x13xf32>
  %p = tensor.insert_slice %x into %z[0, 0, 1, 1] [1, 2, 11, 11] [1, 1, 1, 1] : tensor<1x2x11x11xf32> into tensor<1x2x13x13xf32>
  %g = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 13, 13] : tensor<1x2x13x13xf32> into tensor<1x1x2x13x13xf32>
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%g, %w : tensor<1x1x2x13x13xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x11x11xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x11x11xf32>
  return %y : tensor<1x1x3x11x11xf32>
}

// -----

// The same odd image with a bias broadcast as its init: what the init's
// padding holds is sliced off with the result, so the broadcast is computed
// on 12 x 12 directly, not padded (a copy into zeros after bufferization).

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
#bias = affine_map<(n, g, k, h, w) -> (k)>
#id = affine_map<(n, g, k, h, w) -> (n, g, k, h, w)>
// CHECK-LABEL: func.func @broadcast_init_odd_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x2x13x13xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x1x3x12x12xf32>
// CHECK:         %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<3xf32>) outs(%[[E]] : tensor<1x1x3x12x12xf32>)
// CHECK-NOT:     tensor.pad %{{.*}} : tensor<1x1x3x11x11xf32>
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] output_shape [1, 1, 3, 6, 2, 6, 2]
// CHECK:         linalg.generic {{.*}} outs(%[[IE]] : tensor<1x1x3x6x2x6x2xf32>)
func.func @broadcast_init_odd_image(%x: tensor<1x1x2x13x13xf32>, %b: tensor<3xf32>) -> tensor<1x1x3x11x11xf32> {
  %e = tensor.empty() : tensor<1x1x3x11x11xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<3xf32>) outs(%e : tensor<1x1x3x11x11xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x3x11x11xf32>
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x13x13xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x11x11xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %m = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x11x11xf32>
  return %y : tensor<1x1x3x11x11xf32>
}

// -----

// Left alone: a 5 x 5 output (9 tiles, fewer than 32), a stride-2 window,
// a filter computed at run time.

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#x2 = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.pad
// CHECK-COUNT-3: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-NOT:     linalg.generic
func.func @left_alone(%x: tensor<1x1x2x7x7xf32>, %x2: tensor<1x1x2x9x9xf32>, %wr: tensor<1x3x2x3x3xf32>, %init: tensor<1x1x3x5x5xf32>, %init4: tensor<1x1x3x4x4xf32>)
    -> (tensor<1x1x3x5x5xf32>, tensor<1x1x3x4x4xf32>, tensor<1x1x3x5x5xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %odd = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x7x7xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x5x5xf32>
  %strided = linalg.generic {indexing_maps = [#x2, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x2, %w : tensor<1x1x2x9x9xf32>, tensor<1x3x2x3x3xf32>) outs(%init4 : tensor<1x1x3x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x4x4xf32>
  %runtime = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %wr : tensor<1x1x2x7x7xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x5x5xf32>
  return %odd, %strided, %runtime : tensor<1x1x3x5x5xf32>, tensor<1x1x3x4x4xf32>, tensor<1x1x3x5x5xf32>
}

// -----

// At the default minimum of 32 channels: 32 -> 32 channels are rewritten
// (the transformed filter [16, K, C] a constant), 16 -> 32 are not (a
// 16-deep contraction per tile element; squeezenet1_1's 55 x 55 layers,
// 16 -> 64, took longer that way, its 27 x 27 ones, 32 -> 128, 2% less of
// the model).

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @default_channels
// DEFAULT-LABEL: func.func @default_channels
// DEFAULT:         arith.constant dense<{{.*}}> : tensor<16x32x32xf32>
// DEFAULT:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x16x14x14xf32>, tensor<1x32x16x3x3xf32>)
func.func @default_channels(%x: tensor<1x1x32x14x14xf32>, %x16: tensor<1x1x16x14x14xf32>, %init: tensor<1x1x32x12x12xf32>)
    -> (tensor<1x1x32x12x12xf32>, tensor<1x1x32x12x12xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x32x32x3x3xf32>
  %w16 = arith.constant dense<1.0> : tensor<1x32x16x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x32x14x14xf32>, tensor<1x32x32x3x3xf32>) outs(%init : tensor<1x1x32x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x12x12xf32>
  %y16 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x16, %w16 : tensor<1x1x16x14x14xf32>, tensor<1x32x16x3x3xf32>) outs(%init : tensor<1x1x32x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x12x12xf32>
  return %y, %y16 : tensor<1x1x32x12x12xf32>, tensor<1x1x32x12x12xf32>
}

// -----

// A batch of two 8 x 16 outputs: 32 tiles per image (the path is decided on
// one image), 64 in all, the columns of the same contractions. The column stage reads x[n, c, h, 2j + b] into
// w[nu, c, n, h, j] (the batch after the channels), the row stage makes
// v[xi, nu, c, n, i, j], collapsed to [16, c, n * i * j]; the output
// transform's columns read s[p, nu, k, n, i, j] into y[n, 0, k, i, p, j, q].

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-DAG:   #[[COLS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d1, d3, d4)>
// CHECK-DAG:   #[[OUTB:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d7, d2, d0, d3, d5)>
// CHECK-LABEL: func.func @conv3x3_batch
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] : tensor<2x1x2x10x18xf32> into tensor<2x2x10x18xf32>
// CHECK:         %[[C0:.*]] = tensor.extract_slice %[[XC]][0, 0, 0, 0] [2, 2, 10, 8] [1, 1, 1, 2]
// CHECK:         tensor.empty() : tensor<4x2x2x10x8xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[COLS]], #[[COLS]], #{{.*}}]{{.*}} ins(%[[C0]], %{{.*}} : tensor<2x2x10x8xf32>, tensor<2x2x10x8xf32>) outs(%{{.*}} : tensor<1x2x2x10x8xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [4, 2, 2, 4, 8] [1, 1, 1, 2, 1] : tensor<4x2x2x10x8xf32> to tensor<4x2x2x4x8xf32>
// CHECK:         %[[V:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4, 5]] : tensor<4x4x2x2x4x8xf32> into tensor<16x2x64xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[V]] : tensor<16x3x2xf32>, tensor<16x2x64xf32>) outs(%{{.*}} : tensor<16x3x64xf32>)
// CHECK:         tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2], [3, 4, 5]] output_shape [4, 4, 3, 2, 4, 8]
// CHECK:         %[[TI:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2], [3, 4], [5, 6]] output_shape [2, 1, 3, 4, 2, 8, 2]
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[OUTB]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4x3x2x4x8xf32>) outs(%[[TI]] : tensor<2x1x3x4x2x8x2xf32>)
// CHECK:         tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] : tensor<2x1x3x4x2x8x2xf32> into tensor<2x1x3x8x16xf32>
func.func @conv3x3_batch(%x: tensor<2x1x2x10x18xf32>, %init: tensor<2x1x3x8x16xf32>) -> tensor<2x1x3x8x16xf32> {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<2x1x2x10x18xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<2x1x3x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x1x3x8x16xf32>
  return %y : tensor<2x1x3x8x16xf32>
}

// -----

// A 16 x 32 output has 4 x 8 = 32 tiles of 4 x 4, enough for F(4x4, 3x3)
// (its 18 x 34 input is whole 6 x 6 tiles with stride 4, no padding): six
// stride-4 views of the columns, each row of B^T a weighted sum of them
// (row 0: 4 x0 - 5 x2 + x4, from x4 with multiply-adds by the constants),
// then of w's rows; 36 contractions over 32 columns; A^T (4 x 6) for the
// output transform, whose rows weigh by 1, 2, 4 and 8, into the init viewed
// as [1, 1, 3, 4, 4, 8, 4]. With max-tile=2 the same op takes F(2x2, 3x3).

#x = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @conv3x3_f4
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x2x18x34xf32>, %[[INIT:.*]]: tensor<1x1x3x16x32xf32>)
// CHECK:         %[[ATC:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, -1.000000e+00, 2.000000e+00, -2.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00, 4.000000e+00, 4.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, -1.000000e+00, 8.000000e+00, -8.000000e+00, 1.000000e+00]]> : tensor<4x6xf32>
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3], [4]] : tensor<1x1x2x18x34xf32> into tensor<2x18x34xf32>
// CHECK:         %[[C0:.*]] = tensor.extract_slice %[[XC]][0, 0, 0] [2, 18, 8] [1, 1, 4]
// CHECK:         %[[C1:.*]] = tensor.extract_slice %[[XC]][0, 0, 1] [2, 18, 8] [1, 1, 4]
// CHECK:         %[[C2:.*]] = tensor.extract_slice %[[XC]][0, 0, 2] [2, 18, 8] [1, 1, 4]
// CHECK:         tensor.extract_slice %[[XC]][0, 0, 3] [2, 18, 8] [1, 1, 4]
// CHECK:         %[[C4:.*]] = tensor.extract_slice %[[XC]][0, 0, 4] [2, 18, 8] [1, 1, 4]
// CHECK:         tensor.extract_slice %[[XC]][0, 0, 5] [2, 18, 8] [1, 1, 4]
// CHECK:         tensor.empty() : tensor<6x2x18x8xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C0]], %[[C2]], %[[C4]] : {{.*}})
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[F4:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:      %[[S0:.*]] = math.fma %[[F4]], %[[A]], %[[C]] : f32
// CHECK-NEXT:      %[[F5:.*]] = arith.constant -5.000000e+00 : f32
// CHECK-NEXT:      %[[S1:.*]] = math.fma %[[F5]], %[[B]], %[[S0]] : f32
// CHECK-NEXT:      linalg.yield %[[S1]]
// CHECK:         tensor.insert_slice %{{.*}}[5, 0, 0, 0] [1, 2, 18, 8] [1, 1, 1, 1] : tensor<1x2x18x8xf32> into tensor<6x2x18x8xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 5, 0] [6, 2, 4, 8] [1, 1, 4, 1]
// CHECK:         tensor.empty() : tensor<6x6x2x4x8xf32>
// CHECK:         %[[V:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4]] : tensor<6x6x2x4x8xf32> into tensor<36x2x32xf32>
// CHECK:         %[[U:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<36x3x2xf32>
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} ins(%[[U]], %[[V]] : tensor<36x3x2xf32>, tensor<36x2x32xf32>) outs(%{{.*}} : tensor<36x3x32xf32>)
// CHECK:         tensor.expand_shape %[[M]] {{\[}}[0, 1], [2], [3, 4]] output_shape [6, 6, 3, 4, 8]
// CHECK:         tensor.empty() : tensor<4x6x3x4x8xf32>
// CHECK:           %[[E2:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      math.fma %[[E2]]
// CHECK:           %[[E8:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT:      math.fma %[[E8]]
// CHECK:         %[[S:.*]] = tensor.insert_slice %{{.*}}[3, 0, 0, 0, 0] [1, 6, 3, 4, 8] [1, 1, 1, 1, 1] : tensor<1x6x3x4x8xf32> into tensor<4x6x3x4x8xf32>
// CHECK:         %[[IE:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] output_shape [1, 1, 3, 4, 4, 8, 4]
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%[[ATC]], %[[S]] : tensor<4x6xf32>, tensor<4x6x3x4x8xf32>) outs(%[[IE]] : tensor<1x1x3x4x4x8x4xf32>)
// CHECK:         tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x3x4x4x8x4xf32> into tensor<1x1x3x16x32xf32>
// F2-LABEL:    func.func @conv3x3_f4
// F2:            tensor.extract_slice %{{.*}}[0, 0, 0] [2, 18, 16] [1, 1, 2]
// F2:            linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x3x2xf32>, tensor<16x2x128xf32>)
// F2-NOT:        math.fma
func.func @conv3x3_f4(%x: tensor<1x1x2x18x34xf32>, %init: tensor<1x1x3x16x32xf32>) -> tensor<1x1x3x16x32xf32> {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x18x34xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x16x32xf32>
  return %y : tensor<1x1x3x16x32xf32>
}

// -----

// A window dilated by 2 on a 16 x 16 output: output pixel (a + 2y, b + 2x)
// reads input rows a + 2(y + kh) and columns b + 2(x + kw) only, so the
// four phase images (a, b) of 8 x 8 are an undilated convolution of their
// own (16 tiles of 2 x 2 each, 64 in all: the tiles are counted over the
// phases). The padded input's phases, [1, 2, 2, c, 10, 10], are one
// transpose into zeros of the tiles' extent (here the same), the init's
// (a function argument) a transpose too; both as a batch of 4 images, whose
// 64 tiles are the contractions' columns; the result is interleaved back.
// A 15 x 15 output is computed as 16 x 16 (phases of one size, 8 x 8): its
// 19 x 19 input and its init padded by a row and a column of zeros first,
// the result sliced. A 4 x 4 output (four tiles) is left alone.

#xd = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 2, ow + kw * 2)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @dilated
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x2x20x20xf32>, %[[INIT:.*]]: tensor<1x1x3x16x16xf32>, %[[X15:.*]]: tensor<1x1x2x19x19xf32>, %[[INIT15:.*]]: tensor<1x1x3x15x15xf32>, %[[X8:.*]]: tensor<1x1x2x8x8xf32>, %[[INIT4:.*]]: tensor<1x1x3x4x4xf32>)
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2], [3], [4]] : tensor<1x1x2x20x20xf32> into tensor<1x2x20x20xf32>
// CHECK:         %[[XS:.*]] = tensor.expand_shape %[[XC]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [1, 2, 10, 2, 10, 2]
// CHECK:         %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x2x2x2x10x10xf32>
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[XS]] : tensor<1x2x10x2x10x2xf32>) outs(%[[Z]] : tensor<1x2x2x2x10x10xf32>) permutation = [0, 3, 5, 1, 2, 4]
// CHECK:         %[[XB:.*]] = tensor.collapse_shape %[[XT]] {{\[}}[0, 1, 2], [3], [4], [5]] : tensor<1x2x2x2x10x10xf32> into tensor<4x2x10x10xf32>
// CHECK:         tensor.expand_shape %[[XB]] {{\[}}[0], [1, 2], [3], [4]] output_shape [4, 1, 2, 10, 10]
// CHECK:         %[[IC:.*]] = tensor.collapse_shape %[[INIT]] {{\[}}[0, 1], [2], [3], [4]]
// CHECK:         %[[IS:.*]] = tensor.expand_shape %[[IC]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [1, 3, 8, 2, 8, 2]
// CHECK:         %[[IT:.*]] = linalg.transpose ins(%[[IS]] : tensor<1x3x8x2x8x2xf32>) outs(%{{.*}} : tensor<1x2x2x3x8x8xf32>) permutation = [0, 3, 5, 1, 2, 4]
// CHECK:         tensor.collapse_shape %[[IT]] {{\[}}[0, 1, 2], [3], [4], [5]] : tensor<1x2x2x3x8x8xf32> into tensor<4x3x8x8xf32>
// CHECK:         %[[V:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4, 5]] : tensor<4x4x2x4x4x4xf32> into tensor<16x2x64xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[V]] : tensor<16x3x2xf32>, tensor<16x2x64xf32>) outs(%{{.*}} : tensor<16x3x64xf32>)
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x1x3x4x2x4x2xf32>)
// CHECK:         %[[YC:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] : tensor<4x1x3x4x2x4x2xf32> into tensor<4x1x3x8x8xf32>
// CHECK:         %[[YB:.*]] = tensor.collapse_shape %[[YC]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK:         %[[YP:.*]] = tensor.expand_shape %[[YB]] {{\[}}[0, 1, 2], [3], [4], [5]] output_shape [1, 2, 2, 3, 8, 8]
// CHECK:         %[[YT:.*]] = linalg.transpose ins(%[[YP]] : tensor<1x2x2x3x8x8xf32>) outs(%{{.*}} : tensor<1x3x8x2x8x2xf32>) permutation = [0, 3, 4, 1, 5, 2]
// CHECK:         %[[YI:.*]] = tensor.collapse_shape %[[YT]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x3x8x2x8x2xf32> into tensor<1x3x16x16xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[YI]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 16, 16]
// CHECK:         %[[XP:.*]] = tensor.pad %[[X15]] low[0, 0, 0, 0, 0] high[0, 0, 0, 1, 1]
// CHECK:         tensor.collapse_shape %[[XP]] {{\[}}[0, 1], [2], [3], [4]] : tensor<1x1x2x20x20xf32> into tensor<1x2x20x20xf32>
// CHECK:         %[[IP:.*]] = tensor.pad %[[INIT15]] low[0, 0, 0, 0, 0] high[0, 0, 0, 1, 1]
// CHECK:         tensor.collapse_shape %[[IP]] {{\[}}[0, 1], [2], [3], [4]] : tensor<1x1x3x16x16xf32> into tensor<1x3x16x16xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x3x2xf32>, tensor<16x2x64xf32>) outs(%{{.*}} : tensor<16x3x64xf32>)
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x2x2x3x8x8xf32>) outs(%{{.*}} : tensor<1x3x8x2x8x2xf32>) permutation = [0, 3, 4, 1, 5, 2]
// CHECK:         %[[Y15:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 16, 16]
// CHECK:         %[[ODD:.*]] = tensor.extract_slice %[[Y15]][0, 0, 0, 0, 0] [1, 1, 3, 15, 15] [1, 1, 1, 1, 1] : tensor<1x1x3x16x16xf32> to tensor<1x1x3x15x15xf32>
// CHECK:         %[[FEW:.*]] = linalg.generic {{.*}} ins(%[[X8]], %{{.*}} : tensor<1x1x2x8x8xf32>, tensor<1x3x2x3x3xf32>) outs(%[[INIT4]] : tensor<1x1x3x4x4xf32>)
// CHECK:         return %[[R]], %[[ODD]], %[[FEW]]
func.func @dilated(%x: tensor<1x1x2x20x20xf32>, %init: tensor<1x1x3x16x16xf32>, %x15: tensor<1x1x2x19x19xf32>, %init15: tensor<1x1x3x15x15xf32>, %x8: tensor<1x1x2x8x8xf32>, %init4: tensor<1x1x3x4x4xf32>) -> (tensor<1x1x3x16x16xf32>, tensor<1x1x3x15x15xf32>, tensor<1x1x3x4x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#xd, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x20x20xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x16x16xf32>
  %odd = linalg.generic {indexing_maps = [#xd, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x15, %w : tensor<1x1x2x19x19xf32>, tensor<1x3x2x3x3xf32>) outs(%init15 : tensor<1x1x3x15x15xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x15x15xf32>
  %few = linalg.generic {indexing_maps = [#xd, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x8, %w : tensor<1x1x2x8x8xf32>, tensor<1x3x2x3x3xf32>) outs(%init4 : tensor<1x1x3x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x4x4xf32>
  return %y, %odd, %few : tensor<1x1x3x16x16xf32>, tensor<1x1x3x15x15xf32>, tensor<1x1x3x4x4xf32>
}

// -----

// Left alone: a window dilated by 12 on a 14 x 14 output (an atrous layer
// dilated nearly as far as its image is wide): phases of one size would
// cover 24 x 24 outputs, nearly three times the image
// (aotc::winogradPhasesPay), though their 144 tiles would be enough.

#xf = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 12, ow + kw * 12)>
#w = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (g, k, c, kh, kw)>
#o = affine_map<(n, g, k, oh, ow, c, kh, kw) -> (n, g, k, oh, ow)>
// CHECK-LABEL: func.func @dilated_far
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x2x38x38xf32>, tensor<1x3x2x3x3xf32>) outs(%{{.*}} : tensor<1x1x3x14x14xf32>)
func.func @dilated_far(%x: tensor<1x1x2x38x38xf32>, %init: tensor<1x1x3x14x14xf32>) -> tensor<1x1x3x14x14xf32> {
  %w = arith.constant dense<1.0> : tensor<1x3x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [#xf, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x38x38xf32>, tensor<1x3x2x3x3xf32>) outs(%init : tensor<1x1x3x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x14x14xf32>
  return %y : tensor<1x1x3x14x14xf32>
}
