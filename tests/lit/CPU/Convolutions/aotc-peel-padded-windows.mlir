// RUN: aotc-opt %s -split-input-file -aotc-peel-padded-windows=vector-bits=256 -canonicalize -cse | FileCheck %s

// Depthwise 3x3, stride 2, padding 1 on an 8 x 34 image (the importer's
// grouped form, its padded input decomposed into a fill and an insert): the
// outputs [1, 4) x [1, 17) read the input in place, rows [1, 8) x [1, 34);
// row 0 reads a pad of input rows [0, 2) (one row and column of padding
// before), column 0 of rows [1, 4) a pad of columns [0, 2). Each part starts
// from its own bias broadcast and ends with its own ReLU6. One output of 17
// per row reads the padding (aotc::peeledRowsPay).

#xmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#wmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bmap = affine_map<(n, g, m, oh, ow) -> (g, m)>
#id5 = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
// CHECK-LABEL: func.func @depthwise_stride2
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x8x34xf32>, %[[W:.*]]: tensor<2x1x1x3x3xf32>, %[[B:.*]]: tensor<2x1xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<1x2x1x4x17xf32>
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 34]
// CHECK:         %[[XI:.*]] = tensor.extract_slice %[[XE]][0, 0, 0, 1, 1] [1, 2, 1, 7, 33] [1, 1, 1, 1, 1]
// CHECK:         %[[OI:.*]] = tensor.extract_slice %[[OUT]][0, 0, 0, 1, 1] [1, 2, 1, 3, 16] [1, 1, 1, 1, 1]
// CHECK:         %[[BI:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2x1xf32>) outs(%[[OI]] : tensor<1x2x1x3x16xf32>)
// CHECK:         %[[CI:.*]] = linalg.generic {{.*}} ins(%[[XI]], %[[W]] : tensor<1x2x1x7x33xf32>, tensor<2x1x1x3x3xf32>) outs(%[[BI]] : tensor<1x2x1x3x16xf32>)
// CHECK:         %[[RI:.*]] = linalg.generic {{.*}} outs(%[[CI]] : tensor<1x2x1x3x16xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[RI]] into %[[OUT]][0, 0, 0, 1, 1] [1, 2, 1, 3, 16] [1, 1, 1, 1, 1]
// CHECK:         %[[XT:.*]] = tensor.extract_slice %[[XE]][0, 0, 0, 0, 0] [1, 2, 1, 2, 34] [1, 1, 1, 1, 1]
// CHECK:         %[[PT:.*]] = tensor.empty() : tensor<1x2x1x3x35xf32>
// CHECK:         %[[FT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[PT]] : tensor<1x2x1x3x35xf32>)
// CHECK:         %[[IT:.*]] = tensor.insert_slice %[[XT]] into %[[FT]][0, 0, 0, 1, 1] [1, 2, 1, 2, 34] [1, 1, 1, 1, 1]
// CHECK:         %[[OT:.*]] = tensor.extract_slice %[[I0]][0, 0, 0, 0, 0] [1, 2, 1, 1, 17] [1, 1, 1, 1, 1]
// CHECK:         %[[BT:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2x1xf32>) outs(%[[OT]] : tensor<1x2x1x1x17xf32>)
// CHECK:         %[[CT:.*]] = linalg.generic {{.*}} ins(%[[IT]], %[[W]] : tensor<1x2x1x3x35xf32>, tensor<2x1x1x3x3xf32>) outs(%[[BT]] : tensor<1x2x1x1x17xf32>)
// CHECK:         %[[RT:.*]] = linalg.generic {{.*}} outs(%[[CT]] : tensor<1x2x1x1x17xf32>)
// CHECK:         %[[I1:.*]] = tensor.insert_slice %[[RT]] into %[[I0]][0, 0, 0, 0, 0] [1, 2, 1, 1, 17] [1, 1, 1, 1, 1]
// CHECK:         %[[XL:.*]] = tensor.extract_slice %[[XE]][0, 0, 0, 1, 0] [1, 2, 1, 7, 2] [1, 1, 1, 1, 1]
// CHECK:         %[[PL:.*]] = tensor.empty() : tensor<1x2x1x7x3xf32>
// CHECK:         %[[FL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[PL]] : tensor<1x2x1x7x3xf32>)
// CHECK:         %[[IL:.*]] = tensor.insert_slice %[[XL]] into %[[FL]][0, 0, 0, 0, 1] [1, 2, 1, 7, 2] [1, 1, 1, 1, 1]
// CHECK:         %[[OL:.*]] = tensor.extract_slice %[[I1]][0, 0, 0, 1, 0] [1, 2, 1, 3, 1] [1, 1, 1, 1, 1]
// CHECK:         %[[BL:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2x1xf32>) outs(%[[OL]] : tensor<1x2x1x3x1xf32>)
// CHECK:         %[[CL:.*]] = linalg.generic {{.*}} ins(%[[IL]], %[[W]] : tensor<1x2x1x7x3xf32>, tensor<2x1x1x3x3xf32>) outs(%[[BL]] : tensor<1x2x1x3x1xf32>)
// CHECK:         %[[RL:.*]] = linalg.generic {{.*}} outs(%[[CL]] : tensor<1x2x1x3x1xf32>)
// CHECK:         %[[I2:.*]] = tensor.insert_slice %[[RL]] into %[[I1]][0, 0, 0, 1, 0] [1, 2, 1, 3, 1] [1, 1, 1, 1, 1]
// CHECK:         %[[Y:.*]] = tensor.collapse_shape %[[I2]]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[Y]]
func.func @depthwise_stride2(%x: tensor<1x2x8x34xf32>, %w: tensor<2x1x1x3x3xf32>, %b: tensor<2x1xf32>) -> tensor<1x2x4x17xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %pe = tensor.empty() : tensor<1x2x10x36xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x10x36xf32>) -> tensor<1x2x10x36xf32>
  %p = tensor.insert_slice %x into %pf[0, 0, 1, 1] [1, 2, 8, 34] [1, 1, 1, 1] : tensor<1x2x8x34xf32> into tensor<1x2x10x36xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 10, 36] : tensor<1x2x10x36xf32> into tensor<1x2x1x10x36xf32>
  %e = tensor.empty() : tensor<1x2x1x4x17xf32>
  %init = linalg.generic {indexing_maps = [#bmap, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<2x1xf32>) outs(%e : tensor<1x2x1x4x17xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x1x4x17xf32>
  %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x2x1x10x36xf32>, tensor<2x1x1x3x3xf32>) outs(%init : tensor<1x2x1x4x17xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x1x4x17xf32>
  %cc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x1x4x17xf32> into tensor<1x2x4x17xf32>
  %e2 = tensor.empty() : tensor<1x2x4x17xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc : tensor<1x2x4x17xf32>) outs(%e2 : tensor<1x2x4x17xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.maximumf %in, %zero : f32
    %2 = arith.minimumf %1, %six : f32
    linalg.yield %2 : f32
  } -> tensor<1x2x4x17xf32>
  return %r : tensor<1x2x4x17xf32>
}

// -----

// Max pooling 3x3, stride 1, padding 1 (-inf, a tensor.pad) on a 24-wide
// image: -inf is the max's identity, so the border outputs leave out the
// taps that would read the padding and read the input in place too, no
// padded copy at all. Rows fall in segments [0, 1) (taps 1-2), [1, 3) (all
// taps), [3, 4) (taps 0-1); columns in [0, 1), the interior [1, 23) cut to
// two whole registers of 8 lanes [1, 17), then [17, 23) (all taps) and
// [23, 24) (taps 0-1): 12 parts, the interior first, each with its window
// sliced to its taps and its own fill.

// CHECK-LABEL: func.func @max_pool_lanes
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x4x24xf32>)
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         %[[XI:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 4, 18] [1, 1, 1, 1]
// CHECK:         linalg.pooling_nchw_max {{.*}} ins(%[[XI]], %[[WIN]] : tensor<1x2x4x18xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x2x16xf32>)
// CHECK:         %[[XC:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[WC:.*]] = tensor.extract_slice %[[WIN]][1, 1] [2, 2] [1, 1]
// CHECK:         %[[FC:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<1x2x1x1xf32>)
// CHECK:         linalg.pooling_nchw_max {{.*}} ins(%[[XC]], %[[WC]] : tensor<1x2x2x2xf32>, tensor<2x2xf32>) outs(%[[FC]] : tensor<1x2x1x1xf32>)
// CHECK-COUNT-10: linalg.pooling_nchw_max
// CHECK-NOT:     linalg.pooling_nchw_max
// CHECK-NOT:     tensor<1x2x3x26xf32>
// CHECK:         return
func.func @max_pool_lanes(%x: tensor<1x2x4x24xf32>) -> tensor<1x2x4x24xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x2x4x24xf32> to tensor<1x2x6x26xf32>
  %e = tensor.empty() : tensor<1x2x4x24xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x4x24xf32>) -> tensor<1x2x4x24xf32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %window : tensor<1x2x6x26xf32>, tensor<3x3xf32>)
      outs(%init : tensor<1x2x4x24xf32>) -> tensor<1x2x4x24xf32>
  return %max : tensor<1x2x4x24xf32>
}

// -----

// A depthwise convolution whose constant filter holds an infinity: a tap
// reading the zero padding adds 0 * inf = NaN, so no tap is left out; the
// strips read padded copies (and the filter whole).

#ixmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iwmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iomap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @infinite_filter
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{.*}}0x7F800000{{.*}}> : tensor<1x1x1x3x3xf32>
// CHECK-NOT:     tensor.extract_slice %[[W]]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x1x1x4x26xf32>, tensor<1x1x1x3x3xf32>) outs(%{{.*}} : tensor<1x1x1x2x24xf32>)
// CHECK:         %[[FT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x1x3x34xf32>)
// CHECK:         %[[PT:.*]] = tensor.insert_slice %{{.*}} into %[[FT]][0, 0, 0, 1, 1] [1, 1, 1, 2, 32] [1, 1, 1, 1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[PT]], %[[W]] : tensor<1x1x1x3x34xf32>, tensor<1x1x1x3x3xf32>)
func.func @infinite_filter(%x: tensor<1x1x4x32xf32>) -> tensor<1x1x1x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[[1.0, 2.0, 3.0], [4.0, 0x7F800000, 6.0], [7.0, 8.0, 9.0]]]]]> : tensor<1x1x1x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x1x4x32xf32> to tensor<1x1x6x34xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 1, 6, 34] : tensor<1x1x6x34xf32> into tensor<1x1x1x6x34xf32>
  %e = tensor.empty() : tensor<1x1x1x4x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x4x32xf32>) -> tensor<1x1x1x4x32xf32>
  %c = linalg.generic {indexing_maps = [#ixmap, #iwmap, #iomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x1x6x34xf32>, tensor<1x1x1x3x3xf32>) outs(%init : tensor<1x1x1x4x32xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x4x32xf32>
  return %c : tensor<1x1x1x4x32xf32>
}

// -----

// Not peeled: a convolution over input channels (the pad's copy is small
// next to its arithmetic), padding wider than the window reaches (3 > 2:
// some outputs would read only padding), and padding along channels. Their
// pads become a fill and the source inserted into it, as every pad does.

#xmap = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wmap = affine_map<(n, o, oh, ow, c, kh, kw) -> (o, c, kh, kw)>
#omap = affine_map<(n, o, oh, ow, c, kh, kw) -> (n, o, oh, ow)>
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor.extract_slice
// CHECK-COUNT-3: tensor.insert_slice %{{.*}} into %{{.*}}[0, {{[01]}}, {{[13]}}, {{[13]}}] [1, 2, 8, 8]
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor.extract_slice
func.func @unchanged(%x: tensor<1x2x8x8xf32>, %w: tensor<2x2x3x3xf32>, %o: tensor<1x2x8x8xf32>,
                     %o2: tensor<1x2x12x12xf32>, %o3: tensor<1x4x8x8xf32>)
    -> (tensor<1x2x8x8xf32>, tensor<1x2x12x12xf32>, tensor<1x4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%p, %w : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%o : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x8x8xf32>
  %p3 = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x14x14xf32>
  %s3 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p3, %window : tensor<1x2x14x14xf32>, tensor<3x3xf32>)
      outs(%o2 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %pc = tensor.pad %x low[0, 1, 1, 1] high[0, 1, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x8xf32> to tensor<1x4x10x10xf32>
  %sc = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pc, %window : tensor<1x4x10x10xf32>, tensor<3x3xf32>)
      outs(%o3 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c, %s3, %sc : tensor<1x2x8x8xf32>, tensor<1x2x12x12xf32>, tensor<1x4x8x8xf32>
}

// -----

// Without a windowed op to peel, pads made after aotc-decompose-ops (the
// whole-register padding of aotc-winograd-convolutions' tiles) still become
// a fill and the source inserted into it, which bufferizes in place (a
// tensor.pad would be a copy into a buffer of its own).

// CHECK-LABEL: func.func @pad_without_windows
// CHECK-SAME:    (%[[V:.*]]: tensor<16x128x196xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<16x128x208xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<16x128x208xf32>)
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[V]] into %[[F]][0, 0, 0] [16, 128, 196] [1, 1, 1]
// CHECK:         return %[[R]]
func.func @pad_without_windows(%v: tensor<16x128x196xf32>) -> tensor<16x128x208xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %v low[0, 0, 0] high[0, 0, 12] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<16x128x196xf32> to tensor<16x128x208xf32>
  return %p : tensor<16x128x208xf32>
}

// -----

// Two padded max pools in a row (GoogLeNet's stride-2 pool with ceil_mode
// feeding an inception branch's 3x3 stride-1 pool): the second reads the
// first's result through its padding. Each is peeled in turn, the second
// matched on the first's parts (the first's op is gone).

// CHECK-LABEL: func.func @chained_pools
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x8x40xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.pooling_nchw_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x8x34xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x6x32xf32>)
// CHECK:         linalg.pooling_nchw_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x6x34xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x4x32xf32>)
// CHECK:         return
func.func @chained_pools(%x: tensor<1x2x8x40xf32>) -> tensor<1x2x6x38xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %xp = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x2x8x40xf32> to tensor<1x2x8x41xf32>
  %e = tensor.empty() : tensor<1x2x6x39xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x6x39xf32>) -> tensor<1x2x6x39xf32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %window : tensor<1x2x8x41xf32>, tensor<3x3xf32>)
      outs(%init : tensor<1x2x6x39xf32>) -> tensor<1x2x6x39xf32>
  %mp = tensor.pad %max low[0, 0, 1, 1] high[0, 0, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x2x6x39xf32> to tensor<1x2x8x40xf32>
  %e2 = tensor.empty() : tensor<1x2x6x38xf32>
  %init2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x6x38xf32>) -> tensor<1x2x6x38xf32>
  %max2 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%mp, %window : tensor<1x2x8x40xf32>, tensor<3x3xf32>)
      outs(%init2 : tensor<1x2x6x38xf32>) -> tensor<1x2x6x38xf32>
  return %max2 : tensor<1x2x6x38xf32>
}

// -----

// The same on a 8x8 image: one output of 4 per row reads the padding, too
// many (aotc::peeledRowsPay). The op is left whole, on its padded input.
#xmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#wmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @narrow_rows
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> into tensor<1x2x10x10xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x1x10x10xf32>, tensor<2x1x1x3x3xf32>) outs(%{{.*}} : tensor<1x2x1x4x4xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @narrow_rows(%x: tensor<1x2x8x8xf32>, %w: tensor<2x1x1x3x3xf32>) -> tensor<1x2x1x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<1x2x10x10xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x10x10xf32>) -> tensor<1x2x10x10xf32>
  %p = tensor.insert_slice %x into %pf[0, 0, 1, 1] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> into tensor<1x2x10x10xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 10, 10] : tensor<1x2x10x10xf32> into tensor<1x2x1x10x10xf32>
  %e = tensor.empty() : tensor<1x2x1x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x1x4x4xf32>) -> tensor<1x2x1x4x4xf32>
  %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x2x1x10x10xf32>, tensor<2x1x1x3x3xf32>) outs(%init : tensor<1x2x1x4x4xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x1x4x4xf32>
  return %c : tensor<1x2x1x4x4xf32>
}
