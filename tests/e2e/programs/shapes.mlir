// shapes: data movement without arithmetic (plus one add), on x [4, 6, 8] and
// y [4, 3, 8] (f32):
//   r0 = transpose(x, [2, 0, 1])                       -> [8, 4, 6]
//   r1 = expand(collapse(x, [[0,1],[2]]), [[0],[1,2]]) -> [24, 2, 4]
//   r2 = concat(x, y) along dim 1                      -> [4, 9, 8]
//   r3 = x[1:4:2, 0:6:2, 1:8:3] (extract_slice)        -> [2, 3, 3]
//   r4 = collapse(transpose(x, [1, 0, 2])) + 1         -> [24, 8]
//   r5 = x with rows 2..4 of dim 1 replaced by y       -> [4, 6, 8]
//        (tensor.insert_slice into a function argument)
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @shapes(%x: tensor<4x6x8xf32>, %y: tensor<4x3x8xf32>)
    -> (tensor<8x4x6xf32>, tensor<24x2x4xf32>, tensor<4x9x8xf32>,
        tensor<2x3x3xf32>, tensor<24x8xf32>, tensor<4x6x8xf32>) {
  %e0 = tensor.empty() : tensor<8x4x6xf32>
  %r0 = linalg.transpose ins(%x : tensor<4x6x8xf32>) outs(%e0 : tensor<8x4x6xf32>)
                         permutation = [2, 0, 1]

  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x6x8xf32> into tensor<24x8xf32>
  %r1 = tensor.expand_shape %flat [[0], [1, 2]] output_shape [24, 2, 4]
      : tensor<24x8xf32> into tensor<24x2x4xf32>

  %r2 = tensor.concat dim(1) %x, %y : (tensor<4x6x8xf32>, tensor<4x3x8xf32>) -> tensor<4x9x8xf32>

  %r3 = tensor.extract_slice %x[1, 0, 1] [2, 3, 3] [2, 2, 3]
      : tensor<4x6x8xf32> to tensor<2x3x3xf32>

  %e4 = tensor.empty() : tensor<6x4x8xf32>
  %t4 = linalg.transpose ins(%x : tensor<4x6x8xf32>) outs(%e4 : tensor<6x4x8xf32>)
                         permutation = [1, 0, 2]
  %c4 = tensor.collapse_shape %t4 [[0, 1], [2]] : tensor<6x4x8xf32> into tensor<24x8xf32>
  %e4b = tensor.empty() : tensor<24x8xf32>
  %r4 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c4 : tensor<24x8xf32>) outs(%e4b : tensor<24x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %in, %one : f32
    linalg.yield %r : f32
  } -> tensor<24x8xf32>

  %r5 = tensor.insert_slice %y into %x[0, 2, 0] [4, 3, 8] [1, 1, 1]
      : tensor<4x3x8xf32> into tensor<4x6x8xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5
      : tensor<8x4x6xf32>, tensor<24x2x4xf32>, tensor<4x9x8xf32>,
        tensor<2x3x3xf32>, tensor<24x8xf32>, tensor<4x6x8xf32>
}
