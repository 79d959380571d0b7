// tosa_ops: a small TOSA (MLIR 22 syntax) program, four results:
//   r0 = reshape(reduce_sum(clamp(matmul(a, b) + bias, 0, 6), axis 2), [8])  f32 [8]
//   r1 = clamp(matmul(a, b) + bias, 0, 6)                                      f32 [1,8,12]
//   r2 = mul(i, j) with shift 3: (i*j + 4) >> 3 in 64-bit, rounded            i32 [2,8]
//   r3 = conv2d(img NHWC, w OHWI, cbias), stride 1, pad 1                       f32 [1,6,6,4]
func.func @tosa_ops(%a: tensor<1x8x16xf32>, %b: tensor<1x16x12xf32>, %bias: tensor<1x1x12xf32>,
                    %i: tensor<2x8xi32>, %j: tensor<2x8xi32>,
                    %img: tensor<1x6x6x3xf32>, %w: tensor<4x3x3x3xf32>, %cbias: tensor<4xf32>)
    -> (tensor<8xf32>, tensor<1x8x12xf32>, tensor<2x8xi32>, tensor<1x6x6x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %a, %b, %zp, %zp
      : (tensor<1x8x16xf32>, tensor<1x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x12xf32>
  %add = tosa.add %mm, %bias : (tensor<1x8x12xf32>, tensor<1x1x12xf32>) -> tensor<1x8x12xf32>
  %clamp = tosa.clamp %add {min_val = 0.0 : f32, max_val = 6.0 : f32}
      : (tensor<1x8x12xf32>) -> tensor<1x8x12xf32>
  %sum = tosa.reduce_sum %clamp {axis = 2 : i32} : (tensor<1x8x12xf32>) -> tensor<1x8x1xf32>
  %shape = tosa.const_shape {values = dense<[8]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %flat = tosa.reshape %sum, %shape : (tensor<1x8x1xf32>, !tosa.shape<1>) -> tensor<8xf32>

  %shift = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %prod = tosa.mul %i, %j, %shift : (tensor<2x8xi32>, tensor<2x8xi32>, tensor<1xi8>) -> tensor<2x8xi32>

  %conv = tosa.conv2d %img, %w, %cbias, %zp, %zp
      {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>,
       stride = array<i64: 1, 1>}
      : (tensor<1x6x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>)
        -> tensor<1x6x6x4xf32>
  return %flat, %clamp, %prod, %conv
      : tensor<8xf32>, tensor<1x8x12xf32>, tensor<2x8xi32>, tensor<1x6x6x4xf32>
}
