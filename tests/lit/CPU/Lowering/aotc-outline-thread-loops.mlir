// RUN: aotc-opt %s -split-input-file -aotc-outline-thread-loops | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-outline-thread-loops \
// RUN:   -aotc-inline-thread-loops -cse | FileCheck %s --check-prefix=BACK

// A thread loop moves into a function of its own. The view of the pool and
// the constants it uses are recomputed there from the pool, which becomes
// the argument; the loop's bound (a function argument) is one too.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[POOL:.*]]: memref<4096xi8>, %[[N:.*]]: index)
// CHECK:         %[[V:.*]] = memref.view %[[POOL]]
// CHECK-NEXT:    call @main__thread_loop0(%[[POOL]], %[[N]])
// CHECK-NEXT:    memref.store %{{.*}}, %[[V]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @main__thread_loop0
// CHECK-SAME:    (%[[P:.*]]: memref<4096xi8>, %[[M:.*]]: index)
// CHECK-SAME:    attributes {aotc.thread_loop}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.0
// CHECK:         %[[W:.*]] = memref.view %[[P]][%[[C0]]][]
// CHECK-NEXT:    scf.forall (%[[I:.*]]) in (%[[M]])
// CHECK-NEXT:      memref.store %[[ONE]], %[[W]][%[[I]]]
// CHECK:         return

// Inlined back and CSE'd: the function as it was.
// BACK-LABEL: func.func @main
// BACK-SAME:    (%[[POOL:.*]]: memref<4096xi8>, %[[N:.*]]: index)
// BACK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// BACK-DAG:     %[[ONE:.*]] = arith.constant 1.0
// BACK:         %[[V:.*]] = memref.view %[[POOL]][%[[C0]]][]
// BACK-NEXT:    scf.forall (%[[I:.*]]) in (%[[N]])
// BACK-NEXT:      memref.store %[[ONE]], %[[V]][%[[I]]]
// BACK:         memref.store %[[ONE]], %[[V]]
// BACK-NEXT:    return
// BACK-NOT:     @main__thread_loop
func.func @main(%pool: memref<4096xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %v = memref.view %pool[%c0][] : memref<4096xi8> to memref<1024xf32>
  scf.forall (%i) in (%n) {
    memref.store %one, %v[%i] : memref<1024xf32>
  }
  memref.store %one, %v[%c0] : memref<1024xf32>
  return
}

// -----

// An allocation has a memory effect: passed, not recomputed. Each of two
// loops gets its own function, numbered in order.
// CHECK-LABEL: func.func @two
// CHECK:         %[[A:.*]] = memref.alloca
// CHECK-NEXT:    call @two__thread_loop0(%[[A]])
// CHECK-NEXT:    call @two__thread_loop1(%[[A]])
// CHECK:       func.func private @two__thread_loop0(%{{.*}}: memref<16xf32>)
// CHECK-NOT:     memref.alloca
// CHECK:         scf.forall
// CHECK:       func.func private @two__thread_loop1(%{{.*}}: memref<16xf32>)
// BACK-LABEL: func.func @two
// BACK:         memref.alloca
// BACK:         scf.forall
// BACK:         scf.forall
// BACK-NOT:     call
// BACK-NOT:     @two__thread_loop
func.func @two() {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloca() : memref<16xf32>
  scf.forall (%i) in (16) {
    memref.store %zero, %a[%i] : memref<16xf32>
  }
  scf.forall (%i) in (16) {
    %x = memref.load %a[%i] : memref<16xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<16xf32>
  }
  return
}

// -----

// A loop with results and a loop nested in another op stay where they are.
// CHECK-LABEL: func.func @stay
// CHECK-NOT:     call
// CHECK:         scf.forall
// CHECK:         scf.for %
// CHECK-NEXT:      scf.forall
// CHECK-NOT:   func.func
func.func @stay(%t: tensor<16xf32>, %m: memref<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.forall (%i) in (16) shared_outs(%o = %t) -> tensor<16xf32> {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<16xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1]
          : tensor<1xf32> into tensor<16xf32>
    }
  }
  scf.for %k = %c0 to %c4 step %c1 {
    scf.forall (%i) in (16) {
      memref.store %zero, %m[%i] : memref<16xf32>
    }
  }
  return %r : tensor<16xf32>
}

// -----

// A name already taken: the new function gets another.
// CHECK-LABEL: func.func @f(
// CHECK:         call @[[NAME:f__thread_loop0_[0-9]+]]()
// CHECK:       func.func private @[[NAME]]()
// CHECK:       func.func private @f__thread_loop0(
func.func @f() {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @g : memref<16xf32>
  scf.forall (%i) in (16) {
    memref.store %zero, %g[%i] : memref<16xf32>
  }
  return
}
memref.global "private" @g : memref<16xf32> = uninitialized
func.func private @f__thread_loop0(%x: f32)
