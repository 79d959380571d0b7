// RUN: aotc-opt %s -split-input-file -aotc-approximate-math | FileCheck %s

// f32 transcendentals become polynomials: only arith ops and math ops that
// map to LLVM intrinsics (fma, floor, absf...) remain, no libm function.

// CHECK-LABEL: func.func @erf_vector
// CHECK-SAME:    (%[[X:.*]]: vector<16xf32>)
// CHECK-NOT:     math.erf
// CHECK-COUNT-4: math.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     math.erf
// CHECK:         return %{{.*}} : vector<16xf32>
func.func @erf_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.erf %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// CHECK-LABEL: func.func @scalars
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.log
// CHECK:         math.fma
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.log
// CHECK:         return
func.func @scalars(%x: f32) -> (f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.tanh %x : f32
  %2 = math.log %x : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----

// f16 is computed in f32 and approximated like f32.

// CHECK-LABEL: func.func @exp_f16
// CHECK-SAME:    (%[[X:.*]]: vector<8xf16>)
// CHECK:         %[[W:.*]] = arith.extf %[[X]] : vector<8xf16> to vector<8xf32>
// CHECK-NOT:     math.exp
// CHECK:         math.fma {{.*}} : vector<8xf32>
// CHECK-NOT:     math.exp
// CHECK:         %[[N:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK:         return %[[N]]
func.func @exp_f16(%x: vector<8xf16>) -> vector<8xf16> {
  %0 = math.exp %x : vector<8xf16>
  return %0 : vector<8xf16>
}

// -----

// Left alone: f64 (libm keeps full precision) and rsqrt.

// CHECK-LABEL: func.func @exp_f64
// CHECK-SAME:    (%[[X:.*]]: f64)
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[X]] : f64
// CHECK-NEXT:    return %[[E]]
func.func @exp_f64(%x: f64) -> f64 {
  %0 = math.exp %x : f64
  return %0 : f64
}

// (Vectors of rsqrt: see aotc-approximate-math-rsqrt.mlir.)
// CHECK-LABEL: func.func @rsqrt
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK-NEXT:    %[[R:.*]] = math.rsqrt %[[X]] : f32
// CHECK-NEXT:    return %[[R]]
func.func @rsqrt(%x: f32) -> f32 {
  %0 = math.rsqrt %x : f32
  return %0 : f32
}
