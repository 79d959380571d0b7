// RUN: aotc-opt %s -split-input-file -allow-unregistered-dialect -aotc-prefetch-strided-rows | FileCheck %s
// RUN: aotc-opt %s -split-input-file -allow-unregistered-dialect -aotc-prefetch-strided-rows=min-row-bytes=16384 | FileCheck %s --check-prefix=FAR

// squeezenet1_1's first squeeze layer as aotc-tile-and-vectorize leaves it,
// loops and views folded: a register tile of 6 rows x 16 lanes walks down
// the 64 input channels of a 55 x 55 image, one row of 16 lanes (64 bytes)
// per step, rows 3025 floats (12100 bytes) apart. Each step prefetches the
// row 32 columns further along (the read of the tile after the next one),
// clamped to the last column; the broadcast weights are not prefetched.
// CHECK-DAG:   #[[AHEAD:.*]] = affine_map<(d0) -> (d0 + 32, 3024)>
// CHECK-LABEL: func.func @squeeze
// CHECK-SAME:    (%[[IN:.*]]: memref<1x1x64x3025xf32>, %[[W:.*]]: memref<1x16x64xf32>
// CHECK:         scf.for %[[J:.*]] = %c0 to %c2976 step %c16
// CHECK:           scf.for %[[K:.*]] = %c0 to %c64 step %c1
// CHECK-NEXT:        %[[J2:.*]] = affine.min #[[AHEAD]](%[[J]])
// CHECK-NEXT:        memref.prefetch %[[IN]][%c0, %c0, %[[K]], %[[J2]]], read, locality<3>, data : memref<1x1x64x3025xf32>
// CHECK-NEXT:        vector.transfer_read %[[IN]][%c0, %c0, %[[K]], %[[J]]]
// CHECK-NEXT:        vector.transfer_read %[[W]]
// CHECK-NOT:         memref.prefetch
// CHECK:             scf.yield
// FAR-LABEL:   func.func @squeeze
// FAR-NOT:       memref.prefetch
// FAR:           return
#lanes = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3, 0)>
#rows = affine_map<(d0, d1, d2) -> (0, 0, d1, 0, 0)>
func.func @squeeze(%in: memref<1x1x64x3025xf32>, %w: memref<1x16x64xf32>,
                   %out: memref<1x1x6x2976xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c2976 = arith.constant 2976 : index
  %f0 = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x1x6x16xf32>
  scf.for %j = %c0 to %c2976 step %c16 {
    %acc = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %zero) -> (vector<1x1x6x16xf32>) {
      %b = vector.transfer_read %in[%c0, %c0, %k, %j], %f0 {in_bounds = [true, true, true, true, true], permutation_map = #lanes} : memref<1x1x64x3025xf32>, vector<1x1x6x16x1xf32>
      %x = vector.transfer_read %w[%c0, %c0, %k], %f0 {in_bounds = [true, true, true, true, true], permutation_map = #rows} : memref<1x16x64xf32>, vector<1x1x6x16x1xf32>
      %p = arith.mulf %b, %x : vector<1x1x6x16x1xf32>
      %s = vector.shape_cast %p : vector<1x1x6x16x1xf32> to vector<1x1x6x16xf32>
      %r = arith.addf %a, %s : vector<1x1x6x16xf32>
      scf.yield %r : vector<1x1x6x16xf32>
    }
    vector.transfer_write %acc, %out[%c0, %c0, %c0, %j] {in_bounds = [true, true, true, true]} : vector<1x1x6x16xf32>, memref<1x1x6x2976xf32>
  }
  return
}

// -----

// 32 lanes of 512-bit registers (128 bytes): one prefetch per cache line,
// 64 and 80 columns ahead.
// CHECK-DAG:   #[[L0:.*]] = affine_map<(d0) -> (d0 + 64, 3024)>
// CHECK-DAG:   #[[L1:.*]] = affine_map<(d0) -> (d0 + 80, 3024)>
// CHECK-LABEL: func.func @two_lines
// CHECK:         affine.min #[[L0]]
// CHECK-NEXT:    memref.prefetch
// CHECK-NEXT:    affine.min #[[L1]]
// CHECK-NEXT:    memref.prefetch
// CHECK-NEXT:    vector.transfer_read
func.func @two_lines(%in: memref<64x3025xf32>, %j: index) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %zero) -> (vector<32xf32>) {
    %b = vector.transfer_read %in[%k, %j], %f0 {in_bounds = [true]} : memref<64x3025xf32>, vector<32xf32>
    %r = arith.addf %a, %b : vector<32xf32>
    scf.yield %r : vector<32xf32>
  }
  return %acc : vector<32xf32>
}

// -----

// Left alone: rows 784 bytes apart (a 14 x 14 image: the hardware
// prefetchers follow them within a page), a buffer of 64 KiB or less (a
// thread tile's im2col block: 27 rows of 333 columns, 1332 bytes apart,
// just written), a read of less than a cache line, a loop that does not
// step the rows (a row read along), a read of several rows at once, and a
// buffer of dynamic shape.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     memref.prefetch
func.func @kept(%near: memref<256x196xf32>, %small: memref<27x333xf32>,
                %far: memref<64x3025xf32>, %dyn: memref<64x?xf32>,
                %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c27 = arith.constant 27 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c27 step %c1 {
    %a = vector.transfer_read %near[%k, %j], %f0 {in_bounds = [true]} : memref<256x196xf32>, vector<16xf32>
    %s = vector.transfer_read %small[%k, %j], %f0 {in_bounds = [true]} : memref<27x333xf32>, vector<16xf32>
    %b = vector.transfer_read %far[%k, %j], %f0 {in_bounds = [true]} : memref<64x3025xf32>, vector<8xf32>
    %c = vector.transfer_read %far[%j, %k], %f0 {in_bounds = [true]} : memref<64x3025xf32>, vector<16xf32>
    %d = vector.transfer_read %far[%k, %j], %f0 {in_bounds = [true, true]} : memref<64x3025xf32>, vector<2x16xf32>
    %e = vector.transfer_read %dyn[%k, %j], %f0 {in_bounds = [true]} : memref<64x?xf32>, vector<16xf32>
    "test.use"(%a, %s, %b, %c, %d, %e) : (vector<16xf32>, vector<16xf32>, vector<8xf32>, vector<16xf32>, vector<2x16xf32>, vector<16xf32>) -> ()
  }
  return
}

// -----

// A 1x1 convolution of regnet_x_400mf (400 -> 400 channels at 7 x 7) as a
// contraction whose left-hand side (weights) is packed at compile time in
// panels of 8 rows: each step of a register tile's reduction reads the next
// 8 weights (32 bytes) of a 640 KB constant that does not stay in the
// caches between runs. Each step prefetches the weights 4 KiB further
// along the buffer (clamped to its last element), through a flat view.
// CHECK-DAG:   #[[WAHEAD:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 160000 + d1 * 3200 + d2 * 8 + d3 + 1024, 159999)>
// CHECK-LABEL: func.func @packed_weights
// CHECK:         %[[W:.*]] = memref.get_global @weights
// CHECK:         scf.for %[[K:.*]] = %c0 to %c400 step %c1
// CHECK-NEXT:      %[[AT:.*]] = affine.min #[[WAHEAD]](%c0, %{{.*}}, %[[K]], %c0)
// CHECK-NEXT:      %[[FLAT:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0, 1, 2, 3]] : memref<1x50x400x8xf32> into memref<160000xf32>
// CHECK-NEXT:      memref.prefetch %[[FLAT]][%[[AT]]], read, locality<3>, data : memref<160000xf32>
// CHECK-NEXT:      vector.transfer_read %[[W]]
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.yield
#wrows = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3, 0, 0)>
#xlanes = affine_map<(d0, d1) -> (0, 0, 0, 0, d1, 0)>
memref.global "private" constant @weights : memref<1x50x400x8xf32> = dense<1.0>
func.func @packed_weights(%x: memref<400x32xf32>, %panel: index)
    -> vector<1x1x1x8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c400 = arith.constant 400 : index
  %f0 = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x1x1x8x32xf32>
  %w = memref.get_global @weights : memref<1x50x400x8xf32>
  %acc = scf.for %k = %c0 to %c400 step %c1 iter_args(%a = %zero) -> (vector<1x1x1x8x32xf32>) {
    %wk = vector.transfer_read %w[%c0, %panel, %k, %c0], %f0 {in_bounds = [true, true, true, true, true, true], permutation_map = #wrows} : memref<1x50x400x8xf32>, vector<1x1x1x8x32x1xf32>
    %xk = vector.transfer_read %x[%k, %c0], %f0 {in_bounds = [true, true, true, true, true, true], permutation_map = #xlanes} : memref<400x32xf32>, vector<1x1x1x8x32x1xf32>
    %p = arith.mulf %wk, %xk : vector<1x1x1x8x32x1xf32>
    %s = vector.shape_cast %p : vector<1x1x1x8x32x1xf32> to vector<1x1x1x8x32xf32>
    %r = arith.addf %a, %s : vector<1x1x1x8x32xf32>
    scf.yield %r : vector<1x1x1x8x32xf32>
  }
  return %acc : vector<1x1x1x8x32xf32>
}

// -----

// Weights of 64 KiB or less stay in the caches: no prefetch; nor for a
// buffer that is not a constant (an argument).
// CHECK-LABEL: func.func @small_weights
// CHECK-NOT:     memref.prefetch
// CHECK:         return
#srows = affine_map<(d0, d1, d2) -> (0, 0, d2, 0, 0)>
memref.global "private" constant @small : memref<2x400x8xf32> = dense<1.0>
func.func @small_weights(%big: memref<50x400x8xf32>) -> vector<1x1x8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c400 = arith.constant 400 : index
  %f0 = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x1x8x32xf32>
  %w = memref.get_global @small : memref<2x400x8xf32>
  %acc = scf.for %k = %c0 to %c400 step %c1 iter_args(%a = %zero) -> (vector<1x1x8x32xf32>) {
    %wk = vector.transfer_read %w[%c0, %k, %c0], %f0 {in_bounds = [true, true, true, true, true], permutation_map = #srows} : memref<2x400x8xf32>, vector<1x1x8x32x1xf32>
    %bk = vector.transfer_read %big[%c0, %k, %c0], %f0 {in_bounds = [true, true, true, true, true], permutation_map = #srows} : memref<50x400x8xf32>, vector<1x1x8x32x1xf32>
    %p = arith.mulf %wk, %bk : vector<1x1x8x32x1xf32>
    %s = vector.shape_cast %p : vector<1x1x8x32x1xf32> to vector<1x1x8x32xf32>
    %r = arith.addf %a, %s : vector<1x1x8x32xf32>
    scf.yield %r : vector<1x1x8x32xf32>
  }
  return %acc : vector<1x1x8x32xf32>
}
