// RUN: aotc-opt %s -split-input-file -aotc-im2col-convolutions | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-im2col-convolutions=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// A 3x3 stride-2 NCHW convolution (groups as a dimension, as the ONNX
// importer writes it): the input is copied into columns
// col[n, g, c, kh, kw, oh, ow] (a generic reading through the window), and
// the convolution becomes a contraction of the filter [g, m, c*3*3] with the
// columns [n, g, c*3*3, oh*ow] into the output [n, g, m, oh*ow].

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-DAG:   #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5 * 2 + d3, d6 * 2 + d4)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>
// CHECK-DAG:   #[[CM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG:   #[[WM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// CHECK-DAG:   #[[OM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv3x3_stride2
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x8x15x15xf32>, %[[W:.*]]: tensor<1x16x8x3x3xf32>, %[[O:.*]]: tensor<1x1x16x7x7xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x1x8x3x3x7x7xf32>
// CHECK:         %[[COL:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]] : tensor<1x1x8x15x15xf32>) outs(%[[E]] : tensor<1x1x8x3x3x7x7xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK:         %[[CC:.*]] = tensor.collapse_shape %[[COL]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x8x3x3x7x7xf32> into tensor<1x1x72x49xf32>
// CHECK:         %[[WC:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1], [2, 3, 4]] : tensor<1x16x8x3x3xf32> into tensor<1x16x72xf32>
// CHECK:         %[[OC:.*]] = tensor.collapse_shape %[[O]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x16x7x7xf32> into tensor<1x1x16x49xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[CM]], #[[WM]], #[[OM]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[CC]], %[[WC]] : tensor<1x1x72x49xf32>, tensor<1x16x72xf32>) outs(%[[OC]] : tensor<1x1x16x49xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[RE:.*]] = tensor.expand_shape %[[R]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 1, 16, 7, 7]
// CHECK:         return %[[RE]]
func.func @conv3x3_stride2(%x: tensor<1x1x8x15x15xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x15x15xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}

// -----

// A 7x7 stride-2 stem (3 input channels, ResNet's first layer): its columns
// would hold 49 / 4 copies of each input element read (at least
// kMaxWindowCopies = 8), so it is left to the direct windowed path; the
// 3x3 stride-2 convolution above (9 / 4 copies) is copied.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @stem7x7_stride2
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x3x37x37xf32>, tensor<1x16x3x7x7xf32>)
// CHECK-NOT:     linalg.generic
func.func @stem7x7_stride2(%x: tensor<1x1x3x37x37xf32>, %w: tensor<1x16x3x7x7xf32>, %o: tensor<1x1x16x16x16xf32>) -> tensor<1x1x16x16x16xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x37x37xf32>, tensor<1x16x3x7x7xf32>) outs(%o : tensor<1x1x16x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x16x16xf32>
  return %r : tensor<1x1x16x16x16xf32>
}

// -----

// The same convolution with stride 1 (and padding folded into a larger
// input): left to aotc-flatten-convolution-images, which computes it on the
// flattened image without a copy per window position.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @conv3x3_stride1
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x8x9x9xf32>, tensor<1x16x8x3x3xf32>)
// CHECK-NOT:     linalg.generic
func.func @conv3x3_stride1(%x: tensor<1x1x8x9x9xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x9x9xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}

// -----

// Stride 1 on a 13 x 13 image (15 wide padded): the flattened image's grid
// would be 15 registers of 16 (240 positions for 169 outputs, 1.42 times),
// so the copy is made. A 27 x 27 image (51 registers, 816 positions for 729
// outputs, 1.12 times) stays direct.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @conv3x3_stride1_wasteful_grid
// CHECK:         %[[COL:.*]] = linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x1x8x3x3x13x13xf32>)
// CHECK:         tensor.collapse_shape %[[COL]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x8x3x3x13x13xf32> into tensor<1x1x72x169xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x1x16x169xf32>)
// CHECK-LABEL: func.func @conv3x3_stride1_grid
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x8x29x29xf32>, tensor<1x16x8x3x3xf32>)
// CHECK-NOT:     linalg.generic
func.func @conv3x3_stride1_wasteful_grid(%x: tensor<1x1x8x15x15xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x13x13xf32>) -> tensor<1x1x16x13x13xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x15x15xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x13x13xf32>
  return %r : tensor<1x1x16x13x13xf32>
}
func.func @conv3x3_stride1_grid(%x: tensor<1x1x8x29x29xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x27x27xf32>) -> tensor<1x1x16x27x27xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x29x29xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x27x27xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x27x27xf32>
  return %r : tensor<1x1x16x27x27xf32>
}

// -----

// A 14 x 14 image (16 wide padded): 15 grid registers of 16 lanes (240
// positions for 196 outputs, 1.22 times), so the copy is made with 512-bit
// registers. With 256-bit ones (30 registers of 8 lanes, also 240) the
// threshold is 1.25: it stays direct (4 x 3 register tiles).

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @conv3x3_14x14
// CHECK:         tensor.collapse_shape {{.*}} into tensor<1x1x72x196xf32>
// AVX2-LABEL: func.func @conv3x3_14x14
// AVX2-NOT:     tensor.collapse_shape
// AVX2:         linalg.generic
// AVX2-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x8x16x16xf32>, tensor<1x16x8x3x3xf32>)
// AVX2-NOT:     linalg.generic
// AVX2:         return
func.func @conv3x3_14x14(%x: tensor<1x1x8x16x16xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x14x14xf32>) -> tensor<1x1x16x14x14xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x16x16xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x14x14xf32>
  return %r : tensor<1x1x16x14x14xf32>
}

// -----

// A depthwise convolution (one input and one output channel per group):
// nothing to share between output channels, left to the direct path.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x32x1x9x9xf32>, tensor<32x1x1x3x3xf32>)
// CHECK-NOT:     linalg.generic
func.func @depthwise(%x: tensor<1x32x1x9x9xf32>, %w: tensor<32x1x1x3x3xf32>, %o: tensor<1x32x1x7x7xf32>) -> tensor<1x32x1x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x32x1x9x9xf32>, tensor<32x1x1x3x3xf32>) outs(%o : tensor<1x32x1x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x32x1x7x7xf32>
  return %r : tensor<1x32x1x7x7xf32>
}

// -----

// Max pooling (one input, a window-shape operand, a max payload): not a
// convolution with channels, left alone.

#x = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#k = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#o = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @maxpool
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         arith.maximumf
func.func @maxpool(%x: tensor<1x16x15x15xf32>, %k: tensor<3x3xf32>, %o: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x16x15x15xf32>, tensor<3x3xf32>) outs(%o : tensor<1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x16x7x7xf32>
  return %r : tensor<1x16x7x7xf32>
}
