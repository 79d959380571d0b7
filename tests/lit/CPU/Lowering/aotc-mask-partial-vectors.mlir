// RUN: aotc-opt %s -split-input-file -aotc-mask-partial-vectors | FileCheck %s

// AVX-512: a load of 14 floats becomes a masked load of 16, a load of 28
// (one register and 12 lanes) a masked load of 32, a load of 7 one of 8;
// whole registers, power-of-two parts (4 lanes, 16 + 2) and stores stay.
// CHECK-LABEL: func.func @avx512
// CHECK:         %[[M14:.*]] = vector.constant_mask [14] : vector<16xi1>
// CHECK:         %[[W14:.*]] = vector.maskedload %arg0[%c0, %c1], %[[M14]], %{{.*}} : memref<28x28xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:         %[[V14:.*]] = vector.extract_strided_slice %[[W14]] {offsets = [0], sizes = [14], strides = [1]} : vector<16xf32> to vector<14xf32>
// CHECK:         %[[M28:.*]] = vector.constant_mask [28] : vector<32xi1>
// CHECK:         %[[W28:.*]] = vector.maskedload %arg0[%c1, %c0], %[[M28]], %{{.*}} : memref<28x28xf32>, vector<32xi1>, vector<32xf32> into vector<32xf32>
// CHECK:         vector.extract_strided_slice %[[W28]] {offsets = [0], sizes = [28], strides = [1]} : vector<32xf32> to vector<28xf32>
// CHECK:         %[[M7:.*]] = vector.constant_mask [7] : vector<8xi1>
// CHECK:         vector.maskedload %arg1[%c0], %[[M7]], %{{.*}} : memref<49xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// CHECK:         vector.load %arg0[%c2, %c0] : memref<28x28xf32>, vector<16xf32>
// CHECK:         vector.load %arg0[%c3, %c0] : memref<28x28xf32>, vector<4xf32>
// CHECK:         vector.load %arg0[%c4, %c0] : memref<28x28xf32>, vector<18xf32>
// CHECK:         vector.load %arg2[%c0] : memref<64xi8>, vector<14xi8>
// CHECK:         vector.store %[[V14]], %arg0[%c5, %c0] : memref<28x28xf32>, vector<14xf32>
module attributes {aotc.cpu_target = {features = ["avx2", "avx512f", "fma"], vector_bits = 512 : i64}} {
  func.func @avx512(%m: memref<28x28xf32>, %n: memref<49xi32>, %b: memref<64xi8>)
      -> (vector<28xf32>, vector<7xi32>, vector<16xf32>, vector<4xf32>, vector<18xf32>, vector<14xi8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %a = vector.load %m[%c0, %c1] : memref<28x28xf32>, vector<14xf32>
    %row = vector.load %m[%c1, %c0] : memref<28x28xf32>, vector<28xf32>
    %i = vector.load %n[%c0] : memref<49xi32>, vector<7xi32>
    %w = vector.load %m[%c2, %c0] : memref<28x28xf32>, vector<16xf32>
    %q = vector.load %m[%c3, %c0] : memref<28x28xf32>, vector<4xf32>
    %e = vector.load %m[%c4, %c0] : memref<28x28xf32>, vector<18xf32>
    %bytes = vector.load %b[%c0] : memref<64xi8>, vector<14xi8>
    vector.store %a, %m[%c5, %c0] : memref<28x28xf32>, vector<14xf32>
    return %row, %i, %w, %q, %e, %bytes : vector<28xf32>, vector<7xi32>, vector<16xf32>, vector<4xf32>, vector<18xf32>, vector<14xi8>
  }
}

// -----

// Without AVX-512 (AVX2's masked moves are slower than loads on AMD cores),
// loads stay as they are.
// CHECK-LABEL: func.func @avx2
// CHECK-NOT:     vector.maskedload
// CHECK:         vector.load %arg0[%c0] : memref<28xf32>, vector<14xf32>
module attributes {aotc.cpu_target = {features = ["avx2", "fma"], vector_bits = 256 : i64}} {
  func.func @avx2(%m: memref<28xf32>) -> vector<14xf32> {
    %c0 = arith.constant 0 : index
    %a = vector.load %m[%c0] : memref<28xf32>, vector<14xf32>
    return %a : vector<14xf32>
  }
}
