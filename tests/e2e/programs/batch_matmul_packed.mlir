// batch_matmul_packed: C[b] = A[b] * B[b] for 2 batches of [64x260] x [260x80],
// f32. B is computed at run time and reused by 64 rows over 260 steps, so
// aotc-pack-contraction-operands copies it into panels four rows at a time
// (260 = 65 blocks of 4), per batch; the columns past the last whole panel
// (80 = 2 x 32 + 16 with 512-bit registers) stay unpacked.
func.func @batch_matmul_packed(%a: tensor<2x64x260xf32>, %b: tensor<2x260x80xf32>) -> tensor<2x64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x64x80xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x64x80xf32>) -> tensor<2x64x80xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x64x260xf32>, tensor<2x260x80xf32>)
                           outs(%acc : tensor<2x64x80xf32>) -> tensor<2x64x80xf32>
  return %c : tensor<2x64x80xf32>
}
