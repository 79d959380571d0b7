// RUN: aotc-opt %s -split-input-file -convert-scf-to-openmp -aotc-elide-omp-loop-barriers | FileCheck %s

// A thread loop as convert-scf-to-openmp makes it (one omp.wsloop ending its
// omp.parallel) needs no barrier of its own: the region's end waits for every
// thread. A loop with a reduction keeps its barrier.

// CHECK-LABEL: func.func @loops
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop nowait {
// CHECK:           omp.terminator
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop reduction(
// CHECK-NOT:       nowait
// CHECK:         return
func.func @loops(%a: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<64xf32>
    scf.reduce
  }
  %z = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %v = memref.load %a[%i] : memref<64xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  return %s : f32
}

// -----

// Only the last loop of a region: the first of two loops keeps its barrier
// (the second reads what the first wrote).

// CHECK-LABEL: func.func @two_loops
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop {
// CHECK:           omp.wsloop nowait {
// CHECK:           omp.terminator
func.func @two_loops(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %r = arith.subi %n, %i : index
        %j = arith.subi %r, %c1 : index
        %v = memref.load %a[%j] : memref<64xf32>
        memref.store %v, %b[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
