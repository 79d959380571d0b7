// RUN: aotc-opt %s -split-input-file -aotc-distribute-to-forall | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-distribute-to-forall='min-work=16 max-tiles=8' | FileCheck %s --check-prefix=OPTS
// RUN: aotc-opt %s -split-input-file -aotc-distribute-to-forall='vector-bits=256' | FileCheck %s --check-prefix=AVX2

// A big matmul: 256*128*64 iterations / min-work 32768 = 64 tiles wanted,
// but a contraction's thread tile keeps at least 64 rows (they share each
// cache block of B) and 256 columns: 4 tiles of 64 rows. B is read whole.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<256x64xf32>, %[[B:.*]]: tensor<64x128xf32>, %[[C:.*]]: tensor<256x128xf32>)
// CHECK:         %[[R:.*]] = scf.forall (%[[I:.*]]) = (0) to (256) step (64) shared_outs(%[[O:.*]] = %[[C]]) -> (tensor<256x128xf32>)
// CHECK-DAG:       %[[SA:.*]] = tensor.extract_slice %[[A]][%[[I]], 0] [64, 64] [1, 1] : tensor<256x64xf32> to tensor<64x64xf32>
// CHECK-DAG:       %[[SB:.*]] = tensor.extract_slice %[[B]][0, 0] [64, 128] [1, 1]
// CHECK-DAG:       %[[SO:.*]] = tensor.extract_slice %[[O]][%[[I]], 0] [64, 128] [1, 1]
// CHECK:           %[[T:.*]] = linalg.matmul ins(%[[SA]], %[[SB]] : tensor<64x64xf32>, tensor<64x128xf32>) outs(%[[SO]] : tensor<64x128xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[T]] into %[[O]][%[[I]], 0] [64, 128] [1, 1] : tensor<64x128xf32> into tensor<256x128xf32>
// CHECK:         return %[[R]]
// OPTS-LABEL: func.func @matmul
// OPTS:         scf.forall (%{{.*}}) = (0) to (256) step (64)
// OPTS:           linalg.matmul {{.*}} -> tensor<64x128xf32>
func.func @matmul(%a: tensor<256x64xf32>, %b: tensor<64x128xf32>, %c: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}

// -----

// A contraction whose right-hand side holds 8 MiB or more takes thread tiles
// of at least 256 rows (not 64): each tile of rows reads all of the
// right-hand side it spans, so 8 tiles of rows read it 8 times instead of
// 32; 384 rows stay whole (one tile of rows, 32 of 256 columns). A smaller
// right-hand side keeps 64-row tiles.

// CHECK-LABEL: func.func @tall_matmul
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2048, 8192) step (256, 1024)
// CHECK:           linalg.matmul {{.*}} -> tensor<256x1024xf32>
func.func @tall_matmul(%a: tensor<2048x256xf32>, %b: tensor<256x8192xf32>, %c: tensor<2048x8192xf32>) -> tensor<2048x8192xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<2048x256xf32>, tensor<256x8192xf32>) outs(%c : tensor<2048x8192xf32>) -> tensor<2048x8192xf32>
  return %0 : tensor<2048x8192xf32>
}

// CHECK-LABEL: func.func @wide_rhs
// CHECK:         scf.forall (%{{.*}}) = (0) to (8192) step (256)
// CHECK:           linalg.matmul {{.*}} -> tensor<384x256xf32>
func.func @wide_rhs(%a: tensor<384x256xf32>, %b: tensor<256x8192xf32>, %c: tensor<384x8192xf32>) -> tensor<384x8192xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<384x256xf32>, tensor<256x8192xf32>) outs(%c : tensor<384x8192xf32>) -> tensor<384x8192xf32>
  return %0 : tensor<384x8192xf32>
}

// CHECK-LABEL: func.func @small_rhs
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2048, 1024) step (64, 512)
func.func @small_rhs(%a: tensor<2048x64xf32>, %b: tensor<64x1024xf32>, %c: tensor<2048x1024xf32>) -> tensor<2048x1024xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<2048x64xf32>, tensor<64x1024xf32>) outs(%c : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  return %0 : tensor<2048x1024xf32>
}

// -----

// A matmul written as a generic (as the ONNX importer emits it), 1024^3:
// 16 tiles of 64 rows, then the columns into 4 tiles of 256 (64 in all).

#lhs = affine_map<(i, j, k) -> (i, k)>
#rhs = affine_map<(i, j, k) -> (k, j)>
#out = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @generic_matmul
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1024, 1024) step (64, 256)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x1024xf32>, tensor<1024x256xf32>) outs(%{{.*}} : tensor<64x256xf32>)
func.func @generic_matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// Too little work (256 < min-work): stays sequential. With min-work=16 it is
// split into 8 tiles.

// CHECK-LABEL: func.func @small
// CHECK-NOT:     scf.forall
// CHECK:         linalg.add ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK-NOT:     scf.forall
// CHECK:         return
// OPTS-LABEL: func.func @small
// OPTS:         scf.forall (%{{.*}}) = (0) to (16) step (2)
// OPTS:           linalg.add {{.*}} -> tensor<2x16xf32>
func.func @small(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %0 = linalg.add ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// An op without reduction loops is threaded from a quarter of min-work
// iterations (8192) in a function with ops of min-work iterations (an exp
// of 256 x 128 floats), whose parallel region it then joins: an add of 64 x
// 256 floats (16384) gets two tiles, where a matmul of as many iterations
// (16 x 32 x 32) and an exp of fewer (32 x 127 = 4064) stay sequential.
// Alone in its function (@quarter_min_work_alone), the add stays
// sequential: its own fork and join would cost about what threads save.

// CHECK-LABEL: func.func @quarter_min_work(
// CHECK:         scf.forall (%{{.*}}) = (0) to (64) step (32)
// CHECK:           linalg.add {{.*}} -> tensor<32x256xf32>
// CHECK:         scf.forall.in_parallel
// CHECK-NOT:     scf.forall (
// CHECK:         linalg.matmul {{.*}} -> tensor<16x32xf32>
// CHECK-NOT:     scf.forall (
// CHECK:         linalg.exp {{.*}} -> tensor<32x127xf32>
// CHECK:         scf.forall (
// CHECK:           linalg.exp
// CHECK-LABEL: func.func @quarter_min_work_alone(
// CHECK-NOT:     scf.forall
// CHECK:         linalg.add {{.*}} -> tensor<64x256xf32>
func.func @quarter_min_work(%a: tensor<64x256xf32>, %b: tensor<64x256xf32>, %x: tensor<16x32xf32>, %y: tensor<32x32xf32>, %z: tensor<16x32xf32>, %s: tensor<32x127xf32>, %big: tensor<256x128xf32>) -> (tensor<64x256xf32>, tensor<16x32xf32>, tensor<32x127xf32>, tensor<256x128xf32>) {
  %e = tensor.empty() : tensor<64x256xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = linalg.matmul ins(%x, %y : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<32x127xf32>
  %2 = linalg.exp ins(%s : tensor<32x127xf32>) outs(%e2 : tensor<32x127xf32>) -> tensor<32x127xf32>
  %e3 = tensor.empty() : tensor<256x128xf32>
  %3 = linalg.exp ins(%big : tensor<256x128xf32>) outs(%e3 : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %0, %1, %2, %3 : tensor<64x256xf32>, tensor<16x32xf32>, tensor<32x127xf32>, tensor<256x128xf32>
}

func.func @quarter_min_work_alone(%a: tensor<64x256xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// The outer dimension (3) gives too few tiles: the next one is split too,
// with a divisor (2 tiles of 50000) so tiles stay static and the count stays
// within the target of 300000 / 32768 = 9: 3 x 2 = 6 tiles.

// CHECK-LABEL: func.func @two_dims
// CHECK:         scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 100000) step (1, 50000)
// CHECK:           tensor.extract_slice %{{.*}}[%[[I]], %[[J]]] [1, 50000] [1, 1] : tensor<3x100000xf32> to tensor<1x50000xf32>
// CHECK:           linalg.exp {{.*}} -> tensor<1x50000xf32>
// CHECK:           tensor.parallel_insert_slice {{.*}} [1, 50000] [1, 1] : tensor<1x50000xf32> into tensor<3x100000xf32>
func.func @two_dims(%a: tensor<3x100000xf32>) -> tensor<3x100000xf32> {
  %e = tensor.empty() : tensor<3x100000xf32>
  %0 = linalg.exp ins(%a : tensor<3x100000xf32>) outs(%e : tensor<3x100000xf32>) -> tensor<3x100000xf32>
  return %0 : tensor<3x100000xf32>
}

// -----

// Reduction dimensions are never split: only the parallel one, which is
// also the innermost (the vector dimension): a target of 524288 / 32768 = 16
// tiles, but none narrower than 64 columns, so 512 -> 8 tiles of 64.

// CHECK-LABEL: func.func @column_sum
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (512) step (64)
// CHECK:           tensor.extract_slice %{{.*}}[0, %[[J]]] [1024, 64] [1, 1] : tensor<1024x512xf32> to tensor<1024x64xf32>
// CHECK:           linalg.reduce ins(%{{.*}} : tensor<1024x64xf32>) outs(%{{.*}} : tensor<64xf32>) dimensions = [0]
func.func @column_sum(%a: tensor<1024x512xf32>, %init: tensor<512xf32>) -> tensor<512xf32> {
  %0 = linalg.reduce ins(%a : tensor<1024x512xf32>) outs(%init : tensor<512xf32>) dimensions = [0]
    (%in: f32, %out: f32) {
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<512xf32>
}

// -----

// Only ops directly in the function body are distributed (one level of
// parallelism); non-linalg ops are untouched.

// CHECK-LABEL: func.func @nested
// CHECK:         scf.forall (%{{.*}}) in (64)
// CHECK-NOT:     scf.forall (
// CHECK:         linalg.exp ins(%{{.*}} : tensor<4x256xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
// OPTS-LABEL: func.func @nested
// OPTS:         scf.forall (%{{.*}}) in (64)
// OPTS-NOT:     scf.forall (
// OPTS:         linalg.exp ins(%{{.*}} : tensor<4x256xf32>)
// OPTS-NOT:     scf.forall (
// OPTS:         return
func.func @nested(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = scf.forall (%i) in (64) shared_outs(%o = %a) -> (tensor<256x256xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %s = tensor.extract_slice %o[%off, 0] [4, 256] [1, 1] : tensor<256x256xf32> to tensor<4x256xf32>
    %e = linalg.exp ins(%s : tensor<4x256xf32>) outs(%s : tensor<4x256xf32>) -> tensor<4x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%off, 0] [4, 256] [1, 1] : tensor<4x256xf32> into tensor<256x256xf32>
    }
  }
  return %0 : tensor<256x256xf32>
}

// -----

// 197 rows (prime) of a row reduction, 197*768 iterations: 4 tiles wanted,
// but no divisor of 197 gives more than one. The op is split into 196 rows,
// distributed as 4 tiles of 49, and a one-row remainder, left sequential.

// CHECK-LABEL: func.func @prime_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<197x768xf32>, %[[INIT:.*]]: tensor<197xf32>)
// CHECK:         %[[BULK:.*]] = scf.forall (%{{.*}}) = (0) to (196) step (49)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : tensor<49x768xf32>) outs(%{{.*}} : tensor<49xf32>)
// CHECK:         %[[TAIL:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x768xf32>) outs(%{{.*}} : tensor<1xf32>)
// CHECK-NOT:     scf.forall
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @prime_rows(%x: tensor<197x768xf32>, %init: tensor<197xf32>) -> tensor<197xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<197x768xf32>) outs(%init : tensor<197xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<197xf32>
  return %0 : tensor<197xf32>
}

// -----

// A transformer projection, 64 x 256 outputs: one 64-row, 256-column tile
// under the usual minimums, so the columns are split into halves of 128.

// CHECK-LABEL: func.func @projection
// CHECK:         scf.forall (%{{.*}}) = (0) to (256) step (128)
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x256xf32>, tensor<256x128xf32>) outs(%{{.*}} : tensor<64x128xf32>)
func.func @projection(%a: tensor<64x256xf32>, %b: tensor<256x256xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// A 3x3 convolution over 16 input channels into 64 output channels on a
// flattened image (aotc-flatten-convolution-images): thread tiles keep whole
// register tiles of 8 output channels x 3 grid rows
// (aotc-vectorize-convolutions), so the tiles are 8 channel blocks x 4
// blocks of 51 grid rows (204 = 68 x 3; 64 tiles wanted), not 64 single
// channels or blocks of 34 rows.

#fx = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 16 + l + kh * 58 + kw)>
#fw = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#fo = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
// CHECK-LABEL: func.func @flat_convolution
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 204) step (8, 51)
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x1x8x51x16xf32>)
func.func @flat_convolution(%x: tensor<1x1x16x3392xf32>, %w: tensor<1x64x16x3x3xf32>, %o: tensor<1x1x64x204x16xf32>) -> tensor<1x1x64x204x16xf32> {
  %r = linalg.generic {indexing_maps = [#fx, #fw, #fo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x16x3392xf32>, tensor<1x64x16x3x3xf32>) outs(%o : tensor<1x1x64x204x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x204x16xf32>
  return %r : tensor<1x1x64x204x16xf32>
}

// -----

// Too few channel blocks and grid rows for the wanted tile count (27): the
// 16 lanes of the flattened image stay whole (one register) instead of
// being split into 4-lane strips.

#fx = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 16 + l + kh * 58 + kw)>
#fw = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#fo = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
// CHECK-LABEL: func.func @flat_convolution_whole_lanes
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (16, 6) step (8, 3)
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x1x8x3x16xf32>)
func.func @flat_convolution_whole_lanes(%x: tensor<1x1x64x256xf32>, %w: tensor<1x16x64x3x3xf32>, %o: tensor<1x1x16x6x16xf32>) -> tensor<1x1x16x6x16xf32> {
  %r = linalg.generic {indexing_maps = [#fx, #fw, #fo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x256xf32>, tensor<1x16x64x3x3xf32>) outs(%o : tensor<1x1x16x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x16x6x16xf32>
  return %r : tensor<1x1x16x6x16xf32>
}

// -----

// A matmul whose init is a per-row bias broadcast reached through reshapes
// (lanes split into panels): the broadcast is rebuilt in the init's shape
// and computed in each thread tile before the contraction, instead of in a
// pass of its own over the whole output.

#bias = affine_map<(m, n) -> (m)>
#id2 = affine_map<(m, n) -> (m, n)>
#ma = affine_map<(m, p, l, k) -> (m, k)>
#mb = affine_map<(m, p, l, k) -> (p, k, l)>
#mc = affine_map<(m, p, l, k) -> (m, p, l)>
// CHECK-LABEL: func.func @bias_init
// CHECK-SAME:    (%[[A:.*]]: tensor<256x128xf32>, %[[B:.*]]: tensor<8x128x32xf32>, %[[BIAS:.*]]: tensor<256xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<256x8x32xf32>
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (256) step (64) shared_outs(%[[O:.*]] = %[[E]])
// CHECK:           %[[OS:.*]] = tensor.extract_slice %[[O]][%[[I]], 0, 0] [64, 8, 32]
// CHECK:           %[[BS:.*]] = tensor.extract_slice %[[BIAS]][%[[I]]] [64]
// CHECK:           %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[BS]] : tensor<64xf32>) outs(%[[OS]] : tensor<64x8x32xf32>)
// CHECK:           linalg.generic {{.*}} outs(%[[INIT]] : tensor<64x8x32xf32>)
// CHECK-NOT:     tensor.expand_shape
func.func @bias_init(%a: tensor<256x128xf32>, %b: tensor<8x128x32xf32>, %bias: tensor<256xf32>) -> tensor<256x8x32xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id2], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<256x256xf32>
  %ie = tensor.expand_shape %init [[0], [1, 2]] output_shape [256, 8, 32] : tensor<256x256xf32> into tensor<256x8x32xf32>
  %c = linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<256x128xf32>, tensor<8x128x32xf32>) outs(%ie : tensor<256x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x8x32xf32>
  return %c : tensor<256x8x32xf32>
}

// -----

// A transpose: its input is read in 16 x 16 register tiles
// (aotc-tile-and-vectorize), so thread tiles keep 16 of the loop along the
// input's rows (64 -> 4 tiles) and split the other loop for the rest of
// the 8 tiles wanted, not 8 strips of 8 rows each.

#in = affine_map<(i, j) -> (j, i)>
#out = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @transpose
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 4096) step (16, 2048)
// CHECK-SAME:      -> (tensor<64x4096xf32>)
func.func @transpose(%x: tensor<4096x64xf32>, %o: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4096x64xf32>) outs(%o : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<64x4096xf32>
  return %r : tensor<64x4096xf32>
}

// -----

// A convolution's bias broadcast init (as for a contraction): computed in
// each thread tile right before the convolution tile, not in a forall of
// its own over the whole output.

#fx = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 16 + l + kh * 58 + kw)>
#fw = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#fo = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
#bias = affine_map<(n, g, m, r, l) -> (m)>
#id5 = affine_map<(n, g, m, r, l) -> (n, g, m, r, l)>
// CHECK-LABEL: func.func @convolution_bias_init
// CHECK:         scf.forall (%[[M:.*]], %[[R:.*]]) = (0, 0) to (64, 204) step (8, 51)
// CHECK:           %[[B:.*]] = tensor.extract_slice %{{.*}}[%[[M]]] [8] [1]
// CHECK:           %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<8xf32>) outs(%{{.*}} : tensor<1x1x8x51x16xf32>)
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%[[INIT]] : tensor<1x1x8x51x16xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall (
func.func @convolution_bias_init(%x: tensor<1x1x16x3392xf32>, %w: tensor<1x64x16x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x1x64x204x16xf32> {
  %e = tensor.empty() : tensor<1x1x64x204x16xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<64xf32>) outs(%e : tensor<1x1x64x204x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x64x204x16xf32>
  %r = linalg.generic {indexing_maps = [#fx, #fw, #fo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x16x3392xf32>, tensor<1x64x16x3x3xf32>) outs(%init : tensor<1x1x64x204x16xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x204x16xf32>
  return %r : tensor<1x1x64x204x16xf32>
}

// -----

// One zero fill shared by two matmuls (CSE merges identical fills): each
// matmul gets a fill of its own, computed in its thread tiles.

// CHECK-LABEL: func.func @shared_fill
// CHECK-NOT:     linalg.fill
// CHECK:         scf.forall
// CHECK:           linalg.fill
// CHECK:           linalg.matmul
// CHECK:         scf.forall
// CHECK:           linalg.fill
// CHECK:           linalg.matmul
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @shared_fill(%a: tensor<128x64xf32>, %b: tensor<64x256xf32>, %c: tensor<64x256xf32>) -> (tensor<128x256xf32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m2 = linalg.matmul ins(%a, %c : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %m1, %m2 : tensor<128x256xf32>, tensor<128x256xf32>
}

// -----

// A 1x1 convolution at 7 x 7 as a contraction (49 pixels x 576 channels
// times 5 panels of 32 output channels): too few rows for tiles of 64 and
// too few panels for column blocks, so it would run on one thread. The
// rows past the last whole register tile of 8 are split off (49 -> 48 + 1)
// and the 48 are tiled by whole register tiles: 6 tiles of 8 rows.

#pa = affine_map<(m, p, l, k) -> (k, m)>
#pb = affine_map<(m, p, l, k) -> (p, k, l)>
#pc = affine_map<(m, p, l, k) -> (m, p, l)>
// CHECK-LABEL: func.func @few_rows_prime_panels
// CHECK-SAME:    (%[[A:.*]]: tensor<576x49xf32>, %[[B:.*]]: tensor<5x576x32xf32>, %[[C:.*]]: tensor<49x5x32xf32>)
// CHECK:         %[[HEAD:.*]] = tensor.extract_slice %[[C]][0, 0, 0] [48, 5, 32] [1, 1, 1]
// CHECK:         %[[R:.*]] = scf.forall (%[[I:.*]]) = (0) to (48) step (8) shared_outs(%[[O:.*]] = %[[HEAD]])
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<576x8xf32>, tensor<5x576x32xf32>) outs(%{{.*}} : tensor<8x5x32xf32>)
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[R]] into %[[C]][0, 0, 0] [48, 5, 32] [1, 1, 1]
// CHECK-NOT:     scf.forall
// CHECK:         %[[TAIL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x5x32xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %[[INS]][48, 0, 0] [1, 5, 32] [1, 1, 1]
// OPTS-LABEL: func.func @few_rows_prime_panels
// OPTS:         scf.forall (%{{.*}}) = (0) to (48) step (8)
// With 256-bit registers (16 of them) the register tiles have 6 rows: the
// thread tiles hold one each.
// AVX2-LABEL: func.func @few_rows_prime_panels
// AVX2:         scf.forall (%{{.*}}) = (0) to (48) step (6)
// AVX2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<576x6xf32>, tensor<5x576x32xf32>) outs(%{{.*}} : tensor<6x5x32xf32>)
func.func @few_rows_prime_panels(%a: tensor<576x49xf32>, %b: tensor<5x576x32xf32>, %c: tensor<49x5x32xf32>) -> tensor<49x5x32xf32> {
  %0 = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<576x49xf32>, tensor<5x576x32xf32>) outs(%c : tensor<49x5x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<49x5x32xf32>
  return %0 : tensor<49x5x32xf32>
}

// -----

// MobileNetV2's 960 -> 160 projection at 7 x 7 with 256-bit panels (49
// pixels x 960 channels times 10 panels of 16 output channels): more
// columns than rows, so tiles of register-tile rows would each read all of
// the 614 KB right-hand side. Two column tiles of 5 panels read it once,
// each its own half; the 49 rows stay whole in each.

#ea = affine_map<(m, p, l, k) -> (k, m)>
#eb = affine_map<(m, p, l, k) -> (p, k, l)>
#ec = affine_map<(m, p, l, k) -> (m, p, l)>
// CHECK-LABEL: func.func @few_rows_even_panels
// CHECK-NOT:     tensor.extract_slice %{{.*}}[0, 0, 0] [48, 10, 16]
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (10) step (5)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<960x49xf32>, tensor<5x960x16xf32>) outs(%{{.*}} : tensor<49x5x16xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
// AVX2-LABEL: func.func @few_rows_even_panels
// AVX2:         scf.forall (%{{.*}}) = (0) to (10) step (5)
// AVX2-NOT:     scf.forall (
// AVX2:         return
func.func @few_rows_even_panels(%a: tensor<960x49xf32>, %b: tensor<10x960x16xf32>, %c: tensor<49x10x16xf32>) -> tensor<49x10x16xf32> {
  %0 = linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<960x49xf32>, tensor<10x960x16xf32>) outs(%c : tensor<49x10x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<49x10x16xf32>
  return %0 : tensor<49x10x16xf32>
}

// -----

// Fewer columns than rows (49 pixels times 2 panels of 16 output channels):
// the left-hand side is the larger operand, and the tiles stay register-tile
// rows, each reading all of the small right-hand side.

#fa = affine_map<(m, p, l, k) -> (k, m)>
#fb = affine_map<(m, p, l, k) -> (p, k, l)>
#fc = affine_map<(m, p, l, k) -> (m, p, l)>
// AVX2-LABEL: func.func @few_rows_few_columns
// AVX2:         scf.forall (%{{.*}}) = (0) to (48) step (6)
// AVX2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<960x6xf32>, tensor<2x960x16xf32>) outs(%{{.*}} : tensor<6x2x16xf32>)
func.func @few_rows_few_columns(%a: tensor<960x49xf32>, %b: tensor<2x960x16xf32>, %c: tensor<49x2x16xf32>) -> tensor<49x2x16xf32> {
  %0 = linalg.generic {indexing_maps = [#fa, #fb, #fc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<960x49xf32>, tensor<2x960x16xf32>) outs(%c : tensor<49x2x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<49x2x16xf32>
  return %0 : tensor<49x2x16xf32>
}

// -----

// A classifier layer at batch 1 (1 x 1280 times 1280 x 992, the weights in
// 31 panels of 32 columns): one row, so no row tiles, and 31 panels (a
// prime) have no tiles of four panels. Nothing is reused across columns
// (matrix-vector), so each thread tile is one panel.

#va = affine_map<(m, p, l, k) -> (m, k)>
#vb = affine_map<(m, p, l, k) -> (p, k, l)>
#vc = affine_map<(m, p, l, k) -> (m, p, l)>
// CHECK-LABEL: func.func @matrix_vector_panels
// CHECK:         scf.forall (%[[P:.*]]) in (31) shared_outs
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1280xf32>, tensor<1x1280x32xf32>) outs(%{{.*}} : tensor<1x1x32xf32>)
func.func @matrix_vector_panels(%a: tensor<1x1280xf32>, %b: tensor<31x1280x32xf32>, %c: tensor<1x31x32xf32>) -> tensor<1x31x32xf32> {
  %0 = linalg.generic {indexing_maps = [#va, #vb, #vc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x1280xf32>, tensor<31x1280x32xf32>) outs(%c : tensor<1x31x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x31x32xf32>
  return %0 : tensor<1x31x32xf32>
}

// -----

// A 1x1 convolution at 7 x 7 computed transposed (aotc-pack-contraction-
// operands: 49 pixels as rows, 1280 output channels as lanes in 40 panels of
// 32): its bias broadcast reaches the contraction through a collapse, a
// transpose and the panel split of the channels. It is rebuilt in the
// init's shape, the bias itself split into panels the same way, and
// computed in each thread tile: no broadcast over the whole output and no
// transpose of it.

#bb = affine_map<(n, g, c, h, w) -> (n, c)>
#bo = affine_map<(n, g, c, h, w) -> (n, g, c, h, w)>
#ta = affine_map<(n, g, m, p, l, k) -> (n, g, k, m)>
#tb = affine_map<(n, g, m, p, l, k) -> (n, p, k, l)>
#tc = affine_map<(n, g, m, p, l, k) -> (n, g, m, p, l)>
// CHECK-LABEL: func.func @transposed_bias_init
// CHECK-SAME:    (%[[A:.*]]: tensor<1x1x320x49xf32>, %[[B:.*]]: tensor<1x40x320x32xf32>, %[[BIAS:.*]]: tensor<1x1280xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[BP:.*]] = tensor.expand_shape %[[BIAS]] {{\[}}[0], [1, 2]] output_shape [1, 40, 32]
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (40) step (4)
// CHECK:           %[[BS:.*]] = tensor.extract_slice %[[BP]][0, %[[I]], 0] [1, 4, 32]
// CHECK:           %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[BS]] : tensor<1x4x32xf32>) outs(%{{.*}} : tensor<1x1x49x4x32xf32>)
// CHECK:           linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x1x49x4x32xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         return
func.func @transposed_bias_init(%a: tensor<1x1x320x49xf32>, %b: tensor<1x40x320x32xf32>, %bias: tensor<1x1280xf32>) -> tensor<1x1x49x40x32xf32> {
  %e = tensor.empty() : tensor<1x1x1280x7x7xf32>
  %init = linalg.generic {indexing_maps = [#bb, #bo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<1x1280xf32>) outs(%e : tensor<1x1x1280x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x1280x7x7xf32>
  %flat = tensor.collapse_shape %init [[0], [1], [2], [3, 4]] : tensor<1x1x1280x7x7xf32> into tensor<1x1x1280x49xf32>
  %te = tensor.empty() : tensor<1x1x49x1280xf32>
  %t = linalg.transpose ins(%flat : tensor<1x1x1280x49xf32>) outs(%te : tensor<1x1x49x1280xf32>) permutation = [0, 1, 3, 2]
  %panels = tensor.expand_shape %t [[0], [1], [2], [3, 4]] output_shape [1, 1, 49, 40, 32] : tensor<1x1x49x1280xf32> into tensor<1x1x49x40x32xf32>
  %c = linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x1x320x49xf32>, tensor<1x40x320x32xf32>) outs(%panels : tensor<1x1x49x40x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x49x40x32xf32>
  return %c : tensor<1x1x49x40x32xf32>
}

// -----

// A contraction (a 1x1 convolution: 64 channels x 4096 pixels in panels of
// 32) whose result reaches a ReLU6 through reshapes, as the ONNX importer's
// Conv + Clip leave it, and a residual add of an input defined before it:
// the clamp is rebuilt in the contraction's result shape and computed on
// each thread tile, in place on the tile, not in a thread loop of its own
// over the whole result; the add is rebuilt the same way, its other operand
// reshaped to match.

#ra = affine_map<(m, p, l, k) -> (m, k)>
#rb = affine_map<(m, p, l, k) -> (p, k, l)>
#rc = affine_map<(m, p, l, k) -> (m, p, l)>
#e4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#s4 = affine_map<(n, c, h, w) -> ()>
// CHECK-LABEL: func.func @relu6_consumer
// CHECK:         %[[R:.*]] = scf.forall (%[[I:.*]]) = (0) to (128) step (8) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<64x128x32xf32>)
// CHECK:           %[[T:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<64x8x32xf32>)
// CHECK:           %[[CL:.*]] = linalg.generic {{.*}} ins(%[[T]], %{{.*}}, %{{.*}} : tensor<64x8x32xf32>, tensor<f32>, tensor<f32>) outs(%[[T]] : tensor<64x8x32xf32>)
// CHECK:             arith.maximumf
// CHECK:             arith.minimumf
// CHECK:           tensor.parallel_insert_slice %[[CL]] into %[[O]][0, %[[I]], 0] [64, 8, 32]
// CHECK-NOT:     scf.forall
// CHECK:         tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2]] : tensor<64x128x32xf32> into tensor<64x4096xf32>
// CHECK:         return
func.func @relu6_consumer(%a: tensor<64x256xf32>, %b: tensor<128x256x32xf32>, %c: tensor<64x128x32xf32>) -> tensor<1x64x64x64x1xf32> {
  %lo = arith.constant dense<0.0> : tensor<f32>
  %hi = arith.constant dense<6.0> : tensor<f32>
  %0 = linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x256xf32>, tensor<128x256x32xf32>) outs(%c : tensor<64x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  %flat = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<64x128x32xf32> into tensor<64x4096xf32>
  %img = tensor.expand_shape %flat [[0, 1], [2, 3]] output_shape [1, 64, 64, 64] : tensor<64x4096xf32> into tensor<1x64x64x64xf32>
  %e = tensor.empty() : tensor<1x64x64x64xf32>
  %1 = linalg.generic {indexing_maps = [#e4, #s4, #s4, #e4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%img, %lo, %hi : tensor<1x64x64x64xf32>, tensor<f32>, tensor<f32>) outs(%e : tensor<1x64x64x64xf32>) {
  ^bb0(%x: f32, %l: f32, %h: f32, %o: f32):
    %mx = arith.maximumf %x, %l : f32
    %mn = arith.minimumf %mx, %h : f32
    linalg.yield %mn : f32
  } -> tensor<1x64x64x64xf32>
  %r = tensor.expand_shape %1 [[0], [1], [2], [3, 4]] output_shape [1, 64, 64, 64, 1] : tensor<1x64x64x64xf32> into tensor<1x64x64x64x1xf32>
  return %r : tensor<1x64x64x64x1xf32>
}

// -----

// The same contraction followed by a residual add: the residual, defined
// before the contraction, is reshaped to the contraction's result shape
// and sliced with each tile. A consumer whose other operand is computed
// after the contraction stays a thread loop of its own.

#qa = affine_map<(m, p, l, k) -> (m, k)>
#qb = affine_map<(m, p, l, k) -> (p, k, l)>
#qc = affine_map<(m, p, l, k) -> (m, p, l)>
#q2 = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @residual_consumer
// CHECK-SAME:    (%{{.*}}: tensor<64x256xf32>, %{{.*}}: tensor<128x256x32xf32>, %{{.*}}: tensor<64x128x32xf32>, %[[RES:.*]]: tensor<64x4096xf32>)
// CHECK:         %[[RP:.*]] = tensor.expand_shape %[[RES]] {{\[}}[0], [1, 2]] output_shape [64, 128, 32]
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (128) step (8)
// CHECK:           %[[RS:.*]] = tensor.extract_slice %[[RP]][0, %[[I]], 0] [64, 8, 32]
// CHECK:           %[[T:.*]] = linalg.generic {{.*}}"reduction"{{.*}} outs(%{{.*}} : tensor<64x8x32xf32>)
// CHECK:           %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[T]], %[[RS]] : tensor<64x8x32xf32>, tensor<64x8x32xf32>) outs(%[[T]] : tensor<64x8x32xf32>)
// CHECK:           tensor.parallel_insert_slice %[[ADD]]
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @residual_consumer(%a: tensor<64x256xf32>, %b: tensor<128x256x32xf32>, %c: tensor<64x128x32xf32>, %res: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %0 = linalg.generic {indexing_maps = [#qa, #qb, #qc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x256xf32>, tensor<128x256x32xf32>) outs(%c : tensor<64x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  %flat = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<64x128x32xf32> into tensor<64x4096xf32>
  %e = tensor.empty() : tensor<64x4096xf32>
  %1 = linalg.generic {indexing_maps = [#q2, #q2, #q2], iterator_types = ["parallel", "parallel"]} ins(%flat, %res : tensor<64x4096xf32>, tensor<64x4096xf32>) outs(%e : tensor<64x4096xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  } -> tensor<64x4096xf32>
  return %1 : tensor<64x4096xf32>
}

// CHECK-LABEL: func.func @late_operand_consumer
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}}"reduction"
// CHECK:           tensor.parallel_insert_slice
// CHECK:         scf.forall
// CHECK:           arith.mulf
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x4096xf32>, tensor<8x4096xf32>)
// CHECK:             arith.addf
func.func @late_operand_consumer(%a: tensor<64x256xf32>, %b: tensor<128x256x32xf32>, %c: tensor<64x128x32xf32>, %res: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %0 = linalg.generic {indexing_maps = [#qa, #qb, #qc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x256xf32>, tensor<128x256x32xf32>) outs(%c : tensor<64x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  %e0 = tensor.empty() : tensor<64x4096xf32>
  %late = linalg.generic {indexing_maps = [#q2, #q2], iterator_types = ["parallel", "parallel"]} ins(%res : tensor<64x4096xf32>) outs(%e0 : tensor<64x4096xf32>) {
  ^bb0(%r: f32, %o: f32):
    %m = arith.mulf %r, %r : f32
    linalg.yield %m : f32
  } -> tensor<64x4096xf32>
  %flat = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<64x128x32xf32> into tensor<64x4096xf32>
  %e = tensor.empty() : tensor<64x4096xf32>
  %1 = linalg.generic {indexing_maps = [#q2, #q2, #q2], iterator_types = ["parallel", "parallel"]} ins(%flat, %late : tensor<64x4096xf32>, tensor<64x4096xf32>) outs(%e : tensor<64x4096xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  } -> tensor<64x4096xf32>
  return %1 : tensor<64x4096xf32>
}

// -----

// The residual as the consumer's init, which its payload reads (the
// residual add in place, as aotc-reuse-dead-inputs leaves it): it becomes
// an input read in each tile, and the tile's result is written over the
// contraction's own tile, not over the contraction's tile as both operands.

#ra = affine_map<(m, p, l, k) -> (m, k)>
#rb = affine_map<(m, p, l, k) -> (p, k, l)>
#rc = affine_map<(m, p, l, k) -> (m, p, l)>
#r2 = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @residual_init_consumer
// CHECK-SAME:    (%{{.*}}: tensor<64x256xf32>, %{{.*}}: tensor<128x256x32xf32>, %{{.*}}: tensor<64x128x32xf32>, %[[RES:.*]]: tensor<64x4096xf32>)
// CHECK:         %[[RP:.*]] = tensor.expand_shape %[[RES]] {{\[}}[0], [1, 2]] output_shape [64, 128, 32]
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (128) step (8)
// CHECK:           %[[RS:.*]] = tensor.extract_slice %[[RP]][0, %[[I]], 0] [64, 8, 32]
// CHECK:           %[[T:.*]] = linalg.generic {{.*}}"reduction"{{.*}} outs(%{{.*}} : tensor<64x8x32xf32>)
// CHECK:           %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[T]], %[[RS]] : tensor<64x8x32xf32>, tensor<64x8x32xf32>) outs(%[[T]] : tensor<64x8x32xf32>)
// CHECK-NEXT:      ^bb0(%[[X:.*]]: f32, %[[R:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[R]], %[[X]] : f32
// CHECK-NEXT:        %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// CHECK-NEXT:        linalg.yield %[[M]] : f32
// CHECK:           tensor.parallel_insert_slice %[[ADD]]
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @residual_init_consumer(%a: tensor<64x256xf32>, %b: tensor<128x256x32xf32>, %c: tensor<64x128x32xf32>, %res: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x256xf32>, tensor<128x256x32xf32>) outs(%c : tensor<64x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  %flat = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<64x128x32xf32> into tensor<64x4096xf32>
  %1 = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<64x4096xf32>) outs(%res : tensor<64x4096xf32>) {
  ^bb0(%x: f32, %r: f32):
    %s = arith.addf %r, %x : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x4096xf32>
  return %1 : tensor<64x4096xf32>
}

// -----

// A depthwise convolution on flattened images (256 channels, a 4 x 16 grid
// each, its last elements padding) whose image is cropped out of the grid and clamped in
// place: the clamp moves through the crop onto the whole grid (computing the
// padding elements too, which nobody reads) and joins the convolution's
// thread tiles; the crop is taken of the loop's result.

#cx = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, c, r * 16 + l + kh * 8 + kw)>
#cw = affine_map<(n, g, m, r, l, c, kh, kw) -> (g, m, c, kh, kw)>
#co = affine_map<(n, g, m, r, l, c, kh, kw) -> (n, g, m, r, l)>
#c3 = affine_map<(n, g, m, p) -> (n, g, m, p)>
// CHECK-LABEL: func.func @cropped_relu
// CHECK:         %[[R:.*]] = scf.forall (%[[G:.*]]) = (0) to (256) step
// CHECK:           %[[T:.*]] = linalg.generic {{.*}}"reduction", "reduction", "reduction"]
// CHECK:           %[[RELU:.*]] = linalg.generic {{.*}} outs(%[[T]] : tensor<1x{{[0-9]+}}x1x4x16xf32>)
// CHECK:             arith.maximumf
// CHECK:           tensor.parallel_insert_slice %[[RELU]]
// CHECK:         %[[F:.*]] = tensor.collapse_shape %[[R]]
// CHECK:         %[[C:.*]] = tensor.extract_slice %[[F]][0, 0, 0, 0] [1, 256, 1, 49]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[C]]
func.func @cropped_relu(%x: tensor<1x256x1x96xf32>, %w: tensor<256x1x1x3x3xf32>, %o: tensor<1x256x1x4x16xf32>) -> tensor<1x256x1x49xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#cx, #cw, #co], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x256x1x96xf32>, tensor<256x1x1x3x3xf32>) outs(%o : tensor<1x256x1x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x256x1x4x16xf32>
  %flat = tensor.collapse_shape %r [[0], [1], [2], [3, 4]] : tensor<1x256x1x4x16xf32> into tensor<1x256x1x64xf32>
  %crop = tensor.extract_slice %flat[0, 0, 0, 0] [1, 256, 1, 49] [1, 1, 1, 1] : tensor<1x256x1x64xf32> to tensor<1x256x1x49xf32>
  %relu = linalg.generic {indexing_maps = [#c3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%crop : tensor<1x256x1x49xf32>) {
  ^bb0(%v: f32):
    %mx = arith.maximumf %v, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<1x256x1x49xf32>
  return %relu : tensor<1x256x1x49xf32>
}

// -----

// A ReLU of one contraction's result that is also the init of another
// contraction (C = A2 B2 + relu(A1 B1)): it is computed as the second
// contraction's init in that one's thread tiles, not in the first one's
// (it cannot be in both).

#ea = affine_map<(m, p, l, k) -> (m, k)>
#eb = affine_map<(m, p, l, k) -> (p, k, l)>
#ec = affine_map<(m, p, l, k) -> (m, p, l)>
#e3 = affine_map<(m, p, l) -> (m, p, l)>
// CHECK-LABEL: func.func @consumer_and_init
// CHECK:         %[[R1:.*]] = scf.forall
// CHECK:           linalg.generic {{.*}}"reduction"
// CHECK-NOT:         arith.maximumf
// CHECK:           tensor.parallel_insert_slice
// CHECK:         scf.forall
// CHECK:           %[[INIT:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<64x8x32xf32>)
// CHECK:             arith.maximumf
// CHECK:           linalg.generic {{.*}}"reduction"{{.*}} outs(%[[INIT]] : tensor<64x8x32xf32>)
func.func @consumer_and_init(%a: tensor<64x256xf32>, %b: tensor<128x256x32xf32>, %c: tensor<64x128x32xf32>, %a2: tensor<64x256xf32>, %b2: tensor<128x256x32xf32>) -> tensor<64x128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x256xf32>, tensor<128x256x32xf32>) outs(%c : tensor<64x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  %e = tensor.empty() : tensor<64x128x32xf32>
  %relu = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<64x128x32xf32>) outs(%e : tensor<64x128x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %mx = arith.maximumf %v, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<64x128x32xf32>
  %1 = linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a2, %b2 : tensor<64x256xf32>, tensor<128x256x32xf32>) outs(%relu : tensor<64x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128x32xf32>
  return %1 : tensor<64x128x32xf32>
}

// -----

// Thread tiles in an odd count of a few leave one of two threads idle for a
// whole tile. An elementwise op with work for 3 tiles of min-work (576 x 196
// floats) takes 4 tiles; a contraction whose 24 panels of 32 columns make 3
// tiles of a 256-column block (197 x 768 x 768, 197 rows a prime) takes 6
// tiles of half-blocks.

#id2 = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @odd_tiles_elementwise
// CHECK:         scf.forall (%{{.*}}) = (0) to (576) step (144)
func.func @odd_tiles_elementwise(%x: tensor<576x196xf32>) -> tensor<576x196xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<576x196xf32>) {
  ^bb0(%out: f32):
    %r = arith.maximumf %out, %cst : f32
    linalg.yield %r : f32
  } -> tensor<576x196xf32>
  return %0 : tensor<576x196xf32>
}

// -----

#oa = affine_map<(m, p, l, k) -> (m, k)>
#ob = affine_map<(m, p, l, k) -> (p, k, l)>
#oc = affine_map<(m, p, l, k) -> (m, p, l)>
// CHECK-LABEL: func.func @odd_tiles_contraction
// CHECK:         scf.forall (%{{.*}}) = (0) to (24) step (4)
// CHECK-SAME:      -> (tensor<197x24x32xf32>)
func.func @odd_tiles_contraction(%a: tensor<197x768xf32>, %b: tensor<24x768x32xf32>, %c: tensor<197x24x32xf32>) -> tensor<197x24x32xf32> {
  %0 = linalg.generic {indexing_maps = [#oa, #ob, #oc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<197x768xf32>, tensor<24x768x32xf32>) outs(%c : tensor<197x24x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<197x24x32xf32>
  return %0 : tensor<197x24x32xf32>
}

// -----

// A contraction whose only thread tiles would be 3 (a 1x1 convolution onto
// 32 channels of a 27 x 27 image: 729 = 3^6 columns, tiles of 243) leaves a
// thread idle for a tile on 2 threads: the columns are split where the
// bulk is two tiles of whole registers (704 = 2 x 352) and the 25 left
// (less than half a tile) are an op of their own (two tiles of 16 rows),
// each part starting from its own bias.

#sb = affine_map<(n, g, m, p) -> (m)>
#so = affine_map<(n, g, m, p) -> (n, g, m, p)>
#sw = affine_map<(n, g, m, p, k) -> (g, m, k)>
#sx = affine_map<(n, g, m, p, k) -> (n, g, k, p)>
#sc = affine_map<(n, g, m, p, k) -> (n, g, m, p)>
// CHECK-LABEL: func.func @odd_column_tiles
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x1x32x729xf32>
// CHECK:         %[[HF:.*]] = scf.forall (%{{.*}}) = (0) to (704) step (352)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x32x352xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32x128xf32>, tensor<1x1x128x352xf32>) outs(%{{.*}} : tensor<1x1x32x352xf32>)
// CHECK:         %[[HI:.*]] = tensor.insert_slice %[[HF]] into %[[E]][0, 0, 0, 0] [1, 1, 32, 704]
// CHECK:         %[[TS:.*]] = tensor.extract_slice %[[HI]][0, 0, 0, 704] [1, 1, 32, 25]
// CHECK:         %[[T:.*]] = scf.forall (%{{.*}}) = (0) to (32) step (16) shared_outs(%{{.*}} = %[[TS]])
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x16x25xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x16x128xf32>, tensor<1x1x128x25xf32>) outs(%{{.*}} : tensor<1x1x16x25xf32>)
// CHECK:         tensor.insert_slice %[[T]] into %[[HI]][0, 0, 0, 704] [1, 1, 32, 25]
func.func @odd_column_tiles(%w: tensor<1x32x128xf32>, %x: tensor<1x1x128x729xf32>, %bias: tensor<32xf32>) -> tensor<1x1x32x729xf32> {
  %e = tensor.empty() : tensor<1x1x32x729xf32>
  %init = linalg.generic {indexing_maps = [#sb, #so], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<32xf32>) outs(%e : tensor<1x1x32x729xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x32x729xf32>
  %0 = linalg.generic {indexing_maps = [#sw, #sx, #sc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%w, %x : tensor<1x32x128xf32>, tensor<1x1x128x729xf32>) outs(%init : tensor<1x1x32x729xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x729xf32>
  return %0 : tensor<1x1x32x729xf32>
}

// -----

// Also when what is left is most of a tile: a 1x1 convolution onto 16
// channels (2 row panels) of a 55 x 55 image would take 11 tiles of 275
// columns (3025 = 5^2 x 11^2); 10 tiles of 288 take 2880 and the 145 left
// are an op of their own, tiled by its row panels.

#rx = affine_map<(n, g, o, i, p, k) -> (n, g, k, p)>
#rw = affine_map<(n, g, o, i, p, k) -> (g, o, k, i)>
#ro = affine_map<(n, g, o, i, p, k) -> (n, g, o, i, p)>
// CHECK-LABEL: func.func @odd_column_tiles_most_of_a_tile_left
// CHECK:         scf.forall (%{{.*}}) = (0) to (2880) step (288)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x8x288xf32>)
// CHECK:         tensor.insert_slice %{{.*}} [1, 1, 2, 8, 2880]
// CHECK:         scf.forall (%{{.*}}) in (2)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x1x8x145xf32>)
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 0, 2880] [1, 1, 2, 8, 145]
func.func @odd_column_tiles_most_of_a_tile_left(%x: tensor<1x1x64x3025xf32>, %w: tensor<1x2x64x8xf32>, %o: tensor<1x1x2x8x3025xf32>) -> tensor<1x1x2x8x3025xf32> {
  %0 = linalg.generic {indexing_maps = [#rx, #rw, #ro], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x64x3025xf32>, tensor<1x2x64x8xf32>) outs(%o : tensor<1x1x2x8x3025xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x8x3025xf32>
  return %0 : tensor<1x1x2x8x3025xf32>
}

// -----

// The same for tiles of row panels: a classifier's 1000 output channels in
// 125 panels of 8 (weights in row panels) would take 5 tiles of 25 panels;
// 124 panels make 4 tiles of 31, the last panel an op of its own, in tiles
// of whole register tiles of its columns (5 of 32) rather than on one
// thread.

#cx = affine_map<(n, g, o, i, p, k) -> (n, g, k, p)>
#cw = affine_map<(n, g, o, i, p, k) -> (g, o, k, i)>
#co = affine_map<(n, g, o, i, p, k) -> (n, g, o, i, p)>
// CHECK-LABEL: func.func @odd_panel_tiles
// CHECK:         scf.forall (%{{.*}}) = (0) to (124) step (31)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x31x8x160xf32>)
// CHECK:         tensor.insert_slice %{{.*}} [1, 1, 124, 8, 160]
// CHECK:         scf.forall (%{{.*}}) = (0) to (160) step (32)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x1x8x32xf32>)
func.func @odd_panel_tiles(%x: tensor<1x1x512x160xf32>, %w: tensor<1x125x512x8xf32>, %o: tensor<1x1x125x8x160xf32>) -> tensor<1x1x125x8x160xf32> {
  %0 = linalg.generic {indexing_maps = [#cx, #cw, #co], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x512x160xf32>, tensor<1x125x512x8xf32>) outs(%o : tensor<1x1x125x8x160xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x125x8x160xf32>
  return %0 : tensor<1x1x125x8x160xf32>
}

// -----

// A contraction whose row tiles of at least 64 rows make an odd count that no
// other split evens (MobileNetV2's 28 x 28 expansion onto 192 channels: 3
// tiles of 8 panels, 784 columns = 49 registers with no divisor to split them
// by) takes one more tile of whole register tiles along the same loop: 4
// tiles of 6 panels (48 rows), not 3 tiles taking as long as 4 on 2 threads.

#ex = affine_map<(n, g, o, i, p, k) -> (n, g, k, p)>
#ew = affine_map<(n, g, o, i, p, k) -> (g, o, k, i)>
#eo = affine_map<(n, g, o, i, p, k) -> (n, g, o, i, p)>
// CHECK-LABEL: func.func @odd_row_tiles
// CHECK:         scf.forall (%{{.*}}) = (0) to (24) step (6)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x6x8x784xf32>)
// CHECK-NOT:     scf.forall (
func.func @odd_row_tiles(%x: tensor<1x1x32x784xf32>, %w: tensor<1x24x32x8xf32>, %o: tensor<1x1x24x8x784xf32>) -> tensor<1x1x24x8x784xf32> {
  %0 = linalg.generic {indexing_maps = [#ex, #ew, #eo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x32x784xf32>, tensor<1x24x32x8xf32>) outs(%o : tensor<1x1x24x8x784xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x24x8x784xf32>
  return %0 : tensor<1x1x24x8x784xf32>
}

// -----

// The same for 72 row panels (MobileNetV2's 14 x 14 expansions onto 576
// channels, 196 columns): 9 tiles of 8 panels, and no even count from 10 up
// to the 18 tiles its minimum rows allow (72 has none between) nor at half
// the minimum rows: one tile fewer, 8 tiles of 9 panels (a thread of two had
// 5 tiles to the other's 4).

#fx = affine_map<(n, g, o, i, p, k) -> (n, g, k, p)>
#fw = affine_map<(n, g, o, i, p, k) -> (g, o, k, i)>
#fo = affine_map<(n, g, o, i, p, k) -> (n, g, o, i, p)>
// CHECK-LABEL: func.func @odd_row_tiles_fewer
// CHECK:         scf.forall (%{{.*}}) = (0) to (72) step (9)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x9x8x196xf32>)
// CHECK-NOT:     scf.forall (
func.func @odd_row_tiles_fewer(%x: tensor<1x1x96x196xf32>, %w: tensor<1x72x96x8xf32>, %o: tensor<1x1x72x8x196xf32>) -> tensor<1x1x72x8x196xf32> {
  %0 = linalg.generic {indexing_maps = [#fx, #fw, #fo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x96x196xf32>, tensor<1x72x96x8xf32>) outs(%o : tensor<1x1x72x8x196xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x72x8x196xf32>
  return %0 : tensor<1x1x72x8x196xf32>
}

// -----

// Fewer tiles only down to three quarters of them: 13 tiles of 64 rows of
// 832 (= 64 x 13) have no even count from 12 down to 10 along the rows (the
// next is 8 tiles of 104), so they stay 13.

#gm_a = affine_map<(m, n, k) -> (m, k)>
#gm_b = affine_map<(m, n, k) -> (k, n)>
#gm_c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @odd_row_tiles_kept
// CHECK:         scf.forall (%{{.*}}) = (0) to (832) step (64)
func.func @odd_row_tiles_kept(%a: tensor<832x64xf32>, %b: tensor<64x32xf32>, %c: tensor<832x32xf32>) -> tensor<832x32xf32> {
  %0 = linalg.generic {indexing_maps = [#gm_a, #gm_b, #gm_c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<832x64xf32>, tensor<64x32xf32>) outs(%c : tensor<832x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<832x32xf32>
  return %0 : tensor<832x32xf32>
}

// -----

// An op other than a contraction with min-work iterations but fewer than
// twice as many (a pack of 64 x 768 floats into 24 panels of 32, 49152
// iterations) gets two thread tiles instead of running on one thread.

#pk_in = affine_map<(p, k, l) -> (k, p, l)>
#pk_out = affine_map<(p, k, l) -> (p, k, l)>
// CHECK-LABEL: func.func @few_tiles_pack
// CHECK:         scf.forall (%{{.*}}) = (0) to (24) step (12)
func.func @few_tiles_pack(%x: tensor<64x24x32xf32>, %o: tensor<24x64x32xf32>) -> tensor<24x64x32xf32> {
  %0 = linalg.generic {indexing_maps = [#pk_in, #pk_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<64x24x32xf32>) outs(%o : tensor<24x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<24x64x32xf32>
  return %0 : tensor<24x64x32xf32>
}

// -----

// ONNX Tile reads its input at `d0 mod 2`: a thread tile of several rows
// would read the input slice between the values of `d0 mod 2` at its ends,
// which do not bound it. Only the other loop is split into thread tiles.

#tile_in = affine_map<(d0, d1) -> (d0 mod 2, d1)>
#tile_out = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tile_mod_rows
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (1024) step (256)
// CHECK:           tensor.extract_slice %{{.*}}[0, %[[J]]] [2, 256]
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : tensor<2x256xf32>) outs(%{{.*}} : tensor<128x256xf32>)
func.func @tile_mod_rows(%x: tensor<2x1024xf32>) -> tensor<128x1024xf32> {
  %e = tensor.empty() : tensor<128x1024xf32>
  %0 = linalg.generic {indexing_maps = [#tile_in, #tile_out], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x1024xf32>) outs(%e : tensor<128x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<128x1024xf32>
  return %0 : tensor<128x1024xf32>
}

// -----

// With min-work 16 and 8 tiles at most (OPTS), 7 rows make 7 thread tiles
// and no even count is allowed (14 would also split the columns), so the 7
// stay. With the default min-work the op is too small for threads.

#sv = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @odd_tiles_max_tiles
// CHECK-NOT:     scf.forall
// OPTS-LABEL:  func.func @odd_tiles_max_tiles
// OPTS:          scf.forall (%{{.*}}) in (7)
// OPTS-NOT:      scf.forall (
func.func @odd_tiles_max_tiles(%x: tensor<7x1024xf32>) -> tensor<7x1024xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#sv], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<7x1024xf32>) {
  ^bb0(%out: f32):
    %r = arith.maximumf %out, %cst : f32
    linalg.yield %r : f32
  } -> tensor<7x1024xf32>
  return %0 : tensor<7x1024xf32>
}

// -----

// A padded image (aotc-decompose-ops: the source inserted into a filled
// tensor) whose fill is split along its channels: each thread tile fills
// its border only (top and bottom rows, then the left and right columns of
// the rows between) and copies its channels of the source into the rest.
// The loop moves to the insert, after the source.

// CHECK-LABEL: func.func @padded_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x96x112x112xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SRC:.*]] = math.exp %[[X]]
// CHECK:         %[[R:.*]] = scf.forall (%[[C:.*]]) = (0) to (96) step (3) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<1x96x114x114xf32>)
// CHECK:           %[[T:.*]] = tensor.extract_slice %[[O]][0, %[[C]], 0, 0] [1, 3, 114, 114] [1, 1, 1, 1]
// CHECK:           %[[S0:.*]] = tensor.extract_slice %[[T]][0, 0, 0, 0] [1, 3, 1, 114] [1, 1, 1, 1]
// CHECK:           %[[F0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S0]] : tensor<1x3x1x114xf32>)
// CHECK:           %[[T0:.*]] = tensor.insert_slice %[[F0]] into %[[T]][0, 0, 0, 0] [1, 3, 1, 114] [1, 1, 1, 1]
// CHECK:           %[[S1:.*]] = tensor.extract_slice %[[T0]][0, 0, 113, 0] [1, 3, 1, 114] [1, 1, 1, 1]
// CHECK:           %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S1]] : tensor<1x3x1x114xf32>)
// CHECK:           %[[T1:.*]] = tensor.insert_slice %[[F1]] into %[[T0]][0, 0, 113, 0] [1, 3, 1, 114] [1, 1, 1, 1]
// CHECK:           %[[S2:.*]] = tensor.extract_slice %[[T1]][0, 0, 1, 0] [1, 3, 112, 1] [1, 1, 1, 1]
// CHECK:           %[[F2:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S2]] : tensor<1x3x112x1xf32>)
// CHECK:           %[[T2:.*]] = tensor.insert_slice %[[F2]] into %[[T1]][0, 0, 1, 0] [1, 3, 112, 1] [1, 1, 1, 1]
// CHECK:           %[[S3:.*]] = tensor.extract_slice %[[T2]][0, 0, 1, 113] [1, 3, 112, 1] [1, 1, 1, 1]
// CHECK:           %[[F3:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S3]] : tensor<1x3x112x1xf32>)
// CHECK:           %[[T3:.*]] = tensor.insert_slice %[[F3]] into %[[T2]][0, 0, 1, 113] [1, 3, 112, 1] [1, 1, 1, 1]
// CHECK:           %[[P:.*]] = tensor.extract_slice %[[SRC]][0, %[[C]], 0, 0] [1, 3, 112, 112] [1, 1, 1, 1]
// CHECK:           %[[T4:.*]] = tensor.insert_slice %[[P]] into %[[T3]][0, 0, 1, 1] [1, 3, 112, 112] [1, 1, 1, 1]
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[T4]] into %[[O]][0, %[[C]], 0, 0] [1, 3, 114, 114] [1, 1, 1, 1]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[R]]
// OPTS-LABEL: func.func @padded_image
func.func @padded_image(%x: tensor<1x96x112x112xf32>) -> tensor<1x96x114x114xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x96x114x114xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x96x114x114xf32>) -> tensor<1x96x114x114xf32>
  %src = math.exp %x : tensor<1x96x112x112xf32>
  %padded = tensor.insert_slice %src into %filled[0, 0, 1, 1] [1, 96, 112, 112] [1, 1, 1, 1] : tensor<1x96x112x112xf32> into tensor<1x96x114x114xf32>
  return %padded : tensor<1x96x114x114xf32>
}

// -----

// The fill is split along padded rows (one channel): the tiles would hold
// parts of the source at different offsets, so the insert stays a copy.

// CHECK-LABEL: func.func @padded_rows_split
// CHECK:         %[[F:.*]] = scf.forall (%{{.*}}) = (0) to (1026) step
// CHECK:           linalg.fill
// CHECK:         tensor.insert_slice %{{.*}} into %[[F]][0, 1, 1] [1, 1024, 1024] [1, 1, 1]
func.func @padded_rows_split(%x: tensor<1x1024x1024xf32>) -> tensor<1x1026x1026xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x1026x1026xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x1026x1026xf32>) -> tensor<1x1026x1026xf32>
  %padded = tensor.insert_slice %x into %filled[0, 1, 1] [1, 1024, 1024] [1, 1, 1] : tensor<1x1024x1024xf32> into tensor<1x1026x1026xf32>
  return %padded : tensor<1x1026x1026xf32>
}

// -----

// A source computed into a tensor.empty of its own, which
// aotc-eliminate-reshaped-empty-tensors then computes in the padded
// tensor's slice: no copy to fuse, the insert stays, and the tiles fill the
// border only (the four strips), not the interior the source is written
// into.

// CHECK-LABEL: func.func @padded_in_place
// CHECK:         %[[F:.*]] = scf.forall (%{{.*}}) = (0) to (96) step
// CHECK-COUNT-4:   linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x{{[0-9]+}}x{{1x114|112x1}}xf32>)
// CHECK-NOT:       linalg.fill
// CHECK:         %[[S:.*]] = scf.forall
// CHECK:           linalg.generic
// CHECK:         tensor.insert_slice %[[S]] into %[[F]][0, 0, 1, 1] [1, 96, 112, 112] [1, 1, 1, 1]
func.func @padded_in_place(%x: tensor<1x96x112x112xf32>) -> tensor<1x96x114x114xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x96x114x114xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x96x114x114xf32>) -> tensor<1x96x114x114xf32>
  %e = tensor.empty() : tensor<1x96x112x112xf32>
  %src = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x96x112x112xf32>) outs(%e : tensor<1x96x112x112xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<1x96x112x112xf32>
  %padded = tensor.insert_slice %src into %filled[0, 0, 1, 1] [1, 96, 112, 112] [1, 1, 1, 1] : tensor<1x96x112x112xf32> into tensor<1x96x114x114xf32>
  return %padded : tensor<1x96x114x114xf32>
}

// -----

// A contraction whose left-hand side is in row panels (aotc-pack-contraction-
// operands: [32, 1024, 8], 8 rows per register tile): the row panel loop is
// its row loop for thread tiles, 8 panels make the 64 rows of a minimum
// tile (not one panel per tile, as an outer batch loop would be split), then
// column blocks of 256.

#ra = affine_map<(o, i, n, k) -> (o, k, i)>
#rb = affine_map<(o, i, n, k) -> (k, n)>
#rc = affine_map<(o, i, n, k) -> (o, i, n)>
// CHECK-LABEL: func.func @row_panels
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 512) step (8, 256)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x1024x8xf32>, tensor<1024x256xf32>) outs(%{{.*}} : tensor<8x8x256xf32>)
func.func @row_panels(%a: tensor<32x1024x8xf32>, %b: tensor<1024x512xf32>, %c: tensor<32x8x512xf32>) -> tensor<32x8x512xf32> {
  %0 = linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<32x1024x8xf32>, tensor<1024x512xf32>) outs(%c : tensor<32x8x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x8x512xf32>
  return %0 : tensor<32x8x512xf32>
}

// -----

// The parts of one depthwise convolution (aotc-peel-padded-windows, marked
// aotc.sibling_parts: the interior, then the top and left strips, each with
// its bias and ReLU6, each inserted into the previous part's result) are
// tiled alike along the channels, the loop they all span whole (8 tiles,
// those of the interior alone), and computed in one thread loop: each tile
// of the whole result (its rows and columns whole) takes every part's tile,
// inserted at its box. The mark is dropped.

#bias = affine_map<(n, g, m, oh, ow) -> (g, m)>
#id5 = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
#dwx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#dww = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#dwo = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// OPTS-LABEL: func.func @sibling_parts
// OPTS:         %[[OUT:.*]] = tensor.empty() : tensor<1x8x1x4x4xf32>
// OPTS:         %[[PT:.*]] = scf.forall {{.*}} -> (tensor<1x8x1x3x9xf32>)
// OPTS:         %[[PL:.*]] = scf.forall {{.*}} -> (tensor<1x8x1x7x3xf32>)
// OPTS:         %[[Y:.*]] = scf.forall (%[[C:.*]]) in (8) shared_outs(%[[O:.*]] = %[[OUT]])
// OPTS:           %[[TILE:.*]] = tensor.extract_slice %[[O]][0, %[[C]], 0, 0, 0] [1, 1, 1, 4, 4]
// OPTS:           %[[I0:.*]] = tensor.extract_slice %[[TILE]][0, 0, 0, 1, 1] [1, 1, 1, 3, 3]
// OPTS:           %[[B0:.*]] = linalg.generic {{.*}} outs(%[[I0]] : tensor<1x1x1x3x3xf32>)
// OPTS:           %[[C0:.*]] = linalg.generic {{.*}} outs(%[[B0]] : tensor<1x1x1x3x3xf32>) {{[{]$}}
// OPTS:           %[[R0:.*]] = linalg.generic {{.*}} outs(%[[C0]] : tensor<1x1x1x3x3xf32>)
// OPTS:           %[[T0:.*]] = tensor.insert_slice %[[R0]] into %[[TILE]][0, 0, 0, 1, 1] [1, 1, 1, 3, 3]
// OPTS:           %[[X1:.*]] = tensor.extract_slice %[[PT]][0, %[[C]], 0, 0, 0] [1, 1, 1, 3, 9]
// OPTS:           %[[I1:.*]] = tensor.extract_slice %[[T0]][0, 0, 0, 0, 0] [1, 1, 1, 1, 4]
// OPTS:           %[[B1:.*]] = linalg.generic {{.*}} outs(%[[I1]] : tensor<1x1x1x1x4xf32>)
// OPTS:           %[[C1:.*]] = linalg.generic {{.*}} ins(%[[X1]], %{{.*}}) outs(%[[B1]] : tensor<1x1x1x1x4xf32>) {{[{]$}}
// OPTS:           %[[R1:.*]] = linalg.generic {{.*}} outs(%[[C1]] : tensor<1x1x1x1x4xf32>)
// OPTS:           %[[T1:.*]] = tensor.insert_slice %[[R1]] into %[[T0]][0, 0, 0, 0, 0] [1, 1, 1, 1, 4]
// OPTS:           %[[X2:.*]] = tensor.extract_slice %[[PL]][0, %[[C]], 0, 0, 0] [1, 1, 1, 7, 3]
// OPTS:           %[[I2:.*]] = tensor.extract_slice %[[T1]][0, 0, 0, 1, 0] [1, 1, 1, 3, 1]
// OPTS:           %[[B2:.*]] = linalg.generic {{.*}} outs(%[[I2]] : tensor<1x1x1x3x1xf32>)
// OPTS:           %[[C2:.*]] = linalg.generic {{.*}} ins(%[[X2]], %{{.*}}) outs(%[[B2]] : tensor<1x1x1x3x1xf32>) {{[{]$}}
// OPTS:           %[[R2:.*]] = linalg.generic {{.*}} outs(%[[C2]] : tensor<1x1x1x3x1xf32>)
// OPTS:           %[[T2:.*]] = tensor.insert_slice %[[R2]] into %[[T1]][0, 0, 0, 1, 0] [1, 1, 1, 3, 1]
// OPTS:           scf.forall.in_parallel
// OPTS-NEXT:        tensor.parallel_insert_slice %[[T2]] into %[[O]][0, %[[C]], 0, 0, 0] [1, 1, 1, 4, 4]
// OPTS:         %[[YC:.*]] = tensor.collapse_shape %[[Y]]
// OPTS-NEXT:    return %[[YC]]
func.func @sibling_parts(%x: tensor<1x8x8x8xf32>, %w: tensor<8x1x1x3x3xf32>, %b: tensor<8x1xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %out = tensor.empty() : tensor<1x8x1x4x4xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 8, 1, 8, 8] : tensor<1x8x8x8xf32> into tensor<1x8x1x8x8xf32>
  // The interior: outputs [1, 4) x [1, 4), the input read in place.
  %xi = tensor.extract_slice %xe[0, 0, 0, 1, 1] [1, 8, 1, 7, 7] [1, 1, 1, 1, 1] : tensor<1x8x1x8x8xf32> to tensor<1x8x1x7x7xf32>
  %oi = tensor.extract_slice %out[0, 0, 0, 1, 1] [1, 8, 1, 3, 3] [1, 1, 1, 1, 1] : tensor<1x8x1x4x4xf32> to tensor<1x8x1x3x3xf32>
  %bi = linalg.generic {indexing_maps = [#bias, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<8x1xf32>) outs(%oi : tensor<1x8x1x3x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x1x3x3xf32>
  %ci = linalg.generic {indexing_maps = [#dwx, #dww, #dwo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xi, %w : tensor<1x8x1x7x7xf32>, tensor<8x1x1x3x3xf32>) outs(%bi : tensor<1x8x1x3x3xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x1x3x3xf32>
  %ri = linalg.generic {indexing_maps = [#id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%ci : tensor<1x8x1x3x3xf32>) {
  ^bb0(%o: f32):
    %lo = arith.maximumf %o, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x8x1x3x3xf32>
  %r0 = tensor.insert_slice %ri into %out[0, 0, 0, 1, 1] [1, 8, 1, 3, 3] [1, 1, 1, 1, 1] : tensor<1x8x1x3x3xf32> into tensor<1x8x1x4x4xf32>
  // Row 0, from a padded copy of input rows [0, 2).
  %xt = tensor.extract_slice %xe[0, 0, 0, 0, 0] [1, 8, 1, 2, 8] [1, 1, 1, 1, 1] : tensor<1x8x1x8x8xf32> to tensor<1x8x1x2x8xf32>
  %pt0 = tensor.empty() : tensor<1x8x1x3x9xf32>
  %pt1 = linalg.fill ins(%zero : f32) outs(%pt0 : tensor<1x8x1x3x9xf32>) -> tensor<1x8x1x3x9xf32>
  %pt = tensor.insert_slice %xt into %pt1[0, 0, 0, 1, 1] [1, 8, 1, 2, 8] [1, 1, 1, 1, 1] : tensor<1x8x1x2x8xf32> into tensor<1x8x1x3x9xf32>
  %ot = tensor.extract_slice %r0[0, 0, 0, 0, 0] [1, 8, 1, 1, 4] [1, 1, 1, 1, 1] : tensor<1x8x1x4x4xf32> to tensor<1x8x1x1x4xf32>
  %bt = linalg.generic {indexing_maps = [#bias, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<8x1xf32>) outs(%ot : tensor<1x8x1x1x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x1x1x4xf32>
  %ct = linalg.generic {indexing_maps = [#dwx, #dww, #dwo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pt, %w : tensor<1x8x1x3x9xf32>, tensor<8x1x1x3x3xf32>) outs(%bt : tensor<1x8x1x1x4xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x1x1x4xf32>
  %rt = linalg.generic {indexing_maps = [#id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%ct : tensor<1x8x1x1x4xf32>) {
  ^bb0(%o: f32):
    %lo = arith.maximumf %o, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x8x1x1x4xf32>
  %r1 = tensor.insert_slice %rt into %r0[0, 0, 0, 0, 0] [1, 8, 1, 1, 4] [1, 1, 1, 1, 1] : tensor<1x8x1x1x4xf32> into tensor<1x8x1x4x4xf32>
  // Column 0 of rows [1, 4), from a padded copy of input columns [0, 2).
  %xl = tensor.extract_slice %xe[0, 0, 0, 1, 0] [1, 8, 1, 7, 2] [1, 1, 1, 1, 1] : tensor<1x8x1x8x8xf32> to tensor<1x8x1x7x2xf32>
  %pl0 = tensor.empty() : tensor<1x8x1x7x3xf32>
  %pl1 = linalg.fill ins(%zero : f32) outs(%pl0 : tensor<1x8x1x7x3xf32>) -> tensor<1x8x1x7x3xf32>
  %pl = tensor.insert_slice %xl into %pl1[0, 0, 0, 0, 1] [1, 8, 1, 7, 2] [1, 1, 1, 1, 1] : tensor<1x8x1x7x2xf32> into tensor<1x8x1x7x3xf32>
  %ol = tensor.extract_slice %r1[0, 0, 0, 1, 0] [1, 8, 1, 3, 1] [1, 1, 1, 1, 1] : tensor<1x8x1x4x4xf32> to tensor<1x8x1x3x1xf32>
  %bl = linalg.generic {indexing_maps = [#bias, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<8x1xf32>) outs(%ol : tensor<1x8x1x3x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x1x3x1xf32>
  %cl = linalg.generic {indexing_maps = [#dwx, #dww, #dwo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pl, %w : tensor<1x8x1x7x3xf32>, tensor<8x1x1x3x3xf32>) outs(%bl : tensor<1x8x1x3x1xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x1x3x1xf32>
  %rl = linalg.generic {indexing_maps = [#id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%cl : tensor<1x8x1x3x1xf32>) {
  ^bb0(%o: f32):
    %lo = arith.maximumf %o, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x8x1x3x1xf32>
  %r2 = tensor.insert_slice %rl into %r1[0, 0, 0, 1, 0] [1, 8, 1, 3, 1] [1, 1, 1, 1, 1] : tensor<1x8x1x3x1xf32> into tensor<1x8x1x4x4xf32>
  %y = tensor.collapse_shape %r2 [[0], [1, 2], [3], [4]] : tensor<1x8x1x4x4xf32> into tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

// Sixteen contractions over 784 columns that are not in panels (Winograd's,
// reading their tiles in place): column thread tiles must hold whole
// register tiles of lanes (32, or 16 with 256-bit registers), and 784 has
// no such split into two, so the threads take whole contractions, not two
// tiles of 392 columns ending in half a register.

#u = affine_map<(e, k, t, c) -> (e, k, c)>
#v = affine_map<(e, k, t, c) -> (e, c, t)>
#m = affine_map<(e, k, t, c) -> (e, k, t)>
// CHECK-LABEL: func.func @register_columns
// CHECK:         scf.forall (%[[E:.*]]) in (16)
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[E]], 0, 0] [1, 64, 784]
// AVX2-LABEL: func.func @register_columns
// AVX2:         scf.forall (%{{.*}}) in (16)
func.func @register_columns(%u: tensor<16x64x64xf32>, %v: tensor<16x64x784xf32>) -> tensor<16x64x784xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64x784xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64x784xf32>) -> tensor<16x64x784xf32>
  %r = linalg.generic {indexing_maps = [#u, #v, #m], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%u, %v : tensor<16x64x64xf32>, tensor<16x64x784xf32>) outs(%f : tensor<16x64x784xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64x784xf32>
  return %r : tensor<16x64x784xf32>
}

// -----

// A 1x1 convolution projecting 192 channels onto 32 at 28 x 28 (784 pixels,
// MobileNetV2): too few rows for tiles of 64, and 784 columns = 49 registers
// of 16 have no split into tiles of whole registers. The columns are split
// on half registers (two tiles of 392 = 24.5 registers), not the rows into
// register tiles of 8: each thread then reads half of the 602 KB input, not
// all of it (a row tile reads every column).

#wa = affine_map<(n, g, m, p, k) -> (g, m, k)>
#wx = affine_map<(n, g, m, p, k) -> (n, g, k, p)>
#wo = affine_map<(n, g, m, p, k) -> (n, g, m, p)>
// CHECK-LABEL: func.func @half_register_columns
// CHECK:         scf.forall (%[[P:.*]]) = (0) to (784) step (392)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32x192xf32>, tensor<1x1x192x392xf32>) outs(%{{.*}} : tensor<1x1x32x392xf32>)
// With 256-bit registers (784 columns = 49 pairs of registers of 8) the
// half registers have 4 lanes: four tiles of 196 columns.
// AVX2-LABEL: func.func @half_register_columns
// AVX2:         scf.forall (%{{.*}}) = (0) to (784) step (196)
func.func @half_register_columns(%w: tensor<1x32x192xf32>, %x: tensor<1x1x192x784xf32>, %o: tensor<1x1x32x784xf32>) -> tensor<1x1x32x784xf32> {
  %0 = linalg.generic {indexing_maps = [#wa, #wx, #wo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%w, %x : tensor<1x32x192xf32>, tensor<1x1x192x784xf32>) outs(%o : tensor<1x1x32x784xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x784xf32>
  return %0 : tensor<1x1x32x784xf32>
}

// -----

// The same projection with its constant weights in row panels [4, 192, 8]
// (aotc-pack-contraction-operands) as the second operand, the image the
// first: linalg counts the output channels as N loops and the pixels as M
// loops here, and the panel loop is still the row loop's (too few rows for
// tiles of 64), not a batch loop split into one tile per panel (each would
// read all of the image): the same two tiles of half registers.

#pa = affine_map<(n, g, o, i, p, k) -> (n, g, k, p)>
#pw = affine_map<(n, g, o, i, p, k) -> (g, o, k, i)>
#po = affine_map<(n, g, o, i, p, k) -> (n, g, o, i, p)>
// CHECK-LABEL: func.func @row_panels_second_operand
// CHECK:         scf.forall (%[[P:.*]]) = (0) to (784) step (392)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x192x392xf32>, tensor<1x4x192x8xf32>) outs(%{{.*}} : tensor<1x1x4x8x392xf32>)
func.func @row_panels_second_operand(%x: tensor<1x1x192x784xf32>, %w: tensor<1x4x192x8xf32>, %o: tensor<1x1x4x8x784xf32>) -> tensor<1x1x4x8x784xf32> {
  %0 = linalg.generic {indexing_maps = [#pa, #pw, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x192x784xf32>, tensor<1x4x192x8xf32>) outs(%o : tensor<1x1x4x8x784xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x8x784xf32>
  return %0 : tensor<1x1x4x8x784xf32>
}

// -----

// The four rows of a Winograd transform (aotc-winograd-convolutions), parts
// of one op each computing its box of the result: each holds 8192
// iterations, below min-work, but together they hold 32768, so they are
// computed in one thread loop (tiles of channels), not one after the other
// on one thread.

#tap = affine_map<(r, c, h, w) -> (c, h, w)>
#row = affine_map<(r, c, h, w) -> (r, c, h, w)>
// CHECK-LABEL: func.func @equal_parts
// CHECK:         scf.forall (%[[C:.*]]) = (0) to (64) step (32)
// CHECK-COUNT-4:   linalg.generic {{.*}} outs(%{{.*}} : tensor<1x32x16x8xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @equal_parts(%a: tensor<64x16x8xf32>, %b: tensor<64x16x8xf32>) -> tensor<4x64x16x8xf32> {
  %e = tensor.empty() : tensor<4x64x16x8xf32>
  %s0 = tensor.extract_slice %e[0, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<4x64x16x8xf32> to tensor<1x64x16x8xf32>
  %r0 = linalg.generic {indexing_maps = [#tap, #tap, #row], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<64x16x8xf32>, tensor<64x16x8xf32>) outs(%s0 : tensor<1x64x16x8xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.subf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<1x64x16x8xf32>
  %i0 = tensor.insert_slice %r0 into %e[0, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<1x64x16x8xf32> into tensor<4x64x16x8xf32>
  %s1 = tensor.extract_slice %i0[1, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<4x64x16x8xf32> to tensor<1x64x16x8xf32>
  %r1 = linalg.generic {indexing_maps = [#tap, #tap, #row], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<64x16x8xf32>, tensor<64x16x8xf32>) outs(%s1 : tensor<1x64x16x8xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.addf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<1x64x16x8xf32>
  %i1 = tensor.insert_slice %r1 into %i0[1, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<1x64x16x8xf32> into tensor<4x64x16x8xf32>
  %s2 = tensor.extract_slice %i1[2, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<4x64x16x8xf32> to tensor<1x64x16x8xf32>
  %r2 = linalg.generic {indexing_maps = [#tap, #tap, #row], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %a : tensor<64x16x8xf32>, tensor<64x16x8xf32>) outs(%s2 : tensor<1x64x16x8xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.subf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<1x64x16x8xf32>
  %i2 = tensor.insert_slice %r2 into %i1[2, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<1x64x16x8xf32> into tensor<4x64x16x8xf32>
  %s3 = tensor.extract_slice %i2[3, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<4x64x16x8xf32> to tensor<1x64x16x8xf32>
  %r3 = linalg.generic {indexing_maps = [#tap, #tap, #row], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %a : tensor<64x16x8xf32>, tensor<64x16x8xf32>) outs(%s3 : tensor<1x64x16x8xf32>) attrs = {aotc.sibling_parts = 0 : i64} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.mulf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<1x64x16x8xf32>
  %i3 = tensor.insert_slice %r3 into %i2[3, 0, 0, 0] [1, 64, 16, 8] [1, 1, 1, 1] : tensor<1x64x16x8xf32> into tensor<4x64x16x8xf32>
  return %i3 : tensor<4x64x16x8xf32>
}

// -----

// An im2col copy read in place by a contraction (27 x 4096 columns of a 3 x 3
// convolution over 3 channels at 64 x 64): the contraction's thread tiles
// of 256 columns are four whole output rows, so each tile copies the window
// elements of its own rows (a tile-local tensor, 27 KB) and reads them while
// they are in cache; no thread loop of the copy's own.

// CHECK-LABEL: func.func @im2col_columns
// CHECK-NOT:     scf.forall
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (4096) step (256)
// CHECK:           affine.apply #{{.*}}(%[[I]])
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %{{.*}}, 0] [1, 1, 3, 6, 66]
// CHECK:           %[[E:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0, %{{.*}}, 0] [1, 1, 3, 3, 3, 4, 64]
// CHECK:           %[[COPY:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x1x3x6x66xf32>) outs(%[[E]] : tensor<1x1x3x3x3x4x64xf32>)
// CHECK:           %[[COLS:.*]] = tensor.collapse_shape %[[COPY]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x3x3x3x4x64xf32> into tensor<1x1x27x256xf32>
// CHECK:           linalg.generic {{.*}} ins(%[[COLS]], %{{.*}} : tensor<1x1x27x256xf32>, tensor<1x32x27xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
#in = affine_map<(n, g, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>
#id7 = affine_map<(n, g, c, kh, kw, oh, ow) -> (n, g, c, kh, kw, oh, ow)>
#rhs = affine_map<(n, g, f, p, k) -> (n, g, k, p)>
#lhs = affine_map<(n, g, f, p, k) -> (g, f, k)>
#out = affine_map<(n, g, f, p, k) -> (n, g, f, p)>
func.func @im2col_columns(%x: tensor<1x1x3x66x66xf32>, %w: tensor<1x32x27xf32>) -> tensor<1x1x32x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x3x3x3x64x64xf32>
  %cols = linalg.generic {indexing_maps = [#in, #id7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x3x66x66xf32>) outs(%e : tensor<1x1x3x3x3x64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x3x3x3x64x64xf32>
  %flat = tensor.collapse_shape %cols [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x3x3x3x64x64xf32> into tensor<1x1x27x4096xf32>
  %o = tensor.empty() : tensor<1x1x32x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<1x1x32x4096xf32>) -> tensor<1x1x32x4096xf32>
  %r = linalg.generic {indexing_maps = [#rhs, #lhs, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%flat, %w : tensor<1x1x27x4096xf32>, tensor<1x32x27xf32>) outs(%init : tensor<1x1x32x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x4096xf32>
  return %r : tensor<1x1x32x4096xf32>
}

// -----

// A right-hand side copied into panels four rows at a time (loops (row
// block, panel, row, lane), result [panel, row block, row, lane]) and read
// through a collapse by a contraction whose thread tiles take 8 of its 16
// panels: each tile copies its own panels, the box of the copy's result
// [8, 16, 4, 32] at panel %I, which its loops read as rows [16, 4] of
// panels [%I, %I + 8) of the input.

// CHECK-LABEL: func.func @panel_copy_columns
// CHECK-NOT:     scf.forall
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (16) step (8)
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[0, 0, %{{.*}}, 0] [16, 4, 8, 32]
// CHECK:           %[[COPY:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<16x4x8x32xf32>) outs(%{{.*}} : tensor<8x16x4x32xf32>)
// CHECK:           %[[PANELS:.*]] = tensor.collapse_shape %[[COPY]] {{\[}}[0], [1, 2], [3]] : tensor<8x16x4x32xf32> into tensor<8x64x32xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[PANELS]] : tensor<64x64xf32>, tensor<8x64x32xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
#pin = affine_map<(kb, p, kr, l) -> (kb, kr, p, l)>
#pout = affine_map<(kb, p, kr, l) -> (p, kb, kr, l)>
#pa = affine_map<(m, p, l, k) -> (m, k)>
#pb = affine_map<(m, p, l, k) -> (p, k, l)>
#pc = affine_map<(m, p, l, k) -> (m, p, l)>
func.func @panel_copy_columns(%a: tensor<64x64xf32>, %b: tensor<16x4x16x32xf32>, %c: tensor<64x16x32xf32>) -> tensor<64x16x32xf32> {
  %e = tensor.empty() : tensor<16x16x4x32xf32>
  %copy = linalg.generic {indexing_maps = [#pin, #pout], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16x4x16x32xf32>) outs(%e : tensor<16x16x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x16x4x32xf32>
  %panels = tensor.collapse_shape %copy [[0], [1, 2], [3]] : tensor<16x16x4x32xf32> into tensor<16x64x32xf32>
  %r = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %panels : tensor<64x64xf32>, tensor<16x64x32xf32>) outs(%c : tensor<64x16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16x32xf32>
  return %r : tensor<64x16x32xf32>
}

// -----

// The same with 768 reduction steps: each tile's panels (8 x 768 x 32 f32 =
// 768 KiB) are beyond the stack's 64 KiB but within a thread's pool slot
// (aotc-plan-memory), and the two column tiles copy the whole copy between
// them: each tile still copies its own panels.

// CHECK-LABEL: func.func @panel_copy_slots
// CHECK-NOT:     scf.forall
// CHECK:         scf.forall (%{{.*}}) = (0) to (16) step (8)
// CHECK:           %[[COPY:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x192x4x32xf32>)
// CHECK:           %[[PANELS:.*]] = tensor.collapse_shape %[[COPY]] {{\[}}[0], [1, 2], [3]] : tensor<8x192x4x32xf32> into tensor<8x768x32xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[PANELS]] : tensor<64x768xf32>, tensor<8x768x32xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
#pin = affine_map<(kb, p, kr, l) -> (kb, kr, p, l)>
#pout = affine_map<(kb, p, kr, l) -> (p, kb, kr, l)>
#pa = affine_map<(m, p, l, k) -> (m, k)>
#pb = affine_map<(m, p, l, k) -> (p, k, l)>
#pc = affine_map<(m, p, l, k) -> (m, p, l)>
func.func @panel_copy_slots(%a: tensor<64x768xf32>, %b: tensor<192x4x16x32xf32>, %c: tensor<64x16x32xf32>) -> tensor<64x16x32xf32> {
  %e = tensor.empty() : tensor<16x192x4x32xf32>
  %copy = linalg.generic {indexing_maps = [#pin, #pout], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<192x4x16x32xf32>) outs(%e : tensor<16x192x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x192x4x32xf32>
  %panels = tensor.collapse_shape %copy [[0], [1, 2], [3]] : tensor<16x192x4x32xf32> into tensor<16x768x32xf32>
  %r = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %panels : tensor<64x768xf32>, tensor<16x768x32xf32>) outs(%c : tensor<64x16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16x32xf32>
  return %r : tensor<64x16x32xf32>
}

// -----

// With 384 rows the contraction's tiles split the rows as well (6 x 2): each
// row of tiles would copy the same panels again, so the copy keeps thread
// tiles of its own, before the contraction's.

// CHECK-LABEL: func.func @panel_copy_shared
// CHECK:         %[[COPY:.*]] = scf.forall
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : tensor<16x4x16x32xf32>) outs(%{{.*}} : tensor<16x16x4x32xf32>)
// CHECK:         %[[PANELS:.*]] = tensor.collapse_shape %[[COPY]]
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (384, 16) step (64, 8)
// CHECK:           tensor.extract_slice %[[PANELS]]
#pin = affine_map<(kb, p, kr, l) -> (kb, kr, p, l)>
#pout = affine_map<(kb, p, kr, l) -> (p, kb, kr, l)>
#pa = affine_map<(m, p, l, k) -> (m, k)>
#pb = affine_map<(m, p, l, k) -> (p, k, l)>
#pc = affine_map<(m, p, l, k) -> (m, p, l)>
func.func @panel_copy_shared(%a: tensor<384x768xf32>, %b: tensor<192x4x16x32xf32>, %c: tensor<384x16x32xf32>) -> tensor<384x16x32xf32> {
  %e = tensor.empty() : tensor<16x192x4x32xf32>
  %copy = linalg.generic {indexing_maps = [#pin, #pout], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<192x4x16x32xf32>) outs(%e : tensor<16x192x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x192x4x32xf32>
  %panels = tensor.collapse_shape %copy [[0], [1, 2], [3]] : tensor<16x192x4x32xf32> into tensor<16x768x32xf32>
  %r = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %panels : tensor<384x768xf32>, tensor<16x768x32xf32>) outs(%c : tensor<384x16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<384x16x32xf32>
  return %r : tensor<384x16x32xf32>
}

// -----

// The same at 48 x 48: tiles of 128 columns (2.67 output rows) are not boxes
// of the copy, which keeps thread tiles of its own, before the contraction's.

// CHECK-LABEL: func.func @im2col_unaligned
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x{{[0-9]+}}x3x3x48x48xf32>)
// CHECK:         %[[COLS:.*]] = tensor.collapse_shape
// CHECK:         scf.forall (%{{.*}}) = (0) to (2304) step (128)
// CHECK:           %[[PART:.*]] = tensor.extract_slice %[[COLS]]
// CHECK:           linalg.generic {{.*}} ins(%[[PART]], %{{.*}} : tensor<1x1x27x128xf32>, tensor<1x32x27xf32>)
#in = affine_map<(n, g, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>
#id7 = affine_map<(n, g, c, kh, kw, oh, ow) -> (n, g, c, kh, kw, oh, ow)>
#rhs = affine_map<(n, g, f, p, k) -> (n, g, k, p)>
#lhs = affine_map<(n, g, f, p, k) -> (g, f, k)>
#out = affine_map<(n, g, f, p, k) -> (n, g, f, p)>
func.func @im2col_unaligned(%x: tensor<1x1x3x50x50xf32>, %w: tensor<1x32x27xf32>) -> tensor<1x1x32x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x3x3x3x48x48xf32>
  %cols = linalg.generic {indexing_maps = [#in, #id7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x3x50x50xf32>) outs(%e : tensor<1x1x3x3x3x48x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x3x3x3x48x48xf32>
  %flat = tensor.collapse_shape %cols [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x3x3x3x48x48xf32> into tensor<1x1x27x2304xf32>
  %o = tensor.empty() : tensor<1x1x32x2304xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<1x1x32x2304xf32>) -> tensor<1x1x32x2304xf32>
  %r = linalg.generic {indexing_maps = [#rhs, #lhs, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%flat, %w : tensor<1x1x27x2304xf32>, tensor<1x32x27xf32>) outs(%init : tensor<1x1x32x2304xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x2304xf32>
  return %r : tensor<1x1x32x2304xf32>
}

// -----

// A convolution with channel lanes straight into NCHW (an RGB stem) reading
// a padded copy of its input (aotc-decompose-ops' fill + insert_slice):
// each thread tile (2 output rows) pads its own 5-row window in a buffer of
// its own (the fill, then the rows of the source its window covers, fewer
// at the image's top and bottom), instead of one pass copying the whole
// padded input. A 7x7 window (tiles of one row of 16 pixels read 7 x 37
// windows, 3.4 times the input in all) keeps the one padded copy.

#x3 = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#w3 = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (g, m, c, kh, kw, l)>
#o3 = affine_map<(n, g, m, oh, ow, l, c, kh, kw) -> (n, g, m, l, oh, ow)>
// CHECK-LABEL: func.func @stem_tile_pad
// CHECK-NOT:     tensor<1x3x66x66xf32>
// CHECK:         %[[SRC:.*]] = tensor.expand_shape %{{.*}} : tensor<1x3x64x64xf32> into tensor<1x1x3x64x64xf32>
// CHECK:         scf.forall (%{{.*}}) = (0) to (32) step (2)
// CHECK:           %[[ROW:.*]] = affine.min
// CHECK:           %[[ROWS:.*]] = affine.apply
// CHECK:           %[[AT:.*]] = affine.apply
// CHECK:           %[[BUF:.*]] = tensor.empty() : tensor<1x1x3x5x65xf32>
// CHECK:           %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[BUF]] : tensor<1x1x3x5x65xf32>)
// CHECK:           %[[PART:.*]] = tensor.extract_slice %[[SRC]][0, 0, 0, %[[ROW]], 0] [1, 1, 3, %[[ROWS]], 64] [1, 1, 1, 1, 1] : tensor<1x1x3x64x64xf32> to tensor<1x1x3x?x64xf32>
// CHECK:           %[[WIN:.*]] = tensor.insert_slice %[[PART]] into %[[FILL]][0, 0, 0, %[[AT]], 1] [1, 1, 3, %[[ROWS]], 64] [1, 1, 1, 1, 1]
// CHECK:           linalg.generic
// CHECK-SAME:          ins(%[[WIN]], %{{.*}} : tensor<1x1x3x5x65xf32>, tensor<1x1x3x3x3x32xf32>)
// CHECK-LABEL: func.func @stem_7x7_whole_pad
// CHECK:         %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 3, 3] [1, 1, 3, 64, 64] [1, 1, 1, 1, 1] : tensor<1x1x3x64x64xf32> into tensor<1x1x3x70x70xf32>
// CHECK:         scf.forall
// CHECK-NOT:       tensor.empty() : tensor<1x1x3x7x37xf32>
// CHECK:           tensor.extract_slice %[[PAD]]
// CHECK-NOT:       tensor.empty() : tensor<1x1x3x7x37xf32>
// CHECK:           linalg.generic
func.func @stem_tile_pad(%x: tensor<1x3x64x64xf32>, %w: tensor<1x1x3x3x3x32xf32>) -> tensor<1x1x1x32x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x66x66xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x66x66xf32>) -> tensor<1x3x66x66xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 1, 1] [1, 3, 64, 64] [1, 1, 1, 1] : tensor<1x3x64x64xf32> into tensor<1x3x66x66xf32>
  %pe = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 66, 66] : tensor<1x3x66x66xf32> into tensor<1x1x3x66x66xf32>
  %oe = tensor.empty() : tensor<1x1x1x32x32x32xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x1x1x32x32x32xf32>) -> tensor<1x1x1x32x32x32xf32>
  %r = linalg.generic {indexing_maps = [#x3, #w3, #o3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pe, %w : tensor<1x1x3x66x66xf32>, tensor<1x1x3x3x3x32xf32>) outs(%o0 : tensor<1x1x1x32x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x32x32x32xf32>
  return %r : tensor<1x1x1x32x32x32xf32>
}
func.func @stem_7x7_whole_pad(%x: tensor<1x3x64x64xf32>, %w: tensor<1x1x3x7x7x32xf32>) -> tensor<1x1x1x32x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x70x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x70x70xf32>) -> tensor<1x3x70x70xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 3, 3] [1, 3, 64, 64] [1, 1, 1, 1] : tensor<1x3x64x64xf32> into tensor<1x3x70x70xf32>
  %pe = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 70, 70] : tensor<1x3x70x70xf32> into tensor<1x1x3x70x70xf32>
  %oe = tensor.empty() : tensor<1x1x1x32x32x32xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x1x1x32x32x32xf32>) -> tensor<1x1x1x32x32x32xf32>
  %r = linalg.generic {indexing_maps = [#x3, #w3, #o3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pe, %w : tensor<1x1x3x70x70xf32>, tensor<1x1x3x7x7x32xf32>) outs(%o0 : tensor<1x1x1x32x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x32x32x32xf32>
  return %r : tensor<1x1x1x32x32x32xf32>
}

// -----

// A depthwise convolution on the direct path (aotc.strategy, as
// aotc-select-cpu-strategy records it when aotc::peeledRowsPay declines a
// peel) reading a padded copy of its input: each thread tile of channels
// pads its own planes in a buffer of its own (the whole tile's channels:
// the pad leaves that dimension alone). The same op without a recorded
// path keeps the one padded copy.

#xd = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#wd = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#od = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @depthwise_direct_tile_pad
// CHECK-NOT:     tensor<1x120x32x32xf32>
// CHECK:         scf.forall
// CHECK:           %[[BUF:.*]] = tensor.empty() : tensor<1x[[C:[0-9]+]]x1x32x32xf32>
// CHECK:           %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[BUF]] : tensor<1x[[C]]x1x32x32xf32>)
// CHECK:           %[[PART:.*]] = tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0, 0] [1, [[C]], 1, 28, 28] [1, 1, 1, 1, 1] : tensor<1x120x1x28x28xf32> to tensor<1x[[C]]x1x28x28xf32>
// CHECK:           %[[WIN:.*]] = tensor.insert_slice %[[PART]] into %[[FILL]][0, 0, 0, 2, 2] [1, [[C]], 1, 28, 28] [1, 1, 1, 1, 1]
// CHECK:           linalg.generic
// CHECK-SAME:          ins(%[[WIN]], %{{.*}} : tensor<1x[[C]]x1x32x32xf32>, tensor<[[C]]x1x1x5x5xf32>)
// CHECK-LABEL: func.func @depthwise_unrecorded_whole_pad
// CHECK:         %[[PAD:.*]] = scf.forall {{.*}} -> (tensor<1x120x32x32xf32>)
// CHECK:         %[[PADE:.*]] = tensor.expand_shape %[[PAD]]
// CHECK:         scf.forall
// CHECK:           tensor.extract_slice %[[PADE]]
// CHECK:           linalg.generic
func.func @depthwise_direct_tile_pad(%x: tensor<1x120x28x28xf32>, %w: tensor<120x1x1x5x5xf32>) -> tensor<1x120x1x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x120x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x120x32x32xf32>) -> tensor<1x120x32x32xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 2, 2] [1, 120, 28, 28] [1, 1, 1, 1] : tensor<1x120x28x28xf32> into tensor<1x120x32x32xf32>
  %pe = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 120, 1, 32, 32] : tensor<1x120x32x32xf32> into tensor<1x120x1x32x32xf32>
  %oe = tensor.empty() : tensor<1x120x1x28x28xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x120x1x28x28xf32>) -> tensor<1x120x1x28x28xf32>
  %r = linalg.generic {indexing_maps = [#xd, #wd, #od], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pe, %w : tensor<1x120x1x32x32xf32>, tensor<120x1x1x5x5xf32>) outs(%o0 : tensor<1x120x1x28x28xf32>) attrs = {aotc.strategy = "direct"} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x120x1x28x28xf32>
  return %r : tensor<1x120x1x28x28xf32>
}
func.func @depthwise_unrecorded_whole_pad(%x: tensor<1x120x28x28xf32>, %w: tensor<120x1x1x5x5xf32>) -> tensor<1x120x1x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x120x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x120x32x32xf32>) -> tensor<1x120x32x32xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 2, 2] [1, 120, 28, 28] [1, 1, 1, 1] : tensor<1x120x28x28xf32> into tensor<1x120x32x32xf32>
  %pe = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 120, 1, 32, 32] : tensor<1x120x32x32xf32> into tensor<1x120x1x32x32xf32>
  %oe = tensor.empty() : tensor<1x120x1x28x28xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x120x1x28x28xf32>) -> tensor<1x120x1x28x28xf32>
  %r = linalg.generic {indexing_maps = [#xd, #wd, #od], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pe, %w : tensor<1x120x1x32x32xf32>, tensor<120x1x1x5x5xf32>) outs(%o0 : tensor<1x120x1x28x28xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x120x1x28x28xf32>
  return %r : tensor<1x120x1x28x28xf32>
}
