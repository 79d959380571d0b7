// matmul_f16: f16 contractions, the tensor-core (mma.sync) and MFMA path of
// the GPU targets (aotc-gpu-mma-contractions), with sizes that leave partial
// 64 x 64 block tiles and 32-deep K slices:
//   output 0: linalg.matmul        [96x80] x [80x72], f16 -> f32
//   output 1: linalg.matmul        [64x32] x [32x128], f16 -> f16 (inputs
//             on a 1/8 grid: every partial sum is exact in f16)
//   output 2: linalg.batch_matmul  2 x [40x48] x [48x24], f16 -> f32
//   output 3: A * Bt^T as a generic [128x64] x [96x64]^T, f16 -> f32
//             (B stored [N, K])
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_f16(%a: tensor<96x80xf16>, %b: tensor<80x72xf16>,
                      %c: tensor<64x32xf16>, %d: tensor<32x128xf16>,
                      %x: tensor<2x40x48xf16>, %y: tensor<2x48x24xf16>,
                      %p: tensor<128x64xf16>, %qt: tensor<96x64xf16>)
    -> (tensor<96x72xf32>, tensor<64x128xf16>, tensor<2x40x24xf32>,
        tensor<128x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<96x72xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<96x72xf32>) -> tensor<96x72xf32>
  %r0 = linalg.matmul ins(%a, %b : tensor<96x80xf16>, tensor<80x72xf16>)
                      outs(%z0 : tensor<96x72xf32>) -> tensor<96x72xf32>

  %e1 = tensor.empty() : tensor<64x128xf16>
  %z1 = linalg.fill ins(%zero16 : f16) outs(%e1 : tensor<64x128xf16>) -> tensor<64x128xf16>
  %r1 = linalg.matmul ins(%c, %d : tensor<64x32xf16>, tensor<32x128xf16>)
                      outs(%z1 : tensor<64x128xf16>) -> tensor<64x128xf16>

  %e2 = tensor.empty() : tensor<2x40x24xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x40x24xf32>) -> tensor<2x40x24xf32>
  %r2 = linalg.batch_matmul ins(%x, %y : tensor<2x40x48xf16>, tensor<2x48x24xf16>)
                            outs(%z2 : tensor<2x40x24xf32>) -> tensor<2x40x24xf32>

  %e3 = tensor.empty() : tensor<128x96xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<128x96xf32>) -> tensor<128x96xf32>
  %r3 = linalg.generic {indexing_maps = [#mk, #nk, #mn],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %qt : tensor<128x64xf16>, tensor<96x64xf16>) outs(%z3 : tensor<128x96xf32>) {
  ^bb0(%u: f16, %v: f16, %acc: f32):
    %uf = arith.extf %u : f16 to f32
    %vf = arith.extf %v : f16 to f32
    %m = arith.mulf %uf, %vf : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<128x96xf32>
  return %r0, %r1, %r2, %r3
      : tensor<96x72xf32>, tensor<64x128xf16>, tensor<2x40x24xf32>, tensor<128x96xf32>
}
