// RUN: aotc-opt %s -aotc-select-cpu-packing | FileCheck %s
// RUN: aotc-opt %s -aotc-select-cpu-packing=table=- -o /dev/null | FileCheck %s --check-prefix=TABLE

// The packing decision per contraction shape, with 512-bit registers
// (right-hand panels of 32 lanes, register tiles of 8 rows):
// - constant weights [512, 512] go into panels at compile time; the
//   activations [256, 512], 256 rows in whole tiles, into row panels at run
//   time for 512 output columns (kMinColumnsToPackLhs);
// - a run-time right-hand side of 1 KiB rows read by 16 rows stays as it is
//   (kMinRowsToPack = 64), and so does a left-hand side for 256 columns;
// - one read by 64 rows over 1024 steps (> kMaxUnpackedDepth) is copied into
//   panels; its left-hand side's rows are 4 KiB apart, but 256 columns do not
//   repay a copy of a run-time one;
// - 512 rows of constant weights over an image of 49 pixels (less than two
//   panels): the output is computed transposed (transposesLanes);
// - 520 columns of constant weights: 16 panels and 8 columns past them; the
//   left-hand side goes into row panels for the 512 columns of the panels
//   only.

// CHECK-LABEL: func.func @weights
// CHECK:         aotc.packing = {lhs = "run-time", ranges = array<i64: 256, 512, 512>, remainder_lhs = "none", rhs = "compile-time"}
// TABLE:       @weights {{.*}}linalg.matmul [256,512,512] packing: right-hand side compile-time, left-hand side run-time
func.func @weights(%a: tensor<256x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %w = arith.constant dense<1.0> : tensor<512x512xf32>
  %m = linalg.matmul ins(%a, %w : tensor<256x512xf32>, tensor<512x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %m : tensor<256x512xf32>
}

// CHECK-LABEL: func.func @few_rows
// CHECK:         aotc.packing = {lhs = "none", ranges = array<i64: 16, 256, 512>, remainder_lhs = "none", rhs = "none"}
// TABLE:       @few_rows {{.*}}linalg.matmul [16,256,512] packing: right-hand side none, left-hand side none
func.func @few_rows(%a: tensor<16x512xf32>, %b: tensor<512x256xf32>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<16x512xf32>, tensor<512x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %m : tensor<16x256xf32>
}

// CHECK-LABEL: func.func @deep_runtime
// CHECK:         aotc.packing = {lhs = "none", ranges = array<i64: 64, 256, 1024>, remainder_lhs = "none", rhs = "run-time"}
func.func @deep_runtime(%a: tensor<64x1024xf32>, %b: tensor<1024x256xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @few_lanes
// CHECK:         aotc.packing = {ranges = array<i64: 512, 49, 64>, transpose}
// TABLE:       @few_lanes {{.*}}linalg.generic [512,49,64] packing: output transposed
func.func @few_lanes(%x: tensor<64x49xf32>, %c: tensor<512x49xf32>) -> tensor<512x49xf32> {
  %w = arith.constant dense<1.0> : tensor<512x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x : tensor<512x64xf32>, tensor<64x49xf32>) outs(%c : tensor<512x49xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.mulf %p, %q : f32
    %t = arith.addf %r, %s : f32
    linalg.yield %t : f32
  } -> tensor<512x49xf32>
  return %m : tensor<512x49xf32>
}

// CHECK-LABEL: func.func @remainder_columns
// CHECK:         aotc.packing = {lhs = "run-time", ranges = array<i64: 64, 520, 64>, remainder_lhs = "none", rhs = "compile-time"}
func.func @remainder_columns(%a: tensor<64x64xf32>, %c: tensor<64x520xf32>) -> tensor<64x520xf32> {
  %w = arith.constant dense<1.0> : tensor<64x520xf32>
  %m = linalg.matmul ins(%a, %w : tensor<64x64xf32>, tensor<64x520xf32>) outs(%c : tensor<64x520xf32>) -> tensor<64x520xf32>
  return %m : tensor<64x520xf32>
}

// Not a contraction: no record.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT:     aotc.packing
func.func @elementwise(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : tensor<64x64xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}
