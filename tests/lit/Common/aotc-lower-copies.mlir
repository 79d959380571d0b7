// RUN: aotc-opt %s -split-input-file -aotc-lower-copies | FileCheck %s

// A copy from a strided view becomes an identity linalg.generic (plain loops
// later), never a memrefCopy call.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @strided
// CHECK-SAME:    (%[[A:.*]]: memref<4x4xf32, strided<[8, 1]>>, %[[B:.*]]: memref<4x4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[A]] : memref<4x4xf32, strided<[8, 1]>>) outs(%[[B]] : memref<4x4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @strided(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// -----

// A buffer copied onto itself (a tile written in place): the copy disappears.

// CHECK-LABEL: func.func @self_copy
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @self_copy(%a: memref<8xf32>) {
  memref.copy %a, %a : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Copies nested in loops, between dynamic-offset subviews, of i8.

// CHECK-LABEL: func.func @in_loop
// CHECK:         scf.for
// CHECK:           %[[S:.*]] = memref.subview
// CHECK:           %[[T:.*]] = memref.subview
// CHECK-NOT:       memref.copy
// CHECK:           linalg.generic {{.*}} ins(%[[S]] : memref<1x8xi8, strided<[8, 1], offset: ?>>) outs(%[[T]] : memref<1x8xi8, strided<[8, 1], offset: ?>>)
// CHECK:             linalg.yield %{{.*}} : i8
// CHECK-NOT:     memref.copy
func.func @in_loop(%a: memref<8x8xi8>, %b: memref<16x8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %s = memref.subview %a[%i, 0] [1, 8] [1, 1] : memref<8x8xi8> to memref<1x8xi8, strided<[8, 1], offset: ?>>
    %t = memref.subview %b[%i, 0] [1, 8] [1, 1] : memref<16x8xi8> to memref<1x8xi8, strided<[8, 1], offset: ?>>
    memref.copy %s, %t : memref<1x8xi8, strided<[8, 1], offset: ?>> to memref<1x8xi8, strided<[8, 1], offset: ?>>
  }
  return
}

// -----

// Other ops are left alone.

// CHECK-LABEL: func.func @no_copy
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %{{.*}}[%[[C]]]
// CHECK-NEXT:    memref.store %[[V]], %{{.*}}[%[[C]]]
// CHECK-NEXT:    return
func.func @no_copy(%a: memref<8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<8xf32>
  memref.store %v, %b[%c0] : memref<8xf32>
  return
}
