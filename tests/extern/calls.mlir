// Two extern kernels called by one entry point (extern_test.py):
//   m = x @ w
//   s = swish_kernel(m)             s = m * sigmoid(beta * m), beta from its
//                                   attributes; 256 scratch bytes
//   t = s + m
//   (r, q) = rowdot_kernel(t, idx)  r[i] = sum_j t[i, j] * idx[j],
//                                   q[i, j] = (i + 1) * idx[j] (i64)
//   returns (2 * t, r, q)
func.func private @swish_kernel(tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {aotc.extern = {symbol = "swish_kernel",
                               attributes = "{\"beta\": 1.5}",
                               scratch_bytes = 256 : i64}}
func.func private @rowdot_kernel(tensor<4x8xf32>, tensor<8xi32>)
    -> (tensor<4xf32>, tensor<4x8xi64>)

func.func @calls(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>,
                 %idx: tensor<8xi32>)
    -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xi64>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = func.call @swish_kernel(%m) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = linalg.add ins(%s, %m : tensor<4x8xf32>, tensor<4x8xf32>)
                  outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r, %q = func.call @rowdot_kernel(%t, %idx)
      : (tensor<4x8xf32>, tensor<8xi32>) -> (tensor<4xf32>, tensor<4x8xi64>)
  %d = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.mulf %a, %two : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  return %d, %r, %q : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xi64>
}
