// depthwise_padded: depthwise 3x3 convolutions in the importer's grouped
// form (one channel per group) whose padded input most outputs' windows
// do not reach (aotc-peel-padded-windows computes those on the unpadded
// input in place, the border strips on padded slices):
//   y1: x1 [1, 8, 37, 45], stride 2, padding top 0, left 1, bottom 2,
//       right 1 (bottom and right strips read padding too), bias, ReLU6
//       -> [1, 8, 19, 23]
//   y2: x2 [1, 4, 10, 40], stride 1, dilation 2, padding 2 -> [1, 4, 10, 40]
//   y3: x3 [1, 4, 11, 70], a constant 5x5 filter of finite values, stride 1,
//       padding 2 -> [1, 4, 11, 70]: the border outputs leave out the taps
//       that would read the padding (two rows and columns on each side,
//       each with its own taps), no padded copy at all
#x1map = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>
#x2map = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 2, ow + kw * 2)>
#x3map = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#wmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bmap = affine_map<(n, g, m, oh, ow) -> (g, m)>
#id5 = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>

func.func @depthwise_padded(%x1: tensor<1x8x37x45xf32>, %w1: tensor<8x1x1x3x3xf32>,
                            %b1: tensor<8x1xf32>, %x2: tensor<1x4x10x40xf32>,
                            %w2: tensor<4x1x1x3x3xf32>, %x3: tensor<1x4x11x70xf32>)
    -> (tensor<1x8x19x23xf32>, tensor<1x4x10x40xf32>, tensor<1x4x11x70xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32

  %p1 = tensor.pad %x1 low[0, 0, 0, 1] high[0, 0, 2, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x37x45xf32> to tensor<1x8x39x47xf32>
  %g1 = tensor.expand_shape %p1 [[0], [1, 2], [3], [4]] output_shape [1, 8, 1, 39, 47]
      : tensor<1x8x39x47xf32> into tensor<1x8x1x39x47xf32>
  %e1 = tensor.empty() : tensor<1x8x1x19x23xf32>
  %bias1 = linalg.generic {indexing_maps = [#bmap, #id5],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%b1 : tensor<8x1xf32>) outs(%e1 : tensor<1x8x1x19x23xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x1x19x23xf32>
  %c1 = linalg.generic {indexing_maps = [#x1map, #wmap, #omap],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%g1, %w1 : tensor<1x8x1x39x47xf32>, tensor<8x1x1x3x3xf32>) outs(%bias1 : tensor<1x8x1x19x23xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x1x19x23xf32>
  %cc1 = tensor.collapse_shape %c1 [[0], [1, 2], [3], [4]] : tensor<1x8x1x19x23xf32> into tensor<1x8x19x23xf32>
  %e1r = tensor.empty() : tensor<1x8x19x23xf32>
  %y1 = linalg.generic {indexing_maps = [#id4, #id4],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cc1 : tensor<1x8x19x23xf32>) outs(%e1r : tensor<1x8x19x23xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x8x19x23xf32>

  %p2 = tensor.pad %x2 low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x10x40xf32> to tensor<1x4x14x44xf32>
  %g2 = tensor.expand_shape %p2 [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 14, 44]
      : tensor<1x4x14x44xf32> into tensor<1x4x1x14x44xf32>
  %e2 = tensor.empty() : tensor<1x4x1x10x40xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x1x10x40xf32>) -> tensor<1x4x1x10x40xf32>
  %c2 = linalg.generic {indexing_maps = [#x2map, #wmap, #omap],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%g2, %w2 : tensor<1x4x1x14x44xf32>, tensor<4x1x1x3x3xf32>) outs(%z2 : tensor<1x4x1x10x40xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x10x40xf32>
  %y2 = tensor.collapse_shape %c2 [[0], [1, 2], [3], [4]] : tensor<1x4x1x10x40xf32> into tensor<1x4x10x40xf32>
  %w3 = arith.constant dense<[[[[[-0.75, -0.5, -0.25, 0.0, 0.25], [0.5, 0.75, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75, -0.75], [-0.5, -0.25, 0.0, 0.25, 0.5], [0.75, -0.75, -0.5, -0.25, 0.0]]]], [[[[0.25, 0.5, 0.75, -0.75, -0.5], [-0.25, 0.0, 0.25, 0.5, 0.75], [-0.75, -0.5, -0.25, 0.0, 0.25], [0.5, 0.75, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75, -0.75]]]], [[[[-0.5, -0.25, 0.0, 0.25, 0.5], [0.75, -0.75, -0.5, -0.25, 0.0], [0.25, 0.5, 0.75, -0.75, -0.5], [-0.25, 0.0, 0.25, 0.5, 0.75], [-0.75, -0.5, -0.25, 0.0, 0.25]]]], [[[[0.5, 0.75, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75, -0.75], [-0.5, -0.25, 0.0, 0.25, 0.5], [0.75, -0.75, -0.5, -0.25, 0.0], [0.25, 0.5, 0.75, -0.75, -0.5]]]]]> : tensor<4x1x1x5x5xf32>
  %p3 = tensor.pad %x3 low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x11x70xf32> to tensor<1x4x15x74xf32>
  %g3 = tensor.expand_shape %p3 [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 15, 74]
      : tensor<1x4x15x74xf32> into tensor<1x4x1x15x74xf32>
  %e3 = tensor.empty() : tensor<1x4x1x11x70xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x1x11x70xf32>) -> tensor<1x4x1x11x70xf32>
  %c3 = linalg.generic {indexing_maps = [#x3map, #wmap, #omap],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%g3, %w3 : tensor<1x4x1x15x74xf32>, tensor<4x1x1x5x5xf32>) outs(%z3 : tensor<1x4x1x11x70xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x11x70xf32>
  %y3 = tensor.collapse_shape %c3 [[0], [1, 2], [3], [4]] : tensor<1x4x1x11x70xf32> into tensor<1x4x11x70xf32>
  return %y1, %y2, %y3 : tensor<1x8x19x23xf32>, tensor<1x4x10x40xf32>, tensor<1x4x11x70xf32>
}
