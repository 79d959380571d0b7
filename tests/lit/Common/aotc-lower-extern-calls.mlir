// RUN: aotc-opt %s -aotc-lower-extern-calls | FileCheck %s
// RUN: aotc-opt %s -aotc-lower-extern-calls=device-operands=1 | FileCheck %s --check-prefix=DEVICE

memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func private @k(memref<4xf32>, memref<2x4xf32>) -> memref<2x4xf32>
    attributes {aotc.extern = {symbol = "k", scratch_bytes = 32 : i64}}

// The result becomes a buffer allocated before the call, with one more for
// the scratch; the lowered declaration records the operands' types. A
// constant operand is passed as it is on the CPU, copied into a buffer of
// its own first for a GPU (device-operands).
// CHECK: func.func private @__aotc_extern_k(memref<4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<32xi8>) attributes {aotc.extern = {inputs = [memref<4xf32>, memref<2x4xf32>], outputs = [memref<2x4xf32>], scratch = true, scratch_bytes = 32 : i64, symbol = "k"}}
// CHECK-NOT: func.func private @k(
// CHECK-LABEL: func.func @f
// CHECK:         %[[W:.*]] = memref.get_global @w : memref<4xf32>
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32xi8>
// CHECK-NEXT:    call @__aotc_extern_k(%[[W]], %arg0, %[[R]], %[[S]])
// CHECK-NEXT:    return %[[R]]
// DEVICE-LABEL: func.func @f
// DEVICE:         %[[W:.*]] = memref.get_global @w : memref<4xf32>
// DEVICE-NEXT:    %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// DEVICE-NEXT:    memref.copy %[[W]], %[[C]] : memref<4xf32> to memref<4xf32>
// DEVICE:         call @__aotc_extern_k(%[[C]], %arg0,
func.func @f(%x: memref<2x4xf32>) -> memref<2x4xf32> {
  %w = memref.get_global @w : memref<4xf32>
  %r = call @k(%w, %x) : (memref<4xf32>, memref<2x4xf32>) -> memref<2x4xf32>
  return %r : memref<2x4xf32>
}
