// A kernel op that no GPU lowering handles (math.ctpop on i32).
func.func @popcount(%x: tensor<16xi32>) -> tensor<16xi32> {
  %e = tensor.empty() : tensor<16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xi32>) outs(%e : tensor<16xi32>) {
  ^bb0(%a: i32, %o: i32):
    %y = math.ctpop %a : i32
    linalg.yield %y : i32
  } -> tensor<16xi32>
  return %r : tensor<16xi32>
}
