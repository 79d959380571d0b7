// RUN: aotc-opt %s -split-input-file -aotc-stage-extern-outputs | FileCheck %s

// An entry point calling an extern kernel: one slot per output after the
// plan (384 bytes: 128 at 384, 16 at 512), the scratch offsets unchanged.
// CHECK-LABEL: func.func @f
// CHECK-SAME: aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 128, 0, 0, 1>], bytes = 576 : i64, lower_bound = 272 : i64, output_staging = array<i64: 384, 512>}
func.func private @__aotc_extern_k(memref<4x8xf32>, memref<4x8xf32>)
    attributes {aotc.extern = {symbol = "k", inputs = [memref<4x8xf32>], outputs = [memref<4x8xf32>], scratch = false}}
func.func @f(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %z: memref<4xf32>, %pool: memref<384xi8> {aotc.name = "pool"})
    attributes {aotc.entry = {name = "f", inputs = [{dtype = "f32", name = "x", shape = array<i64: 4, 8>}],
                outputs = [{dtype = "f32", name = "y", shape = array<i64: 4, 8>}, {dtype = "f32", name = "z", shape = array<i64: 4>}]},
                aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 128, 0, 0, 1>], bytes = 384 : i64, lower_bound = 128 : i64}} {
  call @__aotc_extern_k(%x, %y) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}

// -----

// Without extern calls, the plan is left as it is.
// CHECK-LABEL: func.func @g
// CHECK-SAME: aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}}
func.func @g(%x: memref<4xf32>, %y: memref<4xf32>, %pool: memref<0xi8> {aotc.name = "pool"})
    attributes {aotc.entry = {name = "g", inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}],
                outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
                aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}
