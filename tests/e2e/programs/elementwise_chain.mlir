// elementwise_chain: math.exp / math.tanh / math.erf chained with arith ops,
// as a sequence of element-wise linalg.generic ops on f32 [4,1000]:
//   g   = exp(-0.5 * x * x)
//   t   = tanh(x) * y
//   e   = erf(x * 0.70710678)
//   d   = (g * t + e) / (1 + |y|)
//   out = max(d, -0.75) - 0.125 * x
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @elementwise_chain(%x: tensor<4x1000xf32>, %y: tensor<4x1000xf32>)
    -> tensor<4x1000xf32> {
  %e_g = tensor.empty() : tensor<4x1000xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x1000xf32>) outs(%e_g : tensor<4x1000xf32>) {
  ^bb0(%a: f32, %out: f32):
    %mhalf = arith.constant -0.5 : f32
    %sq = arith.mulf %a, %a : f32
    %arg = arith.mulf %sq, %mhalf : f32
    %r = math.exp %arg : f32
    linalg.yield %r : f32
  } -> tensor<4x1000xf32>

  %e_t = tensor.empty() : tensor<4x1000xf32>
  %t = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x1000xf32>, tensor<4x1000xf32>) outs(%e_t : tensor<4x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %th = math.tanh %a : f32
    %r = arith.mulf %th, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x1000xf32>

  %e_e = tensor.empty() : tensor<4x1000xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x1000xf32>) outs(%e_e : tensor<4x1000xf32>) {
  ^bb0(%a: f32, %out: f32):
    %rsqrt2 = arith.constant 0.70710678 : f32
    %s = arith.mulf %a, %rsqrt2 : f32
    %r = math.erf %s : f32
    linalg.yield %r : f32
  } -> tensor<4x1000xf32>

  %e_d = tensor.empty() : tensor<4x1000xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %t, %e, %y : tensor<4x1000xf32>, tensor<4x1000xf32>, tensor<4x1000xf32>, tensor<4x1000xf32>)
      outs(%e_d : tensor<4x1000xf32>) {
  ^bb0(%gv: f32, %tv: f32, %ev: f32, %yv: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %gt = arith.mulf %gv, %tv : f32
    %num = arith.addf %gt, %ev : f32
    %ay = math.absf %yv : f32
    %den = arith.addf %ay, %one : f32
    %r = arith.divf %num, %den : f32
    linalg.yield %r : f32
  } -> tensor<4x1000xf32>

  %e_o = tensor.empty() : tensor<4x1000xf32>
  %o = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %x : tensor<4x1000xf32>, tensor<4x1000xf32>) outs(%e_o : tensor<4x1000xf32>) {
  ^bb0(%dv: f32, %xv: f32, %out: f32):
    %lo = arith.constant -0.75 : f32
    %k = arith.constant 0.125 : f32
    %c = arith.maximumf %dv, %lo : f32
    %kx = arith.mulf %xv, %k : f32
    %r = arith.subf %c, %kx : f32
    linalg.yield %r : f32
  } -> tensor<4x1000xf32>
  return %o : tensor<4x1000xf32>
}
