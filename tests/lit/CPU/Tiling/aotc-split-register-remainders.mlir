// RUN: aotc-opt %s -aotc-split-register-remainders | FileCheck %s

// 197 rows are not a multiple of the 8-row register tile (512-bit
// registers): 192 + 5, each part with its own fill. 49 columns are not a
// multiple of 2 registers of 16 lanes: 32 + 17, and 17 again 16 + 1.

// CHECK-LABEL: func.func @rows
// CHECK:         linalg.fill {{.*}} -> tensor<192x64xf32>
// CHECK:         linalg.matmul ins({{.*}} : tensor<192x64xf32>, tensor<64x64xf32>)
// CHECK:         linalg.fill {{.*}} -> tensor<5x64xf32>
// CHECK:         linalg.matmul ins({{.*}} : tensor<5x64xf32>, tensor<64x64xf32>)
func.func @rows(%a: tensor<197x64xf32>, %b: tensor<64x64xf32>) -> tensor<197x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<197x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<197x64xf32>) -> tensor<197x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<197x64xf32>, tensor<64x64xf32>) outs(%c : tensor<197x64xf32>) -> tensor<197x64xf32>
  return %m : tensor<197x64xf32>
}

// CHECK-LABEL: func.func @columns
// CHECK:         linalg.matmul ins({{.*}} : tensor<64x64xf32>, tensor<64x32xf32>)
// CHECK:         linalg.matmul ins({{.*}} : tensor<64x64xf32>, tensor<64x16xf32>)
// CHECK:         linalg.matmul ins({{.*}} : tensor<64x64xf32>, tensor<64x1xf32>)
func.func @columns(%a: tensor<64x64xf32>, %b: tensor<64x49xf32>, %c: tensor<64x49xf32>) -> tensor<64x49xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x49xf32>) outs(%c : tensor<64x49xf32>) -> tensor<64x49xf32>
  return %m : tensor<64x49xf32>
}
