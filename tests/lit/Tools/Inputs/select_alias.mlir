// out = select(c, exp(a), log(b)) + a @ b: the select of two tensors forwards
// one of two scratch buffers, which is read after the matmul's own scratch
// buffer has been written.
func.func @select_alias(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<i1>) -> tensor<64x64xf32> {
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.exp ins(%a : tensor<64x64xf32>) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %y = linalg.log ins(%b : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %cc = tensor.extract %c[] : tensor<i1>
  %s = arith.select %cc, %x, %y : tensor<64x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %z = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.add ins(%s, %z : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
