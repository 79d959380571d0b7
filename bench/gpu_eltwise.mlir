// Fused elementwise chain for bench_gpu: y = gelu(x + bias) + residual over
// [4096 x 1024] f32 (tanh form of GELU), one kernel after fusion: reads
// 2 x 16 MiB (+ 4 KiB), writes 16 MiB.
#row = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @gpu_eltwise(%x: tensor<4096x1024xf32>, %bias: tensor<1024xf32>,
                       %res: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0.7978845608 : f32
  %c1 = arith.constant 0.044715 : f32
  %empty = tensor.empty() : tensor<4096x1024xf32>
  %y = linalg.generic {indexing_maps = [#row, #col, #row, #row],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias, %res : tensor<4096x1024xf32>, tensor<1024xf32>, tensor<4096x1024xf32>)
      outs(%empty : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %r: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %t0 = arith.mulf %c1, %v3 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %c0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %v : f32
    %g = arith.mulf %t5, %t4 : f32
    %out = arith.addf %g, %r : f32
    linalg.yield %out : f32
  } -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
