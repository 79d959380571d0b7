//===- Passes.td - aotc Input passes -----------------------*- tablegen -*-===//
//
// Declares the passes of input verification and entry point signatures. Each
// pass lives in its own file under compiler/lib/Input/ and has a lit test in
// tests/lit/Input/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_INPUT_PASSES
#define AOTC_INPUT_PASSES

include "mlir/Pass/PassBase.td"

def VerifyInput : Pass<"aotc-verify-input", "mlir::ModuleOp"> {
  let summary = "Reject programs aotc cannot compile, naming the op and location";
  let description = [{
    Checks that the input is a tensor program aotc supports before anything
    else runs: only ops of the builtin, func, arith, math, tensor, linalg and
    tosa dialects; ranked, statically shaped tensors; element types f16, bf16,
    f32, f64, i1, i8, i16, i32 and i64; at least one public function. Every
    violation is an error at the offending op, e.g.

    ```mlir
    func.func @f(%a: tensor<?xf32>) -> tensor<?xf32>
    // error: 'func.func' op argument 0 has dynamic shape tensor<?xf32>;
    //        dynamic shapes are not supported yet
    ```
  }];
}

def AnnotateEntryPoints : Pass<"aotc-annotate-entry-points", "mlir::ModuleOp"> {
  let summary = "Record each public function's ABI signature as `aotc.entry`";
  let description = [{
    Every public `func.func` becomes an entry point. This pass attaches a
    dictionary `aotc.entry = {name, inputs, outputs}` describing the tensors
    (name from `aotc.name` argument/result attributes or `argN`/`resultN`,
    dtype, shape), marks every argument `bufferization.writable = false`
    (inputs belong to the caller), gives a value returned more than once a
    copy per extra occurrence (each output is its own caller buffer), and,
    when `entry-name` is given and the module has exactly one public
    function, renames it.

    Symbolic dimensions: a dynamic dimension of an argument or result must be
    named by the `aotc.dims` argument/result attribute (`["N", ""]`), and
    every name needs a bound from `max-dims` (`N=64`). The entry dictionary
    then also holds `symbols` (name and max of each, in parameter order: first use in
    the arguments), each tensor's `dims`, and the function's `aotc.guards`.

    Before:
    ```mlir
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
    ```
    After (entry-name=model):
    ```mlir
    func.func @model(%x: tensor<4xf32> {bufferization.writable = false})
        -> tensor<4xf32> attributes {aotc.entry = {name = "model",
        inputs = [{dtype = "f32", name = "arg0", shape = array<i64: 4>} ],
        outputs = [{dtype = "f32", name = "result0", shape = array<i64: 4>} ]}}
    ```
  }];
  let options = [
    Option<"entryName", "entry-name", "std::string", /*default=*/"\"\"",
           "Name of the entry point when the module has one public function">,
    ListOption<"maxDims", "max-dims", "std::string",
               "Bound of each symbolic dimension, NAME=VALUE">,
  ];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

#endif // AOTC_INPUT_PASSES
