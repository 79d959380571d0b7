// RUN: aotc-opt %s -split-input-file -aotc-channel-lane-convolutions | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-channel-lane-convolutions=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// A 3x3 stride-2 convolution over 64 input channels (576 reduced elements)
// with a bias broadcast as its init and a ReLU after it: computed in blocks
// of 32 output channels (two 512-bit registers) as its lanes, the filter
// packed into [g, m / 32, c, kh, kw, 32] at compile time, the bias broadcast
// and the ReLU made in that layout, the ReLU's result transposed back.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#b = affine_map<(n, g, m, oh, ow) -> (g, m)>
#id = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
// CHECK-DAG:   #[[BIAS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>
// CHECK-DAG:   #[[ID6:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d6, d3 * 2 + d7, d4 * 2 + d8)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d2, d6, d7, d8, d5)>
// CHECK-DAG:   #[[O:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @conv3x3_stride2
// CHECK-SAME:    (%[[XV:.*]]: tensor<1x1x64x25x25xf32>, %[[B:.*]]: tensor<1x64xf32>)
// CHECK:         %[[WP:.*]] = arith.constant dense<{{.*}}> : tensor<1x2x64x3x3x32xf32>
// CHECK:         %[[BE:.*]] = tensor.expand_shape %[[B]] {{\[}}[0], [1, 2]] output_shape [1, 2, 32] : tensor<1x64xf32> into tensor<1x2x32xf32>
// CHECK:         %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[BIAS]], #[[ID6]]]
// CHECK-SAME:        ins(%[[BE]] : tensor<1x2x32xf32>) outs(%{{.*}} : tensor<1x1x2x12x12x32xf32>)
// CHECK:         %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[XV]], %[[WP]] : tensor<1x1x64x25x25xf32>, tensor<1x2x64x3x3x32xf32>) outs(%[[INIT]] : tensor<1x1x2x12x12x32xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[RELU:.*]] = linalg.generic {indexing_maps = [#[[ID6]], #[[ID6]]]
// CHECK-SAME:        ins(%[[CONV]] : tensor<1x1x2x12x12x32xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[RELU]] : tensor<1x1x2x12x12x32xf32>) outs(%{{.*}} : tensor<1x1x2x32x12x12xf32>) permutation = [0, 1, 2, 5, 3, 4]
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1], [2, 3], [4], [5]] : tensor<1x1x2x32x12x12xf32> into tensor<1x1x64x12x12xf32>
// CHECK:         return %[[R]]
// With 256-bit registers the blocks are 16 channels (12-pixel rows: 6-row
// register tiles either way).
// AVX2-LABEL:  func.func @conv3x3_stride2
// AVX2:          arith.constant dense<{{.*}}> : tensor<1x4x64x3x3x16xf32>
// AVX2:          linalg.generic
// AVX2-SAME:         outs(%{{.*}} : tensor<1x1x4x12x12x16xf32>)
func.func @conv3x3_stride2(%x: tensor<1x1x64x25x25xf32>, %bias: tensor<1x64xf32>) -> tensor<1x1x64x12x12xf32> {
  %w = arith.constant dense<1.0> : tensor<1x64x64x3x3xf32>
  %e = tensor.empty() : tensor<1x1x64x12x12xf32>
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<1x64xf32>) outs(%e : tensor<1x1x64x12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x64x12x12xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x25x25xf32>, tensor<1x64x64x3x3xf32>) outs(%init : tensor<1x1x64x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x12x12xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x64x12x12xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<1x1x64x12x12xf32>) outs(%e2 : tensor<1x1x64x12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x64x12x12xf32>
  return %relu : tensor<1x1x64x12x12xf32>
}

// -----

// A fill init is made in the blocked layout; without a consumer the
// convolution's own result is transposed back. (The packed filter's values
// are checked end to end: resnet18 against PyTorch.)

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @fill_init
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x1x2x7x7x32xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x1x2x7x7x32xf32>)
// CHECK:         %[[CONV:.*]] = linalg.generic
// CHECK-SAME:        outs(%[[F]] : tensor<1x1x2x7x7x32xf32>)
// CHECK:         linalg.transpose ins(%[[CONV]] : tensor<1x1x2x7x7x32xf32>)
func.func @fill_init(%x: tensor<1x1x64x15x15xf32>) -> tensor<1x1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x64x7x7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x64x7x7xf32>) -> tensor<1x1x64x7x7xf32>
  %w = arith.constant dense<1.0> : tensor<1x64x64x3x3xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x15x15xf32>, tensor<1x64x64x3x3xf32>) outs(%init : tensor<1x1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x7x7xf32>
  return %r : tensor<1x1x64x7x7xf32>
}

// -----

// Stride 1 (a 7 x 7 image padded to 9 x 9, ResNet-18's last layers; Winograd
// runs first and takes the ones with enough 2x2 tiles): the same blocks, the
// window read at oh + kh, ow + kw in place.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-DAG:   #[[X1:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d6, d3 + d7, d4 + d8)>
// CHECK-LABEL: func.func @conv3x3_stride1
// CHECK:         %[[WP:.*]] = arith.constant dense<{{.*}}> : tensor<1x2x64x3x3x32xf32>
// CHECK:         %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[X1]],
// CHECK-SAME:        ins(%{{.*}}, %[[WP]] : tensor<1x1x64x9x9xf32>, tensor<1x2x64x3x3x32xf32>) outs(%{{.*}} : tensor<1x1x2x7x7x32xf32>)
// CHECK:         linalg.transpose ins(%[[CONV]] : tensor<1x1x2x7x7x32xf32>)
func.func @conv3x3_stride1(%x: tensor<1x1x64x9x9xf32>, %init: tensor<1x1x64x7x7xf32>) -> tensor<1x1x64x7x7xf32> {
  %w = arith.constant dense<1.0> : tensor<1x64x64x3x3xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x9x9xf32>, tensor<1x64x64x3x3xf32>) outs(%init : tensor<1x1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x7x7xf32>
  return %r : tensor<1x1x64x7x7xf32>
}

// -----

// An image's first layer, 3 input channels (27 reduced elements): too
// shallow a reduction to transpose a blocked result back, so the blocks of
// 32 channel lanes are computed straight into the NCHW output, its channel
// dimension split in two ([m / 32, 32, oh, ow]): each register tile of
// pixels x lanes is stored transposed. The bias broadcast init is made in
// that layout; the ReLU after it stays as it is (no transpose).

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#b = affine_map<(n, g, m, oh, ow) -> (g, m)>
#id = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
// CHECK-DAG:   #[[SBIAS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3)>
// CHECK-DAG:   #[[SID:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG:   #[[SO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d5, d3, d4)>
// CHECK-LABEL: func.func @rgb_stem
// CHECK:         %[[WP:.*]] = arith.constant dense<{{.*}}> : tensor<1x2x3x3x3x32xf32>
// CHECK:         %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[SBIAS]], #[[SID]]]
// CHECK-SAME:        outs(%{{.*}} : tensor<1x1x2x32x12x12xf32>)
// CHECK:         %[[CONV:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[SO]]]
// CHECK-SAME:        ins(%{{.*}}, %[[WP]] : tensor<1x1x3x25x25xf32>, tensor<1x2x3x3x3x32xf32>) outs(%[[INIT]] : tensor<1x1x2x32x12x12xf32>)
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[CONV]] {{\[}}[0], [1], [2, 3], [4], [5]] : tensor<1x1x2x32x12x12xf32> into tensor<1x1x64x12x12xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[R]] : tensor<1x1x64x12x12xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.transpose
// CHECK:         return
// Not with 256-bit registers (6 x 16 tiles: no 16 x 16 shuffle transpose).
// AVX2-LABEL:  func.func @rgb_stem
// AVX2-NOT:      tensor<1x4x3x3x3x16xf32>
// AVX2:          return
func.func @rgb_stem(%x: tensor<1x1x3x25x25xf32>, %bias: tensor<1x64xf32>) -> tensor<1x1x64x12x12xf32> {
  %w = arith.constant dense<1.0> : tensor<1x64x3x3x3xf32>
  %e = tensor.empty() : tensor<1x1x64x12x12xf32>
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<1x64xf32>) outs(%e : tensor<1x1x64x12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x64x12x12xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x25x25xf32>, tensor<1x64x3x3x3xf32>) outs(%init : tensor<1x1x64x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x12x12xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x64x12x12xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<1x1x64x12x12xf32>) outs(%e2 : tensor<1x1x64x12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x64x12x12xf32>
  return %relu : tensor<1x1x64x12x12xf32>
}

// -----

// Left to the other paths: a shallow reduction (8 channels x 9 = 72
// elements: transposing the result back costs more than it saves) and 48
// output channels (not whole blocks).

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     linalg.transpose
// CHECK:         return
func.func @left_alone(%xs: tensor<1x1x8x15x15xf32>, %x13: tensor<1x1x64x27x27xf32>,
                      %o2: tensor<1x1x64x7x7xf32>, %o3: tensor<1x1x48x7x7xf32>)
    -> (tensor<1x1x64x7x7xf32>, tensor<1x1x48x7x7xf32>) {
  %ws = arith.constant dense<1.0> : tensor<1x64x8x3x3xf32>
  %w48 = arith.constant dense<1.0> : tensor<1x48x64x3x3xf32>
  %r2 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xs, %ws : tensor<1x1x8x15x15xf32>, tensor<1x64x8x3x3xf32>) outs(%o2 : tensor<1x1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x7x7xf32>
  %x15 = tensor.extract_slice %x13[0, 0, 0, 0, 0] [1, 1, 64, 15, 15] [1, 1, 1, 1, 1] : tensor<1x1x64x27x27xf32> to tensor<1x1x64x15x15xf32>
  %r3 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x15, %w48 : tensor<1x1x64x15x15xf32>, tensor<1x48x64x3x3xf32>) outs(%o3 : tensor<1x1x48x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x48x7x7xf32>
  return %r2, %r3 : tensor<1x1x64x7x7xf32>, tensor<1x1x48x7x7xf32>
}

// -----

// Groups (RegNet-X's, 10 groups of 16 channels, 144 reduced elements): too
// shallow a reduction for blocks over all channels, but a grouped
// convolution is blocked whatever its reduction (the other paths copy each
// group's windows). Its 16 output channels per group are one 512-bit
// register of lanes: blocks of 16. Groups of 8 fill no 512-bit register
// and are left alone; with 256-bit registers both are blocked, in blocks of
// 16 (two registers) and 8 (one).

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @groups
// CHECK:         %[[WP:.*]] = arith.constant dense<{{.*}}> : tensor<10x1x16x3x3x16xf32>
// CHECK:         %[[CONV:.*]] = linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %[[WP]] : tensor<1x10x16x16x16xf32>, tensor<10x1x16x3x3x16xf32>) outs(%{{.*}} : tensor<1x10x1x14x14x16xf32>)
// CHECK:         linalg.transpose ins(%[[CONV]] : tensor<1x10x1x14x14x16xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         return
// AVX2-LABEL:  func.func @groups
// AVX2:          linalg.generic
// AVX2-SAME:         outs(%{{.*}} : tensor<1x10x1x14x14x16xf32>)
// AVX2:          linalg.generic
// AVX2-SAME:         outs(%{{.*}} : tensor<1x4x1x14x14x8xf32>)
func.func @groups(%x: tensor<1x10x16x16x16xf32>, %o: tensor<1x10x16x14x14xf32>,
                  %x8: tensor<1x4x8x16x16xf32>, %o8: tensor<1x4x8x14x14xf32>)
    -> (tensor<1x10x16x14x14xf32>, tensor<1x4x8x14x14xf32>) {
  %w = arith.constant dense<1.0> : tensor<10x16x16x3x3xf32>
  %w8 = arith.constant dense<1.0> : tensor<4x8x8x3x3xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x10x16x16x16xf32>, tensor<10x16x16x3x3xf32>) outs(%o : tensor<1x10x16x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x10x16x14x14xf32>
  %r8 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x8, %w8 : tensor<1x4x8x16x16xf32>, tensor<4x8x8x3x3xf32>) outs(%o8 : tensor<1x4x8x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8x14x14xf32>
  return %r, %r8 : tensor<1x10x16x14x14xf32>, tensor<1x4x8x14x14xf32>
}

// -----

// 13-pixel output rows, at stride 1 and at stride 2: no register tile
// divides them, but they are blocked all the same
// (aotc-vectorize-convolutions splits them into a tile of 8 and a part of 5).

#x1 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @prime_rows
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x64x15x15xf32>, tensor<1x2x64x3x3x32xf32>) outs(%{{.*}} : tensor<1x1x2x13x13x32xf32>)
// CHECK:         linalg.transpose
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x64x27x27xf32>, tensor<1x2x64x3x3x32xf32>) outs(%{{.*}} : tensor<1x1x2x13x13x32xf32>)
// CHECK:         linalg.transpose
func.func @prime_rows(%x: tensor<1x1x64x15x15xf32>, %x13: tensor<1x1x64x27x27xf32>,
                      %o1: tensor<1x1x64x13x13xf32>, %o4: tensor<1x1x64x13x13xf32>)
    -> (tensor<1x1x64x13x13xf32>, tensor<1x1x64x13x13xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x64x64x3x3xf32>
  %r1 = linalg.generic {indexing_maps = [#x1, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x15x15xf32>, tensor<1x64x64x3x3xf32>) outs(%o1 : tensor<1x1x64x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x13x13xf32>
  %r4 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x13, %w : tensor<1x1x64x27x27xf32>, tensor<1x64x64x3x3xf32>) outs(%o4 : tensor<1x1x64x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x13x13xf32>
  return %r1, %r4 : tensor<1x1x64x13x13xf32>, tensor<1x1x64x13x13xf32>
}

// -----

// A dilation-2 3x3 convolution over 512 channels of 28 x 28, padded to
// 32 x 32: its channel planes are 4 KiB apart, so one window position of
// all 512 falls into 32 of the 2 MiB, 16-way L2's sets, 16 lines each
// (planeSlackRows). Its input is padded with one more row below (planes
// 4224 B apart); the windows never read it.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 2, ow + kw * 2)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @aliased_planes
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x512x28x28xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 0, 2, 2] high[0, 0, 0, 3, 2]
// CHECK:         tensor<1x1x512x28x28xf32> to tensor<1x1x512x33x32xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[P]], %{{.*}} : tensor<1x1x512x33x32xf32>, tensor<1x16x512x3x3x32xf32>)
module attributes {aotc.cpu_target = {l2_bytes = 2097152 : i64, l2_ways = 16 : i64}} {
func.func @aliased_planes(%x: tensor<1x1x512x28x28xf32>) -> tensor<1x1x512x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 2, 2] high[0, 0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    tensor.yield %zero : f32
  } : tensor<1x1x512x28x28xf32> to tensor<1x1x512x32x32xf32>
  %w = arith.constant dense<1.0> : tensor<1x512x512x3x3xf32>
  %e = tensor.empty() : tensor<1x1x512x28x28xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x512x28x28xf32>) -> tensor<1x1x512x28x28xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%p, %w : tensor<1x1x512x32x32xf32>, tensor<1x512x512x3x3xf32>) outs(%f : tensor<1x1x512x28x28xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x512x28x28xf32>
  return %r : tensor<1x1x512x28x28xf32>
}
}

// -----

// Over 256 channels, 8 lines in each of those sets, half their ways: the
// padding stays as it is.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 2, ow + kw * 2)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @planes_in_half_the_ways
// CHECK:         tensor.pad
// CHECK-SAME:        high[0, 0, 0, 2, 2]
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<1x1x256x32x32xf32>, tensor<1x8x256x3x3x32xf32>)
module attributes {aotc.cpu_target = {l2_bytes = 2097152 : i64, l2_ways = 16 : i64}} {
func.func @planes_in_half_the_ways(%x: tensor<1x1x256x28x28xf32>) -> tensor<1x1x256x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 2, 2] high[0, 0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    tensor.yield %zero : f32
  } : tensor<1x1x256x28x28xf32> to tensor<1x1x256x32x32xf32>
  %w = arith.constant dense<1.0> : tensor<1x256x256x3x3xf32>
  %e = tensor.empty() : tensor<1x1x256x28x28xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x256x28x28xf32>) -> tensor<1x1x256x28x28xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%p, %w : tensor<1x1x256x32x32xf32>, tensor<1x256x256x3x3xf32>) outs(%f : tensor<1x1x256x28x28xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x256x28x28xf32>
  return %r : tensor<1x1x256x28x28xf32>
}
}

// -----

// A depthwise 5x5 convolution on 14 x 14 (blocked input, 14-lane rows
// otherwise), followed by a ReLU computed in place on its result (as
// aotc-reuse-dead-inputs leaves it): the ReLU stays in place on the blocked
// result, and only its result is transposed back.

#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#id = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @depthwise_relu
// CHECK:         %[[CONV:.*]] = linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x2x1x14x14x16xf32>)
// CHECK:         %[[RELU:.*]] = linalg.generic
// CHECK-SAME:        outs(%[[CONV]] : tensor<1x2x1x14x14x16xf32>)
// CHECK:           arith.maximumf
// CHECK:         linalg.transpose ins(%[[RELU]] : tensor<1x2x1x14x14x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @depthwise_relu(%x: tensor<1x32x14x14xf32>, %o: tensor<1x32x1x14x14xf32>) -> tensor<1x32x14x14xf32> {
  %w = arith.constant dense<1.0> : tensor<32x1x1x5x5xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x32x14x14xf32> to tensor<1x32x18x18xf32>
  %xe = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 32, 1, 18, 18] : tensor<1x32x18x18xf32> into tensor<1x32x1x18x18xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xe, %w : tensor<1x32x1x18x18xf32>, tensor<32x1x1x5x5xf32>) outs(%o : tensor<1x32x1x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x32x1x14x14xf32>
  %relu = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%r : tensor<1x32x1x14x14xf32>) {
  ^bb0(%out: f32):
    %m = arith.maximumf %out, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x1x14x14xf32>
  %c = tensor.collapse_shape %relu [[0], [1, 2], [3], [4]] : tensor<1x32x1x14x14xf32> into tensor<1x32x14x14xf32>
  return %c : tensor<1x32x14x14xf32>
}
