// multi_result: three results of different origin:
//   r0 = x               (an input returned unchanged)
//   r1 = a constant      (i32 [2, 2], no dependence on the inputs)
//   r2 = x * x + 0.5     (computed)
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @multi_result(%x: tensor<3x4xf32>)
    -> (tensor<3x4xf32>, tensor<2x2xi32>, tensor<3x4xf32>) {
  %k = arith.constant dense<[[1, -2], [3, 2147483647]]> : tensor<2x2xi32>
  %e = tensor.empty() : tensor<3x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %sq = arith.mulf %in, %in : f32
    %r = arith.addf %sq, %half : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  return %x, %k, %y : tensor<3x4xf32>, tensor<2x2xi32>, tensor<3x4xf32>
}
