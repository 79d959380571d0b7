// RUN: aotc-opt %s -aotc-select-cpu-strategy | FileCheck %s
// RUN: aotc-opt %s -aotc-select-cpu-strategy=vector-bits=256 | FileCheck %s --check-prefix=AVX2
// RUN: aotc-opt %s -aotc-select-cpu-strategy=generic=1 | FileCheck %s --check-prefix=GENERIC
// RUN: aotc-opt %s -aotc-select-cpu-strategy=table=- -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: aotc-opt %s -aotc-select-cpu-strategy=min-work=1000000 | FileCheck %s --check-prefix=FEWTILES

// One path per op, in the importer's NCHW form (groups as a dimension),
// with 512-bit registers unless stated (docs/architecture.md's table):
// - a 1x1 convolution is a contraction over input channels;
// - a 3x3 stride-2 convolution over 8 channels (a run-time filter: no
//   channel lanes) takes the column copy;
// - 3x3 stride-1 over 8 channels: too few for Winograd; on a 13 x 13 image
//   the flattened grid would compute 1.2x its outputs or more, so the
//   column copy pays; on 27 x 27 the flattened grid wastes less and wins;
// - on 14 x 14 the grid is 240 positions for 196 outputs (1.22x): the copy
//   pays with 512-bit registers (threshold 1.2x), not with 256-bit ones
//   (threshold 1.25x), where the flattened grid is taken;
// - 3x3 stride-1 over 960 channels (as DeepLabV3's atrous head) on 27 x
//   27: the grid wastes too little for the copy, but a panel's filter
//   block (960 x 9 x 32 lanes, 1.1 MB) would not stay in L2 for the rows of
//   the direct paths, so the column copy's contraction blocks the
//   reduction;
// - a padded 5x5 stride-2 depthwise convolution with enough work for
//   thread tiles, each padding its channels' planes (64 x 64 floats each)
//   in a buffer of its own, takes the column phases of those buffers; with
//   too little work (4 channels to 7 x 7) it stays on one thread and
//   direct, as with min-work raised above its work;
// - a max pool without padding is computed directly;
// - a matmul is no convolution: no record (the table calls it a
//   contraction).
// --strategy=generic records `generic` for every windowed op.

#x1 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#x2 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>

// CHECK-LABEL: func.func @pointwise
// CHECK:         linalg.generic {{.*}}aotc.strategy = "pointwise-matmul"
// GENERIC-LABEL: func.func @pointwise
// GENERIC:       linalg.generic {{.*}}aotc.strategy = "generic"
func.func @pointwise(%x: tensor<1x1x8x7x7xf32>, %w: tensor<1x16x8x1x1xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x1, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x7x7xf32>, tensor<1x16x8x1x1xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}

// CHECK-LABEL: func.func @stride2
// CHECK:         linalg.generic {{.*}}aotc.strategy = "im2col"
func.func @stride2(%x: tensor<1x1x8x15x15xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x7x7xf32>) -> tensor<1x1x16x7x7xf32> {
  %r = linalg.generic {indexing_maps = [#x2, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x15x15xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x7x7xf32>
  return %r : tensor<1x1x16x7x7xf32>
}

// CHECK-LABEL: func.func @wasteful_grid
// CHECK:         linalg.generic {{.*}}aotc.strategy = "im2col"
func.func @wasteful_grid(%x: tensor<1x1x8x15x15xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x13x13xf32>) -> tensor<1x1x16x13x13xf32> {
  %r = linalg.generic {indexing_maps = [#x1, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x15x15xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x13x13xf32>
  return %r : tensor<1x1x16x13x13xf32>
}

// CHECK-LABEL: func.func @deep_reduction
// CHECK:         linalg.generic {{.*}}aotc.strategy = "im2col"
func.func @deep_reduction(%x: tensor<1x1x960x29x29xf32>, %w: tensor<1x256x960x3x3xf32>, %o: tensor<1x1x256x27x27xf32>) -> tensor<1x1x256x27x27xf32> {
  %r = linalg.generic {indexing_maps = [#x1, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x960x29x29xf32>, tensor<1x256x960x3x3xf32>) outs(%o : tensor<1x1x256x27x27xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x256x27x27xf32>
  return %r : tensor<1x1x256x27x27xf32>
}

// CHECK-LABEL: func.func @grid
// CHECK:         linalg.generic {{.*}}aotc.strategy = "flat-image"
func.func @grid(%x: tensor<1x1x8x29x29xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x27x27xf32>) -> tensor<1x1x16x27x27xf32> {
  %r = linalg.generic {indexing_maps = [#x1, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x29x29xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x27x27xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x27x27xf32>
  return %r : tensor<1x1x16x27x27xf32>
}

// CHECK-LABEL: func.func @grid_14x14
// CHECK:         linalg.generic {{.*}}aotc.strategy = "im2col"
// AVX2-LABEL:  func.func @grid_14x14
// AVX2:          linalg.generic {{.*}}aotc.strategy = "flat-image"
func.func @grid_14x14(%x: tensor<1x1x8x16x16xf32>, %w: tensor<1x16x8x3x3xf32>, %o: tensor<1x1x16x14x14xf32>) -> tensor<1x1x16x14x14xf32> {
  %r = linalg.generic {indexing_maps = [#x1, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8x16x16xf32>, tensor<1x16x8x3x3xf32>) outs(%o : tensor<1x1x16x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x14x14xf32>
  return %r : tensor<1x1x16x14x14xf32>
}

// A 7x7 stride-2 window reads each input element 12.25 times: the column
// copy would be large, so a 112-wide output row (whole registers) is
// computed directly; a 109-wide one (prime: the direct path's vectors would
// be one lane) takes the copy, with either register width.
// CHECK-LABEL: func.func @wide_window_whole_rows
// CHECK:         linalg.generic {{.*}}aotc.strategy = "direct"
// AVX2-LABEL:  func.func @wide_window_whole_rows
// AVX2:          linalg.generic {{.*}}aotc.strategy = "direct"
func.func @wide_window_whole_rows(%x: tensor<1x1x3x229x229xf32>, %w: tensor<1x64x3x7x7xf32>, %o: tensor<1x1x64x112x112xf32>) -> tensor<1x1x64x112x112xf32> {
  %r = linalg.generic {indexing_maps = [#x2, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x229x229xf32>, tensor<1x64x3x7x7xf32>) outs(%o : tensor<1x1x64x112x112xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x112x112xf32>
  return %r : tensor<1x1x64x112x112xf32>
}

// CHECK-LABEL: func.func @wide_window_prime_rows
// CHECK:         linalg.generic {{.*}}aotc.strategy = "im2col"
// AVX2-LABEL:  func.func @wide_window_prime_rows
// AVX2:          linalg.generic {{.*}}aotc.strategy = "im2col"
func.func @wide_window_prime_rows(%x: tensor<1x1x3x223x223xf32>, %w: tensor<1x96x3x7x7xf32>, %o: tensor<1x1x96x109x109xf32>) -> tensor<1x1x96x109x109xf32> {
  %r = linalg.generic {indexing_maps = [#x2, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x223x223xf32>, tensor<1x96x3x7x7xf32>) outs(%o : tensor<1x1x96x109x109xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x96x109x109xf32>
  return %r : tensor<1x1x96x109x109xf32>
}

#dx = affine_map<(n, c, m, oh, ow, k, kh, kw) -> (n, c, k, oh * 2 + kh, ow * 2 + kw)>
#dw = affine_map<(n, c, m, oh, ow, k, kh, kw) -> (c, m, k, kh, kw)>
#do = affine_map<(n, c, m, oh, ow, k, kh, kw) -> (n, c, m, oh, ow)>

// CHECK-LABEL: func.func @depthwise_stride2
// CHECK:         linalg.generic {{.*}}aotc.strategy = "column-phases"
// FEWTILES-LABEL: func.func @depthwise_stride2
// FEWTILES:        linalg.generic {{.*}}aotc.strategy = "direct"
func.func @depthwise_stride2(%x: tensor<1x24x1x60x60xf32>, %w: tensor<24x1x1x5x5xf32>, %o: tensor<1x24x1x30x30xf32>) -> tensor<1x24x1x30x30xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x1x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x1x64x64xf32>) -> tensor<1x24x1x64x64xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 0, 2, 2] [1, 24, 1, 60, 60] [1, 1, 1, 1, 1] : tensor<1x24x1x60x60xf32> into tensor<1x24x1x64x64xf32>
  %r = linalg.generic {indexing_maps = [#dx, #dw, #do], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %w : tensor<1x24x1x64x64xf32>, tensor<24x1x1x5x5xf32>) outs(%o : tensor<1x24x1x30x30xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x24x1x30x30xf32>
  return %r : tensor<1x24x1x30x30xf32>
}

// CHECK-LABEL: func.func @depthwise_stride2_small
// CHECK:         linalg.generic {{.*}}aotc.strategy = "direct"
func.func @depthwise_stride2_small(%x: tensor<1x4x1x14x14xf32>, %w: tensor<4x1x1x5x5xf32>, %o: tensor<1x4x1x7x7xf32>) -> tensor<1x4x1x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1x18x18xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x18x18xf32>) -> tensor<1x4x1x18x18xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 0, 2, 2] [1, 4, 1, 14, 14] [1, 1, 1, 1, 1] : tensor<1x4x1x14x14xf32> into tensor<1x4x1x18x18xf32>
  %r = linalg.generic {indexing_maps = [#dx, #dw, #do], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %w : tensor<1x4x1x18x18xf32>, tensor<4x1x1x5x5xf32>) outs(%o : tensor<1x4x1x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x7x7xf32>
  return %r : tensor<1x4x1x7x7xf32>
}

// CHECK-LABEL: func.func @pool
// CHECK:         linalg.pooling_nchw_max {{.*}}aotc.strategy = "direct"
func.func @pool(%x: tensor<1x2x9x9xf32>, %o: tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32> {
  %window = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %window : tensor<1x2x9x9xf32>, tensor<3x3xf32>)
      outs(%o : tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  return %r : tensor<1x2x7x7xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     aotc.strategy
// GENERIC-LABEL: func.func @matmul
// GENERIC-NOT:   aotc.strategy
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// TABLE: @pointwise	{{.*}}	linalg.generic	[1,1,16,7,7,8,1,1]	pointwise-matmul	1x1 window
// TABLE: @stride2	{{.*}}	linalg.generic	[1,1,16,7,7,8,3,3]	im2col	the column copy pays
// TABLE: @wasteful_grid	{{.*}}	im2col
// TABLE: @grid	{{.*}}	flat-image
// TABLE: @grid_14x14	{{.*}}	im2col
// TABLE: @depthwise_stride2	{{.*}}	linalg.generic	[1,24,1,30,30,1,5,5]	column-phases	column stride 2, padded in each thread tile
// TABLE: @depthwise_stride2_small	{{.*}}	linalg.generic	[1,4,1,7,7,1,5,5]	direct
// TABLE: @pool	{{.*}}	linalg.pooling_nchw_max	[1,2,7,7,3,3]	direct
// TABLE: @matmul	{{.*}}	linalg.matmul	[8,32,16]	contraction	-
