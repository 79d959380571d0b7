//===- ONNXImporter.h - ONNX models to MLIR on tensors -------*- C++ -*-===//
//
// This file declares the ONNX importer: a ModelProto (opsets 11-18, with
// external data) becomes one public func.func on statically shaped tensors
// using linalg/tensor/arith/math, the same level the MLIR input path uses.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_FRONTEND_ONNX_ONNXIMPORTER_H
#define AOTC_FRONTEND_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace aotc {

struct ONNXImportOptions {
  /// Name of the generated function (the entry point).
  std::string functionName = "main";
  /// Values for symbolic dimensions (`--dim N=1`).
  llvm::StringMap<int64_t> dimValues;
  /// Symbolic dimensions kept dynamic, with their bounds (`--max-dim N=64`).
  llvm::StringMap<int64_t> symbolicDims;
  /// Graph inputs fixed at compile time (`--bind-input NAME=FILE`): the path
  /// of a serialized TensorProto holding each one's contents. A bound input
  /// is not a parameter of the entry point; shape arithmetic reading it
  /// folds.
  llvm::StringMap<std::string> boundInputs;
  /// Nodes imported as calls of the user's C kernels (`--extern
  /// DOMAIN::OP=SYMBOL`, include/aot_abi/aot_extern.h): "DOMAIN::OP" (the
  /// default domain is empty) -> SYMBOL. Their outputs' dtypes and shapes
  /// come from the graph's value_info.
  llvm::StringMap<std::string> externOps;
  /// Ops computed by a library's kernels (`--offload OP=LIB`): "conv" ->
  /// "openblas" or "onednn", "matmul" -> "openblas" or "cublas"
  /// (aot_runtime_blas's aot_blas_conv2d_f32 and aot_blas_gemm_f32,
  /// aot_runtime_dnnl's aot_dnnl_conv2d_f32, aot_runtime_cublas's
  /// aot_cublas_gemm_f32). A node the kernel does not take stays native.
  llvm::StringMap<std::string> offload;
};

/// Imports the model at `path`. On failure, a diagnostic naming the file and,
/// where relevant, the node, op and attribute has been emitted.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModel(mlir::MLIRContext &context, llvm::StringRef path,
                const ONNXImportOptions &options);

} // namespace aotc

#endif // AOTC_FRONTEND_ONNX_ONNXIMPORTER_H
