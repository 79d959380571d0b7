// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-test-memory-plan -o /dev/null | FileCheck %s

// The plan is printed, one line per memref.alloc in program order: the size
// in bytes (unaligned), the offset in the pool and the lifetime (positions in
// the function's top-level block).

// A chain of three temporaries: the third reuses the offset of the first,
// dead by then.

// CHECK-LABEL: memory plan @chain
// CHECK-NEXT:    buffer size=64 offset=0 live=[0, 3]
// CHECK-NEXT:    buffer size=64 offset=64 live=[2, 5]
// CHECK-NEXT:    buffer size=64 offset=0 live=[4, 6]
// CHECK-NEXT:    pool=128 lower_bound=128
func.func @chain(%a: memref<16xf32>, %out: memref<16xf32>) {
  %t0 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%t0 : memref<16xf32>)
  %t1 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%t0 : memref<16xf32>) outs(%t1 : memref<16xf32>)
  %t2 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%t1 : memref<16xf32>) outs(%t2 : memref<16xf32>)
  linalg.exp ins(%t2 : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// Mixed sizes: the second 1 KiB buffer takes the first one's place once it is
// dead (its last use is the exp reading a subview of it, at position 4); the
// small buffer, live across both, goes above them. 1088 bytes is the most
// ever live at once (1024 + 64), so the plan is optimal.

// CHECK-LABEL: memory plan @sizes
// CHECK-NEXT:    buffer size=1024 offset=0 live=[0, 4]
// CHECK-NEXT:    buffer size=64 offset=1024 live=[2, 8]
// CHECK-NEXT:    buffer size=1024 offset=0 live=[5, 8]
// CHECK-NEXT:    pool=1088 lower_bound=1088
func.func @sizes(%a: memref<256xf32>, %out: memref<256xf32>) {
  %big0 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a : memref<256xf32>) outs(%big0 : memref<256xf32>)
  %small = memref.alloc() : memref<16xf32>
  %s = memref.subview %big0[0] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1]>>
  linalg.exp ins(%s : memref<16xf32, strided<[1]>>) outs(%small : memref<16xf32>)
  %big1 = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a : memref<256xf32>) outs(%big1 : memref<256xf32>)
  %s1 = memref.subview %big1[0] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1]>>
  linalg.add ins(%small, %s1 : memref<16xf32>, memref<16xf32, strided<[1]>>) outs(%small : memref<16xf32>)
  return
}

// -----

// Sizes are rounded up to the 64-byte alignment in the pool (3 x i1 and 5 x
// i8 take one byte each, 64 in the pool); uses inside loops count at the
// loop's position.

// CHECK-LABEL: memory plan @small_and_loop
// CHECK-NEXT:    buffer size=3 offset=0 live=[0, 6]
// CHECK-NEXT:    buffer size=5 offset=64 live=[1, 1]
// CHECK-NEXT:    buffer size=12 offset=64 live=[2, 2]
// CHECK-NEXT:    pool=128 lower_bound=128
func.func @small_and_loop(%x: i1) {
  %t0 = memref.alloc() : memref<3xi1>
  %t1 = memref.alloc() : memref<5xi8>
  %t2 = memref.alloc() : memref<3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %x, %t0[%i] : memref<3xi1>
  }
  return
}

// -----

// No allocation: an empty pool.

// CHECK-LABEL: memory plan @none
// CHECK-NEXT:    pool=0 lower_bound=0
func.func @none(%a: memref<16xf32>, %out: memref<16xf32>) {
  linalg.exp ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// CHECK-NOT: memory plan @dynamic
func.func @dynamic(%n: index) {
  // expected-error @+1 {{scratch buffer 'memref<?xf32>' has a size that is not computed from the symbolic dimensions alone; it cannot be placed in the pool}}
  %t0 = memref.alloc(%n) : memref<?xf32>
  return
}
