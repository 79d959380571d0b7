// broadcast_add_mixed_ranks: additions between tensors of different ranks.
//   r0[j]    = s + v[j]                (0-d + 1-d, linalg.generic)
//   r1[i, j] = m[i, j] + v[j]          (linalg.broadcast of v, then linalg.add)
//   r2[i, j] = m[i, j] * s - c[i]      (0-d and a column vector, linalg.generic)
#scalar1 = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
#scalar2 = affine_map<(d0, d1) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d0)>

func.func @broadcast_add_mixed_ranks(%s: tensor<f32>, %v: tensor<17xf32>,
                                     %m: tensor<5x17xf32>, %c: tensor<5xf32>)
    -> (tensor<17xf32>, tensor<5x17xf32>, tensor<5x17xf32>) {
  %e0 = tensor.empty() : tensor<17xf32>
  %r0 = linalg.generic {indexing_maps = [#scalar1, #id1, #id1],
                        iterator_types = ["parallel"]}
      ins(%s, %v : tensor<f32>, tensor<17xf32>) outs(%e0 : tensor<17xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %sum = arith.addf %a, %b : f32
    linalg.yield %sum : f32
  } -> tensor<17xf32>

  %e1 = tensor.empty() : tensor<5x17xf32>
  %vb = linalg.broadcast ins(%v : tensor<17xf32>) outs(%e1 : tensor<5x17xf32>)
                         dimensions = [0]
  %e2 = tensor.empty() : tensor<5x17xf32>
  %r1 = linalg.add ins(%m, %vb : tensor<5x17xf32>, tensor<5x17xf32>)
                   outs(%e2 : tensor<5x17xf32>) -> tensor<5x17xf32>

  %e3 = tensor.empty() : tensor<5x17xf32>
  %r2 = linalg.generic {indexing_maps = [#id2, #scalar2, #col2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%m, %s, %c : tensor<5x17xf32>, tensor<f32>, tensor<5xf32>)
      outs(%e3 : tensor<5x17xf32>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %out: f32):
    %prod = arith.mulf %a, %b : f32
    %diff = arith.subf %prod, %d : f32
    linalg.yield %diff : f32
  } -> tensor<5x17xf32>
  return %r0, %r1, %r2 : tensor<17xf32>, tensor<5x17xf32>, tensor<5x17xf32>
}
