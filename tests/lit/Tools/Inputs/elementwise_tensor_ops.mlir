// arith and math ops applied to whole tensors (accepted by aotc-verify-input).
func.func @main(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = arith.addf %a, %b : tensor<16xf32>
  %1 = math.exp %0 : tensor<16xf32>
  return %1 : tensor<16xf32>
}
