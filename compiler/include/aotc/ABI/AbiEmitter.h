//===- AbiEmitter.h - LLVM-dialect pieces of the C ABI --------*- C++ -*-===//
//
// This file declares the building blocks the CPU and GPU entry point
// emitters share on the LLVM dialect: status codes, argument checks, and the
// static aot_model_info_t behind NAME_info().
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_ABIEMITTER_H
#define AOTC_TRANSFORMS_ABIEMITTER_H

#include "aotc/ABI/EntryPoint.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace aotc {

// Values of include/aot_abi/aot_abi.h.
inline constexpr int32_t kAbiVersion = 1;
inline constexpr int32_t kStatusInvalidArgument = 1;
inline constexpr int32_t kStatusPoolTooSmall = 2;
inline constexpr int32_t kStatusShape = 3;
inline constexpr int32_t kStatusNoDevice = 4;
/// sizeof(aot_cpu_stream_t).
inline constexpr int32_t kCpuStreamSize = 8;

/// Emits LLVM-dialect ABI code into one module; the entry point emitters of
/// each target derive from it.
class AbiEmitter {
public:
  /// `target` is the info struct's target string ("cpu", "cuda:sm_80", ...).
  AbiEmitter(mlir::ModuleOp module, llvm::StringRef target);

  /// The private aot_model_info_t of `sig` and the public NAME_info()
  /// returning its address.
  void createInfoFunction(const EntryPointSignature &sig);

protected:
  mlir::Value constI32(int32_t v);
  mlir::Value constI64(int64_t v);
  mlir::Value addressOf(mlir::LLVM::GlobalOp global);
  /// `aggregate[position] = value`.
  mlir::Value insertValue(mlir::Value aggregate, mlir::Value value,
                          int64_t position);
  /// `status = cond ? code : status`.
  mlir::Value selectStatus(mlir::Value cond, int32_t code, mlir::Value status);
  /// True when `ptr` is NULL or not a multiple of `alignment`.
  mlir::Value isNullOrMisaligned(mlir::Value ptr, int64_t alignment);
  /// A private constant global holding `value` followed by a NUL byte.
  mlir::LLVM::GlobalOp stringGlobal(llvm::StringRef name,
                                    llvm::StringRef value);
  /// A private constant global array of `values` (a shape).
  mlir::LLVM::GlobalOp int64Global(llvm::StringRef name,
                                   llvm::ArrayRef<int64_t> values);
  /// The private `aot_tensor_info_t[]` global describing `tensors`.
  mlir::LLVM::GlobalOp
  tensorInfoGlobal(llvm::StringRef name,
                   llvm::ArrayRef<TensorSignature> tensors);

  mlir::ModuleOp module;
  mlir::MLIRContext *ctx;
  mlir::OpBuilder b;
  std::string target;
  mlir::Location loc;
  mlir::Type ptrType, i32, i64;
};

} // namespace aotc

#endif // AOTC_TRANSFORMS_ABIEMITTER_H
