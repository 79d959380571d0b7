// RUN: aotc-opt %s -split-input-file -aotc-vectorize-convolutions -canonicalize -cse | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-vectorize-convolutions=vector-bits=256 -canonicalize -cse | FileCheck %s --check-prefix=AVX2

// NCHW 3x3 convolution over input channels, stride 1: the register tile is
// 4 output channels as rows x four output rows x 16 lanes (8 rows: not a
// multiple of 3, so 4 x 4 registers), one loop per four output rows, input
// channel and window position; the input window is a plain slice shared by
// all output channels (read once, broadcast along them), the filter values of the 4 output channels are
// broadcast along the lanes. The innermost window loop (kw, 3 iterations)
// is unrolled: three slices per kh, at constant column offsets.

#xmap = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wmap = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#omap = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
// CHECK-DAG:   #[[XPERM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3, d1, 0, 0)>
// CHECK-DAG:   #[[WPERM:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d0, 0, 0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x10x18xf32>, %[[W:.*]]: tensor<4x8x3x3xf32>, %[[O:.*]]: tensor<1x4x8x16xf32>)
// CHECK:         scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:           scf.for
// CHECK:               %[[ROW:.*]] = affine.apply #{{.*}}(%[[OH]], %[[KH]])
// CHECK-DAG:         %[[XS:.*]] = tensor.extract_slice %[[X]][0, %[[C]], %[[ROW]], 0] [1, 1, 4, 16] [1, 1, 1, 1]
// CHECK-DAG:         %[[WS:.*]] = tensor.extract_slice %[[W]][0, %[[C]], %[[KH]], 0] [4, 1, 1, 1] [1, 1, 1, 1]
// CHECK-DAG:         %[[VX:.*]] = vector.transfer_read %[[XS]]{{.*}}permutation_map = #[[XPERM]]{{.*}} : tensor<1x1x4x16xf32>, vector<1x4x4x16x1x1x1xf32>
// CHECK-DAG:         %[[VW:.*]] = vector.transfer_read %[[WS]]{{.*}}permutation_map = #[[WPERM]]{{.*}} : tensor<4x1x1x1xf32>, vector<1x4x4x16x1x1x1xf32>
// CHECK:             %[[MUL:.*]] = arith.mulf %[[VX]], %[[VW]] : vector<1x4x4x16x1x1x1xf32>
// CHECK:             %[[RED:.*]] = vector.shape_cast %[[MUL]]
// CHECK:             arith.addf %{{.*}}, %[[RED]] : vector<1x4x4x16xf32>
// CHECK:             tensor.extract_slice %[[X]][0, %[[C]], %[[ROW]], 1] [1, 1, 4, 16]
// CHECK:             tensor.extract_slice %[[X]][0, %[[C]], %[[ROW]], 2] [1, 1, 4, 16]
// CHECK:             arith.mulf {{.*}} : vector<1x4x4x16x1x1x1xf32>
// CHECK-NOT:         arith.mulf
// CHECK-NOT:     linalg.generic
func.func @conv(%x: tensor<1x8x10x18xf32>, %w: tensor<4x8x3x3xf32>, %o: tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %r = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x8x10x18xf32>, tensor<4x8x3x3xf32>) outs(%o : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8x16xf32>
  return %r : tensor<1x4x8x16xf32>
}

// -----

// Ten output rows (not a multiple of 3 or 4): register tiles of 8 output
// channels x 2 rows.

#xmap2r = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wmap2r = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#omap2r = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
// CHECK-LABEL: func.func @conv_rows_of_two
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2
// CHECK:           arith.mulf {{.*}} : vector<1x8x2x16x1x1x1xf32>
func.func @conv_rows_of_two(%x: tensor<1x8x12x18xf32>, %w: tensor<8x8x3x3xf32>, %o: tensor<1x8x10x16xf32>) -> tensor<1x8x10x16xf32> {
  %r = linalg.generic {indexing_maps = [#xmap2r, #wmap2r, #omap2r], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x8x12x18xf32>, tensor<8x8x3x3xf32>) outs(%o : tensor<1x8x10x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x10x16xf32>
  return %r : tensor<1x8x10x16xf32>
}

// -----

// Six output rows: register tiles of 3 rows (8 x 3 accumulators of the 32
// AVX-512 registers). With 256-bit registers (16 of them on AVX2) 4 x 3
// accumulators of 8 lanes: 12 registers, the three input vectors and a
// broadcast.

#xmap3 = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wmap3 = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#omap3 = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
// CHECK-LABEL: func.func @conv_rows_of_three
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c3
// CHECK:           arith.mulf {{.*}} : vector<1x8x3x16x1x1x1xf32>
// AVX2-LABEL:  func.func @conv_rows_of_three
// AVX2:          scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c3
// AVX2:            arith.mulf {{.*}} : vector<1x4x3x8x1x1x1xf32>
func.func @conv_rows_of_three(%x: tensor<1x8x8x18xf32>, %w: tensor<8x8x3x3xf32>, %o: tensor<1x8x6x16xf32>) -> tensor<1x8x6x16xf32> {
  %r = linalg.generic {indexing_maps = [#xmap3, #wmap3, #omap3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x8x8x18xf32>, tensor<8x8x3x3xf32>) outs(%o : tensor<1x8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x6x16xf32>
  return %r : tensor<1x8x6x16xf32>
}

// -----

// 3x3 max pooling, stride 2, 16x16 outputs: two tiles of 8 rows; the window
// of each tile is read through a slice with stride 2 in both dimensions, all
// 9 window positions unrolled (a pool reduces over its window only, and 8
// rows share input rows between kh steps: no kh loop is left).

#xmap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#wmap = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#omap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @maxpool
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.for %[[C:.*]] =
// CHECK:           scf.for %[[OH:.*]] = %{{.*}} to %[[C16]] step %[[C8]]
// CHECK-NOT:         scf.for
// CHECK:             %[[WIN:.*]] = tensor.extract_slice %{{.*}} [1, 1, 15, 31] [1, 1, 1, 1]
// CHECK:             %[[STRIDED:.*]] = tensor.extract_slice %[[WIN]][0, 0, 0, 0] [1, 1, 8, 16] [1, 1, 2, 2]
// CHECK:             %[[V:.*]] = vector.transfer_read %[[STRIDED]]
// CHECK:             %[[ACC:.*]] = vector.transfer_read
// CHECK:             %[[FLAT:.*]] = vector.shape_cast %[[V]] : vector<1x1x8x16x1x1xf32> to vector<1x1x8x16xf32>
// CHECK:             arith.maxnumf %[[ACC]], %[[FLAT]] : vector<1x1x8x16xf32>
// CHECK-COUNT-8:     arith.maxnumf {{.*}} : vector<1x1x8x16xf32>
// CHECK-NOT:         arith.maxnumf
// CHECK-NOT:     linalg.generic
func.func @maxpool(%x: tensor<1x4x33x33xf32>, %o: tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x4x33x33xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x16x16xf32>
  return %r : tensor<1x4x16x16xf32>
}

// -----

// Named NHWC depthwise convolution: generalized first; 16 lanes along the
// channels (innermost output dimension), 8 rows along the output width;
// both window loops unrolled (9 products per tile, no kh loop).

// CHECK-LABEL: func.func @depthwise_nhwc
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NOT:         scf.for
// CHECK-DAG:             %[[XS:.*]] = tensor.extract_slice %{{.*}} [1, 1, 8, 16] [1, 1, 1, 1] : tensor<1x10x10x32xf32> to tensor<1x1x8x16xf32>
// CHECK-DAG:             %[[WS:.*]] = tensor.extract_slice %{{.*}} [1, 1, 16] [1, 1, 1] : tensor<3x3x32xf32> to tensor<1x1x16xf32>
// CHECK-DAG:             %[[VX:.*]] = vector.transfer_read %[[XS]]{{.*}} : tensor<1x1x8x16xf32>, vector<1x1x8x16x1x1xf32>
// CHECK-DAG:             %[[VW:.*]] = vector.transfer_read %[[WS]]{{.*}} : tensor<1x1x16xf32>, vector<1x1x8x16x1x1xf32>
// CHECK:                 arith.mulf %[[VX]], %[[VW]] : vector<1x1x8x16x1x1xf32>
// CHECK-COUNT-8:         arith.mulf {{.*}} : vector<1x1x8x16x1x1xf32>
// CHECK-NOT:             arith.mulf
// CHECK-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_nhwc(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32xf32>, %o: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x32xf32>, tensor<3x3x32xf32>) outs(%o : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

// An NCHW depthwise convolution whose register tiles have two rows (fewer
// than three: the kh steps share little of their input rows): only kw is
// unrolled, kh stays a loop carrying the accumulators.

#d2xmap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>
#d2wmap = affine_map<(n, c, oh, ow, kh, kw) -> (c, kh, kw)>
#d2omap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @depthwise_two_rows
// CHECK:         scf.for
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c3 step
// CHECK-COUNT-3:     arith.mulf {{.*}} : vector<1x1x2x16x1x1xf32>
// CHECK-NOT:         arith.mulf
func.func @depthwise_two_rows(%x: tensor<1x4x4x18xf32>, %w: tensor<4x3x3xf32>, %o: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %r = linalg.generic {indexing_maps = [#d2xmap, #d2wmap, #d2omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x4x4x18xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x16xf32>
  return %r : tensor<1x4x2x16xf32>
}

// -----

// Not windowed (a matmul): left alone for aotc-tile-and-vectorize.

// CHECK-LABEL: func.func @matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     vector.transfer_read
func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// A convolution on a flattened image (aotc-flatten-convolution-images): the
// window result r * 16 + l + kh * 8 + kw moves with two loops of the tile,
// 4 rows x 16 lanes that step through 64 consecutive elements: the slice is
// one contiguous range expanded to [4, 16]. One input channel (depthwise):
// all 9 window positions unrolled, at constant offsets kh * 8 + kw.

#fxmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 16 + l + kh * 8 + kw)>
#fwmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#fomap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
// CHECK-LABEL: func.func @flat_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x1x96xf32>, %[[W:.*]]: tensor<2x1x1x3x3xf32>, %[[O:.*]]: tensor<1x2x1x4x16xf32>)
// CHECK:         scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:       scf.for
// CHECK:           %[[XS:.*]] = tensor.extract_slice %[[X]][0, %[[G]], 0, 0] [1, 1, 1, 64] [1, 1, 1, 1]
// CHECK:           %[[XE:.*]] = tensor.expand_shape %[[XS]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 1, 4, 16]
// CHECK:           vector.transfer_read %[[XE]]{{.*}} : tensor<1x1x1x4x16xf32>, vector<1x1x1x4x16x1x1x1xf32>
// CHECK:           arith.addf %{{.*}}, %{{.*}} : vector<1x1x1x4x16xf32>
// CHECK:           tensor.extract_slice %[[X]][0, %[[G]], 0, 1] [1, 1, 1, 64]
// CHECK:           tensor.extract_slice %[[X]][0, %[[G]], 0, 2] [1, 1, 1, 64]
// CHECK:           tensor.extract_slice %[[X]][0, %[[G]], 0, 8] [1, 1, 1, 64]
// CHECK:           tensor.extract_slice %[[X]][0, %[[G]], 0, 18] [1, 1, 1, 64]
// CHECK-NOT:     linalg.generic
func.func @flat_image(%x: tensor<1x2x1x96xf32>, %w: tensor<2x1x1x3x3xf32>, %o: tensor<1x2x1x4x16xf32>) -> tensor<1x2x1x4x16xf32> {
  %r = linalg.generic {indexing_maps = [#fxmap, #fwmap, #fomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x1x96xf32>, tensor<2x1x1x3x3xf32>) outs(%o : tensor<1x2x1x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x1x4x16xf32>
  return %r : tensor<1x2x1x4x16xf32>
}

// -----

// The same convolution followed by an in-place ReLU on its result (fused
// into the thread tile by aotc-distribute-to-forall): the ReLU is computed
// on each register tile of output right after the window loop, on the
// accumulated vector, before it is written.

#rxmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 16 + l + kh * 8 + kw)>
#rwmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#romap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
#rid = affine_map<(n, g, m, r, l) -> (n, g, m, r, l)>
// CHECK-LABEL: func.func @flat_image_relu
// CHECK:         scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:       scf.for
// CHECK-COUNT-9:   arith.addf %{{.*}}, %{{.*}} : vector<1x1x1x4x16xf32>
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %{{.*}}, %{{.*}} : vector<1x1x1x4x16xf32>
// CHECK-NEXT:      vector.transfer_write %[[R]]
// CHECK-NOT:     linalg.generic
func.func @flat_image_relu(%x: tensor<1x2x1x96xf32>, %w: tensor<2x1x1x3x3xf32>, %o: tensor<1x2x1x4x16xf32>) -> tensor<1x2x1x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#rxmap, #rwmap, #romap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x1x96xf32>, tensor<2x1x1x3x3xf32>) outs(%o : tensor<1x2x1x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x1x4x16xf32>
  %relu = linalg.generic {indexing_maps = [#rid], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%r : tensor<1x2x1x4x16xf32>) {
  ^bb0(%v: f32):
    %mx = arith.maximumf %v, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<1x2x1x4x16xf32>
  return %relu : tensor<1x2x1x4x16xf32>
}

// -----

// A stride-2 depthwise convolution whose init is a per-channel bias
// broadcast (computed in the thread tile by aotc-distribute-to-forall): the
// broadcast is computed on each register tile of output, before the window
// loops, so the accumulators start from the bias instead of reading a tile
// of output written in a pass of its own (7-row tiles: every window
// position unrolled, the first product added to the broadcast itself).

#bmap = affine_map<(n, c, g, h, w) -> (c, g)>
#bid = affine_map<(n, c, g, h, w) -> (n, c, g, h, w)>
#dxmap = affine_map<(n, c, g, h, w, m, kh, kw) -> (n, c, m, h * 2 + kh, w * 2 + kw)>
#dwmap = affine_map<(n, c, g, h, w, m, kh, kw) -> (c, g, m, kh, kw)>
#domap = affine_map<(n, c, g, h, w, m, kh, kw) -> (n, c, g, h, w)>
// CHECK-LABEL: func.func @depthwise_bias_init
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[OUT:.*]] = tensor.extract_slice %{{.*}} [1, 1, 1, 7, 14] [1, 1, 1, 1, 1] : tensor<1x4x1x28x28xf32> to tensor<1x1x1x7x14xf32>
// CHECK:               %[[B:.*]] = vector.transfer_read %{{.*}} : tensor<1x1xf32>, vector<1x1x1x7x14xf32>
// CHECK-NOT:           scf.for
// CHECK:               arith.addf %[[B]], %{{.*}} : vector<1x1x1x7x14xf32>
// CHECK-NOT:     linalg.generic
func.func @depthwise_bias_init(%x: tensor<1x4x1x58x58xf32>, %w: tensor<4x1x1x3x3xf32>, %bias: tensor<4x1xf32>) -> tensor<1x4x1x28x28xf32> {
  %e = tensor.empty() : tensor<1x4x1x28x28xf32>
  %init = linalg.generic {indexing_maps = [#bmap, #bid], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<4x1xf32>) outs(%e : tensor<1x4x1x28x28xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<1x4x1x28x28xf32>
  %r = linalg.generic {indexing_maps = [#dxmap, #dwmap, #domap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x4x1x58x58xf32>, tensor<4x1x1x3x3xf32>) outs(%init : tensor<1x4x1x28x28xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x28x28xf32>
  return %r : tensor<1x4x1x28x28xf32>
}

// -----

// A pool whose output rows are more than one register but not a whole number
// of them (27 = 16 + 11 lanes; 27's largest divisor up to 16 is 9) is split
// at the last whole register, each part starting from the fill (-inf) in its
// register tiles: no fill of the whole output is left.

#pxmap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#pwmap = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#pomap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @maxpool_partial_row
// CHECK-DAG:     %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<1x1x8x16xf32>
// CHECK-DAG:     %[[NEG11:.*]] = arith.constant dense<0xFF800000> : vector<1x1x8x11xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for
// CHECK:           arith.maxnumf %{{.*}}, %[[NEG]] : vector<1x1x8x16xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 4, 8, 16]
// CHECK:         scf.for
// CHECK:           arith.maxnumf %{{.*}}, %[[NEG11]] : vector<1x1x8x11xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 16] [1, 4, 8, 11]
// CHECK-NOT:     linalg.fill
func.func @maxpool_partial_row(%x: tensor<1x4x17x55xf32>) -> tensor<1x4x8x27xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x8x27xf32>
  %o = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x8x27xf32>) -> tensor<1x4x8x27xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.generic {indexing_maps = [#pxmap, #pwmap, #pomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x4x17x55xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x8x27xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x27xf32>
  return %r : tensor<1x4x8x27xf32>
}

// -----

// An average pool whose activation (the division by the window) is fused
// into its register tiles, on 17-wide rows (prime: whole, its vectors would
// be one lane wide): split at the last whole register as well, 16 + 1
// lanes, each part with its own fill and its own activation.

// CHECK-LABEL: func.func @avgpool_partial_row_activation
// CHECK-DAG:     %[[NINTH16:.*]] = arith.constant dense<0.111111112> : vector<1x4x1x16xf32>
// CHECK-DAG:     %[[NINTH1:.*]] = arith.constant dense<0.111111112> : vector<1x4x1x1xf32>
// CHECK-NOT:     linalg.
// CHECK:         scf.for
// CHECK:           arith.addf %{{.*}} : vector<1x4x1x16xf32>
// CHECK:           arith.mulf %{{.*}}, %[[NINTH16]] : vector<1x4x1x16xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 4, 17, 16]
// CHECK:         scf.for
// CHECK:           arith.addf %{{.*}} : vector<1x4x1x1xf32>
// CHECK:           arith.mulf %{{.*}}, %[[NINTH1]] : vector<1x4x1x1xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 16] [1, 4, 17, 1]
// CHECK-NOT:     linalg.
#axmap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>
#awmap = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#aomap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
#aid = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @avgpool_partial_row_activation(%x: tensor<1x4x19x19xf32>) -> tensor<1x4x17x17xf32> {
  %zero = arith.constant 0.0 : f32
  %ninth = arith.constant 0.111111112 : f32
  %e = tensor.empty() : tensor<1x4x17x17xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x17x17xf32>) -> tensor<1x4x17x17xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.generic {indexing_maps = [#axmap, #awmap, #aomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x4x19x19xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x17x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x4x17x17xf32>
  %avg = linalg.generic {indexing_maps = [#aid, #aid], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<1x4x17x17xf32>) outs(%e : tensor<1x4x17x17xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.mulf %v, %ninth : f32
    linalg.yield %m : f32
  } -> tensor<1x4x17x17xf32>
  return %avg : tensor<1x4x17x17xf32>
}

// -----

// The same pool in a thread tile (aotc-distribute-to-forall: its fill on
// the tile's slice of the shared output): each part fills its slice of the
// tile, not a tensor of its own, which would not depend on the tile (it
// would be hoisted out of the thread loop, then written by every tile).

#fxmap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#fwmap = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#fomap = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @maxpool_partial_row_thread_tile
// CHECK:         scf.forall (%[[T:.*]]) in (2) shared_outs(%[[OUT:.*]] =
// CHECK-NOT:       tensor.empty
// CHECK:           %[[TILE:.*]] = tensor.extract_slice %[[OUT]][0, %{{.*}}, 0, 0] [1, 2, 8, 27]
// CHECK-NOT:       tensor.empty
// CHECK:           %[[HEAD:.*]] = tensor.extract_slice %[[TILE]][0, 0, 0, 0] [1, 2, 8, 16]
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[HEAD]])
// CHECK:           %[[DONE:.*]] = tensor.insert_slice %{{.*}} into %[[TILE]][0, 0, 0, 0] [1, 2, 8, 16]
// CHECK:           %[[REST:.*]] = tensor.extract_slice %[[DONE]][0, 0, 0, 16] [1, 2, 8, 11]
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[REST]])
// CHECK:           scf.forall.in_parallel
func.func @maxpool_partial_row_thread_tile(%x: tensor<1x4x17x55xf32>) -> tensor<1x4x8x27xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x8x27xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %r = scf.forall (%t) in (2) shared_outs(%o = %e) -> (tensor<1x4x8x27xf32>) {
    %c = affine.apply affine_map<(d0) -> (d0 * 2)>(%t)
    %xs = tensor.extract_slice %x[0, %c, 0, 0] [1, 2, 17, 55] [1, 1, 1, 1] : tensor<1x4x17x55xf32> to tensor<1x2x17x55xf32>
    %os = tensor.extract_slice %o[0, %c, 0, 0] [1, 2, 8, 27] [1, 1, 1, 1] : tensor<1x4x8x27xf32> to tensor<1x2x8x27xf32>
    %f = linalg.fill ins(%ninf : f32) outs(%os : tensor<1x2x8x27xf32>) -> tensor<1x2x8x27xf32>
    %p = linalg.generic {indexing_maps = [#fxmap, #fwmap, #fomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%xs, %w : tensor<1x2x17x55xf32>, tensor<3x3xf32>) outs(%f : tensor<1x2x8x27xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.maxnumf %acc, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x2x8x27xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %p into %o[0, %c, 0, 0] [1, 2, 8, 27] [1, 1, 1, 1] : tensor<1x2x8x27xf32> into tensor<1x4x8x27xf32>
    }
  }
  return %r : tensor<1x4x8x27xf32>
}

// -----

// The same split for a windowed copy without an init producer (an im2col
// copy, here a stride-2 subsample): 27 = 16 + 11 lanes.

#sxmap = affine_map<(n, c, oh, ow) -> (n, c, oh * 2, ow * 2)>
#somap = affine_map<(n, c, oh, ow) -> (n, c, oh, ow)>
// (The vectorized copy folds back into strided slices under -canonicalize.)
// CHECK-LABEL: func.func @subsample_partial_row
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 8, 16] [1, 1, 2, 2]
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 4, 8, 16]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 8, 11] [1, 1, 2, 2]
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 16] [1, 4, 8, 11]
func.func @subsample_partial_row(%x: tensor<1x4x16x54xf32>, %o: tensor<1x4x8x27xf32>) -> tensor<1x4x8x27xf32> {
  %r = linalg.generic {indexing_maps = [#sxmap, #somap], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x16x54xf32>) outs(%o : tensor<1x4x8x27xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x8x27xf32>
  return %r : tensor<1x4x8x27xf32>
}

// -----

// An im2col copy of a stride-2 window, its window loops parallel (x[c, oh *
// 2 + kh, ow * 2 + kw] -> cols[c, kh, kw, oh, ow]) on 11 output rows (no
// divisor up to 8): the register rows step along kh (3), not kw, which the
// lanes' column reads too (a row per kw would read no one strided range,
// and the copy stayed scalar); each row is one register of ow read with
// stride 2.

#cxmap = affine_map<(c, kh, kw, oh, ow) -> (c, oh * 2 + kh, ow * 2 + kw)>
#comap = affine_map<(c, kh, kw, oh, ow) -> (c, kh, kw, oh, ow)>
// CHECK-LABEL: func.func @im2col_stride2
// CHECK:         vector.transfer_read %{{.*}} : tensor<1x3x16xf32>, vector<1x3x1x1x16xf32>
// CHECK:         tensor.insert_slice %{{.*}} [1, 3, 1, 1, 16] [1, 1, 1, 1, 1]
func.func @im2col_stride2(%x: tensor<2x23x34xf32>, %o: tensor<2x3x3x11x16xf32>) -> tensor<2x3x3x11x16xf32> {
  %r = linalg.generic {indexing_maps = [#cxmap, #comap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x23x34xf32>) outs(%o : tensor<2x3x3x11x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x3x11x16xf32>
  return %r : tensor<2x3x3x11x16xf32>
}

// -----

// A convolution over input channels on a row-aligned grid
// (aotc-flatten-convolution-images: 7 rows of 8 lanes, rows 9 apart in the
// flat input), with a fill init and a ReLU. It is split at 6 rows, each
// part with its own fill and ReLU. The 6-row part takes 4 x 3 register
// tiles with 256-bit registers: each tile's input is 3 whole padded rows (a
// slice of 27 of the flat input, taken from the input itself since the
// part's slice of it ends at the last row's last lane), expanded to [3, 9],
// of which [3, 8] is read; the ReLU is computed on the accumulators. The
// last row is one tile of 4 output channels reading one contiguous register
// per window position.

#axmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 9 + l + kh * 9 + kw)>
#awmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#aomap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
#aid = affine_map<(n, g, m, r, l) -> (n, g, m, r, l)>
// AVX2-LABEL:  func.func @row_aligned
// AVX2-SAME:     (%[[X:.*]]: tensor<1x1x2x88xf32>
// AVX2:          scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}}) -> (tensor<1x1x4x6x8xf32>)
// AVX2:            %[[XS:.*]] = tensor.extract_slice %[[X]][0, 0, %{{.*}}, %{{.*}}] [1, 1, 1, 27] [1, 1, 1, 1]
// AVX2:            %[[XE:.*]] = tensor.expand_shape %[[XS]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 1, 3, 9]
// AVX2:            %[[XR:.*]] = tensor.extract_slice %[[XE]][0, 0, 0, 0, 0] [1, 1, 1, 3, 8] [1, 1, 1, 1, 1]
// AVX2:            vector.transfer_read %[[XR]]{{.*}} : tensor<1x1x1x3x8xf32>, vector<1x1x4x3x8x1x1x1xf32>
// AVX2:          arith.maximumf %{{.*}}, %{{.*}} : vector<1x1x4x3x8xf32>
// AVX2:          %[[HEAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0, 0] [1, 1, 4, 6, 8]
// AVX2:          %[[XT:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 54] [1, 1, 2, 28]
// AVX2:          scf.for
// AVX2:            tensor.extract_slice %[[XT]][0, 0, %{{.*}}, %{{.*}}] [1, 1, 1, 8] [1, 1, 1, 1]
// AVX2:            vector.transfer_read {{.*}} : tensor<1x1x1x8xf32>, vector<1x1x4x1x8x1x1x1xf32>
// AVX2:          arith.maximumf
// AVX2:          tensor.insert_slice %{{.*}} into %[[HEAD]][0, 0, 0, 6, 0] [1, 1, 4, 1, 8]
func.func @row_aligned(%x: tensor<1x1x2x88xf32>, %w: tensor<1x4x2x3x3xf32>) -> tensor<1x1x4x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x4x7x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x7x8xf32>) -> tensor<1x1x4x7x8xf32>
  %r = linalg.generic {indexing_maps = [#axmap, #awmap, #aomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x88xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x7x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x7x8xf32>
  %relu = linalg.generic {indexing_maps = [#aid], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%r : tensor<1x1x4x7x8xf32>) {
  ^bb0(%v: f32):
    %mx = arith.maximumf %v, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<1x1x4x7x8xf32>
  return %relu : tensor<1x1x4x7x8xf32>
}

// -----

// Whole padded rows that no source holds: the last 3-row tile of this
// 6-row grid would read 3 rows of 9 from flat element 47, past the 73
// elements that the convolution itself reads (up to the last row's last
// lane). The tile stays a linalg op (lowered to loops later).

#sxmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 9 + l + kh * 9 + kw)>
#swmap = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#somap = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
// AVX2-LABEL:  func.func @row_aligned_short_input
// AVX2:          linalg.generic
// AVX2-SAME:       ins(%{{.*}}, %{{.*}} : tensor<1x1x1x26xf32>, tensor<1x4x1x1x1xf32>) outs(%{{.*}} : tensor<1x1x4x3x8xf32>)
// AVX2-NOT:      vector.transfer_read
func.func @row_aligned_short_input(%x: tensor<1x1x2x73xf32>, %w: tensor<1x4x2x3x3xf32>, %o: tensor<1x1x4x6x8xf32>) -> tensor<1x1x4x6x8xf32> {
  %r = linalg.generic {indexing_maps = [#sxmap, #swmap, #somap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x73xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x6x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x6x8xf32>
  return %r : tensor<1x1x4x6x8xf32>
}

// -----

// Output channels as lanes (aotc-channel-lane-convolutions): the output's
// innermost loop is a block of 32 channels, read from the filter's last
// dimension. The register tile is one output row's pixels (7 of 14: a
// contraction's rows) x the 32 channels (two 512-bit registers); each
// input element is broadcast along the lanes, each filter row along the
// pixels; input channels and window rows loop, window columns unrolled.

#x = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (g, m, c, kh, kw, l)>
#o = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, m, oh, ow, l)>
// CHECK-DAG:   #[[XB:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4, 0, d2, 0, 0)>
// CHECK-DAG:   #[[WB:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (0, d0, d1, 0, 0, d5, d2, d3, d4)>
// CHECK-LABEL: func.func @channel_lanes
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c7
// CHECK:           scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK-COUNT-3:       vector.transfer_read %{{.*}} {in_bounds = [{{.*}}], permutation_map = #[[XB]]} : tensor<1x1x1x1x7xf32>, vector<1x1x1x1x7x32x1x1x1xf32>
// CHECK-NOT:           scf.for
// AVX2-LABEL:  func.func @channel_lanes
// AVX2:          vector.transfer_read
func.func @channel_lanes(%x: tensor<1x1x64x29x29xf32>, %w: tensor<1x2x64x3x3x32xf32>, %o: tensor<1x1x2x14x14x32xf32>) -> tensor<1x1x2x14x14x32xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x29x29xf32>, tensor<1x2x64x3x3x32xf32>) outs(%o : tensor<1x1x2x14x14x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x14x14x32xf32>
  return %r : tensor<1x1x2x14x14x32xf32>
}

// -----

// The same straight into an NCHW output (its channels split as
// [m / 32, 32, oh, ow]: 3 input channels, a stem): the pixel loop is the
// output's innermost one, the lanes the filter's. Register tiles of 8 of
// the 16 pixels x 32 channels as above; the accumulators are read and
// written transposed (lanes along the channels, pixels along the row).

#x = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (g, m, c, kh, kw, l)>
#o = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, m, l, oh, ow)>
// CHECK-DAG:   #[[TO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4, d5, d3)>
// CHECK-LABEL: func.func @channel_lanes_nchw
// CHECK:         scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:           scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:               vector.transfer_read {{.*}} : tensor<1x1x1x1x8xf32>, vector<1x1x1x1x8x32x1x1x1xf32>
// CHECK:               vector.transfer_read %{{.*}} {in_bounds = [{{.*}}], permutation_map = #[[TO]]} : tensor<1x1x1x32x1x8xf32>, vector<1x1x1x1x8x32xf32>
// CHECK-COUNT-2:       vector.transfer_read {{.*}} : tensor<1x1x1x1x8xf32>, vector<1x1x1x1x8x32x1x1x1xf32>
// CHECK:               vector.transfer_write %{{.*}} {in_bounds = [{{.*}}], permutation_map = #[[TO]]} : vector<1x1x1x1x8x32xf32>, tensor<1x1x1x32x1x8xf32>
func.func @channel_lanes_nchw(%x: tensor<1x1x3x33x33xf32>, %w: tensor<1x2x3x3x3x32xf32>, %o: tensor<1x1x2x32x16x16xf32>) -> tensor<1x1x2x32x16x16xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x33x33xf32>, tensor<1x2x3x3x3x32xf32>) outs(%o : tensor<1x1x2x32x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x32x16x16xf32>
  return %r : tensor<1x1x2x32x16x16xf32>
}

// -----

// Rows that no register tile of at least three-quarters of a contraction's
// rows divides are split after their tiles' bulk (aotc::channelLaneRowBulk):
// a prime 13-pixel row into one tile of 8 pixels and a part of 5, each
// stored transposed into the NCHW output.

#x = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (g, m, c, kh, kw, l)>
#o = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, m, l, oh, ow)>
// CHECK-LABEL: func.func @channel_lanes_nchw_prime_row
// CHECK:         vector.transfer_read {{.*}} : tensor<1x1x1x1x8xf32>, vector<1x1x1x1x8x32x1x1x1xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<1x1x1x1x8x32xf32>, tensor<1x1x1x32x1x8xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<1x1x1x1x5xf32>, vector<1x1x1x1x5x32x1x1x1xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<1x1x1x1x5x32xf32>, tensor<1x1x1x32x1x5xf32>
func.func @channel_lanes_nchw_prime_row(%x: tensor<1x1x3x27x27xf32>, %w: tensor<1x2x3x3x3x32xf32>, %o: tensor<1x1x2x32x13x13xf32>) -> tensor<1x1x2x32x13x13xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x27x27xf32>, tensor<1x2x3x3x3x32xf32>) outs(%o : tensor<1x1x2x32x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x32x13x13xf32>
  return %r : tensor<1x1x2x32x13x13xf32>
}

// -----

// Blocked output, 17-pixel rows: two tiles of 6 pixels (12), then a part
// of 5; with 256-bit registers (6-pixel tiles) the same 12 + 5.

#x = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (g, m, c, kh, kw, l)>
#o = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, m, oh, ow, l)>
// CHECK-LABEL: func.func @channel_lanes_prime_row
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK:           vector.transfer_read {{.*}} : tensor<1x1x1x1x6xf32>, vector<1x1x1x1x6x32x1x1x1xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<1x1x1x1x5xf32>, vector<1x1x1x1x5x32x1x1x1xf32>
// AVX2-LABEL:  func.func @channel_lanes_prime_row
// AVX2:          vector<1x1x1x1x6x16x1x1x1xf32>
// AVX2:          vector<1x1x1x1x5x16x1x1x1xf32>
func.func @channel_lanes_prime_row(%x: tensor<1x1x64x19x19xf32>, %w: tensor<1x2x64x3x3x32xf32>, %o: tensor<1x1x2x17x17x32xf32>) -> tensor<1x1x2x17x17x32xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x19x19xf32>, tensor<1x2x64x3x3x32xf32>) outs(%o : tensor<1x1x2x17x17x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x17x17x32xf32>
  return %r : tensor<1x1x2x17x17x32xf32>
}
