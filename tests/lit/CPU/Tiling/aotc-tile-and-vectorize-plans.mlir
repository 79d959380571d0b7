// RUN: aotc-opt %s -aotc-tile-and-vectorize | FileCheck %s

// aotc-tile-and-vectorize carries out the register tiles recorded as
// `aotc.register_tiles` (by aotc-select-register-tiles) when the op's loop
// ranges are still those of the record: here 4 rows x 16 lanes, where the
// strategy would take 8 rows x 32 lanes; a record made for other ranges is
// ignored.

// CHECK-LABEL: func.func @recorded
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<4x16x1xf32> to vector<4x16xf32>
// CHECK-NOT:     vector<8x32xf32>
// CHECK-NOT:     aotc.register_tiles
func.func @recorded(%a: tensor<64x512xf32>, %b: tensor<512x256xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %m = linalg.matmul {aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 64, 256, 512>, registers = array<i64: 4, 16, 1>}} ins(%a, %b : tensor<64x512xf32>, tensor<512x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @stale
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<8x32x1xf32> to vector<8x32xf32>
// CHECK-NOT:     aotc.register_tiles
func.func @stale(%a: tensor<64x512xf32>, %b: tensor<512x256xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %m = linalg.matmul {aotc.register_tiles = {lanes = 16 : i64, ranges = array<i64: 32, 256, 512>, registers = array<i64: 4, 16, 1>}} ins(%a, %b : tensor<64x512xf32>, tensor<512x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}
