// RUN: aotc-opt %s -split-input-file -aotc-approximate-math | FileCheck %s
//
// rsqrt is meant to be excluded (ApproximateMath.cpp filters it with
// `name != "rsqrt"`), but the predicate receives full operation names
// ("math.rsqrt"), so nothing is excluded: on vectors of 8 x f32 (and f16,
// expanded to f32) the AVX2-only RsqrtApproximation pattern fires and builds
// x86vector.avx.rsqrt. aotc-opt crashes here (the x86vector dialect is not a
// dependent dialect); `aotc` on a model with tosa.rsqrt fails with "missing
// LLVMTranslationDialectInterface registration ... x86vector.avx.rsqrt",
// whatever the --mcpu.

// CHECK-LABEL: func.func @rsqrt_v8
// CHECK-SAME:    (%[[X:.*]]: vector<8xf32>)
// CHECK-NEXT:    %[[R:.*]] = math.rsqrt %[[X]] : vector<8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @rsqrt_v8(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.rsqrt %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @rsqrt_v16
// CHECK-NOT:     x86vector
// CHECK:         return
func.func @rsqrt_v16(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.rsqrt %x : vector<16xf32>
  return %0 : vector<16xf32>
}
