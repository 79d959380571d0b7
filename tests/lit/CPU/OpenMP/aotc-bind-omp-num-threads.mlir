// RUN: aotc-opt %s -split-input-file -aotc-bind-omp-num-threads | FileCheck %s

// An entry point gets a trailing i32 `num_threads` argument (after the pool)
// that becomes the num_threads clause of every omp.parallel in it, nested or
// not, replacing any clause already there.

// CHECK-LABEL: func.func @entry(
// CHECK-SAME:    %{{.*}}: memref<4xf32>, %{{.*}}: memref<0xi8>, %[[N:.*]]: i32 {aotc.name = "num_threads"})
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK:           omp.parallel num_threads(%[[N]] : i32) {
// CHECK:         return
func.func @entry(%a: memref<4xf32>, %pool: memref<0xi8>) attributes {aotc.entry = {name = "entry"}} {
  omp.parallel {
    omp.terminator
  }
  omp.parallel {
    omp.parallel {
      omp.terminator
    }
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @existing(
// CHECK-SAME:    %{{.*}}: memref<4xf32>, %[[N:.*]]: i32 {aotc.name = "num_threads"})
// CHECK:         omp.parallel num_threads(%[[N]] : i32)
func.func @existing(%a: memref<4xf32>) attributes {aotc.entry = {name = "existing"}} {
  %c2 = arith.constant 2 : i32
  omp.parallel num_threads(%c2 : i32) {
    omp.terminator
  }
  return
}

// An entry point without parallel regions still gets the argument (the ABI
// wrapper always passes it).

// CHECK-LABEL: func.func @sequential(
// CHECK-SAME:    %{{.*}}: memref<4xf32>, %{{.*}}: i32 {aotc.name = "num_threads"})
func.func @sequential(%a: memref<4xf32>) attributes {aotc.entry = {name = "sequential"}} {
  return
}

// -----

// Other functions are left alone.

// CHECK-LABEL: func.func @helper(
// CHECK-SAME:    %{{.*}}: memref<4xf32>) {
// CHECK-NEXT:    omp.parallel {
func.func @helper(%a: memref<4xf32>) {
  omp.parallel {
    omp.terminator
  }
  return
}
