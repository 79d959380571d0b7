// matmul: C[64x80] = A[64x96] * B[96x80] in f32; the accumulator is a
// tensor.empty filled with zero by linalg.fill.
func.func @matmul(%a: tensor<64x96xf32>, %b: tensor<96x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x80xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x80xf32>) -> tensor<64x80xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x80xf32>)
                     outs(%acc : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %c : tensor<64x80xf32>
}
