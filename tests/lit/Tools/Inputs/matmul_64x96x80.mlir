// A 64 x 96 x 80 f32 matmul: its 64 rows fill register tiles of 8 rows
// exactly, and leave a remainder with tiles of 6.
func.func @mm(%a: tensor<64x96xf32>, %b: tensor<96x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x80xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x80xf32>) -> tensor<64x80xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x80xf32>)
                     outs(%acc : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %c : tensor<64x80xf32>
}
