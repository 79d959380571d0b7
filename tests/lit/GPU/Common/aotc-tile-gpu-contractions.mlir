// RUN: aotc-opt %s -aotc-tile-gpu-contractions -cse | FileCheck %s
// RUN: aotc-opt %s -aotc-tile-gpu-contractions=tile-sizes=16,32,8 -cse | FileCheck %s --check-prefix=SMALL
// RUN: not aotc-opt %s -aotc-tile-gpu-contractions=tile-sizes=16,24,8 2>&1 | FileCheck %s --check-prefix=BAD

// 100x70 * 70x130: 64x64 tiles, grid 3 x 2, 16 x 16 threads. A is copied
// K-fastest into a padded [16][65] tile, B N-fastest into [16][64]; 16
// accumulators (4x4) start from C (clamped rows/columns), then 4 whole
// 16-deep K slices (copy, barrier, 16 steps, barrier) and the last 6 steps;
// stores are guarded by row < 100 and column < 130.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         gpu.launch blocks(%[[BX:[0-9a-z_]+]], %[[BY:[0-9a-z_]+]], %{{[0-9a-z_]+}}) in (%{{[0-9a-z_]+}} = %[[C3]], %{{[0-9a-z_]+}} = %[[C2]], %{{[0-9a-z_]+}} = %{{[0-9a-z_]+}}) threads(%[[TX:[0-9a-z_]+]], %[[TY:[0-9a-z_]+]], %{{[0-9a-z_]+}}) in (%{{[0-9a-z_]+}} = %[[C16]], %{{[0-9a-z_]+}} = %[[C16]], %{{[0-9a-z_]+}} = %{{[0-9a-z_]+}})
// CHECK-SAME:        workgroup(%[[AS:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[ROW0:.*]] = arith.muli %[[BY]], %{{.*}} : index
// CHECK:           %[[COL0:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:           arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:           memref.load %{{.*}} : memref<100x130xf32>
// CHECK:           %[[ACC:.*]]:16 = scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %[[C16]] iter_args(
// CHECK-COUNT-4:     memref.store %{{.*}}, %[[AS]][%{{.*}}, %{{.*}}] : memref<16x65xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:     memref.store %{{.*}}, %[[BS]][%{{.*}}, %{{.*}}] : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK:             gpu.barrier
// CHECK:             scf.for %[[KK:.*]] = %{{.*}} to %[[C16]] step %{{.*}} iter_args(
// CHECK-COUNT-4:       memref.load %[[AS]][%[[KK]], %{{.*}}] : memref<16x65xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:       memref.load %[[BS]][%[[KK]], %{{.*}}] : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-16:      arith.addf
// CHECK:               scf.yield
// CHECK:             gpu.barrier
// CHECK:             scf.yield
// CHECK:           gpu.barrier
// CHECK:           %[[C6:.*]] = arith.constant 6 : index
// CHECK:           %[[LAST:.*]]:16 = scf.for %{{.*}} = %{{.*}} to %[[C6]] step
// CHECK:           arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:           arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:           arith.andi
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %[[LAST]]#0, %{{.*}} : memref<100x130xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.matmul
// SMALL-LABEL: func.func @matmul
// SMALL:         gpu.launch blocks({{[^)]*}}) in (%{{[0-9a-z_]+}} = %c5, %{{[0-9a-z_]+}} = %c7, %{{[0-9a-z_]+}} = %c1) threads({{[^)]*}}) in (%{{[0-9a-z_]+}} = %c16, %{{[0-9a-z_]+}} = %c16, %{{[0-9a-z_]+}} = %c1)
// SMALL-SAME:        workgroup(%{{.*}} : memref<8x17xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xf32, #gpu.address_space<workgroup>>)
// SMALL:           scf.for {{.*}} -> (f32, f32) {
func.func @matmul(%a: memref<100x70xf32>, %b: memref<70x130xf32>, %c: memref<100x130xf32>) attributes {aotc.entry = {name = "matmul"}} {
  linalg.matmul ins(%a, %b : memref<100x70xf32>, memref<70x130xf32>) outs(%c : memref<100x130xf32>)
  return
}

// Batches on grid z; exact K (17 < 16 + 1: one whole slice, one step left).
// CHECK-LABEL: func.func @batch_matmul
// CHECK:         gpu.launch blocks(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %[[BZ:[0-9a-z_]+]]) in (%{{[0-9a-z_]+}} = %c2, %{{[0-9a-z_]+}} = %c1, %{{[0-9a-z_]+}} = %c3)
// CHECK:           memref.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] : memref<3x33x65xf32>
// CHECK:           memref.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] : memref<3x33x17xf32>
func.func @batch_matmul(%a: memref<3x33x17xf32>, %b: memref<3x17x65xf32>, %c: memref<3x33x65xf32>) attributes {aotc.entry = {name = "batch_matmul"}} {
  linalg.batch_matmul ins(%a, %b : memref<3x33x17xf32>, memref<3x17x65xf32>) outs(%c : memref<3x33x65xf32>)
  return
}

// A convolution is an implicit GEMM: the output's innermost dimension (ow)
// indexes the image, so the filter is the row side (M = 8 channels, 8 x 32
// threads of 1 x 2), the image the column side (N = n x oh x ow = 128),
// K = c x kh x kw = 36 (2 whole slices + 4 steps). The image is read at
// oh + kh, ow + kw.
// CHECK-LABEL: func.func @conv
// CHECK:         gpu.launch {{.*}} threads({{[^)]*}}) in (%{{[0-9a-z_]+}} = %c32, %{{[0-9a-z_]+}} = %c8, %{{[0-9a-z_]+}} = %c1)
// CHECK-SAME:        workgroup(%{{.*}} : memref<16x9xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK:           memref.load %{{.*}} : memref<8x4x3x3xf32>
// CHECK:           affine.apply #{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:           memref.load %{{.*}} : memref<2x4x10x10xf32>
// CHECK:           arith.constant 4 : index
func.func @conv(%x: memref<2x4x10x10xf32>, %w: memref<8x4x3x3xf32>, %o: memref<2x8x8x8xf32>) attributes {aotc.entry = {name = "conv"}} {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<2x4x10x10xf32>, memref<8x4x3x3xf32>) outs(%o : memref<2x8x8x8xf32>)
  return
}

// Any payload: max-plus, applied in K order like the loop form.
// CHECK-LABEL: func.func @max_plus
// CHECK:         gpu.launch
// CHECK:             arith.addf
// CHECK-NEXT:        arith.maximumf
func.func @max_plus(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) attributes {aotc.entry = {name = "max_plus"}} {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %s = arith.addf %p, %q : f32
    %m = arith.maximumf %acc, %s : f32
    linalg.yield %m : f32
  }
  return
}

// Not contractions: a pooling window operand is never read, an elementwise
// op has no K; both are left to aotc-map-to-gpu.
// CHECK-LABEL: func.func @not_contractions
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.pooling_nchw_max
// CHECK:         linalg.generic
// CHECK-NOT:     gpu.launch
func.func @not_contractions(%x: memref<1x4x10x10xf32>, %w: memref<3x3xf32>, %o: memref<1x4x8x8xf32>) attributes {aotc.entry = {name = "not_contractions"}} {
  linalg.pooling_nchw_max ins(%x, %w : memref<1x4x10x10xf32>, memref<3x3xf32>) outs(%o : memref<1x4x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i, j, k, l)>, affine_map<(i, j, k, l) -> (i, j, k, l)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : memref<1x4x8x8xf32>) outs(%o : memref<1x4x8x8xf32>) {
  ^bb0(%p: f32, %q: f32):
    %e = math.exp %p : f32
    linalg.yield %e : f32
  }
  return
}

// Functions that are not entry points are left alone.
// CHECK-LABEL: func.func @not_an_entry
// CHECK:         linalg.matmul
func.func @not_an_entry(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// BAD: error: tile-sizes must be three powers of two up to 256 (M, N, K)
