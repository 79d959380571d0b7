// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-annotate-entry-points="max-dims=N=64,M=8" | FileCheck %s

// Named, bounded symbolic dimensions: `symbols` in parameter order (first use
// in the arguments), `dims` per dynamic tensor, shapes with -1, the guards.

// CHECK-LABEL: func.func @named
// CHECK-SAME: aotc.entry = {guards = {{\[\[}}"N", "M"]]
// CHECK-SAME: inputs = [{dims = ["M", ""], dtype = "f32", name = "a", shape = array<i64: -1, 4>}, {dims = ["N", ""], dtype = "f32", name = "b", shape = array<i64: -1, 4>}]
// CHECK-SAME: outputs = [{dims = ["N", ""], dtype = "f32", name = "y", shape = array<i64: -1, 4>}]
// CHECK-SAME: symbols = [{max = 8 : i64, name = "M"}, {max = 64 : i64, name = "N"}]
func.func @named(%a: tensor<?x4xf32> {aotc.name = "a", aotc.dims = ["M", ""]},
                 %b: tensor<?x4xf32> {aotc.name = "b", aotc.dims = ["N", ""]})
    -> (tensor<?x4xf32> {aotc.name = "y", aotc.dims = ["N", ""]})
    attributes {aotc.guards = [["N", "M"]]} {
  return %b : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument 0 has dynamic type 'tensor<?x4xf32>' but no `aotc.dims` attribute naming each dimension}}
func.func @unnamed(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument 0: `aotc.dims` must name exactly the dynamic dimensions of 'tensor<?x4xf32>'}}
func.func @names_static(%a: tensor<?x4xf32> {aotc.dims = ["N", "C"]}) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{symbolic dimension 'K' needs a bound (--max-dim K=BOUND)}}
func.func @unbounded(%a: tensor<?xf32> {aotc.dims = ["K"]}) -> tensor<4xf32> {
  %c = arith.constant dense<0.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// An output dimension no input determines.
// expected-error @+1 {{result 0 uses symbolic dimension 'M', which no argument has}}
func.func @output_only(%a: tensor<?xf32> {aotc.dims = ["N"]}) -> (tensor<?xf32> {aotc.dims = ["M"]}) {
  return %a : tensor<?xf32>
}

// -----

// expected-error @+1 {{invalid guard ["N", "Q"] in `aotc.guards`}}
func.func @bad_guard(%a: tensor<?xf32> {aotc.dims = ["N"]}) -> (tensor<?xf32> {aotc.dims = ["N"]})
    attributes {aotc.guards = [["N", "Q"]]} {
  return %a : tensor<?xf32>
}

// -----

// expected-error @+1 {{symbolic dimension 'stream' is not a valid C identifier other than pool, pool_bytes and stream}}
func.func @reserved(%a: tensor<?xf32> {aotc.dims = ["stream"]}) -> tensor<4xf32> {
  %c = arith.constant dense<0.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
