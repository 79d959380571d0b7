// Two extern kernels between aotc's own kernels, for the GPU targets on the
// fake driver (fake_driver_extern.cpp defines the kernels and checks what
// they get):
//   a = x + 1                       (a kernel)
//   s = scale_kernel(a)             attributes {"factor": 3}, 128 scratch bytes
//   r = bias_kernel(w, s)           w a constant: copied to device memory first
//   z = 2 * r                       (a kernel)
//   returns (r, z)
func.func private @scale_kernel(tensor<8x16xf32>) -> tensor<8x16xf32>
    attributes {aotc.extern = {symbol = "scale_kernel",
                               attributes = "{\"factor\": 3}",
                               scratch_bytes = 128 : i64}}
func.func private @bias_kernel(tensor<16xf32>, tensor<8x16xf32>)
    -> tensor<8x16xf32>

#id = affine_map<(i, j) -> (i, j)>
func.func @ext(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %w = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0,
                             9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]>
      : tensor<16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.addf %v, %one : f32
    linalg.yield %p : f32
  } -> tensor<8x16xf32>
  %s = func.call @scale_kernel(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = func.call @bias_kernel(%w, %s)
      : (tensor<16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %z = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.mulf %v, %two : f32
    linalg.yield %p : f32
  } -> tensor<8x16xf32>
  return %r, %z : tensor<8x16xf32>, tensor<8x16xf32>
}
