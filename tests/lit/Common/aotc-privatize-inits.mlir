// RUN: aotc-opt %s -split-input-file -aotc-privatize-inits | FileCheck %s

// A fill shared by two consumers (as CSE leaves it): each consumer gets its
// own fill of its own empty tensor.

// CHECK-LABEL: func.func @shared_fill
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x4xf32>, %[[C:.*]]: tensor<8x4xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[E0:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-DAG:     %[[F0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E0]] : tensor<4x4xf32>)
// CHECK-DAG:     %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-DAG:     %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E1]] : tensor<4x4xf32>)
// CHECK:         %[[M0:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F1]] : tensor<4x4xf32>)
// CHECK:         %[[M1:.*]] = linalg.matmul ins(%[[A]], %[[C]] : {{.*}}) outs(%[[F0]] : tensor<4x4xf32>)
// CHECK:         return %[[M0]], %[[M1]]
func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%a, %c : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A shared empty tensor: each consumer gets its own.

// CHECK-LABEL: func.func @shared_empty
// CHECK-DAG:     %[[E0:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-DAG:     %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK:         %[[X:.*]] = linalg.exp ins(%{{.*}} : tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>)
// CHECK:         %[[Y:.*]] = linalg.log ins(%{{.*}} : tensor<8xf32>) outs(%[[E0]] : tensor<8xf32>)
// CHECK:         return %[[X]], %[[Y]]
func.func @shared_empty(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.exp ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.log ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A fill that is also used as a value (returned) keeps that use; the
// consumer gets a private copy.

// CHECK-LABEL: func.func @fill_also_returned
// CHECK:         %[[F0:.*]] = linalg.fill
// CHECK:         %[[F1:.*]] = linalg.fill
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}} outs(%[[F1]] : tensor<4x4xf32>)
// CHECK:         return %[[M]], %[[F0]]
func.func @fill_also_returned(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %z : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Left alone: a destination with a single use, and shared destinations that
// are neither fills nor empty tensors (here a function argument).

// CHECK-LABEL: func.func @single
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @single(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.exp ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @argument_destination
// CHECK-SAME:    (%[[A:.*]]: tensor<8xf32>, %[[O:.*]]: tensor<8xf32>)
// CHECK-NOT:     tensor.empty
// CHECK:         linalg.exp ins(%[[A]] : tensor<8xf32>) outs(%[[O]] : tensor<8xf32>)
// CHECK:         linalg.log ins(%[[A]] : tensor<8xf32>) outs(%[[O]] : tensor<8xf32>)
func.func @argument_destination(%a: tensor<8xf32>, %o: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = linalg.exp ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.log ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
