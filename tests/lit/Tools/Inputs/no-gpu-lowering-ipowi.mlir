// A kernel op that neither GPU lowering handles (math.ipowi on i32; unlike
// math.ctpop, which ROCDL takes as llvm.intr.ctpop).
func.func @ipow(%x: tensor<16xi32>) -> tensor<16xi32> {
  %e = tensor.empty() : tensor<16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xi32>) outs(%e : tensor<16xi32>) {
  ^bb0(%a: i32, %o: i32):
    %y = math.ipowi %a, %a : i32
    linalg.yield %y : i32
  } -> tensor<16xi32>
  return %r : tensor<16xi32>
}
