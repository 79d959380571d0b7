// RUN: aotc-opt %s -split-input-file -aotc-merge-parallel-regions | FileCheck %s

// Three thread loops in a row, a view computed between the first two: one
// region (the view before it), its parts separated by barriers.

// CHECK-LABEL: func.func @run(
// CHECK-SAME:    %[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[N:.*]]: i32)
// CHECK:         %[[V:.*]] = memref.subview %[[B]][32] [32] [1]
// CHECK-NEXT:    omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT:      memref.store %{{.*}}, %[[A]][%{{.*}}]
// CHECK-NEXT:      omp.barrier
// CHECK-NEXT:      memref.load %[[A]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[V]][%{{.*}}]
// CHECK-NEXT:      omp.barrier
// CHECK-NEXT:      memref.store %{{.*}}, %[[B]][%{{.*}}]
// CHECK-NEXT:      omp.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @run(%a: memref<64xf32>, %b: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%n : i32) {
    memref.store %f, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  %v = memref.subview %b[32] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 32>>
  omp.parallel num_threads(%n : i32) {
    %x = memref.load %a[%c0] : memref<64xf32>
    memref.store %x, %v[%c0] : memref<32xf32, strided<[1], offset: 32>>
    omp.terminator
  }
  omp.parallel num_threads(%n : i32) {
    memref.store %f, %b[%c0] : memref<64xf32>
    omp.terminator
  }
  return
}

// -----

// Sequential code between two regions (a store, a loop of stores, a load
// and the product of what it read): one region, that code run by the
// primary thread (omp.masked) between two barriers; the constant it uses
// is computed before the region.

// CHECK-LABEL: func.func @sequential(
// CHECK-SAME:    %[[A:.*]]: memref<64xf32>, %[[N:.*]]: i32)
// CHECK:         %[[C2:.*]] = arith.constant 2.000000e+00
// CHECK-NEXT:    omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      omp.barrier
// CHECK-NEXT:      omp.masked {
// CHECK-NEXT:        memref.store %[[C2]], %[[A]]
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          memref.store
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[L:.*]] = memref.load %[[A]]
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[L]], %[[L]]
// CHECK-NEXT:        memref.store %[[M]], %[[A]]
// CHECK-NEXT:        omp.terminator
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.barrier
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      omp.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @sequential(%a: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%n : i32) {
    memref.store %f, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  %g = arith.constant 2.0 : f32
  memref.store %g, %a[%c1] : memref<64xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %f, %a[%i] : memref<64xf32>
  }
  %l = memref.load %a[%c8] : memref<64xf32>
  %m = arith.mulf %l, %l : f32
  memref.store %m, %a[%c0] : memref<64xf32>
  omp.parallel num_threads(%n : i32) {
    memref.store %f, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  return
}

// -----

// Sequential code whose value is read after it (a load read by the next
// region), or another thread count: the regions stay apart.

// CHECK-LABEL: func.func @apart(
// CHECK:         omp.parallel num_threads(%{{.*}} : i32) {
// CHECK-NOT:       omp.barrier
// CHECK:           omp.terminator
// CHECK:         memref.load
// CHECK:         omp.parallel num_threads(%{{.*}} : i32) {
// CHECK-NOT:       omp.barrier
// CHECK:           omp.terminator
// CHECK:         omp.parallel num_threads(%{{.*}} : i32) {
// CHECK-NOT:       omp.barrier
// CHECK:           omp.terminator
// CHECK:         return
func.func @apart(%a: memref<64xf32>, %n: i32, %m: i32) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%n : i32) {
    memref.store %f, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  %l = memref.load %a[%c0] : memref<64xf32>
  omp.parallel num_threads(%n : i32) {
    memref.store %l, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  omp.parallel num_threads(%m : i32) {
    memref.store %f, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  return
}
