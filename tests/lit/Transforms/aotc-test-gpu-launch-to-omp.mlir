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
