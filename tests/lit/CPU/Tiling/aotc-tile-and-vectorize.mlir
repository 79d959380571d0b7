// RUN: aotc-opt %s -split-input-file -aotc-tile-and-vectorize -cse | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-tile-and-vectorize=vector-bits=256 -cse | FileCheck %s --check-prefix=AVX2

// Elementwise: rows one at a time, one 512-bit register (16 x f32) of columns
// per iteration; with 256-bit registers, 8 columns.

// CHECK-LABEL: func.func @add
// CHECK-SAME:    (%[[A:.*]]: tensor<4x64xf32>, %[[B:.*]]: tensor<4x64xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]]
// CHECK:           scf.for %[[J:.*]] = %[[C0]] to %[[C64]] step %[[C16]] iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-DAG:         %[[SA:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[J]]] [1, 16] [1, 1]
// CHECK-DAG:         %[[SB:.*]] = tensor.extract_slice %[[B]][%[[I]], %[[J]]] [1, 16] [1, 1]
// CHECK-DAG:         %[[VA:.*]] = vector.transfer_read %[[SA]]{{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK-DAG:         %[[VB:.*]] = vector.transfer_read %[[SB]]{{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[VA]], %[[VB]] : vector<1x16xf32>
// CHECK:             %[[W:.*]] = vector.transfer_write %[[SUM]], %{{.*}} : vector<1x16xf32>, tensor<1x16xf32>
// CHECK:             tensor.insert_slice %[[W]] into %[[ACC]][%[[I]], %[[J]]] [1, 16] [1, 1]
// CHECK-NOT:     linalg.add
// AVX2-LABEL: func.func @add
// AVX2:         scf.for
// AVX2:           scf.for
// AVX2:             arith.addf %{{.*}}, %{{.*}} : vector<1x8xf32>
// AVX2-NOT:     linalg.add
func.func @add(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// An op that is one register already: no loop, just vector ops.

// CHECK-LABEL: func.func @single_tile
// CHECK-NOT:     scf.for
// CHECK:         %[[V:.*]] = vector.transfer_read %{{.*}} : tensor<16xf32>, vector<16xf32>
// CHECK:         %[[E:.*]] = math.exp %[[V]] : vector<16xf32>
// CHECK:         %[[W:.*]] = vector.transfer_write %[[E]], %{{.*}} : vector<16xf32>, tensor<16xf32>
// CHECK:         return %[[W]]
// AVX2-LABEL: func.func @single_tile
// AVX2:         scf.for
// AVX2:           math.exp %{{.*}} : vector<8xf32>
func.func @single_tile(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %0 = linalg.exp ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// Contractions: an 8 x 32 accumulator block (M x N, two registers per row),
// K one step at a time.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<8x32xf32>, %[[C:.*]]: tensor<16x32xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C16]] step %[[C8]]
// CHECK:           scf.for %[[K:.*]] = %[[C0]] to %[[C8]] step %[[C1]]
// CHECK-DAG:         tensor.extract_slice %[[A]][%[[I]], %[[K]]] [8, 1] [1, 1]
// CHECK-DAG:         tensor.extract_slice %[[B]][%[[K]], 0] [1, 32] [1, 1]
// CHECK:             vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:             arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK:             vector.multi_reduction <add>, {{.*}} [2] : vector<8x32x1xf32> to vector<8x32xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK-NOT:     linalg.matmul
// With 256-bit registers (16 of them, AVX2) the block is 6 x 16: the 16
// rows are split into 12 (two blocks) and a 4-row remainder.
// AVX2-LABEL: func.func @matmul
// AVX2:         tensor.extract_slice %{{.*}}[0, 0] [12, 8] [1, 1]
// AVX2:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C6:.*]] iter_args
// AVX2:           vector.multi_reduction <add>, {{.*}} : vector<6x16x1xf32> to vector<6x16xf32>
// AVX2:         tensor.extract_slice %{{.*}}[12, 0] [4, 8] [1, 1]
// AVX2:           vector.multi_reduction <add>, {{.*}} : vector<4x16x1xf32> to vector<4x16xf32>
func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// A [seq, 1, features] activation times a weight (a transformer's input
// projection): the register tile's rows follow the 16 rows, not the unit
// loop between them, so the block is still 8 x 32.

#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @unit_middle_rows
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8:.*]] iter_args
// CHECK:           scf.for
// CHECK:             vector.transfer_read {{.*}} : tensor<8x1x32xf32>, vector<8x1x32xf32>
// CHECK:             arith.mulf {{.*}} : vector<8x1x32x1xf32>
func.func @unit_middle_rows(%x: tensor<16x1x8xf32>, %w: tensor<8x32xf32>, %o: tensor<16x1x32xf32>) -> tensor<16x1x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x1x8xf32>, tensor<8x32xf32>) outs(%o : tensor<16x1x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x1x32xf32>
  return %0 : tensor<16x1x32xf32>
}

// -----

// Cache blocks: 256 columns x 512 reduction steps with 512-bit registers
// (B's 512 KiB block stays in a 1 MiB L2), 256 steps with 256-bit ones,
// register tiles inside each block.

// CHECK-LABEL: func.func @matmul_blocked
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[C512]] step %[[C256]]
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %[[C1024]] step %[[C512]]
// CHECK:             tensor.extract_slice %{{.*}}[%[[K]], %[[J]]] [512, 256] [1, 1]
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:                 scf.for
// CHECK:                   arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-NOT:     linalg.matmul
// AVX2-LABEL: func.func @matmul_blocked
// AVX2-DAG:     %[[C256:.*]] = arith.constant 256 : index
// AVX2-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// AVX2:         scf.for %[[K:.*]] = %{{.*}} to %[[C1024]] step %[[C256]]
// AVX2:           tensor.extract_slice %{{.*}}[%[[K]], %{{.*}}] [256, 256] [1, 1]
func.func @matmul_blocked(%a: tensor<16x1024xf32>, %b: tensor<1024x512xf32>, %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x1024xf32>, tensor<1024x512xf32>) outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %0 : tensor<16x512xf32>
}

// -----

// A shallow reduction (64 steps) over 1024 columns: B's whole 64 x 1024
// block fits where 256 x 256 would, so there is no cache block and the zero
// fill is written in each register tile (its accumulators, once hoisted,
// start as zero registers) instead of a pass over the whole output before
// the blocks.

// CHECK-LABEL: func.func @shallow_wide
// CHECK-NOT:     arith.constant 256 : index
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK:             %[[TILE:.*]] = vector.transfer_write %[[ZERO]], %{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:             scf.for {{.*}} iter_args(%{{.*}} = %[[TILE]]) -> (tensor<8x32xf32>)
// CHECK:               arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-NOT:     linalg.
func.func @shallow_wide(%a: tensor<16x64xf32>, %b: tensor<64x1024xf32>) -> tensor<16x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x1024xf32>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  return %0 : tensor<16x1024xf32>
}

// -----

// A shallow reduction (32 steps) over 8192 columns: cache blocks split the
// columns only (2 x 4096), so every register tile still runs the whole
// reduction and starts its accumulators from the zero fill, in every block:
// no pass of the fill over the whole output before the blocks, and no read
// of it (Winograd's contractions over thousands of tiles, 32 channels).

// CHECK-LABEL: func.func @shallow_column_blocks
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-NOT:     vector.transfer_write
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4096]]
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK:               %[[TILE:.*]] = vector.transfer_write %[[ZERO]], %{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:               scf.for {{.*}} iter_args(%{{.*}} = %[[TILE]]) -> (tensor<8x32xf32>)
// CHECK:                 arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-NOT:     linalg.
func.func @shallow_column_blocks(%a: tensor<16x32xf32>, %b: tensor<32x8192xf32>) -> tensor<16x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8192xf32>) -> tensor<16x8192xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8192xf32>) outs(%f : tensor<16x8192xf32>) -> tensor<16x8192xf32>
  return %0 : tensor<16x8192xf32>
}

// -----

// A deep reduction (768 steps) over 256 columns: cache blocks split the
// reduction only (2 x 384 steps). The first block is peeled off and starts
// its accumulators from the bias in each register tile; the other block
// reads the tiles it wrote. No pass of the bias over the output before the
// blocks.

#rowk = affine_map<(m, n) -> (m)>
#id2k = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @deep_bias_matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<16x768xf32>, %[[B:.*]]: tensor<768x256xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// CHECK-DAG:     %[[C384:.*]] = arith.constant 384 : index
// CHECK-DAG:     %[[C768:.*]] = arith.constant 768 : index
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[FIRST:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK:           scf.for
// CHECK:             %[[BS:.*]] = tensor.extract_slice %[[BIAS]][%[[I]]] [8] [1]
// CHECK:             %[[BV:.*]] = vector.transfer_read %[[BS]]{{.*}} : tensor<8xf32>, vector<8x32xf32>
// CHECK:             %[[BW:.*]] = vector.transfer_write %[[BV]], %{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:             scf.for {{.*}} iter_args(%{{.*}} = %[[BW]]) -> (tensor<8x32xf32>)
// CHECK:               arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK:         %[[PEELED:.*]] = tensor.insert_slice %[[FIRST]] into
// CHECK:         scf.for %{{.*}} = %[[C384]] to %[[C768]] step %[[C384]] iter_args(%{{.*}} = %[[PEELED]])
// CHECK-NOT:       vector<8xf32>
// CHECK:           arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-NOT:     linalg.
func.func @deep_bias_matmul(%a: tensor<16x768xf32>, %b: tensor<768x256xf32>, %bias: tensor<16xf32>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<16x256xf32>
  %init = linalg.generic {indexing_maps = [#rowk, #id2k], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<16xf32>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<16x768xf32>, tensor<768x256xf32>) outs(%init : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

// -----

// 13 rows (not a multiple of 8) and 40 columns (not a multiple of 32): the
// op is split into static parts, 8 + 5 rows times 32 + 8 columns, each with
// its own register tile.

// CHECK-LABEL: func.func @matmul_remainders
// CHECK-DAG:     arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-DAG:     arith.mulf {{.*}} : vector<8x8x1xf32>
// CHECK-DAG:     arith.mulf {{.*}} : vector<5x32x1xf32>
// CHECK-DAG:     arith.mulf {{.*}} : vector<5x8x1xf32>
// CHECK-NOT:     linalg.matmul
func.func @matmul_remainders(%a: tensor<13x8xf32>, %b: tensor<8x40xf32>, %c: tensor<13x40xf32>) -> tensor<13x40xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x8xf32>, tensor<8x40xf32>) outs(%c : tensor<13x40xf32>) -> tensor<13x40xf32>
  return %0 : tensor<13x40xf32>
}

// -----

// 49 rows (a 7 x 7 image's pixels) have a divisor two rows short of 8: seven
// tiles of 7 rows, no one-row remainder; 50 rows (divisor 5) still split.

// CHECK-LABEL: func.func @matmul_seven_rows
// CHECK:         arith.mulf {{.*}} : vector<7x32x1xf32>
// CHECK-NOT:     vector<1x32x1xf32>
// CHECK-LABEL: func.func @matmul_fifty_rows
// CHECK-DAG:     arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-DAG:     arith.mulf {{.*}} : vector<2x32x1xf32>
func.func @matmul_seven_rows(%a: tensor<49x8xf32>, %b: tensor<8x32xf32>, %c: tensor<49x32xf32>) -> tensor<49x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<49x8xf32>, tensor<8x32xf32>) outs(%c : tensor<49x32xf32>) -> tensor<49x32xf32>
  return %0 : tensor<49x32xf32>
}
func.func @matmul_fifty_rows(%a: tensor<50x8xf32>, %b: tensor<8x32xf32>, %c: tensor<50x32xf32>) -> tensor<50x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<50x8xf32>, tensor<8x32xf32>) outs(%c : tensor<50x32xf32>) -> tensor<50x32xf32>
  return %0 : tensor<50x32xf32>
}

// -----

// A contraction whose output's innermost dimension is on the first
// operand's side (a 1x1 convolution out[f, p] = sum_c x[c, p] * w[f, c]):
// the lanes still run along p, contiguous in memory, and the rows along f.

#x = affine_map<(f, p, c) -> (c, p)>
#w = affine_map<(f, p, c) -> (f, c)>
#o = affine_map<(f, p, c) -> (f, p)>
// CHECK-LABEL: func.func @lanes_follow_output
// CHECK-DAG:     tensor.extract_slice %{{.*}} [1, 32] [1, 1] : tensor<4x64xf32> to tensor<1x32xf32>
// CHECK-DAG:     tensor.extract_slice %{{.*}} [8, 1] [1, 1] : tensor<16x4xf32> to tensor<8x1xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:         arith.mulf {{.*}} : vector<8x32x1xf32>
func.func @lanes_follow_output(%x: tensor<4x64xf32>, %w: tensor<16x4xf32>, %out: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<4x64xf32>, tensor<16x4xf32>) outs(%out : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

// The widest element type decides the lane count (f64: 8 lanes), and tiles
// use divisors of the dimension (20 columns -> 10 lanes of f32).

// CHECK-LABEL: func.func @widest_type
// CHECK:         arith.sitofp %{{.*}} : vector<1x8xi8> to vector<1x8xf64>
// AVX2-LABEL: func.func @widest_type
// AVX2:         arith.sitofp %{{.*}} : vector<1x4xi8> to vector<1x4xf64>
func.func @widest_type(%a: tensor<8x24xi8>) -> tensor<8x24xf64> {
  %e = tensor.empty() : tensor<8x24xf64>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x24xi8>) outs(%e : tensor<8x24xf64>) {
  ^bb0(%x: i8, %o: f64):
    %r = arith.sitofp %x : i8 to f64
    linalg.yield %r : f64
  } -> tensor<8x24xf64>
  return %0 : tensor<8x24xf64>
}

// A row that is not a whole number of registers but at most four of them is
// one vector (lowered as whole registers and one part register), not a
// divisor of the row (2 x 10 lanes).
// CHECK-LABEL: func.func @whole_row
// CHECK:         scf.for
// CHECK-NOT:       scf.for
// CHECK:           math.exp %{{.*}} : vector<1x20xf32>
func.func @whole_row(%a: tensor<4x20xf32>) -> tensor<4x20xf32> {
  %e = tensor.empty() : tensor<4x20xf32>
  %0 = linalg.exp ins(%a : tensor<4x20xf32>) outs(%e : tensor<4x20xf32>) -> tensor<4x20xf32>
  return %0 : tensor<4x20xf32>
}

// A longer one is split at its last whole register: 111 = 6 x 16 + 15 (its
// largest divisor up to 16 is 3).
// CHECK-LABEL: func.func @long_row
// CHECK:         scf.for
// CHECK:           scf.for %{{.*}} = %c0 to %c96 step %c16
// CHECK:             arith.maximumf %{{.*}} : vector<1x16xf32>
// CHECK:         scf.for
// CHECK-NOT:       scf.for
// CHECK:           arith.maximumf %{{.*}} : vector<1x15xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 96] [4, 15] [1, 1]
func.func @long_row(%a: tensor<4x111xf32>) -> tensor<4x111xf32> {
  %e = tensor.empty() : tensor<4x111xf32>
  %0 = linalg.max ins(%a, %a : tensor<4x111xf32>, tensor<4x111xf32>) outs(%e : tensor<4x111xf32>) -> tensor<4x111xf32>
  return %0 : tensor<4x111xf32>
}

// -----

// A transpose: the input's rows run along the output's columns, so a tile of
// one row of output would gather 16 elements 48 apart. Tiles are 16 x 16:
// 16 whole input rows read, transposed in registers (a permutation map on
// the read), 16 output rows written.

// CHECK-DAG:   #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transpose
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK:             %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[J]], %[[I]]] [16, 16] [1, 1]
// CHECK:             vector.transfer_read %[[S]]{{.*}}permutation_map = #[[T]]{{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK:             vector.transfer_write %{{.*}} : vector<16x16xf32>, tensor<16x16xf32>
func.func @transpose(%a: tensor<64x48xf32>) -> tensor<48x64xf32> {
  %e = tensor.empty() : tensor<48x64xf32>
  %0 = linalg.transpose ins(%a : tensor<64x48xf32>) outs(%e : tensor<48x64xf32>) permutation = [1, 0]
  return %0 : tensor<48x64xf32>
}

// -----

// A matmul whose init is a per-row bias broadcast (used only there): the
// broadcast is computed in each 8 x 32 register tile, right before that
// tile's reduction loop (which later hoisting turns into accumulators that
// start from the broadcast bias in registers: C is written once, never
// read); no separate pass over C.

#rowb = affine_map<(m, n) -> (m)>
#id2b = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @bias_matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<8x32xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK:           %[[BS:.*]] = tensor.extract_slice %[[BIAS]][%[[I]]] [8] [1]
// CHECK:           %[[BV:.*]] = vector.transfer_read %[[BS]]{{.*}} : tensor<8xf32>, vector<8x32xf32>
// CHECK:           %[[BW:.*]] = vector.transfer_write %[[BV]], %{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[BW]]) -> (tensor<8x32xf32>)
// CHECK:             arith.mulf {{.*}} : vector<8x32x1xf32>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.matmul
func.func @bias_matmul(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %bias: tensor<16xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %init = linalg.generic {indexing_maps = [#rowb, #id2b], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<16xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x32xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// Ops inside an scf.forall (thread tiles) are tiled and vectorized too.

// CHECK-LABEL: func.func @in_forall
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               math.exp %{{.*}} : vector<1x16xf32>
// CHECK:           scf.forall.in_parallel
func.func @in_forall(%a: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = scf.forall (%i) in (2) shared_outs(%o = %a) -> (tensor<8x32xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %s = tensor.extract_slice %o[%off, 0] [4, 32] [1, 1] : tensor<8x32xf32> to tensor<4x32xf32>
    %e = linalg.exp ins(%s : tensor<4x32xf32>) outs(%s : tensor<4x32xf32>) -> tensor<4x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%off, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<8x32xf32>
    }
  }
  return %0 : tensor<8x32xf32>
}

// -----

// Left alone: i1 (bit-packed vectors), convolutions (loop path).

// CHECK-LABEL: func.func @bool
// CHECK-NOT:     vector.
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64xi1>, tensor<64xi1>) outs(%{{.*}} : tensor<64xi1>)
// CHECK-NOT:     vector.
// CHECK:         return
func.func @bool(%a: tensor<64xi1>, %b: tensor<64xi1>) -> tensor<64xi1> {
  %e = tensor.empty() : tensor<64xi1>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xi1>, tensor<64xi1>) outs(%e : tensor<64xi1>) {
  ^bb0(%x: i1, %y: i1, %o: i1):
    %r = arith.andi %x, %y : i1
    linalg.yield %r : i1
  } -> tensor<64xi1>
  return %0 : tensor<64xi1>
}

// CHECK-LABEL: func.func @conv
// CHECK-NOT:     vector.
// CHECK-NOT:     scf.for
// CHECK:         linalg.conv_2d_nhwc_hwcf ins(%{{.*}}, %{{.*}} : tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.*}} : tensor<1x6x6x8xf32>)
// CHECK-NOT:     vector.
// CHECK:         return
func.func @conv(%i: tensor<1x8x8x4xf32>, %f: tensor<3x3x4x8xf32>, %o: tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf ins(%i, %f : tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// A contraction (register tiles of 8 rows x 32 lanes, K = 64: no cache
// block) whose result only an in-place ReLU6 reads (fused into its thread
// tile by aotc-distribute-to-forall): the clamp is computed on each
// register tile right after its reduction loop, before the tile is
// inserted, not in a loop nest of its own over the whole result.

#ma = affine_map<(m, p, l, k) -> (m, k)>
#mb = affine_map<(m, p, l, k) -> (p, k, l)>
#mc = affine_map<(m, p, l, k) -> (m, p, l)>
#id3 = affine_map<(m, p, l) -> (m, p, l)>
// CHECK-LABEL: func.func @matmul_relu6
// CHECK:         scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:             %[[K:.*]] = scf.for {{.*}} -> (tensor<8x1x32xf32>)
// CHECK:               vector.multi_reduction <add>
// CHECK:             %[[V:.*]] = vector.transfer_read %[[K]]{{.*}} : tensor<8x1x32xf32>, vector<8x1x32xf32>
// CHECK:             %[[LO:.*]] = arith.maximumf %[[V]], %{{.*}} : vector<8x1x32xf32>
// CHECK:             %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : vector<8x1x32xf32>
// CHECK:             %[[W:.*]] = vector.transfer_write %[[HI]], %[[K]]
// CHECK:             tensor.insert_slice %[[W]] into %[[ACC]][%[[M]], %[[P]], 0] [8, 1, 32]
// CHECK-NOT:     arith.maximumf
// CHECK:         return
func.func @matmul_relu6(%a: tensor<16x64xf32>, %b: tensor<2x64x32xf32>, %c: tensor<16x2x32xf32>) -> tensor<16x2x32xf32> {
  %0 = linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x64xf32>, tensor<2x64x32xf32>) outs(%c : tensor<16x2x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x2x32xf32>
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 6.0 : f32
  %1 = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%0 : tensor<16x2x32xf32>) {
  ^bb0(%o: f32):
    %mx = arith.maximumf %o, %lo : f32
    %mn = arith.minimumf %mx, %hi : f32
    linalg.yield %mn : f32
  } -> tensor<16x2x32xf32>
  return %1 : tensor<16x2x32xf32>
}

// -----

// The same contraction with a residual add and ReLU that reads its result
// both as an input and as the init it overwrites (a thread tile's consumer
// as aotc-distribute-to-forall leaves it): also computed on each register
// tile, the residual's slice read there, not in a loop nest of its own
// (which bufferization would give a copy of the whole result).

#ra = affine_map<(m, p, l, k) -> (m, k)>
#rb = affine_map<(m, p, l, k) -> (p, k, l)>
#rc = affine_map<(m, p, l, k) -> (m, p, l)>
#rid3 = affine_map<(m, p, l) -> (m, p, l)>
// CHECK-LABEL: func.func @matmul_residual_relu
// CHECK-SAME:    %[[RES:[a-z0-9]+]]: tensor<16x2x32xf32>)
// CHECK:         scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:             %[[R:.*]] = tensor.extract_slice %[[RES]][%[[M]], %[[P]], 0] [8, 1, 32]
// CHECK:             %[[K:.*]] = scf.for {{.*}} -> (tensor<8x1x32xf32>)
// CHECK:               vector.multi_reduction <add>
// CHECK:             %[[V:.*]] = vector.transfer_read %[[K]]{{.*}} : tensor<8x1x32xf32>, vector<8x1x32xf32>
// CHECK:             %[[RV:.*]] = vector.transfer_read %[[R]]{{.*}} : tensor<8x1x32xf32>, vector<8x1x32xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[RV]], %[[V]] : vector<8x1x32xf32>
// CHECK:             %[[RELU:.*]] = arith.maximumf %[[SUM]], %{{.*}} : vector<8x1x32xf32>
// CHECK:             %[[W:.*]] = vector.transfer_write %[[RELU]], %[[K]]
// CHECK:             tensor.insert_slice %[[W]] into %[[ACC]][%[[M]], %[[P]], 0] [8, 1, 32]
// CHECK-NOT:     arith.maximumf
// CHECK:         return
func.func @matmul_residual_relu(%a: tensor<16x64xf32>, %b: tensor<2x64x32xf32>, %c: tensor<16x2x32xf32>, %res: tensor<16x2x32xf32>) -> tensor<16x2x32xf32> {
  %0 = linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x64xf32>, tensor<2x64x32xf32>) outs(%c : tensor<16x2x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %1 = linalg.generic {indexing_maps = [#rid3, #rid3, #rid3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %res : tensor<16x2x32xf32>, tensor<16x2x32xf32>) outs(%0 : tensor<16x2x32xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %r, %x : f32
    %mx = arith.maximumf %s, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<16x2x32xf32>
  return %1 : tensor<16x2x32xf32>
}

// -----

// A matmul whose rows are not a whole number of register tiles, with a zero
// fill and a ReLU written in place on its result: with 256-bit registers
// the 16 rows are split into 12 (two 6-row tiles) and 4, and each part
// computes its own fill and ReLU in its register tiles (accumulators start
// as zero registers, the ReLU runs on them), not in passes over the whole
// result. With 512-bit registers the 16 rows are two 8-row tiles.

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @split_fill_relu
// CHECK:         arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK:         scf.for
// CHECK:           arith.maximumf {{.*}} : vector<8x32xf32>
// CHECK-NOT:     linalg.
// AVX2-LABEL: func.func @split_fill_relu
// AVX2:         tensor.extract_slice %{{.*}}[0, 0] [12, 8] [1, 1]
// AVX2:         arith.constant dense<0.000000e+00> : vector<6x16xf32>
// AVX2:         arith.maximumf {{.*}} : vector<6x16xf32>
// AVX2:         tensor.extract_slice %{{.*}}[12, 0] [4, 8] [1, 1]
// AVX2:         arith.constant dense<0.000000e+00> : vector<4x16xf32>
// AVX2:         arith.maximumf {{.*}} : vector<4x16xf32>
// AVX2-NOT:     arith.maximumf
// AVX2-NOT:     linalg.
// AVX2:         return
func.func @split_fill_relu(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x32xf32>) outs(%m : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// An op that reads its init through an input as well (a residual add
// written in place) reads the loops' own tile of it: slices of the value
// before the loops would be read after the loops wrote into it, which
// bufferizes as a copy of the whole init.

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @read_init_in_place
// CHECK-SAME:    (%[[C:.*]]: tensor<8x32xf32>, %[[X:.*]]: tensor<8x32xf32>)
// CHECK:         scf.for {{.*}} iter_args(%[[T:.*]] = %[[C]])
// CHECK-NOT:       tensor.extract_slice %[[C]]
// CHECK:           tensor.extract_slice %[[X]]
// CHECK-NOT:       tensor.extract_slice %[[C]]
// CHECK:           arith.addf
// CHECK:         return
func.func @read_init_in_place(%c: tensor<8x32xf32>, %x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %x : tensor<8x32xf32>, tensor<8x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %y = arith.addf %p, %q : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Weights in panels of 32 output channels (lanes) for a 7 x 7 image's 49
// pixels (rows), as aotc-channel-lane-convolutions makes MobileNetV2's last
// layers: 4 panels x 160 steps = 80 KiB, more than L1 holds and more than
// the 49 x 160 pixels' block (31 KiB). The panel loop goes outside the row
// tiles, so each panel stays in L1 while the 7 row tiles sweep past it (in
// the op's order every row tile read all 80 KiB again from L2). With 2
// panels of 64 steps (16 KiB) the op's order stays.

#lx = affine_map<(n, g, p, o, i, k) -> (n, g, k, p)>
#lw = affine_map<(n, g, p, o, i, k) -> (g, o, k, i)>
#lo = affine_map<(n, g, p, o, i, k) -> (n, g, p, o, i)>
// CHECK-LABEL: func.func @panels_outside_rows
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C49:.*]] = arith.constant 49 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C4]] step %{{.*}}
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[C49]] step %[[C7]]
// CHECK:             arith.mulf {{.*}} : vector<1x1x7x1x32x1xf32>
// CHECK-LABEL: func.func @rows_outside_small_panels
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C49:.*]] = arith.constant 49 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C49]] step %[[C7]]
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[C2]] step %{{.*}}
// CHECK:             arith.mulf {{.*}} : vector<1x1x7x1x32x1xf32>
func.func @panels_outside_rows(%x: tensor<1x1x160x49xf32>, %w: tensor<1x4x160x32xf32>, %o: tensor<1x1x49x4x32xf32>) -> tensor<1x1x49x4x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lx, #lw, #lo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x160x49xf32>, tensor<1x4x160x32xf32>) outs(%o : tensor<1x1x49x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x49x4x32xf32>
  return %0 : tensor<1x1x49x4x32xf32>
}
func.func @rows_outside_small_panels(%x: tensor<1x1x64x49xf32>, %w: tensor<1x2x64x32xf32>, %o: tensor<1x1x49x2x32xf32>) -> tensor<1x1x49x2x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lx, #lw, #lo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x64x49xf32>, tensor<1x2x64x32xf32>) outs(%o : tensor<1x1x49x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x49x2x32xf32>
  return %0 : tensor<1x1x49x2x32xf32>
}

// -----

// Register tiles that loop over the panels outside the rows read the rows'
// block again for each panel: a reduction cut to fewer steps keeps it in L1,
// but not below half the steps. MobileNetV2's 960 -> 320 projection on
// 7 x 7 pixels (48 rows and a remainder row, split off before): with
// 256-bit registers 240 steps of 48 rows are 45 KiB, 120 steps 22.5 KiB
// (within 24 KiB); with 512-bit registers the block has 480 steps, which
// 120 would cut to a quarter: they stay. A block of 168 rows (672 bytes a
// step) would need fewer than 128 steps: its 512 steps stay (256 with
// 256-bit registers). 1048 = 8 x 131 steps have no divisor near 128: their
// 262 stay (not 8).

// CHECK-LABEL: func.func @row_block_in_l1
// CHECK-DAG:     %[[C960:.*]] = arith.constant 960 : index
// CHECK-DAG:     %[[C480:.*]] = arith.constant 480 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C960]] step %[[C480]]
// CHECK-LABEL: func.func @row_block_beyond_l1
// CHECK-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C1024]] step %[[C512]]
// CHECK-LABEL: func.func @row_block_odd_depth
// CHECK-DAG:     %[[C1048:.*]] = arith.constant 1048 : index
// CHECK-DAG:     %[[C262:.*]] = arith.constant 262 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C1048]] step %[[C262]]
// AVX2-LABEL: func.func @row_block_in_l1
// AVX2-DAG:     %[[C960:.*]] = arith.constant 960 : index
// AVX2-DAG:     %[[C120:.*]] = arith.constant 120 : index
// AVX2:         scf.for %{{.*}} = %{{.*}} to %[[C960]] step %[[C120]]
// AVX2-LABEL: func.func @row_block_beyond_l1
// AVX2-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// AVX2-DAG:     %[[C256:.*]] = arith.constant 256 : index
// AVX2:         scf.for %{{.*}} = %{{.*}} to %[[C1024]] step %[[C256]]

#rx = affine_map<(n, g, p, o, i, k) -> (n, g, k, p)>
#rw = affine_map<(n, g, p, o, i, k) -> (g, o, k, i)>
#ro = affine_map<(n, g, p, o, i, k) -> (n, g, p, o, i)>
func.func @row_block_in_l1(%x: tensor<1x1x960x48xf32>, %w: tensor<1x2x960x32xf32>, %o: tensor<1x1x48x2x32xf32>) -> tensor<1x1x48x2x32xf32> {
  %0 = linalg.generic {indexing_maps = [#rx, #rw, #ro], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x960x48xf32>, tensor<1x2x960x32xf32>) outs(%o : tensor<1x1x48x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x48x2x32xf32>
  return %0 : tensor<1x1x48x2x32xf32>
}
func.func @row_block_beyond_l1(%x: tensor<1x1x1024x168xf32>, %w: tensor<1x8x1024x32xf32>, %o: tensor<1x1x168x8x32xf32>) -> tensor<1x1x168x8x32xf32> {
  %0 = linalg.generic {indexing_maps = [#rx, #rw, #ro], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x1024x168xf32>, tensor<1x8x1024x32xf32>) outs(%o : tensor<1x1x168x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x168x8x32xf32>
  return %0 : tensor<1x1x168x8x32xf32>
}
func.func @row_block_odd_depth(%x: tensor<1x1x1048x48xf32>, %w: tensor<1x2x1048x32xf32>, %o: tensor<1x1x48x2x32xf32>) -> tensor<1x1x48x2x32xf32> {
  %0 = linalg.generic {indexing_maps = [#rx, #rw, #ro], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x1048x48xf32>, tensor<1x2x1048x32xf32>) outs(%o : tensor<1x1x48x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x48x2x32xf32>
  return %0 : tensor<1x1x48x2x32xf32>
}

// -----

// The columns past the last whole panel of a 13 x 13 image (169 = 10 x 16 +
// 9, SqueezeNet's classifier with 256-bit registers) on weights in row
// panels of 5 output channels: a register tile of one row panel would hold
// 5 accumulators (5 x 8 lanes, then 5 x 1), too few FMA chains to hide the
// FMAs' latency. It spans two row panels (10 of the 12 accumulators of a
// full tile); with 512-bit registers (9 lanes, 16 accumulators) also two,
// the largest divisor of the 4 panels up to 3.

#tx = affine_map<(n, g, p, r, l, k) -> (n, g, k, l)>
#tw = affine_map<(n, g, p, r, l, k) -> (g, p, k, r)>
#to = affine_map<(n, g, p, r, l, k) -> (n, g, p, r, l)>
// CHECK-LABEL: func.func @row_panel_tail
// CHECK:         arith.mulf {{.*}} : vector<1x1x2x5x9x1xf32>
// AVX2-LABEL: func.func @row_panel_tail
// AVX2:         arith.mulf {{.*}} : vector<1x1x2x5x8x1xf32>
// AVX2:         arith.mulf {{.*}} : vector<1x1x2x5x1x1xf32>
func.func @row_panel_tail(%x: tensor<1x1x64x9xf32>, %w: tensor<1x4x64x5xf32>, %o: tensor<1x1x4x5x9xf32>) -> tensor<1x1x4x5x9xf32> {
  %0 = linalg.generic {indexing_maps = [#tx, #tw, #to], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x64x9xf32>, tensor<1x4x64x5xf32>) outs(%o : tensor<1x1x4x5x9xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5x9xf32>
  return %0 : tensor<1x1x4x5x9xf32>
}

// -----

// The same on 3 row panels of 8 (a prime count, as SqueezeNet's classifier's
// thread tiles of 31 panels): two panels do not divide them, so the
// contraction is first split into 2 + 1 panels, the first part in register
// tiles of two panels (16 accumulators with 512-bit registers), the last
// panel alone. With 256-bit registers the 8 rows are 6 + 2 and the 9 lanes
// 8 + 1; the 6-row part spans two panels the same way.

#px = affine_map<(n, g, p, r, l, k) -> (n, g, k, l)>
#pw = affine_map<(n, g, p, r, l, k) -> (g, p, k, r)>
#po = affine_map<(n, g, p, r, l, k) -> (n, g, p, r, l)>
// CHECK-LABEL: func.func @row_panel_tail_prime
// CHECK:         arith.mulf {{.*}} : vector<1x1x2x8x9x1xf32>
// CHECK:         tensor.insert_slice {{.*}}[0, 0, 0, 0, 0] [1, 1, 2, 8, 9]
// CHECK:         arith.mulf {{.*}} : vector<1x1x1x8x9x1xf32>
// CHECK:         tensor.insert_slice {{.*}}[0, 0, 2, 0, 0] [1, 1, 1, 8, 9]
// AVX2-LABEL: func.func @row_panel_tail_prime
// AVX2:         arith.mulf {{.*}} : vector<1x1x2x6x8x1xf32>
// AVX2:         arith.mulf {{.*}} : vector<1x1x1x6x8x1xf32>
func.func @row_panel_tail_prime(%x: tensor<1x1x64x9xf32>, %w: tensor<1x3x64x8xf32>, %o: tensor<1x1x3x8x9xf32>) -> tensor<1x1x3x8x9xf32> {
  %0 = linalg.generic {indexing_maps = [#px, #pw, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x64x9xf32>, tensor<1x3x64x8xf32>) outs(%o : tensor<1x1x3x8x9xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x8x9xf32>
  return %0 : tensor<1x1x3x8x9xf32>
}

// -----

// One row (the row past the last whole register tile of 49 = 8 x 6 + 1) on a
// right-hand side in column panels of 16 lanes: a register tile of one panel
// would hold 2 accumulators (256-bit registers) or 1 (512-bit), each FMA
// waiting on the one before. It spans as many column panels as a full
// tile's accumulators allow: 4 of the 16 panels (8 of 12 accumulators) with
// 256-bit registers, all 16 (16 of 16) with 512-bit ones.

#oa = affine_map<(m, p, l, k) -> (m, k)>
#ob = affine_map<(m, p, l, k) -> (p, k, l)>
#oc = affine_map<(m, p, l, k) -> (m, p, l)>
// CHECK-LABEL: func.func @one_row_column_panels
// CHECK:         arith.mulf {{.*}} : vector<1x16x16x1xf32>
// AVX2-LABEL: func.func @one_row_column_panels
// AVX2:         arith.mulf {{.*}} : vector<1x4x16x1xf32>
func.func @one_row_column_panels(%a: tensor<1x64xf32>, %b: tensor<16x64x16xf32>, %c: tensor<1x16x16xf32>) -> tensor<1x16x16xf32> {
  %0 = linalg.generic {indexing_maps = [#oa, #ob, #oc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x64xf32>, tensor<16x64x16xf32>) outs(%c : tensor<1x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x16xf32>
  return %0 : tensor<1x16x16xf32>
}

// -----

// A left-hand side in row panels (aotc-pack-contraction-operands: weights
// [M / 6, K, 6] as the rows) has a loop over them outside the row loop: the
// panel loop goes outside that one, so that each 16 KiB panel stays in L1
// while every row panel's 6 KiB sweeps past it from L2 (SqueezeNet's
// classifier, 1000 x 512 weights times 169 pixels: 2.60 -> 2.26 ms at one
// thread). Not when the output rows swept down a column of panels would
// crowd into too few L1 sets: 4 KiB apart (64 panels of 16), all 24 rows
// fall into one set (GEMM 1024^3 0.96x / 0.94x at 1 / 2 threads that way),
// so the row panels stay outside.

#pa = affine_map<(p, r, q, l, k) -> (p, k, r)>
#pb = affine_map<(p, r, q, l, k) -> (q, k, l)>
#po = affine_map<(p, r, q, l, k) -> (p, r, q, l)>
// AVX2-LABEL: func.func @panels_outside_row_panels
// AVX2-DAG:     %[[C4:.*]] = arith.constant 4 : index
// AVX2-DAG:     %[[C5:.*]] = arith.constant 5 : index
// AVX2:         scf.for %{{.*}} = %{{.*}} to %[[C4]] step %{{.*}}
// AVX2-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[C5]] step %{{.*}}
// AVX2:             arith.mulf {{.*}} : vector<1x6x1x16x1xf32>
// AVX2-LABEL: func.func @row_panels_outside_aliased_rows
// AVX2-DAG:     %[[C4:.*]] = arith.constant 4 : index
// AVX2-DAG:     %[[C16:.*]] = arith.constant 16 : index
// AVX2:         scf.for %{{.*}} to %[[C4]] step %{{.*}} iter_args
// AVX2-NEXT:      scf.for %{{.*}} to %[[C16]] step %{{.*}} iter_args
// AVX2:             arith.mulf {{.*}} : vector<1x6x1x16x1xf32>
func.func @panels_outside_row_panels(%a: tensor<5x256x6xf32>, %b: tensor<4x256x16xf32>, %o: tensor<5x6x4x16xf32>) -> tensor<5x6x4x16xf32> {
  %0 = linalg.generic {indexing_maps = [#pa, #pb, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<5x256x6xf32>, tensor<4x256x16xf32>) outs(%o : tensor<5x6x4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<5x6x4x16xf32>
  return %0 : tensor<5x6x4x16xf32>
}
func.func @row_panels_outside_aliased_rows(%a: tensor<4x256x6xf32>, %b: tensor<64x256x16xf32>, %o: tensor<4x6x64x16xf32>) -> tensor<4x6x64x16xf32> {
  %0 = linalg.generic {indexing_maps = [#pa, #pb, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x256x6xf32>, tensor<64x256x16xf32>) outs(%o : tensor<4x6x64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x6x64x16xf32>
  return %0 : tensor<4x6x64x16xf32>
}
