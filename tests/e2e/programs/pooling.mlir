// pooling: 3x3 windows with stride 2 over NCHW x [2, 3, 15, 15], two results:
//   max: padding 1 with -inf (tensor.pad), linalg.pooling_nchw_max -> [2,3,8,8]
//   avg: no padding, linalg.pooling_nchw_sum then divide by 9   -> [2,3,7,7]
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>

func.func @pooling(%x: tensor<2x3x15x15xf32>)
    -> (tensor<2x3x8x8xf32>, tensor<2x3x7x7xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>

  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<2x3x15x15xf32> to tensor<2x3x17x17xf32>
  %e_max = tensor.empty() : tensor<2x3x8x8xf32>
  %init_max = linalg.fill ins(%ninf : f32) outs(%e_max : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>,
                                  strides = dense<2> : tensor<2xi64>}
      ins(%xp, %window : tensor<2x3x17x17xf32>, tensor<3x3xf32>)
      outs(%init_max : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>

  %e_sum = tensor.empty() : tensor<2x3x7x7xf32>
  %init_sum = linalg.fill ins(%zero : f32) outs(%e_sum : tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>,
                                  strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<2x3x15x15xf32>, tensor<3x3xf32>)
      outs(%init_sum : tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %e_avg = tensor.empty() : tensor<2x3x7x7xf32>
  %avg = linalg.generic {indexing_maps = [#id4, #id4],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x3x7x7xf32>) outs(%e_avg : tensor<2x3x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nine = arith.constant 9.0 : f32
    %r = arith.divf %in, %nine : f32
    linalg.yield %r : f32
  } -> tensor<2x3x7x7xf32>
  return %max, %avg : tensor<2x3x8x8xf32>, tensor<2x3x7x7xf32>
}
