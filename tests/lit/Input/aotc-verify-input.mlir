// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-verify-input | FileCheck %s

// Programs aotc can compile pass through unchanged.

// CHECK-LABEL: func.func @supported
// CHECK-SAME:    %{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<i64>
// CHECK:         tosa.abs
// CHECK:         linalg.generic
// CHECK:         math.exp
// CHECK:         tensor.extract_slice
// CHECK:         return
func.func @supported(%a: tensor<2x3xf32>, %b: tensor<i64>) -> (tensor<2x3xf32>, tensor<1x3xf32>) {
  %0 = tosa.abs %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  %2 = tensor.extract_slice %1[0, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<1x3xf32>
  return %1, %2 : tensor<2x3xf32>, tensor<1x3xf32>
}

// -----

// Every supported element type, and a private helper beside the entry point.

// CHECK-LABEL: func.func @all_dtypes
// CHECK-LABEL: func.func private @helper
func.func @all_dtypes(%a: tensor<1xf16>, %b: tensor<1xbf16>, %c: tensor<1xf32>,
                      %d: tensor<1xf64>, %e: tensor<1xi1>, %f: tensor<1xi8>,
                      %g: tensor<1xi16>, %h: tensor<1xi32>, %i: tensor<1xi64>) -> tensor<1xf32> {
  %0 = func.call @helper(%c) : (tensor<1xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
func.func private @helper(%c: tensor<1xf32>) -> tensor<1xf32> {
  return %c : tensor<1xf32>
}

// -----

// Dynamic dimensions pass: they are symbolic dimensions, which
// aotc-annotate-entry-points checks are named and bounded.
// CHECK-LABEL: func.func @dynamic_argument
func.func @dynamic_argument(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tensor.cast %a : tensor<?xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// expected-error @+1 {{argument 0 is unranked ('tensor<*xf32>'); only ranked tensors are supported}}
func.func @unranked(%a: tensor<*xf32>) -> tensor<4xf32> {
  %0 = tensor.cast %a : tensor<*xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @memref_load(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unsupported op 'bufferization.to_buffer': aotc accepts func, arith, math, tensor, linalg and tosa ops}}
  %m = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{unsupported op 'memref.load'}}
  %x = memref.load %m[%c0] : memref<4xf32>
  return %a : tensor<4xf32>
}

// -----

// expected-error @+2 {{argument 0 has unsupported element type 'i4' in 'tensor<4xi4>'}}
// expected-error @+1 {{result 0 has unsupported element type 'i4' in 'tensor<4xi4>'}}
func.func @int4(%a: tensor<4xi4>) -> tensor<4xi4> {
  return %a : tensor<4xi4>
}

// -----

// expected-error @+1 {{argument 0 has unsupported element type 'complex<f32>'}}
func.func @complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  %c = arith.constant dense<0.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @index_value(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result 0 has unsupported element type 'index' in 'tensor<4xindex>'}}
  %c = arith.constant dense<0> : tensor<4xindex>
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument 1 has type 'memref<4xf32>'; entry point arguments must be tensors}}
func.func @memref_argument(%a: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument 0 has type 'f32'; entry point arguments must be tensors}}
func.func @scalar_argument(%a: f32) -> tensor<4xf32> {
  %c = arith.constant dense<0.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// expected-error @+1 {{result 0 has type 'i32'; entry point results must be tensors}}
func.func @scalar_result(%a: tensor<4xf32>) -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// A private declaration is an extern kernel (aot_extern.h): accepted.
// CHECK-LABEL: func.func private @external(tensor<4xf32>) -> tensor<4xf32>
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
func.func @uses_external(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @external(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}


// -----

// expected-error @+1 {{extern kernel 'dynamic' argument 0 has type 'tensor<?xf32>'; extern kernels take and return statically shaped tensors}}
func.func private @dynamic(tensor<?xf32>) -> tensor<4xf32>
func.func @uses_dynamic(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{extern kernel 'no_results' returns nothing; its results are the tensors it computes}}
func.func private @no_results(tensor<4xf32>)
func.func @uses_no_results(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{extern kernel 'bad_json': aotc.extern must be {symbol = "C name", [attributes = "JSON object"], [scratch_bytes = N : i64]}}}
func.func private @bad_json(tensor<4xf32>) -> tensor<4xf32>
    attributes {aotc.extern = {symbol = "bad_json", attributes = "[1, 2"}}
func.func @uses_bad_json(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{extern kernel 'not-c' is not a C identifier}}
func.func private @renamed(tensor<4xf32>) -> tensor<4xf32>
    attributes {aotc.extern = {symbol = "not-c"}}
func.func @uses_renamed(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{the module has no public function with a body; nothing to compile}}
module {
  func.func private @only_private(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{the module has no public function with a body; nothing to compile}}
module {
}

// -----

// Zero-size tensors are rejected up front, instead of failing later in the
// pipeline, except at the entry point's boundary (the caller passes them,
// nothing reads or writes them) and as the empty tensors returned for them.
// expected-error @+2 {{result 0 has no elements ('tensor<0x4xf32>'); zero-size tensors are not supported yet}}
func.func @zero_size_inside(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = arith.constant dense<> : tensor<0x4xf32>
  return %a : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @empty_axes
// CHECK-SAME:    tensor<0xi64>
func.func @empty_axes(%x: tensor<4xf32>, %axes: tensor<0xi64>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @zero_size_boundary
// CHECK-SAME:    tensor<2x0x3xf32>
func.func @zero_size_boundary(%a: tensor<2x0x3xf32>) -> tensor<2x0x3xf32> {
  %e = tensor.empty() : tensor<2x0x3xf32>
  return %e : tensor<2x0x3xf32>
}

// -----

// The entry point's signature and memory plan are aotc's own records: an
// input that carries them (here a plan without its buffers) is rejected
// before any pass reads them.
// expected-error @+2 {{attribute 'aotc.pool' is set by aotc itself; an input program must not carry it}}
// expected-error @+1 {{attribute 'aotc.entry' is set by aotc itself; an input program must not carry it}}
func.func @compiler_records(%a: tensor<4xf32>) -> tensor<4xf32> attributes {aotc.entry = {name = "f"}, aotc.pool = {bytes = 0 : i64}} {
  return %a : tensor<4xf32>
}
