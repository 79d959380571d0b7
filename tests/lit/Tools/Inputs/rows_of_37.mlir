// Rows of 37 floats, scaled: vector loads and stores wider than the 16
// bytes ThreadSanitizer checks by itself.
func.func @scale(%x: tensor<16x37xf32>) -> tensor<16x37xf32> {
  %init = tensor.empty() : tensor<16x37xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x37xf32>) outs(%init : tensor<16x37xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<16x37xf32>
  return %r : tensor<16x37xf32>
}
