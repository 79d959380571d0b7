// RUN: aotc-opt %s -aotc-canonicalize-parallel-regions | FileCheck %s
// RUN: aotc-opt %s -canonicalize | FileCheck %s

// The canonicalizer's rewrites, whether each parallel region is rewritten
// in its own scope first or everything at once: constants folded (and
// hoisted to the function's entry, in an order that may differ), dead ops
// gone inside and outside the regions.

// CHECK-LABEL: func.func @folds
// CHECK-NOT:     arith.constant 7
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         omp.parallel {
// CHECK-NEXT:      memref.store %[[C3]], %{{.*}}[%[[C0]]] : memref<4xi32>
// CHECK-NEXT:      omp.terminator
// CHECK:         omp.parallel {
// CHECK-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[C1]]] : memref<4xi32>
// CHECK-NEXT:      omp.terminator
// CHECK:         return
func.func @folds(%m: memref<4xi32>, %x: i32) {
  %dead = arith.constant 7 : i32
  omp.parallel {
    %a = arith.constant 1 : i32
    %b = arith.constant 2 : i32
    %c = arith.addi %a, %b : i32
    %unused = arith.muli %c, %x : i32
    %i = arith.constant 0 : index
    memref.store %c, %m[%i] : memref<4xi32>
    omp.terminator
  }
  omp.parallel {
    %one = arith.constant 1 : i32
    %y = arith.muli %x, %one : i32
    %i = arith.constant 1 : index
    memref.store %y, %m[%i] : memref<4xi32>
    omp.terminator
  }
  return
}
