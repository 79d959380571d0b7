// gpu_tiled_matmuls: contractions whose sizes are not multiples of the GPU
// block tiles (aotc-tile-gpu-contractions: 64x64x16 by default), so every
// kernel has partial row, column and K tiles:
//   output 0: linalg.matmul            [100x70] x [70x130]
//   output 1: A * Bt^T as a generic    (B stored [130x70]: both tiles K-major)
//   output 2: linalg.batch_matmul      3 x [33x17] x [17x65]
//   output 3: linalg.matmul            [1x70] x [70x130] (one row)
//   output 4: a max-plus product       max_k (A[m,k] + B[k,n]), from -inf:
//             a payload that is not multiply-add
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @gpu_tiled_matmuls(%a: tensor<100x70xf32>, %b: tensor<70x130xf32>,
                             %bt: tensor<130x70xf32>, %x: tensor<3x33x17xf32>,
                             %y: tensor<3x17x65xf32>, %v: tensor<1x70xf32>)
    -> (tensor<100x130xf32>, tensor<100x130xf32>, tensor<3x33x65xf32>,
        tensor<1x130xf32>, tensor<100x130xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<100x130xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<100x130xf32>) -> tensor<100x130xf32>
  %c0 = linalg.matmul ins(%a, %b : tensor<100x70xf32>, tensor<70x130xf32>)
                      outs(%z0 : tensor<100x130xf32>) -> tensor<100x130xf32>

  %e1 = tensor.empty() : tensor<100x130xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<100x130xf32>) -> tensor<100x130xf32>
  %c1 = linalg.generic {indexing_maps = [#mk, #nk, #mn],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : tensor<100x70xf32>, tensor<130x70xf32>) outs(%z1 : tensor<100x130xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<100x130xf32>

  %e2 = tensor.empty() : tensor<3x33x65xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x33x65xf32>) -> tensor<3x33x65xf32>
  %c2 = linalg.batch_matmul ins(%x, %y : tensor<3x33x17xf32>, tensor<3x17x65xf32>)
                            outs(%z2 : tensor<3x33x65xf32>) -> tensor<3x33x65xf32>

  %e3 = tensor.empty() : tensor<1x130xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x130xf32>) -> tensor<1x130xf32>
  %c3 = linalg.matmul ins(%v, %b : tensor<1x70xf32>, tensor<70x130xf32>)
                      outs(%z3 : tensor<1x130xf32>) -> tensor<1x130xf32>

  %e4 = tensor.empty() : tensor<100x130xf32>
  %z4 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<100x130xf32>) -> tensor<100x130xf32>
  %c4 = linalg.generic {indexing_maps = [#mk, #kn, #mn],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<100x70xf32>, tensor<70x130xf32>) outs(%z4 : tensor<100x130xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %s = arith.addf %p, %q : f32
    %m = arith.maximumf %acc, %s : f32
    linalg.yield %m : f32
  } -> tensor<100x130xf32>
  return %c0, %c1, %c2, %c3, %c4
      : tensor<100x130xf32>, tensor<100x130xf32>, tensor<3x33x65xf32>,
        tensor<1x130xf32>, tensor<100x130xf32>
}
