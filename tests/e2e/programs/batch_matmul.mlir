// batch_matmul: C[b] = A[b] * B[b] for 3 batches of [33x47] x [47x21], f32.
func.func @batch_matmul(%a: tensor<3x33x47xf32>, %b: tensor<3x47x21xf32>) -> tensor<3x33x21xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x33x21xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x33x21xf32>) -> tensor<3x33x21xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x33x47xf32>, tensor<3x47x21xf32>)
                           outs(%acc : tensor<3x33x21xf32>) -> tensor<3x33x21xf32>
  return %c : tensor<3x33x21xf32>
}
