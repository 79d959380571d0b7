// RUN: aotc-opt %s -split-input-file -aotc-approximate-math | FileCheck %s

// f32 transcendentals become polynomials: only arith ops and math ops that
// map to LLVM intrinsics (fma, floor, absf...) remain, no libm function.

// erf is one rational function x * P(x^2) / Q(x^2) of x clamped to
// [-3.92, 3.92] by compare + select (NaN passes through): five FMAs per
// polynomial, one division.
// CHECK-LABEL: func.func @erf_vector
// CHECK-SAME:    (%[[X:.*]]: vector<16xf32>)
// CHECK-DAG:     %[[HI:.*]] = arith.constant dense<3.920000e+00> : vector<16xf32>
// CHECK-DAG:     %[[LO:.*]] = arith.constant dense<-3.920000e+00> : vector<16xf32>
// CHECK-NOT:     math.erf
// CHECK:         %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[HI]]
// CHECK:         %[[X1:.*]] = arith.select %[[GT]], %[[HI]], %[[X]]
// CHECK:         %[[LT:.*]] = arith.cmpf olt, %[[X1]], %[[LO]]
// CHECK:         %[[X2:.*]] = arith.select %[[LT]], %[[LO]], %[[X1]]
// CHECK:         %[[T:.*]] = arith.mulf %[[X2]], %[[X2]]
// CHECK-COUNT-5: math.fma %{{.*}}, %[[T]], %{{.*}} : vector<16xf32>
// CHECK:         %[[N:.*]] = arith.mulf %[[X2]], %{{.*}} : vector<16xf32>
// CHECK-COUNT-5: math.fma %{{.*}}, %[[T]], %{{.*}} : vector<16xf32>
// CHECK:         %[[R:.*]] = arith.divf %[[N]], %{{.*}} : vector<16xf32>
// CHECK-NOT:     math.erf
// CHECK:         return %[[R]] : vector<16xf32>
func.func @erf_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.erf %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// erf(x / c) for a constant c evaluates the polynomial at x * (1 / c) (the
// division stays only for its other users); erf(x / y) keeps the division.
// CHECK-LABEL: func.func @erf_divided
// CHECK-SAME:    (%[[X:.*]]: vector<16xf32>, %[[Y:.*]]: f32)
// CHECK-DAG:     %[[RCP:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         %[[S:.*]] = arith.mulf %[[X]], %[[RCP]] : vector<16xf32>
// CHECK-NEXT:    arith.cmpf ogt, %[[S]]
// CHECK:         %[[E:.*]] = arith.divf %[[Y]], %[[TWO]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.mulf %[[Y]], %[[HALF]] : f32
// CHECK-NEXT:    arith.cmpf ogt, %[[T]]
// CHECK:         %[[V:.*]] = arith.divf %[[Y]], %[[Y]] : f32
// CHECK-NEXT:    arith.cmpf ogt, %[[V]]
// CHECK-NOT:     math.erf
// CHECK:         return %{{.*}}, %{{.*}}, %[[E]], %{{.*}} :
func.func @erf_divided(%x: vector<16xf32>, %y: f32) -> (vector<16xf32>, f32, f32, f32) {
  %c = arith.constant dense<2.0> : vector<16xf32>
  %d = arith.divf %x, %c : vector<16xf32>
  %0 = math.erf %d : vector<16xf32>
  %c2 = arith.constant 2.0 : f32
  %e = arith.divf %y, %c2 : f32
  %1 = math.erf %e : f32
  %v = arith.divf %y, %y : f32
  %2 = math.erf %v : f32
  return %0, %1, %e, %2 : vector<16xf32>, f32, f32, f32
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
