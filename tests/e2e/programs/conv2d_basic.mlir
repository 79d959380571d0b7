// conv2d_basic: plain linalg.conv_2d_nchw_fchw, stride 1, no padding, with a
// zero-filled accumulator: x [2,3,16,16] * w [8,3,3,3] -> [2,8,14,14].
func.func @conv2d_basic(%x: tensor<2x3x16x16xf32>, %w: tensor<8x3x3x3xf32>)
    -> tensor<2x8x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x8x14x14xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x8x14x14xf32>) -> tensor<2x8x14x14xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x16x16xf32>, tensor<8x3x3x3xf32>)
      outs(%acc : tensor<2x8x14x14xf32>) -> tensor<2x8x14x14xf32>
  return %y : tensor<2x8x14x14xf32>
}
