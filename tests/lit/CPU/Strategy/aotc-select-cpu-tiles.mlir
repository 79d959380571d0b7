// RUN: aotc-opt %s -aotc-select-cpu-tiles | FileCheck %s
// RUN: aotc-opt %s -aotc-select-cpu-tiles=table=- -o /dev/null | FileCheck %s --check-prefix=TABLE

// The thread-tile decision per op shape (min-work 32768, max-tiles 64,
// 512-bit registers: register tiles of 8 rows x 2 registers of 16 lanes):
// - matmul 256 x 512 x 512: 64 tiles wanted; rows in tiles of at least 64
//   (4), then columns in tiles of at least 256 whole registers (2): 8 tiles;
// - an elementwise op of 64 x 256 next to it is threaded from a quarter of
//   min-work (it would split the matmuls' parallel region): 2 tiles of rows;
//   alone in a function it stays sequential;
// - 197 x 768 elementwise: 4 tiles wanted, 197 is prime: 196 + 1 first;
// - 3 x 109 x 768 elementwise: 3 tiles of the outer loop (odd), then 109
//   rows, prime: 108 + 1 first;
// - matmul 64 x 729 x 64: 3 column tiles of 243 (no even count divides
//   729), so 704 + 25 columns first;
// - matmul 49 x 80 x 512: too small for row tiles of 64 or column tiles of
//   128: the row past the last whole register tile (48 + 1) is split off;
// - matmul 1225 x 64 x 192 (a 1x1 convolution on a 35 x 35 image): 7 row
//   tiles of 175 (no even count divides 1225, and 1225 rows are no whole
//   number of register tiles, so no tiles of whole register tiles are
//   static either), so 1216 + 9 rows first.

// CHECK-LABEL: func.func @matmul_and_activation
// CHECK:         linalg.matmul {aotc.tiles = {kind = "tiles", ranges = array<i64: 256, 512, 512>, threads = array<i64: 64, 256, 0>}}
// CHECK:         linalg.generic {{.*}}aotc.tiles = {kind = "tiles", ranges = array<i64: 64, 256>, threads = array<i64: 32, 0>}
// TABLE:       @matmul_and_activation {{.*}}linalg.matmul [256,512,512] threads: tiles [64,256,0] (8 tiles)
// TABLE:       @matmul_and_activation {{.*}}linalg.generic [64,256] threads: tiles [32,0] (2 tiles)
func.func @matmul_and_activation(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>, %c: tensor<256x512xf32>, %x: tensor<64x256xf32>) -> (tensor<256x512xf32>, tensor<64x256xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<64x256xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  return %m, %e : tensor<256x512xf32>, tensor<64x256xf32>
}

// CHECK-LABEL: func.func @activation_alone
// CHECK:         aotc.tiles = {kind = "sequential", ranges = array<i64: 64, 256>}
// TABLE:       @activation_alone {{.*}}linalg.generic [64,256] threads: sequential (16384 iterations < min-work 32768)
func.func @activation_alone(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<64x256xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  return %e : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @prime_rows
// CHECK:         aotc.tiles = {kind = "split-remainder", ranges = array<i64: 197, 768>, split = array<i64: 0, 196>}
// TABLE:       @prime_rows {{.*}}linalg.generic [197,768] threads: split-remainder loop 0 at 196
func.func @prime_rows(%x: tensor<197x768xf32>) -> tensor<197x768xf32> {
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<197x768xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<197x768xf32>
  return %e : tensor<197x768xf32>
}

// 3 x 109 x 768 elementwise: 7 tiles wanted; the 3 outer iterations tile
// whole into 3 (odd: a thread idle for a third of the time on 2), and the
// 109 rows after them are prime: 108 + 1 first.
// CHECK-LABEL: func.func @odd_outer_prime_rows
// CHECK:         aotc.tiles = {kind = "split-remainder", ranges = array<i64: 3, 109, 768>, split = array<i64: 1, 108>}
// TABLE:       @odd_outer_prime_rows {{.*}}linalg.generic [3,109,768] threads: split-remainder loop 1 at 108
func.func @odd_outer_prime_rows(%x: tensor<3x109x768xf32>) -> tensor<3x109x768xf32> {
  %e = linalg.generic {indexing_maps = [affine_map<(c, i, j) -> (c, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%x : tensor<3x109x768xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<3x109x768xf32>
  return %e : tensor<3x109x768xf32>
}

// CHECK-LABEL: func.func @odd_column_tiles
// CHECK:         linalg.matmul {aotc.tiles = {kind = "split-even", ranges = array<i64: 64, 729, 64>, split = array<i64: 1, 704>}}
// TABLE:       @odd_column_tiles {{.*}}linalg.matmul [64,729,64] threads: split-even loop 1 at 704
func.func @odd_column_tiles(%a: tensor<64x64xf32>, %b: tensor<64x729xf32>, %c: tensor<64x729xf32>) -> tensor<64x729xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x729xf32>) outs(%c : tensor<64x729xf32>) -> tensor<64x729xf32>
  return %m : tensor<64x729xf32>
}

// CHECK-LABEL: func.func @few_rows
// CHECK:         linalg.matmul {aotc.tiles = {kind = "split-rows", min_columns = 128 : i64, ranges = array<i64: 49, 80, 512>, split = array<i64: 0, 48>, target_tiles = 61 : i64}}
// TABLE:       @few_rows {{.*}}linalg.matmul [49,80,512] threads: split-rows loop 0 at 48
func.func @few_rows(%a: tensor<49x512xf32>, %b: tensor<512x80xf32>, %c: tensor<49x80xf32>) -> tensor<49x80xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<49x512xf32>, tensor<512x80xf32>) outs(%c : tensor<49x80xf32>) -> tensor<49x80xf32>
  return %m : tensor<49x80xf32>
}

// CHECK-LABEL: func.func @rows_without_static_register_tiles
// CHECK:         linalg.matmul {aotc.tiles = {kind = "split-even", ranges = array<i64: 1225, 64, 192>, split = array<i64: 0, 1216>}}
// TABLE:       @rows_without_static_register_tiles {{.*}}linalg.matmul [1225,64,192] threads: split-even loop 0 at 1216
func.func @rows_without_static_register_tiles(%a: tensor<1225x192xf32>, %b: tensor<192x64xf32>, %c: tensor<1225x64xf32>) -> tensor<1225x64xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<1225x192xf32>, tensor<192x64xf32>) outs(%c : tensor<1225x64xf32>) -> tensor<1225x64xf32>
  return %m : tensor<1225x64xf32>
}
