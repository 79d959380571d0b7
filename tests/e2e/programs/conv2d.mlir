// conv2d: grouped, strided, dilated, zero-padded 2-D convolution in NCHW.
//   input  x: [N=2, C=4, 17, 17], weights w: [F=6, C/G=2, 3, 3] (OIHW, G=2
//   groups), bias b: [6]; stride 2, dilation 2, padding 1 on each side.
//   Output: [2, 6, 8, 8] with OH = (17 + 2 - 2*(3-1) - 1) / 2 + 1 = 8.
// Channels are split into groups with tensor.expand_shape and the groups
// merged back with tensor.collapse_shape around linalg.conv_2d_ngchw_gfchw.
#bias_map = affine_map<(n, g, f, h, w) -> (g, f)>
#id5 = affine_map<(n, g, f, h, w) -> (n, g, f, h, w)>

func.func @conv2d(%x: tensor<2x4x17x17xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>)
    -> tensor<2x6x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x4x17x17xf32> to tensor<2x4x19x19xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 19, 19]
      : tensor<2x4x19x19xf32> into tensor<2x2x2x19x19xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
      : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
  %bg = tensor.expand_shape %b [[0, 1]] output_shape [2, 3]
      : tensor<6xf32> into tensor<2x3xf32>

  // The accumulator starts as the bias broadcast over (n, h, w).
  %empty = tensor.empty() : tensor<2x2x3x8x8xf32>
  %init = linalg.generic {indexing_maps = [#bias_map, #id5],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%bg : tensor<2x3xf32>) outs(%empty : tensor<2x2x3x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x3x8x8xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>,
                                      strides = dense<2> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x2x2x19x19xf32>, tensor<2x3x2x3x3xf32>)
      outs(%init : tensor<2x2x3x8x8xf32>) -> tensor<2x2x3x8x8xf32>
  %out = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]]
      : tensor<2x2x3x8x8xf32> into tensor<2x6x8x8xf32>
  return %out : tensor<2x6x8x8xf32>
}
