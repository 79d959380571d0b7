// RUN: aotc-opt %s -split-input-file -aotc-partition-omp-loops | FileCheck %s

// The last quarter of each thread's share is claimed at run time: the
// claim counters (one 64-byte line per thread, at most 256) on the
// function's stack, sized by omp_get_max_threads() and zeroed at its entry;
// each thread runs its head [first, end - tail) and then claims from its
// own tail and the next threads' ones (min(threads, 4) tails) with an
// atomic increment of the tail's counter; the claim that is the counter's
// last (its tail's length + tails visited - 1) sets it back to zero.

// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %[[A:.*]]: memref<64xf32>)
// CHECK:         %[[MAX32:.*]] = call @omp_get_max_threads() : () -> i32
// CHECK:         %[[MAX:.*]] = arith.index_cast %[[MAX32]] : i32 to index
// CHECK:         %[[AT_LEAST_1:.*]] = arith.maxsi %[[MAX]], %{{.*}} : index
// CHECK:         %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[LINES:.*]] = arith.minsi %[[AT_LEAST_1]], %[[C256]] : index
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[LEN:.*]] = arith.muli %[[LINES]], %[[C8]] : index
// CHECK:         %[[COUNTERS:.*]] = memref.alloca(%[[LEN]]) : memref<?xi64>
// CHECK:         scf.for %[[LINE:.*]] = %{{.*}} to %[[LEN]] step %{{.*}} {
// CHECK:           memref.store %{{.*}}, %[[COUNTERS]][%[[LINE]]] : memref<?xi64>
// CHECK:         }
// CHECK:         omp.parallel {
// CHECK:           %[[T32:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:           %[[T:.*]] = arith.index_castui %[[T32]] : i32 to index
// CHECK:           %[[NT32:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK:           %[[NT:.*]] = arith.index_castui %[[NT32]] : i32 to index
// CHECK:           %[[STRIDE:.*]] = arith.constant 8 : index
// CHECK:           %[[DIM:.*]] = memref.dim %[[COUNTERS]], %{{.*}} : memref<?xi64>
// CHECK:           %[[SLOTS:.*]] = arith.divui %[[DIM]], %[[STRIDE]] : index
// CHECK:           %[[SOME:.*]] = arith.minui %[[NT]], %{{.*}} : index
// CHECK:           %[[P:.*]] = arith.minui %[[SOME]], %[[SLOTS]] : index
// CHECK:           %[[MANY:.*]] = arith.cmpi ugt, %[[P]], %{{.*}} : index
// CHECK:           %[[MINE:.*]] = arith.cmpi ult, %[[T]], %[[P]] : index
// CHECK:           %[[SHARED:.*]] = arith.andi %[[MANY]], %[[MINE]] : i1
// CHECK:           %[[C4:.*]] = arith.constant 4 : index
// CHECK:           %[[K:.*]] = arith.minui %[[P]], %[[C4]] : index
// CHECK:           %[[VISITS:.*]] = arith.select %[[SHARED]], %[[K]], %{{.*}} : index
// CHECK:           %[[TAIL:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK:           %[[OWN_TAIL:.*]] = arith.select %[[SHARED]], %[[TAIL]], %{{.*}} : index
// CHECK:           %[[HEAD_END:.*]] = arith.subi %{{.*}}, %[[OWN_TAIL]] : index
// CHECK:           scf.while (%[[POS:.*]] = %{{.*}}, %[[VISITED:.*]] = %{{.*}}) : (index, index) -> (index, index, index) {
// CHECK:             %[[IN_HEAD:.*]] = arith.cmpi ult, %[[POS]], %[[HEAD_END]] : index
// CHECK:             scf.if %[[IN_HEAD]] -> (i1, index, index, index) {
// CHECK:             } else {
// CHECK:               scf.while (%[[TAIL_NO:.*]] = %[[VISITED]]) : (index) -> (index, i1, index) {
// CHECK:                 %[[MORE:.*]] = arith.cmpi ult, %[[TAIL_NO]], %[[VISITS]] : index
// CHECK:                 scf.if %[[MORE]] -> (i1, index) {
// CHECK:                   %[[NEXT:.*]] = arith.addi %[[T]], %[[TAIL_NO]] : index
// CHECK:                   %[[OWNER:.*]] = arith.remui %[[NEXT]], %[[P]] : index
// CHECK:                   %[[OFFSET:.*]] = arith.muli %[[OWNER]], %[[STRIDE]] : index
// CHECK:                   %[[K64:.*]] = memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]][%[[OFFSET]]] : (i64, memref<?xi64>) -> i64
// CHECK:                   %[[CLAIM:.*]] = arith.index_castui %[[K64]] : i64 to index
// CHECK:                   %[[GOT:.*]] = arith.cmpi ult, %[[CLAIM]], %[[OWNER_TAIL:.*]] : index
// CHECK:                   %[[PLUS:.*]] = arith.addi %[[OWNER_TAIL]], %[[VISITS]] : index
// CHECK:                   %[[LAST_CLAIM:.*]] = arith.subi %[[PLUS]], %{{.*}} : index
// CHECK:                   %[[LAST:.*]] = arith.cmpi eq, %[[CLAIM]], %[[LAST_CLAIM]] : index
// CHECK:                   scf.if %[[LAST]] {
// CHECK:                     memref.atomic_rmw assign %{{.*}}, %[[COUNTERS]][%[[OFFSET]]] : (i64, memref<?xi64>) -> i64
// CHECK:                   }
// CHECK:                   %[[ITER:.*]] = arith.addi %{{.*}}, %[[CLAIM]] : index
// CHECK:                   scf.yield %[[GOT]], %[[ITER]] : i1, index
// CHECK:           } do {
// CHECK:           ^bb0(%[[J:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK:             %[[OFF:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK:             %[[I:.*]] = arith.addi %{{.*}}, %[[OFF]] : index
// CHECK:             scf.execute_region {
// CHECK:               memref.store %{{.*}}, %[[A]][%[[I]]] : memref<64xf32>
// CHECK:           omp.terminator
// CHECK-NOT:     omp.wsloop
func.func @loop(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A team of num_threads threads, the function's argument: the counters are
// sized by it (no omp_get_max_threads call), one array for both regions. A
// nowait loop that is not the region's last has no barrier after it: the
// next loop's claims could reach its counters first, so its share stays
// static; the loop after it (with its barrier) has a dynamic tail.

// CHECK-LABEL: func.func @two_regions(
// CHECK-SAME:    %{{.*}}: memref<64xf32>, %[[N:.*]]: i32)
// CHECK-NOT:     omp_get_max_threads
// CHECK:         %[[COUNT:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK:         arith.maxsi %[[COUNT]], %{{.*}} : index
// CHECK:         %[[COUNTERS:.*]] = memref.alloca(%{{.*}}) : memref<?xi64>
// CHECK-NOT:     memref.alloca
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK:           scf.for
// CHECK-NOT:       omp.barrier
// CHECK:           scf.while
// CHECK:             memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]]
// CHECK:           omp.barrier
// CHECK:           omp.terminator
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK:           scf.while
// CHECK:             memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]]
// CHECK:           omp.terminator
func.func @two_regions(%a: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%n : i32) {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel num_threads(%n : i32) {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A thread count computed in the function body, after a region with no
// count: the counters, at the entry's start, are sized by
// omp_get_max_threads() for both regions.

// CHECK-LABEL: func.func @computed_count(
// CHECK-NEXT:    %[[MAX1:.*]] = call @omp_get_max_threads() : () -> i32
// CHECK-NEXT:    %[[COUNT1:.*]] = arith.index_cast %[[MAX1]] : i32 to index
// CHECK-NEXT:    %[[MAX2:.*]] = call @omp_get_max_threads() : () -> i32
// CHECK-NEXT:    %[[COUNT2:.*]] = arith.index_cast %[[MAX2]] : i32 to index
// CHECK-NEXT:    arith.maxsi %[[COUNT1]], %[[COUNT2]] : index
// CHECK:         memref.alloca(%{{.*}}) : memref<?xi64>
// CHECK:         omp.parallel {
// CHECK:         arith.addi
// CHECK:         omp.parallel num_threads(
func.func @computed_count(%a: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %m = arith.addi %n, %n : i32
  omp.parallel num_threads(%m : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        memref.store %f, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
