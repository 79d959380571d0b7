// RUN: aotc-opt %s -split-input-file -verify-diagnostics \
// RUN:   -aotc-inline-thread-loops | FileCheck %s

// Each call of a thread loop's function becomes its body, the arguments
// replaced by the call's operands; the function is erased. Other calls
// stay.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[M:.*]]: memref<16xf32>)
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:    scf.forall (%[[I:.*]]) in (16)
// CHECK-NEXT:      memref.store %[[Z]], %[[M]][%[[I]]]
// CHECK:         call @other(%[[M]])
// CHECK-NEXT:    return
// CHECK-NOT:   @main__thread_loop0
// CHECK:       func.func private @other
func.func @main(%m: memref<16xf32>) {
  call @main__thread_loop0(%m) : (memref<16xf32>) -> ()
  call @other(%m) : (memref<16xf32>) -> ()
  return
}
func.func private @main__thread_loop0(%a: memref<16xf32>)
    attributes {aotc.thread_loop} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (16) {
    memref.store %zero, %a[%i] : memref<16xf32>
  }
  return
}
func.func private @other(memref<16xf32>)

// -----

// expected-error @+1 {{a thread loop's function must have one block and no results}}
func.func private @bad(%a: index) -> index attributes {aotc.thread_loop} {
  return %a : index
}

// -----

func.func @main() {
  // expected-error @+1 {{is still referenced after its calls were inlined}}
  %f = func.constant @main__thread_loop0 : () -> ()
  call @main__thread_loop0() : () -> ()
  return
}
func.func private @main__thread_loop0() attributes {aotc.thread_loop} {
  return
}
