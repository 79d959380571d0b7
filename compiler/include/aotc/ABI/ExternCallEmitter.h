//===- ExternCallEmitter.h - C calls of the user's kernels ----*- C++ -*-===//
//
// This file declares the emitter the CPU and GPU targets share to call
// extern kernels (include/aot_abi/aot_extern.h) on the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_ABI_EXTERNCALLEMITTER_H
#define AOTC_ABI_EXTERNCALLEMITTER_H

#include "aotc/ABI/AbiEmitter.h"

#include "llvm/ADT/StringMap.h"

namespace aotc {

/// Builds the C calls of the lowered extern declarations of one module
/// (aotc-lower-extern-calls: `__aotc_extern_NAME(ptr inputs..., ptr
/// outputs..., [ptr scratch])`, whose `aotc.extern` describes the call).
class ExternCallEmitter : public AbiEmitter {
public:
  using AbiEmitter::AbiEmitter;

  /// Rewrites the extern calls in `body`, an entry point's body (outside
  /// parallel regions), into calls of aot_extern.h's signature. Each gets
  /// `stream` as its aot_stream_t (GPU: the body's stream argument) or,
  /// when it is null, an aot_cpu_stream_t of the body's thread count (its
  /// last, i32, parameter). A non-OK status returns from `body` at once;
  /// `body` returns i32 (0 at its other returns).
  mlir::LogicalResult emitCallsIn(mlir::LLVM::LLVMFuncOp body,
                                  mlir::Value stream);
  /// Erases the lowered declarations; an error names one still called
  /// (from outside the entry point bodies).
  mlir::LogicalResult eraseDeclarations();

private:
  mlir::LogicalResult emitCall(mlir::LLVM::LLVMFuncOp body,
                               mlir::LLVM::CallOp call,
                               mlir::DictionaryAttr extern_,
                               mlir::Value stream);
  /// The C kernel `symbol`, declared once.
  mlir::LLVM::LLVMFuncOp kernel(llvm::StringRef symbol);
  /// A private constant array of `shape` (one per distinct shape).
  mlir::LLVM::GlobalOp shapeGlobal(llvm::ArrayRef<int64_t> shape);
  /// The `aot_extern_tensor_t[]` of `types`, their data in `pointers`,
  /// stored in a stack array; returns its address.
  mlir::Value tensorArray(mlir::LLVM::LLVMFuncOp func,
                          llvm::ArrayRef<mlir::Attribute> types,
                          mlir::ValueRange pointers);
  /// An aot_cpu_stream_t of `body`'s thread count on the stack; null when
  /// `body` has no thread count.
  mlir::Value cpuStream(mlir::LLVM::LLVMFuncOp body);
  /// An alloca of `type` at the start of `func` (a static stack slot).
  mlir::Value stackSlot(mlir::LLVM::LLVMFuncOp func, mlir::Type type);
  /// `func` returns i32: 0 at its existing returns.
  void returnStatus(mlir::LLVM::LLVMFuncOp func);
  /// The lowered declaration `call` calls, or null.
  mlir::LLVM::LLVMFuncOp declarationOf(mlir::LLVM::CallOp call);

  mlir::Type tensorType();
  llvm::StringMap<mlir::LLVM::GlobalOp> shapes;
  unsigned attributeStrings = 0;
};

} // namespace aotc

#endif // AOTC_ABI_EXTERNCALLEMITTER_H
