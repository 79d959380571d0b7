// RUN: aotc-opt %s -split-input-file -aotc-flatten-convolution-images -canonicalize -cse | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-flatten-convolution-images=vector-bits=256 -canonicalize -cse | FileCheck %s --check-prefix=AVX2

// 3x3 convolution over 2 input channels onto 4, stride 1, of a 6x6 image
// padded to 8x8 (the decomposed pad: insert_slice into a fill): the output
// is computed on the flattened padded image, 6 rows of Wp = 8 = 48
// elements, a grid of 3 x 16 (whole registers; 3 rows, one register tile).
// The input is one flat buffer per channel of 80 elements (48 + the
// window's reach 2 * 8 + 2, rounded up to 16), zero-filled, with the image
// copied in at row 1, column 1. The window (kh, kw) reads flat element
// r * 16 + l + kh * 8 + kw. The bias broadcast is recomputed on the grid;
// the clip reads the 6x6 image as a view of the grid (rows of 8) into a
// fresh destination instead of overwriting it.

#bias = affine_map<(n, g, m, h, w) -> (g, m)>
#id5 = affine_map<(n, g, m, h, w) -> (n, g, m, h, w)>
#xmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#wmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-DAG:  #[[FLAT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 16 + d4 + d6 * 8 + d7)>
// CHECK-LABEL: func.func @channels_bias
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x6x6xf32>, %[[W:.*]]: tensor<1x4x2x3x3xf32>, %[[B:.*]]: tensor<1x4xf32>)
// CHECK:         %[[GRID:.*]] = tensor.empty() : tensor<1x1x4x3x16xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<1x4xf32>) outs(%[[GRID]] : tensor<1x1x4x3x16xf32>)
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6]
// CHECK:         %[[FE:.*]] = tensor.empty() : tensor<1x1x2x80xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[FE]] : tensor<1x1x2x80xf32>)
// CHECK:         %[[ROWS:.*]] = tensor.extract_slice %[[FILL]][0, 0, 0, 0] [1, 1, 2, 56] [1, 1, 1, 1]
// CHECK:         %[[ROWS2D:.*]] = tensor.expand_shape %[[ROWS]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 2, 7, 8]
// CHECK:         %[[WIN:.*]] = tensor.extract_slice %[[ROWS2D]][0, 0, 0, 1, 1] [1, 1, 2, 6, 6] [1, 1, 1, 1, 1]
// CHECK:         %[[COPY:.*]] = linalg.copy ins(%[[XE]] : tensor<1x1x2x6x6xf32>) outs(%[[WIN]] : tensor<1x1x2x6x6xf32>)
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[COPY]] into %[[ROWS2D]][0, 0, 0, 1, 1] [1, 1, 2, 6, 6] [1, 1, 1, 1, 1]
// CHECK:         %[[INSF:.*]] = tensor.collapse_shape %[[INS]] {{\[\[}}0], [1], [2], [3, 4]]
// CHECK:         %[[XF:.*]] = tensor.insert_slice %[[INSF]] into %[[FILL]][0, 0, 0, 0] [1, 1, 2, 56] [1, 1, 1, 1]
// CHECK:         %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[FLAT]], {{.*}}]
// CHECK-SAME:      ins(%[[XF]], %[[W]] : tensor<1x1x2x80xf32>, tensor<1x4x2x3x3xf32>) outs(%[[BIAS]] : tensor<1x1x4x3x16xf32>)
// CHECK:         %[[CF:.*]] = tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x1x4x3x16xf32> into tensor<1x1x4x48xf32>
// CHECK:         %[[IMG2D:.*]] = tensor.expand_shape %[[CF]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 4, 6, 8]
// CHECK:         %[[IMG:.*]] = tensor.extract_slice %[[IMG2D]][0, 0, 0, 0, 0] [1, 1, 4, 6, 6] [1, 1, 1, 1, 1]
// CHECK:         %[[DEST:.*]] = tensor.empty() : tensor<1x1x4x6x6xf32>
// CHECK:         %[[CLIP:.*]] = linalg.generic {{.*}} ins(%[[IMG]] : tensor<1x1x4x6x6xf32>) outs(%[[DEST]] : tensor<1x1x4x6x6xf32>)
// CHECK:         return %[[CLIP]]
func.func @channels_bias(%x: tensor<1x2x6x6xf32>, %w: tensor<1x4x2x3x3xf32>, %b: tensor<1x4xf32>) -> tensor<1x1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : tensor<1x2x6x6xf32> into tensor<1x2x8x8xf32>
  %xp = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : tensor<1x2x8x8xf32> into tensor<1x1x2x8x8xf32>
  %o = tensor.empty() : tensor<1x1x4x6x6xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<1x4xf32>) outs(%o : tensor<1x1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x4x6x6xf32>
  %conv = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<1x1x2x8x8xf32>, tensor<1x4x2x3x3xf32>) outs(%init : tensor<1x1x4x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x6x6xf32>
  %clip = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%conv : tensor<1x1x4x6x6xf32>) outs(%conv : tensor<1x1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x1x4x6x6xf32>
  return %clip : tensor<1x1x4x6x6xf32>
}

// -----

// The input comes from a linalg op used only here, through tensor.pad: the
// producer writes straight into the flat buffer's window (no copy); the
// fill carries the pad value; the result, returned, is copied out of the
// grid view. Filled init: a fill of the grid (5 rows of 7 = 35 elements:
// 3 x 16; the input 48 + 2 * 7 + 2 = 64).

#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#xmap2 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#wmap2 = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#omap2 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-LABEL: func.func @produced
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x5x5xf32>, %[[W:.*]]: tensor<1x4x2x3x3xf32>)
// CHECK-DAG:     %[[PADV:.*]] = arith.constant 1.500000e+00 : f32
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%[[PADV]] : f32) outs(%{{.*}} : tensor<1x1x2x64xf32>)
// CHECK:         %[[WIN:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 1, 1] [1, 1, 2, 5, 5] [1, 1, 1, 1, 1]
// CHECK:         %[[WIN4:.*]] = tensor.collapse_shape %[[WIN]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<1x1x2x5x5xf32> into tensor<1x2x5x5xf32>
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x2x5x5xf32>) outs(%[[WIN4]] : tensor<1x2x5x5xf32>)
// CHECK:           math.exp
// CHECK-NOT:     linalg.copy ins(%{{.*}} : tensor<1x1x2x5x5xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x4x3x16xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<1x1x4x3x16xf32>)
// CHECK:         %[[IMG:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 1, 4, 5, 5] [1, 1, 1, 1, 1]
// CHECK:         %[[OUT:.*]] = linalg.copy ins(%[[IMG]] : tensor<1x1x4x5x5xf32>) outs(%{{.*}} : tensor<1x1x4x5x5xf32>)
// CHECK:         return %[[OUT]]
func.func @produced(%x: tensor<1x2x5x5xf32>, %w: tensor<1x4x2x3x3xf32>) -> tensor<1x1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %padv = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<1x2x5x5xf32>
  %p = tensor.pad %ex low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padv : f32
  } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
  %xp = tensor.expand_shape %p [[0, 1], [2], [3], [4]] output_shape [1, 1, 2, 7, 7] : tensor<1x2x7x7xf32> into tensor<1x1x2x7x7xf32>
  %o = tensor.empty() : tensor<1x1x4x5x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<1x1x4x5x5xf32>) -> tensor<1x1x4x5x5xf32>
  %conv = linalg.generic {indexing_maps = [#xmap2, #wmap2, #omap2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<1x1x2x7x7xf32>, tensor<1x4x2x3x3xf32>) outs(%init : tensor<1x1x4x5x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5x5xf32>
  return %conv : tensor<1x1x4x5x5xf32>
}

// -----

// Stride 2: left to the direct path.

#xmap3 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h * 2 + kh, w * 2 + kw)>
#wmap3 = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#omap3 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-LABEL: func.func @stride2
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x1x2x9x9xf32>, tensor<1x4x2x3x3xf32>) outs(%{{.*}} : tensor<1x1x4x4x4xf32>)
func.func @stride2(%x: tensor<1x1x2x9x9xf32>, %w: tensor<1x4x2x3x3xf32>, %o: tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  %conv = linalg.generic {indexing_maps = [#xmap3, #wmap3, #omap3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x9x9xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x4x4xf32>
  return %conv : tensor<1x1x4x4x4xf32>
}

// -----

// A 3x3 convolution over 2 input channels into 4 output channels, 56x56
// padded to 58x58: 56 rows of 58 = 3248 elements. A depthwise convolution
// would take a grid of 203 x 16 (7-row multiples fit exactly); this one's
// register tiles are 2 or 3 grid rows per output channel
// (aotc-vectorize-convolutions), so the grid has a row count that is a
// multiple of 3 (preferred) or 2: 204 x 16 (3264 elements).

#xmap4 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#wmap4 = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#omap4 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-DAG:  #[[CFLAT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 16 + d4 + d6 * 58 + d7)>
// CHECK-LABEL: func.func @channels
// CHECK:         linalg.generic {indexing_maps = [#[[CFLAT]], {{.*}}]
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x1x2x3392xf32>, tensor<1x4x2x3x3xf32>) outs(%{{.*}} : tensor<1x1x4x204x16xf32>)
func.func @channels(%x: tensor<1x1x2x58x58xf32>, %w: tensor<1x4x2x3x3xf32>, %o: tensor<1x1x4x56x56xf32>) -> tensor<1x1x4x56x56xf32> {
  %conv = linalg.generic {indexing_maps = [#xmap4, #wmap4, #omap4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x58x58xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x56x56xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x56x56xf32>
  return %conv : tensor<1x1x4x56x56xf32>
}

// -----

// 27x27 (padded 29x29): 27 rows of 29 = 783 elements need 49 grid rows of
// 16; a multiple of 3 (51, register tiles of 3 rows) pads less than an
// eighth more than the next even count (50), so 51 x 16. At 7x7 (padded
// 9x9: 63 elements, 4 rows) a multiple of 3 (6) would pad half again as
// much as 4, so 4 x 16.

#xmap5 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#wmap5 = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#omap5 = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-LABEL: func.func @rows_of_three
// CHECK:         tensor.empty() : tensor<1x1x2x880xf32>
// CHECK:         tensor.empty() : tensor<1x1x4x816xf32>
func.func @rows_of_three(%x: tensor<1x1x2x29x29xf32>, %w: tensor<1x4x2x3x3xf32>, %o: tensor<1x1x4x27x27xf32>) -> tensor<1x1x4x27x27xf32> {
  %conv = linalg.generic {indexing_maps = [#xmap5, #wmap5, #omap5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x29x29xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x27x27xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x27x27xf32>
  return %conv : tensor<1x1x4x27x27xf32>
}

// CHECK-LABEL: func.func @rows_of_two
// CHECK:         tensor.empty() : tensor<1x1x2x96xf32>
// CHECK:         tensor.empty() : tensor<1x1x4x64xf32>
func.func @rows_of_two(%x: tensor<1x1x2x9x9xf32>, %w: tensor<1x4x2x3x3xf32>, %o: tensor<1x1x4x7x7xf32>) -> tensor<1x1x4x7x7xf32> {
  %conv = linalg.generic {indexing_maps = [#xmap5, #wmap5, #omap5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x9x9xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x7x7xf32>
  return %conv : tensor<1x1x4x7x7xf32>
}

// -----

// The same 7x7 convolution with 256-bit registers (8 lanes): its rows (7)
// fit one register but its padded rows (9) do not, so a row-aligned grid of
// 7 x 8 (56 outputs for 49) beats the flat one (63 elements: 8 rows, a
// multiple of 3 (9) padding no more than an eighth beyond 8: 72). Grid
// (r, l) reads flat r * 9 + l + kh * 9 + kw; the input holds 7 whole
// padded rows past the window's reach (63 + 20, rounded up to 88: register
// tiles read whole rows, aotc-vectorize-convolutions); the init is laid out
// in rows of 8, and the image is the grid's first 7 columns. At 512 bits
// (16 lanes) the flat grid (64) is smaller than 7 x 16.

#axmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#awmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#aomap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// (Its map is printed after the previous test's function, before its own.)
// AVX2-LABEL:  func.func @rows_of_two
// AVX2:        #[[AMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 9 + d4 + d6 * 9 + d7)>
// AVX2-LABEL:  func.func @row_aligned
// AVX2-SAME:     (%[[X:.*]]: tensor<1x1x2x9x9xf32>, %{{.*}}: tensor<1x4x2x3x3xf32>, %[[O:.*]]: tensor<1x1x4x7x7xf32>)
// AVX2:          tensor.empty() : tensor<1x1x2x88xf32>
// AVX2:          %[[INIT:.*]] = tensor.empty() : tensor<1x1x4x56xf32>
// AVX2:          %[[ROWS:.*]] = tensor.expand_shape %[[INIT]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 4, 7, 8]
// AVX2:          %[[ZEROED:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ROWS]] : tensor<1x1x4x7x8xf32>)
// AVX2:          %[[IMAGE:.*]] = tensor.extract_slice %[[ZEROED]][0, 0, 0, 0, 0] [1, 1, 4, 7, 7] [1, 1, 1, 1, 1]
// AVX2:          linalg.copy ins(%[[O]] : tensor<1x1x4x7x7xf32>) outs(%[[IMAGE]] : tensor<1x1x4x7x7xf32>)
// AVX2:          %[[G:.*]] = linalg.generic {indexing_maps = [#[[AMAP]], {{.*}}]
// AVX2-SAME:       ins(%{{.*}}, %{{.*}} : tensor<1x1x2x88xf32>, tensor<1x4x2x3x3xf32>) outs(%{{.*}} : tensor<1x1x4x7x8xf32>)
// AVX2:          tensor.extract_slice %[[G]][0, 0, 0, 0, 0] [1, 1, 4, 7, 7] [1, 1, 1, 1, 1] : tensor<1x1x4x7x8xf32> to tensor<1x1x4x7x7xf32>
// CHECK-LABEL: func.func @row_aligned
// CHECK:         tensor.empty() : tensor<1x1x2x96xf32>
// CHECK:         tensor.empty() : tensor<1x1x4x64xf32>
func.func @row_aligned(%x: tensor<1x1x2x9x9xf32>, %w: tensor<1x4x2x3x3xf32>, %o: tensor<1x1x4x7x7xf32>) -> tensor<1x1x4x7x7xf32> {
  %conv = linalg.generic {indexing_maps = [#axmap, #awmap, #aomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2x9x9xf32>, tensor<1x4x2x3x3xf32>) outs(%o : tensor<1x1x4x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x7x7xf32>
  return %conv : tensor<1x1x4x7x7xf32>
}

// -----

// Depthwise (no input channels), 3x3 of a 6x6 image padded to 8x8, rows
// narrower than one register at either width. With 512-bit registers the
// 36 pixels fit in three: computed on every channel's flattened image. Tap
// (kh, kw) of channels 1..2 is one view of the unpadded input, 36 + (kh -
// 1) * 6 + (kw - 1) onwards (29, 30, ..., 43), as [2, 36]; its filter
// column [2]; a tap leaving the pixel's image (row 0 for kh = 0, column 5
// for kw = 2, ...) reads the padding value instead, selected by the pixel's
// row (p / 6) and column (p % 6); the products are summed in the window's
// order into the init's rows. Channels 0 and 3 read their own image padded
// by 7 (the farthest tap) on both sides. No flat copy of the input. With
// 256-bit registers (36 > 4 x 8 lanes) it is left direct
// (aotc-peel-padded-windows reads its input in place).

#dxmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#dwmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#domap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x6x6xf32>, %[[W:.*]]: tensor<4x1x1x3x3xf32>, %[[O:.*]]: tensor<1x4x1x6x6xf32>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2, 3]] : tensor<1x4x6x6xf32> into tensor<144xf32>
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %[[O]] {{\[}}[0, 1], [2, 3, 4]] : tensor<1x4x1x6x6xf32> into tensor<4x36xf32>
// CHECK:         %[[INNER:.*]] = tensor.extract_slice %[[ROWS]][1, 0] [2, 36] [1, 1]
// CHECK:         %[[V0:.*]] = tensor.extract_slice %[[FLAT]][29] [72] [1]
// CHECK:         %[[T0:.*]] = tensor.expand_shape %[[V0]] {{\[}}[0, 1]] output_shape [2, 36]
// CHECK:         %[[W0:.*]] = tensor.extract_slice %[[W]][1, 0, 0, 0, 0] [2, 1, 1, 1, 1] [1, 1, 1, 1, 1] : tensor<4x1x1x3x3xf32> to tensor<2xf32>
// CHECK:         tensor.extract_slice %[[FLAT]][30] [72] [1]
// CHECK:         tensor.extract_slice %[[FLAT]][43] [72] [1]
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[T0]], %[[W0]], {{.*}}) outs(%[[INNER]] : tensor<2x36xf32>)
// CHECK:           %[[P:.*]] = linalg.index 1 : index
// CHECK:           %[[R:.*]] = arith.divui %[[P]], %[[C6]] : index
// CHECK:           %[[COL:.*]] = arith.remui %[[P]], %[[C6]] : index
// CHECK:           %[[TOP:.*]] = arith.cmpi uge, %[[R]], %[[C1]] : index
// CHECK:           %[[LEFT:.*]] = arith.cmpi uge, %[[COL]], %[[C1]] : index
// CHECK:           %[[IN:.*]] = arith.andi %[[TOP]], %[[LEFT]] : i1
// CHECK:           %[[XV:.*]] = arith.select %[[IN]], %{{.*}}, %[[PAD]] : f32
// CHECK:           %[[M:.*]] = arith.mulf %[[XV]], %{{.*}} : f32
// CHECK:           arith.addf %{{.*}}, %[[M]] : f32
// CHECK:           arith.cmpi ult, %[[COL]], %[[C5]] : index
// CHECK:         %[[I1:.*]] = tensor.insert_slice %[[G]] into %[[ROWS]][1, 0] [2, 36] [1, 1]
// CHECK:         %[[OWN0:.*]] = tensor.extract_slice %[[FLAT]][0] [36] [1]
// CHECK:         tensor.pad %[[OWN0]] low[7] high[7]
// CHECK:         tensor.insert_slice %{{.*}} into %[[I1]][0, 0] [1, 36] [1, 1]
// CHECK:         %[[OWN3:.*]] = tensor.extract_slice %[[FLAT]][108] [36] [1]
// CHECK:         tensor.pad %[[OWN3]] low[7] high[7]
// CHECK:         %[[ALL:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[3, 0] [1, 36] [1, 1]
// CHECK:         %[[Y:.*]] = tensor.expand_shape %[[ALL]] {{\[}}[0, 1], [2, 3, 4]] output_shape [1, 4, 1, 6, 6] : tensor<4x36xf32> into tensor<1x4x1x6x6xf32>
// CHECK:         return %[[Y]]
// AVX2-LABEL:  func.func @depthwise
// AVX2-NOT:      tensor.collapse_shape
// AVX2:          linalg.generic
// AVX2-SAME:       ins(%{{.*}}, %{{.*}} : tensor<1x4x1x8x8xf32>, tensor<4x1x1x3x3xf32>) outs(%{{.*}} : tensor<1x4x1x6x6xf32>)
func.func @depthwise(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x1x3x3xf32>, %o: tensor<1x4x1x6x6xf32>) -> tensor<1x4x1x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x6x6xf32> into tensor<1x4x8x8xf32>
  %xp = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x4x1x8x8xf32>
  %conv = linalg.generic {indexing_maps = [#dxmap, #dwmap, #domap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<1x4x1x8x8xf32>, tensor<4x1x1x3x3xf32>) outs(%o : tensor<1x4x1x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x6x6xf32>
  return %conv : tensor<1x4x1x6x6xf32>
}

// -----

// The same with a bias broadcast as the init: the bias is read per channel
// (its rows [1, 3) for the inner channels) and the result computed in a new
// [4, 36] tensor, not over the broadcast.

#bbias = affine_map<(n, g, m, h, w) -> (g, m)>
#bid = affine_map<(n, g, m, h, w) -> (n, g, m, h, w)>
#bxmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>
#bwmap = affine_map<(n, g, m, h, w, c, kh, kw) -> (g, m, c, kh, kw)>
#bomap = affine_map<(n, g, m, h, w, c, kh, kw) -> (n, g, m, h, w)>
// CHECK-LABEL: func.func @depthwise_bias
// CHECK-SAME:    %[[B:[a-z0-9]+]]: tensor<4x1xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x36xf32>
// CHECK-DAG:     %[[INNER:.*]] = tensor.extract_slice %[[E]][1, 0] [2, 36] [1, 1]
// CHECK-DAG:     %[[BI:.*]] = tensor.extract_slice %[[B]][1, 0] [2, 1] [1, 1] : tensor<4x1xf32> to tensor<2xf32>
// CHECK:         linalg.generic {{.*}} ins({{.*}}, %[[BI]] : {{.*}}, tensor<2xf32>) outs(%[[INNER]] : tensor<2x36xf32>)
// CHECK-NOT:     linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x1x6x6xf32>)
// CHECK:         return
func.func @depthwise_bias(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x1x3x3xf32>, %b: tensor<4x1xf32>) -> tensor<1x4x1x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x6x6xf32> into tensor<1x4x8x8xf32>
  %xp = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x4x1x8x8xf32>
  %oe = tensor.empty() : tensor<1x4x1x6x6xf32>
  %init = linalg.generic {indexing_maps = [#bbias, #bid], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4x1xf32>) outs(%oe : tensor<1x4x1x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x6x6xf32>
  %conv = linalg.generic {indexing_maps = [#bxmap, #bwmap, #bomap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<1x4x1x8x8xf32>, tensor<4x1x1x3x3xf32>) outs(%init : tensor<1x4x1x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x6x6xf32>
  return %conv : tensor<1x4x1x6x6xf32>
}
