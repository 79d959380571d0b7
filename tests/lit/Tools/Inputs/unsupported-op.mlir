// An op outside the supported dialects (line 5, column 8).
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %a[%c0] : tensor<4xf32>
  %s = complex.create %e, %e : complex<f32>
  return %a : tensor<4xf32>
}
