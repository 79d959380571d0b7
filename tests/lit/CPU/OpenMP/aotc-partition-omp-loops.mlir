// RUN: aotc-opt %s -split-input-file -convert-scf-to-openmp -aotc-elide-omp-loop-barriers -aotc-partition-omp-loops="dynamic-tail=0" | FileCheck %s

// A thread loop as convert-scf-to-openmp makes it: each thread runs its own
// contiguous share of the ceil((n - 2) / 4) iterations, the first
// (total % threads) threads one more; the body (its alloca_scope) in an
// execute_region inside the scf.for, the induction variable lb + j * step.
// The loop ended its region (nowait): no barrier.

// CHECK:       func.func private @omp_get_num_threads() -> i32
// CHECK:       func.func private @omp_get_thread_num() -> i32
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %[[A:.*]]: memref<100xf32>, %[[N:.*]]: index)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         omp.parallel {
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:           %[[SPAN:.*]] = arith.subi %[[N]], %[[C2]] : index
// CHECK:           %[[POS:.*]] = arith.maxsi %[[SPAN]], %[[C0]] : index
// CHECK:           %[[C3:.*]] = arith.constant 3 : index
// CHECK:           %[[UP:.*]] = arith.addi %[[POS]], %[[C3]] : index
// CHECK:           %[[TOTAL:.*]] = arith.divui %[[UP]], %[[C4]] : index
// CHECK:           %[[T32:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:           %[[T:.*]] = arith.index_castui %[[T32]] : i32 to index
// CHECK:           %[[NT32:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK:           %[[NT:.*]] = arith.index_castui %[[NT32]] : i32 to index
// CHECK:           %[[SHARE:.*]] = arith.divui %[[TOTAL]], %[[NT]] : index
// CHECK:           %[[REST:.*]] = arith.remui %[[TOTAL]], %[[NT]] : index
// CHECK:           %[[BEFORE:.*]] = arith.muli %[[T]], %[[SHARE]] : index
// CHECK:           %[[EXTRA_BEFORE:.*]] = arith.minui %[[T]], %[[REST]] : index
// CHECK:           %[[FIRST:.*]] = arith.addi %[[BEFORE]], %[[EXTRA_BEFORE]] : index
// CHECK:           %[[LONGER:.*]] = arith.cmpi ult, %[[T]], %[[REST]] : index
// CHECK:           %[[EXTRA:.*]] = arith.select %[[LONGER]], %[[C1]], %[[C0]] : index
// CHECK:           %[[LENGTH:.*]] = arith.addi %[[SHARE]], %[[EXTRA]] : index
// CHECK:           %[[END:.*]] = arith.addi %[[FIRST]], %[[LENGTH]] : index
// CHECK:           scf.for %[[J:.*]] = %[[FIRST]] to %[[END]] step %[[C1]] {
// CHECK:             %[[OFF:.*]] = arith.muli %[[J]], %[[C4]] : index
// CHECK:             %[[I:.*]] = arith.addi %[[C2]], %[[OFF]] : index
// CHECK:             scf.execute_region {
// CHECK:               memref.alloca_scope {
// CHECK:                 memref.alloca() : memref<4xf32>
// CHECK:                 memref.store %{{.*}}, %[[A]][%[[I]]] : memref<100xf32>
// CHECK:               }
// CHECK:               scf.yield
// CHECK:             }
// CHECK:           }
// CHECK-NOT:       omp.barrier
// CHECK:           omp.terminator
// CHECK-NOT:     omp.wsloop
func.func @loop(%a: memref<100xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c2) to (%n) step (%c4) {
    %t = memref.alloca() : memref<4xf32>
    memref.store %f, %t[%c0] : memref<4xf32>
    %v = memref.load %t[%c0] : memref<4xf32>
    memref.store %v, %a[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// A two-dimensional nest: one linear range over 8 x 7 iterations (row-major),
// each iteration's indices its quotient and remainder by the inner count.
// The first of two loops in a region keeps its barrier; a loop with a
// reduction stays a worksharing loop.

// CHECK-LABEL: func.func @nest(
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         omp.parallel {
// CHECK-DAG:       %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:       %[[C56:.*]] = arith.constant 56 : index
// CHECK:           arith.divui %[[C56]], %{{.*}} : index
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[INNER:.*]] = arith.remui %[[J]], %[[C7]] : index
// CHECK:             %[[OUTER:.*]] = arith.divui %[[J]], %[[C7]] : index
// CHECK:             %[[COL_OFF:.*]] = arith.muli %[[INNER]], %[[C3]] : index
// CHECK:             %[[COL:.*]] = arith.addi %{{.*}}, %[[COL_OFF]] : index
// CHECK:             %[[ROW_OFF:.*]] = arith.muli %[[OUTER]], %{{.*}} : index
// CHECK:             %[[ROW:.*]] = arith.addi %{{.*}}, %[[ROW_OFF]] : index
// CHECK:             scf.execute_region {
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]] : memref<8x21xf32>
// CHECK:           omp.barrier
// CHECK:           scf.for
// CHECK-NOT:       omp.barrier
// CHECK:           omp.terminator
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop reduction(
func.func @nest(%a: memref<8x21xf32>, %b: memref<8x21xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c21 = arith.constant 21 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c8, %c21) step (%c1, %c3) {
        memref.store %f, %a[%i, %j] : memref<8x21xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c8, %c21) step (%c1, %c3) {
        %v = memref.load %a[%i, %j] : memref<8x21xf32>
        memref.store %v, %b[%i, %j] : memref<8x21xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %z = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%z) -> f32 {
    %v = memref.load %a[%i, %c0] : memref<8x21xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  return %s : f32
}

// -----

// A loop with a schedule clause, or over i64 induction variables (not as
// convert-scf-to-openmp makes them): left to the runtime.

// CHECK-LABEL: func.func @kept(
// CHECK:         omp.wsloop schedule(dynamic) {
// CHECK:         omp.wsloop nowait {
// CHECK-NEXT:      omp.loop_nest (%{{.*}}) : i64
// CHECK-NOT:     scf.for
func.func @kept(%a: memref<64xf32>, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop schedule(dynamic) {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%z) to (%n) step (%one) {
        %j = arith.index_cast %i : i64 to index
        memref.store %f, %a[%j] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A thread tile's scratch view in its loop's pool slots (aotc-plan-memory:
// the iteration's slot, marked with the slot's bytes) is shifted to the
// thread's slot instead: each thread reuses one slot for all its
// iterations.

// CHECK-LABEL: func.func @thread_slots(
// CHECK-SAME:    %[[A:.*]]: memref<8xf32>, %[[SLOTS:.*]]: memref<512xi8>)
// CHECK:         omp.parallel {
// CHECK:           %[[T32:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:           %[[T:.*]] = arith.index_castui %[[T32]] : i32 to index
// CHECK:           %[[C64:.*]] = arith.constant 64 : index
// CHECK:           %[[SHIFT:.*]] = arith.muli %[[T]], %[[C64]] : index
// CHECK:           scf.for
// CHECK:             memref.view %[[SLOTS]][%[[SHIFT]]][] : memref<512xi8> to memref<16xf32>
// CHECK-NOT:     aotc.thread_slot
func.func @thread_slots(%a: memref<8xf32>, %slots: memref<512xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %shift = arith.muli %i, %c64 : index
    %t = memref.view %slots[%shift][] {aotc.thread_slot = 64 : i64} : memref<512xi8> to memref<16xf32>
    memref.store %f, %t[%c0] : memref<16xf32>
    %v = memref.load %t[%c0] : memref<16xf32>
    memref.store %v, %a[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

// Slots that do not cover every iteration (4 of 64 bytes for 8 iterations)
// keep the iteration's slot: a thread's number is only known to be below
// the iteration count.

// CHECK-LABEL: func.func @thread_slots_short(
// CHECK-SAME:    %{{.*}}: memref<8xf32>, %[[SLOTS:.*]]: memref<256xi8>)
// CHECK:         scf.for
// CHECK:           %[[SHIFT:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK:           memref.view %[[SLOTS]][%[[SHIFT]]][] : memref<256xi8> to memref<16xf32>
// CHECK-NOT:     aotc.thread_slot
func.func @thread_slots_short(%a: memref<8xf32>, %slots: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %shift = arith.muli %i, %c64 : index
    %t = memref.view %slots[%shift][] {aotc.thread_slot = 64 : i64} : memref<256xi8> to memref<16xf32>
    memref.store %f, %t[%c0] : memref<16xf32>
    %v = memref.load %t[%c0] : memref<16xf32>
    memref.store %v, %a[%i] : memref<8xf32>
    scf.reduce
  }
  return
}
