// A small model shared by the aotc CLI tests: two named inputs and an
// unnamed one, two results (one named), a softmax that needs scratch buffers.
//   y       = softmax(x @ w + bias)            f32[8, 64]
//   result1 = fptosi(rowsum(x @ w + bias))     i32[8]
func.func @main(%x: tensor<8x32xf32> {aotc.name = "x"}, %w: tensor<32x64xf32> {aotc.name = "w"},
                %bias: tensor<64xf32>)
    -> (tensor<8x64xf32> {aotc.name = "y"}, tensor<8xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e1 = tensor.empty() : tensor<8x64xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x64xf32>, tensor<64xf32>) outs(%e1 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %y = linalg.softmax dimension(1) ins(%z : tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%z : tensor<8x64xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%in: f32, %out: f32) {
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    }
  %e4 = tensor.empty() : tensor<8xi32>
  %i = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e4 : tensor<8xi32>) {
  ^bb0(%a: f32, %o: i32):
    %c = arith.fptosi %a : f32 to i32
    linalg.yield %c : i32
  } -> tensor<8xi32>
  return %y, %i : tensor<8x64xf32>, tensor<8xi32>
}
