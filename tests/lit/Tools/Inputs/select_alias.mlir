// out = select(c, exp(a), log(b)) + sqrt(a): the select of two tensors
// forwards one of two scratch buffers, read after sqrt(a) is computed.
func.func @select_alias(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<i1>) -> tensor<64x64xf32> {
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.exp ins(%a : tensor<64x64xf32>) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %y = linalg.log ins(%b : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %cc = tensor.extract %c[] : tensor<i1>
  %s = arith.select %cc, %x, %y : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %z = linalg.sqrt ins(%a : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.add ins(%s, %z : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
