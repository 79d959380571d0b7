// matmul_bf16: bf16 contractions (MFMA bf16_1k on gfx90a/gfx942 through
// aotc-gpu-mma-contractions; FMA kernels on CUDA). The inputs arrive as f32
// and are rounded to bf16 (round to nearest even) inside the program:
//   output 0: linalg.matmul        [80x96] x [96x48], bf16 -> f32
//   output 1: linalg.batch_matmul  3 x [33x40] x [40x70], bf16 -> f32
#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
func.func @matmul_bf16(%a: tensor<80x96xf32>, %b: tensor<96x48xf32>,
                       %x: tensor<3x33x40xf32>, %y: tensor<3x40x70xf32>)
    -> (tensor<80x48xf32>, tensor<3x33x70xf32>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<80x96xbf16>
  %a16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<80x96xf32>) outs(%ea : tensor<80x96xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<80x96xbf16>
  %eb = tensor.empty() : tensor<96x48xbf16>
  %b16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<96x48xf32>) outs(%eb : tensor<96x48xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<96x48xbf16>
  %e0 = tensor.empty() : tensor<80x48xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<80x48xf32>) -> tensor<80x48xf32>
  %r0 = linalg.matmul ins(%a16, %b16 : tensor<80x96xbf16>, tensor<96x48xbf16>)
                      outs(%z0 : tensor<80x48xf32>) -> tensor<80x48xf32>

  %ex = tensor.empty() : tensor<3x33x40xbf16>
  %x16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x33x40xf32>) outs(%ex : tensor<3x33x40xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x33x40xbf16>
  %ey = tensor.empty() : tensor<3x40x70xbf16>
  %y16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<3x40x70xf32>) outs(%ey : tensor<3x40x70xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x40x70xbf16>
  %e1 = tensor.empty() : tensor<3x33x70xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x33x70xf32>) -> tensor<3x33x70xf32>
  %r1 = linalg.batch_matmul ins(%x16, %y16 : tensor<3x33x40xbf16>, tensor<3x40x70xbf16>)
                            outs(%z1 : tensor<3x33x70xf32>) -> tensor<3x33x70xf32>
  return %r0, %r1 : tensor<80x48xf32>, tensor<3x33x70xf32>
}
