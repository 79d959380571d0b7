// reuse_chain: a 12-step chain of element-wise ops and matmuls on f32 [64x64]
// tensors (16 KiB each). Intermediates have staggered lifetimes (t1, t2, t4,
// t5 and t7 are read again several steps later), so a memory planner can
// serve the eleven intermediates from far fewer than eleven buffers.
//   t1 = 0.5 x + 0.25           t7  = max(t6, -1) * 0.5
//   t2 = t1 @ w1                t8  = t7 @ w1
//   t3 = max(t2, 0)             t9  = t8 - t5
//   t4 = 0.1 t3 t3 - t1         t10 = |t9| + t4
//   t5 = t4 @ w2                t11 = t10 @ w2
//   t6 = t5 + t2                out = 0.25 t11 + t7
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @reuse_chain(%x: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  // t1 = 0.5 x + 0.25  (live until t4)
  %t1_init = tensor.empty() : tensor<64x64xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%t1_init : tensor<64x64xf32>) {
  ^bb0(%xv: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %quarter = arith.constant 0.25 : f32
    %m = arith.mulf %xv, %half : f32
    %r = arith.addf %m, %quarter : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t2 = t1 @ w1  (live until t6)
  %t2_init = tensor.empty() : tensor<64x64xf32>
  %t2_acc = linalg.fill ins(%zero : f32) outs(%t2_init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t2 = linalg.matmul ins(%t1, %w1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t2_acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  // t3 = max(t2, 0)
  %t3_init = tensor.empty() : tensor<64x64xf32>
  %t3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t2 : tensor<64x64xf32>) outs(%t3_init : tensor<64x64xf32>) {
  ^bb0(%t2v: f32, %out: f32):
    %c0 = arith.constant 0.0 : f32
    %r = arith.maximumf %t2v, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t4 = 0.1 t3 t3 - t1  (live until t10)
  %t4_init = tensor.empty() : tensor<64x64xf32>
  %t4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t3, %t1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t4_init : tensor<64x64xf32>) {
  ^bb0(%t3v: f32, %t1v: f32, %out: f32):
    %tenth = arith.constant 0.1 : f32
    %sq = arith.mulf %t3v, %t3v : f32
    %s = arith.mulf %sq, %tenth : f32
    %r = arith.subf %s, %t1v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t5 = t4 @ w2  (live until t9)
  %t5_init = tensor.empty() : tensor<64x64xf32>
  %t5_acc = linalg.fill ins(%zero : f32) outs(%t5_init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t5 = linalg.matmul ins(%t4, %w2 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t5_acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  // t6 = t5 + t2
  %t6_init = tensor.empty() : tensor<64x64xf32>
  %t6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t5, %t2 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t6_init : tensor<64x64xf32>) {
  ^bb0(%t5v: f32, %t2v: f32, %out: f32):
    %r = arith.addf %t5v, %t2v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t7 = max(t6, -1) * 0.5  (live until the end)
  %t7_init = tensor.empty() : tensor<64x64xf32>
  %t7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t6 : tensor<64x64xf32>) outs(%t7_init : tensor<64x64xf32>) {
  ^bb0(%t6v: f32, %out: f32):
    %m1 = arith.constant -1.0 : f32
    %half = arith.constant 0.5 : f32
    %c = arith.maximumf %t6v, %m1 : f32
    %r = arith.mulf %c, %half : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t8 = t7 @ w1
  %t8_init = tensor.empty() : tensor<64x64xf32>
  %t8_acc = linalg.fill ins(%zero : f32) outs(%t8_init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t8 = linalg.matmul ins(%t7, %w1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t8_acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  // t9 = t8 - t5
  %t9_init = tensor.empty() : tensor<64x64xf32>
  %t9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t8, %t5 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t9_init : tensor<64x64xf32>) {
  ^bb0(%t8v: f32, %t5v: f32, %out: f32):
    %r = arith.subf %t8v, %t5v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t10 = |t9| + t4
  %t10_init = tensor.empty() : tensor<64x64xf32>
  %t10 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t9, %t4 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t10_init : tensor<64x64xf32>) {
  ^bb0(%t9v: f32, %t4v: f32, %out: f32):
    %a = math.absf %t9v : f32
    %r = arith.addf %a, %t4v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // t11 = t10 @ w2
  %t11_init = tensor.empty() : tensor<64x64xf32>
  %t11_acc = linalg.fill ins(%zero : f32) outs(%t11_init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t11 = linalg.matmul ins(%t10, %w2 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%t11_acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  // out = 0.25 t11 + t7
  %out_init = tensor.empty() : tensor<64x64xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t11, %t7 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%out_init : tensor<64x64xf32>) {
  ^bb0(%t11v: f32, %t7v: f32, %out: f32):
    %quarter = arith.constant 0.25 : f32
    %m = arith.mulf %t11v, %quarter : f32
    %r = arith.addf %m, %t7v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}
