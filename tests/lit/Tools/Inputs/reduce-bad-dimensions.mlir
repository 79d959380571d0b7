// linalg.reduce's parser dereferences a null attribute when `dimensions` is
// not an array (found by tests/fuzz/mlir_input_fuzzer).
func.func @f(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = XX[1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
