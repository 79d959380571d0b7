// RUN: aotc-opt %s -split-input-file -aotc-streaming-stores=min-bytes=16384 | FileCheck %s

// A thread loop that only stores whole vectors into a 64x64 f32 buffer
// (16 KiB, at min-bytes) at offsets that are multiples of 64 bytes: versioned
// on the buffer's address, the aligned version stores non-temporally and
// fences at the end of each thread's body; the other keeps the loop as is.
// CHECK-LABEL: func.func @streamed
// CHECK-SAME:    (%[[IN:.*]]: memref<64x64xf32>, %[[OUT:.*]]: memref<64x64xf32>)
// CHECK:         %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:         %[[M:.*]] = arith.remui %[[P]], %c64
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[M]], %c0
// CHECK:         scf.if %[[OK]] {
// CHECK:           scf.forall
// CHECK:             vector.load %[[IN]]
// CHECK:             vector.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK:             llvm.fence seq_cst
// CHECK:         } else {
// CHECK:           scf.forall
// CHECK:             vector.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] : memref<64x64xf32>, vector<16xf32>
// CHECK-NOT:         llvm.fence
// CHECK:         }
func.func @streamed(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.forall (%i) = (0) to (64) step (8) {
    scf.for %r = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c64 step %c16 {
        %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%i, %r]
        %v = vector.load %in[%row, %j] : memref<64x64xf32>, vector<16xf32>
        vector.store %v, %out[%row, %j] : memref<64x64xf32>, vector<16xf32>
      }
    }
  }
  return
}

// -----

// Left alone: a buffer below min-bytes, a buffer also read in the loop, a
// store at an offset not known to be a multiple of the vector (column step
// 8 for 16 lanes), and a view with a dynamic offset.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     scf.if
// CHECK-NOT:     nontemporal
// CHECK-NOT:     llvm.fence
func.func @kept(%in: memref<64x64xf32>, %small: memref<32x64xf32>,
                %rw: memref<64x64xf32>, %odd: memref<64x64xf32>,
                %dyn: memref<64x64xf32, strided<[64, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  scf.forall (%i) = (0) to (32) step (1) {
    scf.for %j = %c0 to %c64 step %c16 {
      %v = vector.load %in[%i, %j] : memref<64x64xf32>, vector<16xf32>
      vector.store %v, %small[%i, %j] : memref<32x64xf32>, vector<16xf32>
      %w = vector.load %rw[%i, %j] : memref<64x64xf32>, vector<16xf32>
      %s = arith.addf %v, %w : vector<16xf32>
      vector.store %s, %rw[%i, %j] : memref<64x64xf32>, vector<16xf32>
      vector.store %v, %dyn[%i, %j] : memref<64x64xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
    }
    scf.for %j = %c0 to %c48 step %c8 {
      %v = vector.load %in[%i, %j] : memref<64x64xf32>, vector<16xf32>
      vector.store %v, %odd[%i, %j] : memref<64x64xf32>, vector<16xf32>
    }
  }
  return
}
