// softmax over the last dimension of x [8, 128] (f32): code generation
// rewrites its LLVM IR (CodeGenPrepare), see object-independent-of-emit.test.
func.func @softmax(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %empty = tensor.empty() : tensor<8x128xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<8x128xf32>)
                                   outs(%empty : tensor<8x128xf32>) -> tensor<8x128xf32>
  return %y : tensor<8x128xf32>
}
