// erf_accuracy: math.erf on a dense sweep of f32 inputs, alone and in
// GELU's form erf(x / sqrt 2), checked with a tolerance of 4e-7 relative
// (about 7 ulp just below 1) instead of the f32 default of 1e-4.
#id = affine_map<(d0) -> (d0)>

func.func @erf_accuracy(%x: tensor<32768xf32>)
    -> (tensor<32768xf32>, tensor<32768xf32>) {
  %e0 = tensor.empty() : tensor<32768xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<32768xf32>) outs(%e0 : tensor<32768xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.erf %a : f32
    linalg.yield %r : f32
  } -> tensor<32768xf32>
  %g0 = tensor.empty() : tensor<32768xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<32768xf32>) outs(%g0 : tensor<32768xf32>) {
  ^bb0(%a: f32, %out: f32):
    %sqrt2 = arith.constant 1.41421354 : f32
    %s = arith.divf %a, %sqrt2 : f32
    %r = math.erf %s : f32
    linalg.yield %r : f32
  } -> tensor<32768xf32>
  return %e, %g : tensor<32768xf32>, tensor<32768xf32>
}
