// RUN: aotc-opt %s -split-input-file -aotc-tensor | FileCheck %s
// RUN: aotc-opt %s -split-input-file -pass-pipeline='builtin.module(aotc-tensor{vector-bits=256 min-parallel-work=1024 max-parallel-tiles=4})' | FileCheck %s --check-prefix=OPTS

// A big matmul: B (computed at run time, 256 deep) is copied into panels of
// 32 columns ([8, 256, 32]) four rows at a time (B viewed as [64, 4, 8, 32]
// copied into [8, 64, 4, 32], the row blocks as threads' tiles); then
// threads (scf.forall over blocks of at least 64 rows of C), then register tiles of 8 rows x 32 f32
// (two registers per row) walking one panel down K, vectorized. The zero
// fill of C is computed in each register tile: the accumulators start as
// zero registers, C is never read. No linalg op is left.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<256x256xf32>, %[[B:.*]]: tensor<256x256xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x1x32xf32>
// CHECK:         %[[BE:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1], [2, 3]] output_shape [64, 4, 8, 32]
// CHECK:         %[[BB:.*]] = scf.forall (%[[K:.*]]) = (0) to (64) step (32)
// CHECK:           tensor.extract_slice %[[BE]][%[[K]], 0, 0, 0] [32, 4, 8, 32]
// CHECK:         %[[BP:.*]] = tensor.collapse_shape %[[BB]] {{\[}}[0], [1, 2], [3]] : tensor<8x64x4x32xf32> into tensor<8x256x32xf32>
// CHECK:         %[[CE:.*]] = tensor.empty() : tensor<256x8x32xf32>
// CHECK:         %[[C:.*]] = scf.forall (%[[I:.*]]) = (0) to (256) step (64) shared_outs(%[[O:.*]] = %[[CE]]) -> (tensor<256x8x32xf32>)
// CHECK:           tensor.extract_slice %[[A]][%[[I]], 0] [64, 256] [1, 1]
// The accumulators are carried in registers through the reduction loop (a
// vector iter_arg starting at zero) and written once after it; each step
// reads one row of a panel.
// The panel loop is outside the row tiles: each 32 KiB panel stays in L1
// while the 8 row tiles of the thread tile sweep past it.
// CHECK:           scf.for
// CHECK:             %[[PANEL:.*]] = tensor.extract_slice %[[BP]][%{{.*}}, 0, 0] [1, 256, 32]
// CHECK:             scf.for
// CHECK-NOT:           vector.transfer_read {{.*}} : tensor<8x1x32xf32>, vector<8x1x32xf32>
// CHECK:               scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8x1x32xf32>)
// CHECK-NOT:             vector.transfer_write
// CHECK:                 tensor.extract_slice %[[PANEL]][0, %{{.*}}, 0] [1, 1, 32]
// CHECK:                 arith.mulf {{.*}} : vector<8x1x32x1xf32>
// CHECK:                 arith.addf {{.*}} : vector<8x1x32xf32>
// CHECK:                 scf.yield {{.*}} : vector<8x1x32xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<8x1x32xf32>, tensor<8x1x32xf32>
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]], 0, 0] [64, 8, 32] [1, 1, 1]
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0], [1, 2]]
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.
// With 256-bit registers (16 of them): register tiles of 6 rows x 16, a
// 64-row thread tile being ten of them and a 4-row one.
// OPTS-LABEL: func.func @matmul
// OPTS-DAG:     %[[OZERO:.*]] = arith.constant dense<0.000000e+00> : vector<6x1x16xf32>
// OPTS-DAG:     %[[OZERO4:.*]] = arith.constant dense<0.000000e+00> : vector<4x1x16xf32>
// OPTS:         scf.forall (%{{.*}}) = (0) to (256) step (64)
// OPTS:           scf.for {{.*}} iter_args(%{{.*}} = %[[OZERO]]) -> (vector<6x1x16xf32>)
// OPTS:           arith.mulf {{.*}} : vector<6x1x16x1xf32>
// OPTS:           scf.for {{.*}} iter_args(%{{.*}} = %[[OZERO4]]) -> (vector<4x1x16xf32>)
// OPTS-NOT:     linalg.
func.func @matmul(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Elementwise generics are fused into one loop nest: the add and the exp
// happen on the same registers, no intermediate tensor. Too small for threads.

// CHECK-LABEL: func.func @fused
// CHECK-NOT:     scf.forall
// CHECK:         scf.for
// CHECK:           %[[X:.*]] = vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK:           %[[Y:.*]] = vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK:           %[[S:.*]] = arith.addf %[[X]], %[[Y]] : vector<1x16xf32>
// CHECK:           %[[E:.*]] = math.exp %[[S]] : vector<1x16xf32>
// CHECK:           vector.transfer_write %[[E]]
// CHECK:           scf.yield
// CHECK-NOT:     scf.for
// CHECK-NOT:     linalg.
// CHECK:         return
// OPTS-LABEL: func.func @fused
// OPTS-NOT:     scf.forall
// OPTS:         math.exp %{{.*}} : vector<1x8xf32>
func.func @fused(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// linalg.softmax is decomposed (max, exp(x - max), sum, divide), then
// vectorized row by row.

// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.softmax
// CHECK:         vector.multi_reduction <maxnumf>, {{.*}} : vector<1x16xf32> to vector<1xf32>
// CHECK:         arith.subf {{.*}} : vector<1x16xf32>
// CHECK:         math.exp {{.*}} : vector<1x16xf32>
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<1x16xf32> to vector<1xf32>
// CHECK:         arith.divf {{.*}} : vector<1x16xf32>
// CHECK-NOT:     linalg.
func.func @softmax(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
