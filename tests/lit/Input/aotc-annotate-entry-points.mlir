// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-annotate-entry-points=entry-name=model | FileCheck %s --check-prefix=RENAME
// Without entry-name no function is renamed; the invalid-name cases fail in
// this mode too, hence `not`.
// RUN: not aotc-opt %s -split-input-file -aotc-annotate-entry-points 2>/dev/null | FileCheck %s

// Default names argN/resultN; inputs are not writable. Without entry-name the
// function keeps its name; with it, the only public function is renamed.

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %{{.*}}: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32>
// CHECK-SAME:    aotc.entry = {inputs = [{dtype = "f32", name = "arg0", shape = array<i64: 4>}], name = "main", outputs = [{dtype = "f32", name = "result0", shape = array<i64: 4>}]}
// RENAME-LABEL: func.func @model(
// RENAME-SAME:    aotc.entry = {{{.*}}name = "model",
// RENAME-NOT:   @main
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// aotc.name on arguments and results; rank-0 tensors; several results; i1/i8.

// CHECK-LABEL: func.func @named(
// CHECK-SAME:    %{{.*}}: tensor<2x3xf32> {aotc.name = "image", bufferization.writable = false}
// CHECK-SAME:    %{{.*}}: tensor<i64> {bufferization.writable = false}
// CHECK-SAME:    inputs = [{dtype = "f32", name = "image", shape = array<i64: 2, 3>}, {dtype = "i64", name = "arg1", shape = array<i64>}]
// CHECK-SAME:    outputs = [{dtype = "f32", name = "out", shape = array<i64: 2, 3>}, {dtype = "i1", name = "result1", shape = array<i64: 3>}, {dtype = "i8", name = "result2", shape = array<i64>}]
// RENAME-LABEL: func.func @model(
func.func @named(%x: tensor<2x3xf32> {aotc.name = "image"}, %y: tensor<i64>)
    -> (tensor<2x3xf32> {aotc.name = "out"}, tensor<3xi1>, tensor<i8>) {
  %c = arith.constant dense<true> : tensor<3xi1>
  %d = arith.constant dense<1> : tensor<i8>
  return %x, %c, %d : tensor<2x3xf32>, tensor<3xi1>, tensor<i8>
}

// -----

// Two public functions: both are entry points and neither is renamed. Private
// helpers are not entry points and keep writable arguments.

// CHECK-LABEL: func.func @first(
// CHECK-SAME:    aotc.entry = {{{.*}}name = "first"
// CHECK-LABEL: func.func @second(
// CHECK-SAME:    {bufferization.writable = false}
// CHECK-SAME:    aotc.entry = {inputs = [{dtype = "bf16", name = "arg0", shape = array<i64: 4>}], name = "second", outputs = [{dtype = "f32", name = "result0", shape = array<i64: 4>}]}
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT:     bufferization.writable
// CHECK-NOT:     aotc.entry
// CHECK:         return
// RENAME-LABEL: func.func @first(
// RENAME-LABEL: func.func @second(
// RENAME-NOT:   @model
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @second(%x: tensor<4xbf16>) -> tensor<4xf32> {
  %0 = arith.extf %x : tensor<4xbf16> to tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Renaming updates the uses of the symbol.

// CHECK-LABEL: func.func @callee(
// CHECK-LABEL: func.func private @caller(
// CHECK:         call @callee(
// RENAME-LABEL: func.func @model(
// RENAME-LABEL: func.func private @caller(
// RENAME:         call @model(
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{cannot name the entry point 'model': another symbol already has that name}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{tensor name 't' is not a unique, valid C identifier}}
func.func @duplicate_names(%x: tensor<4xf32> {aotc.name = "t"}) -> (tensor<4xf32> {aotc.name = "t"}) {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{tensor name '1x' is not a unique, valid C identifier}}
func.func @bad_tensor_name(%x: tensor<4xf32> {aotc.name = "1x"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Two public functions, so entry-name does not apply and the name is checked.
// expected-error @+1 {{entry point name 'bad-name' is not a valid C identifier}}
func.func @"bad-name"(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Zero-element tensors keep their shapes in the signature; inside, they are
// 1-D (what the bare-pointer convention lowers): an argument's uses read an
// empty tensor, each result is its own allocation.

// CHECK-LABEL: func.func @empty(
// CHECK-SAME:    %[[A:.*]]: tensor<0xf32> {{{.*}}bufferization.writable = false}, %{{.*}}: tensor<4xf32>
// CHECK-SAME:    -> (tensor<0xf32>, tensor<0xf32>, tensor<4xf32>)
// CHECK-SAME:    inputs = [{dtype = "f32", name = "arg0", shape = array<i64: 2, 0, 3>}, {dtype = "f32", name = "arg1", shape = array<i64: 4>}]
// CHECK-SAME:    outputs = [{dtype = "f32", name = "result0", shape = array<i64: 0, 5>}, {dtype = "f32", name = "result1", shape = array<i64: 0, 5>}, {dtype = "f32", name = "result2", shape = array<i64: 4>}]
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x0x3xf32>
// CHECK:         %[[R0:.*]] = bufferization.alloc_tensor() : tensor<0xf32>
// CHECK:         %[[R1:.*]] = bufferization.alloc_tensor() : tensor<0xf32>
// CHECK:         return %[[R0]], %[[R1]], %{{.*}} : tensor<0xf32>, tensor<0xf32>, tensor<4xf32>
func.func @empty(%a: tensor<2x0x3xf32>, %b: tensor<4xf32>) -> (tensor<0x5xf32>, tensor<0x5xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<0x5xf32>
  %c = tensor.collapse_shape %a [[0, 1, 2]] : tensor<2x0x3xf32> into tensor<0xf32>
  return %e, %e, %b : tensor<0x5xf32>, tensor<0x5xf32>, tensor<4xf32>
}
