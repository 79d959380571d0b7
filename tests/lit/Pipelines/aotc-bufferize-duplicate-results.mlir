// RUN: aotc-opt %s -aotc-bufferize | FileCheck %s
//
// A function that returns the same computed tensor twice: each result gets
// its own out-parameter and both are written. Today the pipeline crashes
// (SIGSEGV in mlir::bufferization::promoteBufferResultsToOutParams, reached
// from buffer-results-to-out-params{hoist-static-allocs=1}: the allocation is
// replaced by the first out-parameter and then visited again for the second
// result). `aotc` crashes the same way on this model.
// XFAIL: *

// CHECK-LABEL: func.func @twice(
// CHECK-SAME:    %[[X:[^:]*]]: memref<16xf32>, %[[R0:[^:]*]]: memref<16xf32>, %[[R1:[^:]*]]: memref<16xf32>, %{{[^:]*}}: memref<{{[0-9]+}}xi8> {aotc.name = "pool"})
// CHECK-DAG:     %[[R0]]
// CHECK-DAG:     %[[R1]]
// CHECK:         return
func.func @twice(%x: tensor<16xf32> {bufferization.writable = false}) -> (tensor<16xf32>, tensor<16xf32>)
    attributes {aotc.entry = {inputs = [], name = "twice", outputs = []}} {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r, %r : tensor<16xf32>, tensor<16xf32>
}
