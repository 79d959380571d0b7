// A batch of N rows (aotc.dims names the dynamic dimension): tanh(x @ w).
func.func @mlp(%x: tensor<?x64xf32> {aotc.name = "x", aotc.dims = ["N", ""]},
               %w: tensor<64x32xf32> {aotc.name = "w"})
    -> (tensor<?x32xf32> {aotc.name = "y", aotc.dims = ["N", ""]}) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %e2 = tensor.empty(%n) : tensor<?x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
