// RUN: aotc-opt %s -split-input-file -aotc-optimize-vector-transfers | FileCheck %s

// The accumulator read/write pair does not depend on the reduction loop: it
// is hoisted and the accumulator is carried in registers (iter_args).

// CHECK-LABEL: func.func @accumulate
// CHECK-SAME:    (%[[A:.*]]: memref<8x64xf32>, %[[C:.*]]: memref<8x16xf32>)
// CHECK:         %[[INIT:.*]] = vector.transfer_read %[[C]]{{.*}} : memref<8x16xf32>, vector<8x16xf32>
// CHECK:         %[[SUM:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8x16xf32>)
// CHECK-NOT:       %[[C]]
// CHECK:           %[[X:.*]] = vector.transfer_read %[[A]][%{{.*}}, %[[K]]]
// CHECK:           %[[R:.*]] = arith.addf %[[ACC]], %[[X]] : vector<8x16xf32>
// CHECK-NOT:       %[[C]]
// CHECK:           scf.yield %[[R]] : vector<8x16xf32>
// CHECK-NEXT:    }
// CHECK:         vector.transfer_write %[[SUM]], %[[C]]
// CHECK:         return
func.func @accumulate(%a: memref<8x64xf32>, %c: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %p = ub.poison : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %acc = vector.transfer_read %c[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x16xf32>, vector<8x16xf32>
    %x = vector.transfer_read %a[%c0, %k], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<8x64xf32>, vector<8x16xf32>
    %r = arith.addf %acc, %x : vector<8x16xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32>
  }
  return
}

// -----

// Left in the loop: indices that depend on the induction variable, and a loop
// that may run zero times (the hoisted write would happen anyway).

// CHECK-LABEL: func.func @loop_variant
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NOT:       iter_args
// CHECK:           vector.transfer_read %{{.*}}[%[[I]], %{{.*}}]
// CHECK:           vector.transfer_write %{{.*}}, %{{.*}}[%[[I]], %{{.*}}] {{.*}} : vector<16xf32>, memref<64x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @loop_variant(%c: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %p = ub.poison : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %acc = vector.transfer_read %c[%i, %c0], %p {in_bounds = [true]} : memref<64x16xf32>, vector<16xf32>
    %r = arith.addf %acc, %acc : vector<16xf32>
    vector.transfer_write %r, %c[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
  }
  return
}

// CHECK-LABEL: func.func @maybe_zero_trip
// CHECK:         scf.for
// CHECK-NOT:       iter_args
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_write {{.*}} : vector<16xf32>, memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @maybe_zero_trip(%c: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = ub.poison : f32
  scf.for %k = %c0 to %n step %c1 {
    %acc = vector.transfer_read %c[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %r = arith.addf %acc, %acc : vector<16xf32>
    vector.transfer_write %r, %c[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  }
  return
}
