// RUN: aotc-opt %s -aotc-select-register-tiles | FileCheck %s
// RUN: aotc-opt %s -aotc-select-register-tiles=table=- -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: aotc-opt %s -aotc-select-register-tiles=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// The register-level decision per op shape, with 512-bit registers (16 f32
// lanes) unless stated:
// - matmul 64 x 256 x 1024 (a thread tile): accumulator blocks of 8 rows x
//   2 registers (32 lanes); the reduction is blocked by 512 steps (the
//   right-hand block of 256 columns x 512 steps stays in L2). With 256-bit
//   registers (16 of them: 6-row blocks), 6 does not divide 64: its
//   largest divisor up to 6, 4 rows; 2 registers of 8 lanes; 256-step
//   blocks;
// - an elementwise row of 100 (6 registers and 4 lanes) is split at 96
//   first; one of 40 (2 registers and 8 lanes) is one vector;
// - a convolution is aotc-vectorize-convolutions': no record.

// CHECK-LABEL: func.func @matmul
// CHECK:         aotc.register_tiles = {cache = array<i64: 0, 0, 512>, lanes = 16 : i64, ranges = array<i64: 64, 256, 1024>, registers = array<i64: 8, 32, 1>}
// AVX2-LABEL:  func.func @matmul
// AVX2:          aotc.register_tiles = {cache = array<i64: 0, 0, 256>, lanes = 8 : i64, ranges = array<i64: 64, 256, 1024>, registers = array<i64: 4, 16, 1>}
// TABLE:       @matmul {{.*}}linalg.matmul [64,256,1024] registers: [8,32,1] cache [0,0,512] (16 lanes)
func.func @matmul(%a: tensor<64x1024xf32>, %b: tensor<1024x256xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @rows
// CHECK:         aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 4, 100>, split = array<i64: 1, 96>}
// CHECK:         aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 4, 40>, registers = array<i64: 1, 40>}
// TABLE:       @rows {{.*}}linalg.generic [4,100] registers: split loop 1 at 96 (whole registers, then a part register) (16 lanes)
// TABLE:       @rows {{.*}}linalg.generic [4,40] registers: [1,40] (16 lanes)
func.func @rows(%x: tensor<4x100xf32>, %y: tensor<4x40xf32>) -> (tensor<4x100xf32>, tensor<4x40xf32>) {
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<4x100xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x100xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%y : tensor<4x40xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x40xf32>
  return %e, %f : tensor<4x100xf32>, tensor<4x40xf32>
}

// CHECK-LABEL: func.func @convolution
// CHECK-NOT:     aotc.register_tiles
func.func @convolution(%x: tensor<1x8x10x10xf32>, %w: tensor<8x8x3x3xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// Transposes: a 16 x 196 channel block moved behind its channels (its
// transposed loop 196 is not a whole number of registers) is split at 192,
// each part planned on its own (16 x 16 squares, then 16 x 4); 16 x 49
// pixels transposed back (the innermost loop 49) at 48; a 16 x 32 one
// takes 16 x 16 squares; a 16 x 14 one (no whole register) is one tile.

// CHECK-LABEL: func.func @transposes
// CHECK:         aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 196, 16>, split = array<i64: 0, 192>}
// CHECK:         aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 16, 49>, split = array<i64: 1, 48>}
// CHECK:         aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 32, 16>, registers = array<i64: 16, 16>}
// CHECK:         aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 14, 16>, registers = array<i64: 14, 16>}
// AVX2-LABEL:  func.func @transposes
// AVX2:          aotc.register_tiles = {lanes = 8 : i64, ranges = array<i64: 196, 16>, split = array<i64: 0, 192>}
// AVX2:          aotc.register_tiles = {lanes = 8 : i64, ranges = array<i64: 16, 49>, split = array<i64: 1, 48>}
// AVX2:          aotc.register_tiles = {lanes = 8 : i64, ranges = array<i64: 32, 16>, registers = array<i64: 8, 8>}
// AVX2:          aotc.register_tiles = {lanes = 8 : i64, ranges = array<i64: 14, 16>, split = array<i64: 0, 8>}
// TABLE:       @transposes {{.*}}linalg.transpose [196,16] registers: split loop 0 at 192 (whole registers, then a part register) (16 lanes)
func.func @transposes(%a: tensor<16x196xf32>, %b: tensor<49x16xf32>, %c: tensor<16x32xf32>, %d: tensor<16x14xf32>) -> (tensor<196x16xf32>, tensor<16x49xf32>, tensor<32x16xf32>, tensor<14x16xf32>) {
  %ea = tensor.empty() : tensor<196x16xf32>
  %ta = linalg.transpose ins(%a : tensor<16x196xf32>) outs(%ea : tensor<196x16xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<16x49xf32>
  %tb = linalg.transpose ins(%b : tensor<49x16xf32>) outs(%eb : tensor<16x49xf32>) permutation = [1, 0]
  %ec = tensor.empty() : tensor<32x16xf32>
  %tc = linalg.transpose ins(%c : tensor<16x32xf32>) outs(%ec : tensor<32x16xf32>) permutation = [1, 0]
  %ed = tensor.empty() : tensor<14x16xf32>
  %td = linalg.transpose ins(%d : tensor<16x14xf32>) outs(%ed : tensor<14x16xf32>) permutation = [1, 0]
  return %ta, %tb, %tc, %td : tensor<196x16xf32>, tensor<16x49xf32>, tensor<32x16xf32>, tensor<14x16xf32>
}
