// RUN: aotc-opt %s -split-input-file -aotc-bind-symbolic-dims | FileCheck %s

// One symbol N (bound 16): a leading index argument; x and y become bare
// pointers typed at the bound, rebuilt as row-major views of N rows, and
// sizes read from them are N itself.

// CHECK-LABEL: func.func @rows
// CHECK-SAME:    (%[[N:.*]]: index {aotc.symbol = "N"}, %[[X:.*]]: memref<16x4xf32>, %[[W:.*]]: memref<4xf32>, %[[Y:.*]]: memref<16x4xf32>)
// CHECK:         %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[N]], 4], strides: [4, 1] : memref<16x4xf32> to memref<?x4xf32>
// CHECK:         %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [%[[N]], 4], strides: [4, 1] : memref<16x4xf32> to memref<?x4xf32>
// CHECK-NOT:     memref.dim
// CHECK:         %[[T:.*]] = memref.alloc(%[[N]]) : memref<?x4xf32>
// CHECK:         linalg.add ins(%[[XV]], %[[XV]] : {{.*}}) outs(%[[T]] : memref<?x4xf32>)
// CHECK:         linalg.copy ins(%[[T]] : memref<?x4xf32>) outs(%[[YV]] : memref<?x4xf32>)
func.func @rows(%x: memref<?x4xf32>, %w: memref<4xf32>, %y: memref<?x4xf32>)
    attributes {aotc.entry = {name = "rows",
      inputs = [{name = "x", dtype = "f32", shape = array<i64: -1, 4>, dims = ["N", ""]},
                {name = "w", dtype = "f32", shape = array<i64: 4>}],
      outputs = [{name = "y", dtype = "f32", shape = array<i64: -1, 4>, dims = ["N", ""]}],
      symbols = [{name = "N", max = 16 : i64}], guards = []}} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  %t = memref.alloc(%n) : memref<?x4xf32>
  linalg.add ins(%x, %x : memref<?x4xf32>, memref<?x4xf32>) outs(%t : memref<?x4xf32>)
  linalg.copy ins(%t : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
  return
}

// -----

// Two symbols; an inner dynamic dimension makes the outer stride dynamic.

// CHECK-LABEL: func.func @grid
// CHECK-SAME:    (%[[B:.*]]: index {aotc.symbol = "B"}, %[[S:.*]]: index {aotc.symbol = "S"}, %[[X:.*]]: memref<2x8x3xf32>, %[[Y:.*]]: memref<2x8x3xf32>)
// CHECK:         %[[STRIDE:.*]] = arith.muli %{{.*}}, %[[S]] : index
// CHECK-NOT:     arith.muli
// CHECK:         memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[B]], %[[S]], 3], strides: [%[[STRIDE]], 3, 1] : memref<2x8x3xf32> to memref<?x?x3xf32>
func.func @grid(%x: memref<?x?x3xf32>, %y: memref<?x?x3xf32>)
    attributes {aotc.entry = {name = "grid",
      inputs = [{name = "x", dtype = "f32", shape = array<i64: -1, -1, 3>, dims = ["B", "S", ""]}],
      outputs = [{name = "y", dtype = "f32", shape = array<i64: -1, -1, 3>, dims = ["B", "S", ""]}],
      symbols = [{name = "B", max = 2 : i64}, {name = "S", max = 8 : i64}], guards = []}} {
  linalg.copy ins(%x : memref<?x?x3xf32>) outs(%y : memref<?x?x3xf32>)
  return
}

// -----

// Reshaped views: a size read from a collapse is the product of the collapsed
// sizes, one read from an expand is its output size; an expand that splits
// one dimension into two symbolic ones becomes a reinterpret_cast with
// row-major strides (LLVM 22's expand-strided-metadata cannot lower it).

// CHECK-LABEL: func.func @reshapes
// CHECK-SAME:    (%[[B:.*]]: index {aotc.symbol = "B"}, %[[S:.*]]: index {aotc.symbol = "S"}, %[[X:.*]]: memref<2x8x3xf32>, %[[Y:.*]]: memref<2x8x3xf32>)
// CHECK-NOT:     memref.dim
// CHECK:         memref.collapse_shape
// CHECK:         %[[B1:.*]] = arith.muli %{{.*}}, %[[B]] : index
// CHECK:         %[[BS:.*]] = arith.muli %[[B1]], %[[S]] : index
// CHECK:         %[[T:.*]] = memref.alloc(%[[BS]]) : memref<?x3xf32>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[T]] to offset: [0], sizes: [%[[B]], %[[S]], 3], strides: [%{{.*}}, 3, 1] : memref<?x3xf32> to memref<?x?x3xf32>
// CHECK-NOT:     memref.expand_shape
// CHECK:         linalg.copy ins(%[[V]] : memref<?x?x3xf32>)
func.func @reshapes(%x: memref<?x?x3xf32>, %y: memref<?x?x3xf32>)
    attributes {aotc.entry = {name = "reshapes",
      inputs = [{name = "x", dtype = "f32", shape = array<i64: -1, -1, 3>, dims = ["B", "S", ""]}],
      outputs = [{name = "y", dtype = "f32", shape = array<i64: -1, -1, 3>, dims = ["B", "S", ""]}],
      symbols = [{name = "B", max = 2 : i64}, {name = "S", max = 8 : i64}], guards = []}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %flat = memref.collapse_shape %x [[0, 1], [2]] : memref<?x?x3xf32> into memref<?x3xf32>
  %rows = memref.dim %flat, %c0 : memref<?x3xf32>
  %t = memref.alloc(%rows) : memref<?x3xf32>
  linalg.copy ins(%flat : memref<?x3xf32>) outs(%t : memref<?x3xf32>)
  %b = memref.dim %x, %c0 : memref<?x?x3xf32>
  %s = memref.dim %x, %c1 : memref<?x?x3xf32>
  %v = memref.expand_shape %t [[0, 1], [2]] output_shape [%b, %s, 3] : memref<?x3xf32> into memref<?x?x3xf32>
  linalg.copy ins(%v : memref<?x?x3xf32>) outs(%y : memref<?x?x3xf32>)
  return
}

// -----

// Without symbols the pass changes nothing.

// CHECK-LABEL: func.func @static
// CHECK-SAME:    (%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>)
// CHECK-NOT:     reinterpret_cast
func.func @static(%x: memref<4xf32>, %y: memref<4xf32>)
    attributes {aotc.entry = {name = "static",
      inputs = [{name = "x", dtype = "f32", shape = array<i64: 4>}],
      outputs = [{name = "y", dtype = "f32", shape = array<i64: 4>}]}} {
  linalg.copy ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}
