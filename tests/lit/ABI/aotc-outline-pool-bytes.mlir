// RUN: aotc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(func.func(aotc-plan-memory),aotc-outline-pool-bytes)' | FileCheck %s

// A buffer of N x 4 f32 (bound 16: 256 bytes) and a static 64-byte buffer
// live at once. The plan is made at the bound; NAME_pool_bytes(N) checks
// 1 <= N <= 16 and the guard N == M, and returns the largest buffer end for
// this N, from a copy of the entry point's own size arithmetic.

// CHECK-LABEL: func.func @rows
// CHECK:         memref.view %{{.*}}[%{{.*}}][%[[N:.*]]] {aotc.slot = 0 : i64} : memref<320xi8> to memref<?x4xf32>
// CHECK-LABEL: func.func @rows_pool_bytes
// CHECK-SAME:    (%[[PN:.*]]: i64 {aotc.name = "N"}, %[[PM:.*]]: i64 {aotc.name = "M"}) -> i64
// CHECK:         %[[IN:.*]] = arith.index_cast %[[PN]] : i64 to index
// CHECK:         arith.cmpi sge, %[[IN]], %{{.*}} : index
// CHECK:         arith.cmpi sle, %[[IN]], %{{.*}} : index
// CHECK:         %[[IM:.*]] = arith.index_cast %[[PM]] : i64 to index
// CHECK:         arith.cmpi eq, %[[IN]], %[[IM]] : index
// CHECK:         %[[BYTES:.*]] = arith.muli %{{.*}}, %[[IN]] : index
// The static buffer ends at 320: the result is never below it.
// CHECK:         arith.cmpi ule, %[[BYTES]], %{{.*}} : index
// CHECK:         %[[END:.*]] = arith.addi %[[BYTES]], %{{.*}} : index
// CHECK:         %[[C320:.*]] = arith.constant 320 : index
// CHECK:         arith.maxui %[[END]], %[[C320]] : index
// CHECK:         %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK:         return %[[R]] : i64
func.func @rows(%n: index {aotc.symbol = "N"}, %m: index {aotc.symbol = "M"},
                %y: memref<16x4xf32>)
    attributes {aotc.entry = {name = "rows", inputs = [],
      outputs = [{name = "y", dtype = "f32", shape = array<i64: 16, 4>}],
      symbols = [{name = "N", max = 16 : i64}, {name = "M", max = 16 : i64}],
      guards = [["N", "M"]]}} {
  %t = memref.alloc(%n) : memref<?x4xf32>
  %u = memref.alloc() : memref<16xf32>
  linalg.exp ins(%u : memref<16xf32>) outs(%u : memref<16xf32>)
  linalg.exp ins(%t : memref<?x4xf32>) outs(%t : memref<?x4xf32>)
  linalg.exp ins(%u : memref<16xf32>) outs(%u : memref<16xf32>)
  return
}

// -----

// A buffer whose size is not a function of the symbols cannot be planned.

func.func @data_dependent(%x: memref<4xindex>, %y: memref<4xf32>)
    attributes {aotc.entry = {name = "data_dependent", inputs = [],
      outputs = [], symbols = [], guards = []}} {
  %c0 = arith.constant 0 : index
  %n = memref.load %x[%c0] : memref<4xindex>
  // expected-error @+1 {{has a size that is not computed from the symbolic dimensions alone}}
  %t = memref.alloc(%n) : memref<?xf32>
  linalg.exp ins(%t : memref<?xf32>) outs(%t : memref<?xf32>)
  return
}
