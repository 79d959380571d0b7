// RUN: aotc-opt %s -split-input-file -aotc-linearize-reshape-views | FileCheck %s

// A flattened grid [4, 16] read back as 6 rows of 8 (the first 48 elements):
// the expand_shape of the collapsed, sliced buffer becomes a reinterpret_cast
// of the buffer itself, so loads through it index linearly.

// CHECK-LABEL: func.func @grid_rows
// CHECK-SAME:    (%[[G:[^:]*]]: memref<4x16xf32>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[G]] to offset: [0], sizes: [6, 8], strides: [8, 1] : memref<4x16xf32> to memref<6x8xf32>
// CHECK-NOT:     memref.expand_shape
// CHECK:         memref.load %[[V]]
func.func @grid_rows(%g: memref<4x16xf32>, %i: index, %j: index) -> f32 {
  %flat = memref.collapse_shape %g [[0, 1]] : memref<4x16xf32> into memref<64xf32>
  %used = memref.subview %flat[0] [48] [1] : memref<64xf32> to memref<48xf32, strided<[1]>>
  %rows = memref.expand_shape %used [[0, 1]] output_shape [6, 8] : memref<48xf32, strided<[1]>> into memref<6x8xf32>
  %v = memref.load %rows[%i, %j] : memref<6x8xf32>
  return %v : f32
}

// -----

// An expand_shape without a collapse_shape under it, or of a buffer with a
// non-identity layout, is left alone.

// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         memref.expand_shape
// CHECK:         memref.expand_shape
func.func @untouched(%a: memref<64xf32>, %b: memref<4x16xf32, strided<[16, 1], offset: 8>>) -> (memref<8x8xf32>, memref<8x8xf32, strided<[8, 1], offset: 8>>) {
  %e = memref.expand_shape %a [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  %c = memref.collapse_shape %b [[0, 1]] : memref<4x16xf32, strided<[16, 1], offset: 8>> into memref<64xf32, strided<[1], offset: 8>>
  %e2 = memref.expand_shape %c [[0, 1]] output_shape [8, 8] : memref<64xf32, strided<[1], offset: 8>> into memref<8x8xf32, strided<[8, 1], offset: 8>>
  return %e, %e2 : memref<8x8xf32>, memref<8x8xf32, strided<[8, 1], offset: 8>>
}
