// A 3x3 convolution over 64 channels on a 28 x 28 image (the ONNX
// importer's form: groups as a dimension, a constant filter), then a 2x2
// stride-2 max pool.
#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#o = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
func.func @m(%x: tensor<1x1x64x30x30xf32>) -> tensor<1x64x14x14xf32> {
  %w = arith.constant dense<0.015625> : tensor<1x64x64x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x1x64x28x28xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x64x28x28xf32>) -> tensor<1x1x64x28x28xf32>
  %conv = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x64x30x30xf32>, tensor<1x64x64x3x3xf32>) outs(%init : tensor<1x1x64x28x28xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x28x28xf32>
  %c = tensor.collapse_shape %conv [[0, 1], [2], [3], [4]] : tensor<1x1x64x28x28xf32> into tensor<1x64x28x28xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x64x14x14xf32>
  %pinit = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%c, %window : tensor<1x64x28x28xf32>, tensor<2x2xf32>)
      outs(%pinit : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  return %pool : tensor<1x64x14x14xf32>
}
