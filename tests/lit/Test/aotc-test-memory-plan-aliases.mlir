// RUN: aotc-opt %s -split-input-file -aotc-test-memory-plan -o /dev/null | FileCheck %s
//
// A buffer stays live as long as any value that may alias it is used. The
// lifetime analysis (BufferLifetimes.cpp) follows view-like ops and casts
// only, not values that merely forward a buffer: arith.select, the results
// of scf.for/scf.if (through scf.yield and iter_args). Those buffers are
// considered dead too early and a later buffer is placed over them: a
// miscompile (an `arith.select` of two tensors compiled with aotc reads the
// wrong data at run time).

// %s may be %t0 or %t1 and is read at position 5, after %t2 was written:
// three disjoint 64-byte ranges are needed.

// CHECK-LABEL: memory plan @select
// CHECK-NEXT:    buffer size=64 offset={{[0-9]+}} live=[0, 5]
// CHECK-NEXT:    buffer size=64 offset={{[0-9]+}} live=[1, 5]
// CHECK-NEXT:    buffer size=64 offset={{[0-9]+}} live=[3, 5]
// CHECK-NEXT:    pool=192 lower_bound=192
func.func @select(%a: memref<16xf32>, %out: memref<16xf32>, %c: i1) {
  %t0 = memref.alloc() : memref<16xf32>
  %t1 = memref.alloc() : memref<16xf32>
  %s = arith.select %c, %t0, %t1 : memref<16xf32>
  %t2 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%t2 : memref<16xf32>)
  linalg.add ins(%s, %t2 : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// The loop result %r is %t0 (zero trips) or %t1, read at position 8.

// CHECK-LABEL: memory plan @loop_carried
// CHECK-NEXT:    buffer size=64 offset={{[0-9]+}} live=[3, 8]
// CHECK-NEXT:    buffer size=64 offset={{[0-9]+}} live=[4, 8]
// CHECK-NEXT:    buffer size=64 offset={{[0-9]+}} live=[6, 8]
// CHECK-NEXT:    pool=192 lower_bound=192
func.func @loop_carried(%a: memref<16xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t0 = memref.alloc() : memref<16xf32>
  %t1 = memref.alloc() : memref<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%b = %t0) -> memref<16xf32> {
    scf.yield %t1 : memref<16xf32>
  }
  %t2 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%t2 : memref<16xf32>)
  linalg.add ins(%r, %t2 : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  return
}
