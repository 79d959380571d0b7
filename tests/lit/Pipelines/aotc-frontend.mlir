// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-frontend=entry-name=model | FileCheck %s
// RUN: aotc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(aotc-frontend{entry-name=model})' | FileCheck %s
// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-frontend | FileCheck %s --check-prefix=NONAME

// The only public function is renamed and annotated (tensor names from
// aotc.name), TOSA becomes linalg/arith, the private helper is inlined and
// removed.

// CHECK-LABEL: func.func @model(
// CHECK-SAME:    %[[X:.*]]: tensor<1x4x8xf32> {aotc.name = "input", bufferization.writable = false}
// CHECK-SAME:    %[[W:.*]]: tensor<1x8x16xf32> {bufferization.writable = false}
// CHECK-SAME:    -> (tensor<1x4x16xf32> {aotc.name = "output"})
// CHECK-SAME:    aotc.entry = {inputs = [{dtype = "f32", name = "input", shape = array<i64: 1, 4, 8>}, {dtype = "f32", name = "arg1", shape = array<i64: 1, 8, 16>}], name = "model", outputs = [{dtype = "f32", name = "output", shape = array<i64: 1, 4, 16>}]}
// CHECK-NOT:     tosa.
// CHECK-NOT:     call
// CHECK:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x4x8xf32>)
// CHECK:           arith.minimumf
// CHECK:           arith.maximumf
// CHECK:         %[[ACC:.*]] = linalg.fill
// CHECK:         %[[MM:.*]] = linalg.batch_matmul ins(%[[RELU]], %[[W]] : tensor<1x4x8xf32>, tensor<1x8x16xf32>) outs(%[[ACC]] : tensor<1x4x16xf32>)
// CHECK:         return %[[MM]]
// CHECK-NOT:   func.func private @relu
// CHECK-NOT:   tosa.
// NONAME-LABEL: func.func @main(
// NONAME-SAME:    name = "main"
func.func @main(%x: tensor<1x4x8xf32> {aotc.name = "input"}, %w: tensor<1x8x16xf32>) -> (tensor<1x4x16xf32> {aotc.name = "output"}) {
  %0 = call @relu(%x) : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = tosa.matmul %0, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  return %1 : tensor<1x4x16xf32>
}
func.func private @relu(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// -----

// Two public functions: both are entry points under their own names.

// CHECK-LABEL: func.func @add(
// CHECK-SAME:    aotc.entry = {{{.*}}name = "add"
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK-LABEL: func.func @neg(
// CHECK-SAME:    aotc.entry = {{{.*}}name = "neg"
// CHECK:         linalg.generic
// CHECK:           arith.negf
// CHECK-NOT:   tosa.
func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tosa.add %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @neg(%a: tensor<8xf32>) -> tensor<8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.negate %a, %zp, %zp : (tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Verification runs first: the unsupported op is reported as written.

func.func @bad(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'bufferization.to_buffer'}}
  %m = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument 0 has dynamic type 'tensor<?x4xf32>' but no `aotc.dims` attribute naming each dimension}}
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<0.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
