// RUN: aotc-opt %s -split-input-file -aotc-lower-copies=vector-rows=1 | FileCheck %s

// With vector-rows (the CPU target), a copy of short contiguous rows (a tile
// of a slice copy: 3 rows of 14 out of 58-wide rows) is a loop over the
// rows, each row one vector transfer; unit dims take index 0.

// CHECK-LABEL: func.func @rows
// CHECK-SAME:    (%[[A:.*]]: memref<1x3x14xf32, strided<[3364, 58, 1], offset: ?>>, %[[B:.*]]: memref<1x3x14xf32, strided<[3136, 56, 1], offset: ?>>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C3]]
// CHECK:           %[[V:.*]] = vector.transfer_read %[[A]][%[[C0]], %[[I]], %[[C0]]], %{{.*}} {in_bounds = [true]} : memref<1x3x14xf32, strided<[3364, 58, 1], offset: ?>>, vector<14xf32>
// CHECK:           vector.transfer_write %[[V]], %[[B]][%[[C0]], %[[I]], %[[C0]]] {in_bounds = [true]}
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.copy
func.func @rows(%a: memref<1x3x14xf32, strided<[3364, 58, 1], offset: ?>>, %b: memref<1x3x14xf32, strided<[3136, 56, 1], offset: ?>>) {
  memref.copy %a, %b : memref<1x3x14xf32, strided<[3364, 58, 1], offset: ?>> to memref<1x3x14xf32, strided<[3136, 56, 1], offset: ?>>
  return
}

// -----

// Rows longer than four 512-bit registers that do not split into equal
// pieces of at least a register (101 floats), a column (non-unit innermost
// stride), dynamic shapes and i1 elements (bit-packed as vectors, bytes in
// memory) stay linalg copies (plain loops LLVM vectorizes itself when worth
// it).

// CHECK-LABEL: func.func @kept
// CHECK-NOT:     vector.transfer_read
// CHECK-COUNT-4: linalg.generic
func.func @kept(%a: memref<2x101xf32>, %b: memref<2x101xf32>, %c: memref<8x1xf32, strided<[1, 8]>>, %d: memref<8x1xf32>, %e: memref<?x4xf32>, %f: memref<?x4xf32>, %g: memref<2x8xi1>, %h: memref<2x8xi1>) {
  memref.copy %a, %b : memref<2x101xf32> to memref<2x101xf32>
  memref.copy %c, %d : memref<8x1xf32, strided<[1, 8]>> to memref<8x1xf32>
  memref.copy %e, %f : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %g, %h : memref<2x8xi1> to memref<2x8xi1>
  return
}

// -----

// A long row (224 floats, an image cropped from a flattened grid) is copied
// in 4 pieces of 56; the copy is big (32 x 56 x 224 floats) and outside any
// thread loop, so its outer loop is an scf.forall (threads).

// CHECK-LABEL: func.func @long_rows
// CHECK-SAME:    (%[[A:.*]]: memref<32x56x224xf32, strided<[12768, 228, 1]>>, %[[B:.*]]: memref<32x56x224xf32>)
// CHECK:         scf.forall (%[[I:.*]]) in (32)
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[C224:.*]] = arith.constant 224 : index
// CHECK:             %[[C56:.*]] = arith.constant 56 : index
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %[[C224]] step %[[C56]]
// CHECK:               %[[V:.*]] = vector.transfer_read %[[A]][%[[I]], %[[J]], %[[K]]], %{{.*}} {in_bounds = [true]} : memref<32x56x224xf32, strided<[12768, 228, 1]>>, vector<56xf32>
// CHECK:               vector.transfer_write %[[V]], %[[B]][%[[I]], %[[J]], %[[K]]] {in_bounds = [true]}
// CHECK-NOT:     memref.copy
func.func @long_rows(%a: memref<32x56x224xf32, strided<[12768, 228, 1]>>, %b: memref<32x56x224xf32>) {
  memref.copy %a, %b : memref<32x56x224xf32, strided<[12768, 228, 1]>> to memref<32x56x224xf32>
  return
}

// -----

// Copies outside thread loops get threads from 8192 elements in a function
// with thread loops, whose parallel regions they then join: a Winograd
// output cropped to the 64 x 13 x 13 part of a concatenation (10816) is
// copied in an scf.forall over its channels, one of 32 x 13 x 13 (5408) by
// one thread. Without thread loops (@threaded_from_65536), from 65536.

// CHECK-LABEL: func.func @threaded_from_8192
// CHECK-SAME:    (%[[A:.*]]: memref<64x13x13xf32, strided<[196, 14, 1]>>, %[[B:.*]]: memref<64x13x13xf32, strided<[169, 13, 1], offset: 10816>>, %[[C:.*]]: memref<32x13x13xf32, strided<[196, 14, 1]>>, %[[D:.*]]: memref<32x13x13xf32>
// CHECK:         scf.forall (%[[I:.*]]) in (64)
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[V:.*]] = vector.transfer_read %[[A]][%[[I]], %[[J]], %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<64x13x13xf32, strided<[196, 14, 1]>>, vector<13xf32>
// CHECK:             vector.transfer_write %[[V]], %[[B]][%[[I]], %[[J]], %{{.*}}] {in_bounds = [true]}
// CHECK-NOT:     scf.forall (%{{.*}}) in
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[C]]
// CHECK-NOT:     memref.copy
// CHECK-LABEL: func.func @threaded_from_65536
// CHECK-NOT:     scf.forall
func.func @threaded_from_8192(%a: memref<64x13x13xf32, strided<[196, 14, 1]>>, %b: memref<64x13x13xf32, strided<[169, 13, 1], offset: 10816>>, %c: memref<32x13x13xf32, strided<[196, 14, 1]>>, %d: memref<32x13x13xf32>, %e: memref<8xf32>) {
  memref.copy %a, %b : memref<64x13x13xf32, strided<[196, 14, 1]>> to memref<64x13x13xf32, strided<[169, 13, 1], offset: 10816>>
  memref.copy %c, %d : memref<32x13x13xf32, strided<[196, 14, 1]>> to memref<32x13x13xf32>
  %f = arith.constant 1.0 : f32
  scf.forall (%i) in (8) {
    memref.store %f, %e[%i] : memref<8xf32>
  }
  return
}

func.func @threaded_from_65536(%a: memref<64x13x13xf32, strided<[196, 14, 1]>>, %b: memref<64x13x13xf32, strided<[169, 13, 1], offset: 10816>>) {
  memref.copy %a, %b : memref<64x13x13xf32, strided<[196, 14, 1]>> to memref<64x13x13xf32, strided<[169, 13, 1], offset: 10816>>
  return
}
