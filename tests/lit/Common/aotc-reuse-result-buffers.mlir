// RUN: aotc-opt %s -split-input-file -aotc-reuse-result-buffers | FileCheck %s

// A result computed in a scratch buffer and copied into the out-parameter
// through an expand_shape: the buffer becomes a view of the out-parameter,
// the copy and the reshape go.

// CHECK-LABEL: func.func @expanded
// CHECK-SAME:    (%[[X:.*]]: memref<2x12xf32>, %[[OUT:.*]]: memref<2x3x4xf32>)
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [2, 12], strides: [12, 1] : memref<2x3x4xf32> to memref<2x12xf32>
// CHECK:         linalg.copy ins(%[[X]] : memref<2x12xf32>) outs(%[[V]] : memref<2x12xf32>)
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.expand_shape
// CHECK:         return
func.func @expanded(%x: memref<2x12xf32>, %out: memref<2x3x4xf32>) {
  %a = memref.alloc() : memref<2x12xf32>
  linalg.copy ins(%x : memref<2x12xf32>) outs(%a : memref<2x12xf32>)
  %e = memref.expand_shape %a [[0], [1, 2]] output_shape [2, 3, 4] : memref<2x12xf32> into memref<2x3x4xf32>
  memref.copy %e, %out : memref<2x3x4xf32> to memref<2x3x4xf32>
  return
}

// -----

// Through a collapse_shape and an expand_shape (a matmul on a collapsed
// image whose lanes were split into panels).

// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[X:.*]]: memref<4x2x8xf32>, %[[OUT:.*]]: memref<4x4x4xf32>)
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [4, 2, 8], strides: [16, 8, 1]
// CHECK:         linalg.copy ins(%[[X]] : memref<4x2x8xf32>) outs(%[[V]] : memref<4x2x8xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @chain(%x: memref<4x2x8xf32>, %out: memref<4x4x4xf32>) {
  %a = memref.alloc() : memref<4x2x8xf32>
  linalg.copy ins(%x : memref<4x2x8xf32>) outs(%a : memref<4x2x8xf32>)
  %c = memref.collapse_shape %a [[0], [1, 2]] : memref<4x2x8xf32> into memref<4x16xf32>
  %e = memref.expand_shape %c [[0], [1, 2]] output_shape [4, 4, 4] : memref<4x16xf32> into memref<4x4x4xf32>
  memref.copy %e, %out : memref<4x4x4xf32> to memref<4x4x4xf32>
  return
}

// -----

// The buffer is read after the copy (by a second result's computation): the
// copy stays, as it would for an out-parameter with another use.

// CHECK-LABEL: func.func @read_after
// CHECK:         memref.alloc
// CHECK:         memref.copy
// CHECK:         linalg.copy
// CHECK:         memref.copy
func.func @read_after(%x: memref<2x12xf32>, %out: memref<2x3x4xf32>, %out2: memref<2x12xf32>) {
  %a = memref.alloc() : memref<2x12xf32>
  linalg.copy ins(%x : memref<2x12xf32>) outs(%a : memref<2x12xf32>)
  %e = memref.expand_shape %a [[0], [1, 2]] output_shape [2, 3, 4] : memref<2x12xf32> into memref<2x3x4xf32>
  memref.copy %e, %out : memref<2x3x4xf32> to memref<2x3x4xf32>
  %b = memref.alloc() : memref<2x12xf32>
  linalg.copy ins(%a : memref<2x12xf32>) outs(%b : memref<2x12xf32>)
  memref.copy %b, %out2 : memref<2x12xf32> to memref<2x12xf32>
  return
}

// -----

// An allocation returned as it is is upstream's (hoist-static-allocs): left
// alone.

// CHECK-LABEL: func.func @direct
// CHECK:         memref.alloc
// CHECK:         memref.copy
func.func @direct(%x: memref<2x12xf32>, %out: memref<2x12xf32>) {
  %a = memref.alloc() : memref<2x12xf32>
  linalg.copy ins(%x : memref<2x12xf32>) outs(%a : memref<2x12xf32>)
  memref.copy %a, %out : memref<2x12xf32> to memref<2x12xf32>
  return
}
