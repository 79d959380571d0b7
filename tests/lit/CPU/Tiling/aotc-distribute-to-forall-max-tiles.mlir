// RUN: aotc-opt %s -aotc-distribute-to-forall | FileCheck %s
//
// max-tiles (default 64) is an upper bound on the number of parallel tiles.
// computeForallTileSizes takes the smallest divisor of the dimension that is
// at least the wanted tile count; for a prime dimension that is the dimension
// itself, so this op gets 4099 one-row tiles instead of at most 64.

// CHECK-LABEL: func.func @prime_rows
// CHECK-NOT:     scf.forall {{.*}}(4099)
// CHECK:         return
func.func @prime_rows(%a: tensor<4099x64xf32>) -> tensor<4099x64xf32> {
  %e = tensor.empty() : tensor<4099x64xf32>
  %0 = linalg.exp ins(%a : tensor<4099x64xf32>) outs(%e : tensor<4099x64xf32>) -> tensor<4099x64xf32>
  return %0 : tensor<4099x64xf32>
}
