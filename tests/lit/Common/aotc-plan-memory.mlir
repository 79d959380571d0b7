// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-plan-memory | FileCheck %s
// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-plan-memory=alignment=256 | FileCheck %s --check-prefix=ALIGN

// Three 64-byte temporaries in a chain: t0 dies (position 3) before t2 is
// allocated (position 4), so t2 reuses t0's offset and the pool is 128 bytes,
// its lower bound. The pool becomes the last argument, every alloc a view.

// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[A:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>, %[[POOL:.*]]: memref<128xi8> {aotc.name = "pool"})
// CHECK-SAME:    aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 64, 0, 0, 3>, array<i64: 64, 64, 2, 5>, array<i64: 64, 0, 4, 6>], bytes = 128 : i64, lower_bound = 128 : i64}
// CHECK-NOT:     memref.alloc
// CHECK:         %[[O0:.*]] = arith.constant 0 : index
// CHECK:         %[[T0:.*]] = memref.view %[[POOL]][%[[O0]]][] : memref<128xi8> to memref<16xf32>
// CHECK:         linalg.exp ins(%[[A]] : memref<16xf32>) outs(%[[T0]] : memref<16xf32>)
// CHECK:         %[[O1:.*]] = arith.constant 64 : index
// CHECK:         %[[T1:.*]] = memref.view %[[POOL]][%[[O1]]][] : memref<128xi8> to memref<16xf32>
// CHECK:         linalg.exp ins(%[[T0]] : memref<16xf32>) outs(%[[T1]] : memref<16xf32>)
// CHECK:         %[[O2:.*]] = arith.constant 0 : index
// CHECK:         %[[T2:.*]] = memref.view %[[POOL]][%[[O2]]][] : memref<128xi8> to memref<16xf32>
// CHECK:         linalg.exp ins(%[[T1]] : memref<16xf32>) outs(%[[T2]] : memref<16xf32>)
// CHECK:         linalg.exp ins(%[[T2]] : memref<16xf32>) outs(%[[OUT]] : memref<16xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         return

// With alignment=256 every 64-byte buffer takes 256 bytes.
// ALIGN-LABEL: func.func @chain
// ALIGN-SAME:    memref<512xi8> {aotc.name = "pool"}
// ALIGN-SAME:    aotc.pool = {alignment = 256 : i64, buffers = [array<i64: 64, 0, 0, 3>, array<i64: 64, 256, 2, 5>, array<i64: 64, 0, 4, 6>], bytes = 512 : i64, lower_bound = 512 : i64}
// ALIGN:         arith.constant 256 : index
func.func @chain(%a: memref<16xf32>, %out: memref<16xf32>) attributes {aotc.entry = {name = "chain"}} {
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

// A use through views (subview, then expand_shape) keeps the buffer alive
// until position 6; the unused i1 and i8 buffers share an offset; i1 takes a
// byte per element.

// CHECK-LABEL: func.func @aliases
// CHECK-SAME:    %[[POOL:[^:]*]]: memref<384xi8> {aotc.name = "pool"}
// CHECK-SAME:    buffers = [array<i64: 256, 0, 0, 6>, array<i64: 3, 256, 3, 3>, array<i64: 100, 256, 4, 4>], bytes = 384 : i64, lower_bound = 384 : i64
// CHECK:         %[[T0:.*]] = memref.view %[[POOL]][%{{.*}}][] : memref<384xi8> to memref<8x8xf32>
// CHECK:         memref.subview %[[T0]]
// CHECK:         memref.view %[[POOL]][%{{.*}}][] : memref<384xi8> to memref<3xi1>
// CHECK:         memref.view %[[POOL]][%{{.*}}][] : memref<384xi8> to memref<100xi8>
// CHECK:         return
func.func @aliases(%a: memref<8x8xf32>, %out: memref<2x4xf32>) attributes {aotc.entry = {name = "aliases"}} {
  %t0 = memref.alloc() : memref<8x8xf32>
  linalg.exp ins(%a : memref<8x8xf32>) outs(%t0 : memref<8x8xf32>)
  %v = memref.subview %t0[0, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1]>>
  %t1 = memref.alloc() : memref<3xi1>
  %t2 = memref.alloc() : memref<100xi8>
  %r = memref.expand_shape %v [[0, 1]] output_shape [2, 4] : memref<8xf32, strided<[1]>> into memref<2x4xf32>
  linalg.exp ins(%r : memref<2x4xf32>) outs(%out : memref<2x4xf32>)
  return
}

// -----

// A dealloc ends the lifetime (t0 lives until position 4, so t1 cannot reuse
// its bytes); deallocations of pool views are removed.

// CHECK-LABEL: func.func @dealloc
// CHECK-SAME:    buffers = [array<i64: 64, 0, 0, 4>, array<i64: 64, 64, 2, 3>], bytes = 128 : i64, lower_bound = 128 : i64
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @dealloc(%a: memref<16xf32>, %out: memref<16xf32>) attributes {aotc.entry = {name = "dealloc"}} {
  %t0 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%t0 : memref<16xf32>)
  %t1 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%t1 : memref<16xf32>)
  memref.dealloc %t0 : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// No scratch buffer: an empty pool argument is still appended.

// CHECK-LABEL: func.func @no_scratch
// CHECK-SAME:    (%{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>, %{{.*}}: memref<0xi8> {aotc.name = "pool"})
// CHECK-SAME:    aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}
func.func @no_scratch(%a: memref<16xf32>, %out: memref<16xf32>) attributes {aotc.entry = {name = "no_scratch"}} {
  linalg.exp ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// Functions that are not entry points are left alone.

// CHECK-LABEL: func.func @not_entry(
// CHECK-SAME:    %{{.*}}: memref<16xf32>) {
// CHECK:         memref.alloc() : memref<16xf32>
// CHECK-NOT:     memref.view
func.func @not_entry(%a: memref<16xf32>) {
  %t0 = memref.alloc() : memref<16xf32>
  linalg.exp ins(%a : memref<16xf32>) outs(%t0 : memref<16xf32>)
  return
}

// -----

func.func @dynamic(%a: memref<16xf32>, %n: index) attributes {aotc.entry = {name = "dynamic"}} {
  // expected-error @+1 {{scratch buffer 'memref<?xf32>' has a size that is not computed from the symbolic dimensions alone; it cannot be placed in the pool}}
  %t0 = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

func.func @in_loop(%a: memref<16xf32>) attributes {aotc.entry = {name = "in_loop"}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-error @+1 {{scratch buffer allocated inside a region; the pool planner needs it at function level}}
    %t0 = memref.alloc() : memref<16xf32>
    linalg.exp ins(%a : memref<16xf32>) outs(%t0 : memref<16xf32>)
  }
  return
}

// -----

// A thread tile's scratch buffer (allocated in a thread loop's body, at most
// 64 KiB) lives on the thread's stack, not in the pool; a larger one up to
// 768 KiB in pool slots of its thread loop (below); a larger one still, or
// one in a loop inside the tile, is refused.

// CHECK-LABEL: func.func @tile_scratch(
// CHECK-SAME:    %{{.*}}: memref<4x16xf32>, %{{.*}}: memref<0xi8> {aotc.name = "pool"})
// CHECK:         scf.forall
// CHECK:           memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NOT:       memref.alloc(
// CHECK-NOT:       memref.dealloc
func.func @tile_scratch(%a: memref<4x16xf32>) attributes {aotc.entry = {name = "tile_scratch"}} {
  scf.forall (%i) in (4) {
    %t = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
    %row = memref.subview %a[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.exp ins(%row : memref<16xf32, strided<[1], offset: ?>>) outs(%t : memref<16xf32>)
    linalg.exp ins(%t : memref<16xf32>) outs(%row : memref<16xf32, strided<[1], offset: ?>>)
    memref.dealloc %t : memref<16xf32>
  }
  return
}

// -----

// Beyond the stack's 64 KiB (16385 f32 = 65540 bytes, 65600 once aligned to
// a cache line), a buffer of one slot per tile (6 tiles of a 2 x 3 loop)
// allocated before the loop, placed in the pool; each tile views the slot of
// its linear index (i * 3 + j), marked for aotc-partition-omp-loops to make it
// the thread's slot.

// CHECK-LABEL: func.func @tile_scratch_slots(
// CHECK-SAME:    %{{.*}}: memref<16xf32>, %[[POOL:.*]]: memref<393600xi8> {aotc.name = "pool"})
// CHECK:         %[[SLOTS:.*]] = memref.view %[[POOL]][%{{.*}}][] : memref<393600xi8> to memref<393600xi8>
// CHECK:         scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 3)
// CHECK:           %[[C3:.*]] = arith.constant 3 : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[I]], %[[C3]]
// CHECK:           %[[TILE:.*]] = arith.addi %[[ROW]], %[[J]]
// CHECK:           %[[SLOT:.*]] = arith.constant 65600 : index
// CHECK:           %[[SHIFT:.*]] = arith.muli %[[TILE]], %[[SLOT]]
// CHECK:           memref.view %[[SLOTS]][%[[SHIFT]]][] {aotc.thread_slot = 65600 : i64} : memref<393600xi8> to memref<16385xf32>
// CHECK-NOT:       memref.alloc
func.func @tile_scratch_slots(%a: memref<16xf32>) attributes {aotc.entry = {name = "tile_scratch_slots"}} {
  scf.forall (%i, %j) in (2, 3) {
    %t = memref.alloc() : memref<16385xf32>
    %part = memref.subview %t[0] [16] [1] : memref<16385xf32> to memref<16xf32, strided<[1]>>
    linalg.exp ins(%a : memref<16xf32>) outs(%part : memref<16xf32, strided<[1]>>)
    memref.dealloc %t : memref<16385xf32>
  }
  return
}

// -----

func.func @tile_scratch_too_big(%a: memref<16xf32>) attributes {aotc.entry = {name = "tile_scratch_too_big"}} {
  scf.forall (%i) in (4) {
    // expected-error @+1 {{scratch buffer allocated inside a region; the pool planner needs it at function level}}
    %t = memref.alloc() : memref<196609xf32>
    %part = memref.subview %t[0] [16] [1] : memref<196609xf32> to memref<16xf32, strided<[1]>>
    linalg.exp ins(%a : memref<16xf32>) outs(%part : memref<16xf32, strided<[1]>>)
  }
  return
}

// -----

// expected-error @+1 {{the memory plan was already applied}}
func.func @twice(%a: memref<16xf32>, %pool: memref<0xi8>) attributes {aotc.entry = {name = "twice"}, aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
  return
}
