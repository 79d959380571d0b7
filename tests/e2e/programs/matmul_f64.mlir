// matmul_f64: C[37x29] = A[37x53] * B[53x29] in f64. The odd sizes leave
// remainders for any tiling or vector width.
func.func @matmul_f64(%a: tensor<37x53xf64>, %b: tensor<53x29xf64>) -> tensor<37x29xf64> {
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<37x29xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<37x29xf64>) -> tensor<37x29xf64>
  %c = linalg.matmul ins(%a, %b : tensor<37x53xf64>, tensor<53x29xf64>)
                     outs(%acc : tensor<37x29xf64>) -> tensor<37x29xf64>
  return %c : tensor<37x29xf64>
}
