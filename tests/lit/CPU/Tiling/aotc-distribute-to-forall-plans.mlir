// RUN: aotc-opt %s -aotc-distribute-to-forall | FileCheck %s

// aotc-distribute-to-forall carries out the plan recorded as `aotc.tiles`
// (by aotc-select-cpu-tiles) when the op's loop ranges are still those the
// plan was made for: here 2 tiles of 128 rows, where the strategy would
// choose 4 x 2 tiles of 64 rows x 256 columns. A plan made for other ranges
// (an op a rewrite cloned into another shape) is ignored and the strategy
// decides; the record is dropped either way.

// CHECK-LABEL: func.func @recorded
// CHECK:         scf.forall (%{{.*}}) = (0) to (256) step (128)
// CHECK:           linalg.matmul ins({{.*}} : tensor<128x512xf32>, tensor<512x512xf32>)
// CHECK-NOT:     aotc.tiles
func.func @recorded(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %m = linalg.matmul {aotc.tiles = {kind = "tiles", ranges = array<i64: 256, 512, 512>, threads = array<i64: 128, 0, 0>}} ins(%a, %b : tensor<256x512xf32>, tensor<512x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %m : tensor<256x512xf32>
}

// CHECK-LABEL: func.func @stale
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (256, 512) step (64, 256)
// CHECK:           linalg.matmul ins({{.*}} : tensor<64x512xf32>, tensor<512x256xf32>)
// CHECK-NOT:     aotc.tiles
func.func @stale(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %m = linalg.matmul {aotc.tiles = {kind = "tiles", ranges = array<i64: 512, 512, 512>, threads = array<i64: 128, 0, 0>}} ins(%a, %b : tensor<256x512xf32>, tensor<512x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %m : tensor<256x512xf32>
}

// A recorded sequential plan keeps the op whole.
// CHECK-LABEL: func.func @sequential
// CHECK-NOT:     scf.forall
// CHECK:         linalg.matmul ins({{.*}} : tensor<256x512xf32>, tensor<512x512xf32>)
func.func @sequential(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %m = linalg.matmul {aotc.tiles = {kind = "sequential", ranges = array<i64: 256, 512, 512>}} ins(%a, %b : tensor<256x512xf32>, tensor<512x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %m : tensor<256x512xf32>
}
