// RUN: aotc-opt %s -aotc-test-gpu-launch-to-omp | FileCheck %s

// A launch of 2 x 3 blocks of 4 x 2 threads: the workgroup buffer is one
// stack buffer, blocks run in z, y, x loops, each an OpenMP team of 8
// threads (tx = t mod 4, ty = (t / 4) mod 2) whose barrier is omp.barrier.
// CHECK-LABEL: func.func @launch
// CHECK:         %[[WG:.*]] = memref.alloca() : memref<8xf32>
// CHECK:         scf.for %[[BZ:.*]] = %{{.*}} to %{{.*}}
// CHECK:           scf.for %[[BY:.*]] = %{{.*}} to %{{.*}}
// CHECK:             scf.for %[[BX:.*]] = %{{.*}} to %{{.*}}
// CHECK:               omp.parallel num_threads(%{{.*}} : i32) {
// CHECK:                 %[[TEAM:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK:                 cf.assert %{{.*}}, "OpenMP team smaller than the GPU block"
// CHECK:                 %[[T:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:                 %[[TI:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK:                 %[[TX:.*]] = arith.remui %[[TI]], %{{.*}} : index
// CHECK:                 memref.store %{{.*}}, %[[WG]][%{{.*}}] : memref<8xf32>
// CHECK-NEXT:            omp.barrier
// CHECK:                 memref.load %[[WG]]
// CHECK:                 memref.store %{{.*}}, %{{.*}}[%[[BY]], %[[BX]]] : memref<3x2xf32>
// CHECK:                 omp.terminator
// CHECK-NOT:     gpu.
func.func @launch(%out: memref<3x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c3, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c1)
      workgroup(%wg : memref<8xf32, #gpu.address_space<workgroup>>) {
    %row = arith.muli %ty, %sx : index
    %t = arith.addi %row, %tx : index
    memref.store %f, %wg[%t] : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %wg[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%by, %bx] : memref<3x2xf32>
    gpu.terminator
  }
  return
}

// Matrix instructions: a scratch buffer of 16 f32 per thread; each lane
// stores its 8 A, 4 B and 4 C elements there, barrier, computes its 4 D
// elements as 16-step sums over the lanes that hold row r of A (lane
// (r mod 8) * 4 + (k mod 8) / 2) and column n of B (lane n * 4 +
// (k mod 8) / 2), barrier.
// CHECK-LABEL: func.func @mma_sync
// CHECK:         %[[S:.*]] = memref.alloca(%{{.*}}) : memref<?x16xf32>
// CHECK:         omp.parallel
// CHECK:           %[[T:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-COUNT-8:   vector.extract %{{.*}} : f16 from vector<4x2xf16>
// CHECK-COUNT-4:   vector.extract %{{.*}} : f16 from vector<2x2xf16>
// CHECK:           memref.store %{{.*}}, %[[S]][%[[T]], %c15{{.*}}] : memref<?x16xf32>
// CHECK-NEXT:      omp.barrier
// CHECK-COUNT-4:   scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:           omp.barrier
// CHECK-NOT:       nvgpu.mma.sync
// CHECK:           omp.terminator
func.func @mma_sync(%a: memref<32x8xf16>, %b: memref<32x4xf16>, %out: memref<32x4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0f16 = arith.constant 0.0 : f16
    %av = vector.transfer_read %a[%tx, %c0], %c0f16 : memref<32x8xf16>, vector<8xf16>
    %a2 = vector.shape_cast %av : vector<8xf16> to vector<4x2xf16>
    %bv = vector.transfer_read %b[%tx, %c0], %c0f16 : memref<32x4xf16>, vector<4xf16>
    %b2 = vector.shape_cast %bv : vector<4xf16> to vector<2x2xf16>
    %acc = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%a2, %b2, %acc) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %dv = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
    vector.transfer_write %dv, %out[%tx, %c0] : vector<4xf32>, memref<32x4xf32>
    gpu.terminator
  }
  return
}

// CDNA MFMA 16x16x16: 64 lanes, A element (i, k) in lane i + 16 * (k / 4).
// CHECK-LABEL: func.func @mfma
// CHECK:         memref.alloca(%{{.*}}) : memref<?x16xf32>
// CHECK:         omp.parallel
// CHECK:           omp.barrier
// CHECK-COUNT-4:   scf.for %{{.*}} -> (f32)
// CHECK:           omp.barrier
// CHECK-NOT:       amdgpu.mfma
func.func @mfma(%a: memref<64x4xf16>, %out: memref<64x4xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %f0 = arith.constant 0.0 : f16
    %av = vector.transfer_read %a[%tx, %c0], %f0 : memref<64x4xf16>, vector<4xf16>
    %acc = arith.constant dense<0.0> : vector<4xf32>
    %d = amdgpu.mfma 16x16x16 %av * %av + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
    vector.transfer_write %d, %out[%tx, %c0] : vector<4xf32>, memref<64x4xf32>
    gpu.terminator
  }
  return
}
