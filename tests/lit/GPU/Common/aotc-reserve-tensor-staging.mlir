// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-reserve-tensor-staging | FileCheck %s

// After 100 planned bytes (aligned to 64: 128), one slot per tensor in
// argument order: x (4000 bytes) at 128, y (8 bytes) at 4160, the output
// (4000 bytes) at 4224; the pool ends at 8256 (aligned). The lower bound
// grows by the staged bytes, the planned buffers stay as they were.
// CHECK-LABEL: func.func @f
// CHECK-SAME:    aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 100, 0, 0, 1>], bytes = 8256 : i64, lower_bound = 8108 : i64, staging = array<i64: 128, 4160, 4224>}
func.func @f(%x: memref<1000xf32>, %y: memref<2xi32>, %out: memref<1000xf32>, %pool: memref<100xi8>)
    attributes {aotc.entry = {name = "f",
                   inputs = [{dtype = "f32", name = "x", shape = array<i64: 1000>},
                             {dtype = "i32", name = "y", shape = array<i64: 2>}],
                   outputs = [{dtype = "f32", name = "out", shape = array<i64: 1000>}]},
                aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 100, 0, 0, 1>], bytes = 100 : i64, lower_bound = 100 : i64}} {
  return
}

// -----

// expected-error @below {{expected a memory plan without staging slots}}
func.func @twice(%pool: memref<0xi8>)
    attributes {aotc.entry = {name = "twice", inputs = [], outputs = []},
                aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64, staging = array<i64>}} {
  return
}
