// matmul_aliased_rows: relu(A[52x1024] * B[1024x512] + bias) in f32. The
// rows of A are 4 KiB apart, so aotc-pack-contraction-operands copies its
// 48 whole register-tile rows (6 per tile on AVX2, 8 on AVX-512) into row
// panels; the remaining rows stay unpacked, and the bias + relu runs on
// each part.
#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_aliased_rows(%a: tensor<52x1024xf32>, %b: tensor<1024x512xf32>,
                               %bias: tensor<512xf32>) -> tensor<52x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<52x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<52x512xf32>) -> tensor<52x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<52x1024xf32>, tensor<1024x512xf32>)
                     outs(%acc : tensor<52x512xf32>) -> tensor<52x512xf32>
  %r = linalg.generic {indexing_maps = [#id, #bias, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<52x512xf32>, tensor<512xf32>) outs(%empty : tensor<52x512xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<52x512xf32>
  return %r : tensor<52x512xf32>
}
