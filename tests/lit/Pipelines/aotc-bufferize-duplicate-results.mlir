// RUN: aotc-opt %s -aotc-frontend -aotc-bufferize | FileCheck %s
//
// A function that returns the same computed tensor twice: the frontend gives
// the second occurrence its own copy, so each result gets its own
// out-parameter and both are written (upstream buffer-results-to-out-params
// crashes on a value returned twice).

// CHECK-LABEL: func.func @twice(
// CHECK-SAME:    %[[X:[^:]*]]: memref<16xf32>, %[[R0:[^:]*]]: memref<16xf32>, %[[R1:[^:]*]]: memref<16xf32>, %{{[^:]*}}: memref<{{[0-9]+}}xi8> {aotc.name = "pool"})
// CHECK-DAG:     outs(%[[R0]]
// CHECK-DAG:     outs(%[[R1]]
// CHECK:         return
func.func @twice(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r, %r : tensor<16xf32>, tensor<16xf32>
}
