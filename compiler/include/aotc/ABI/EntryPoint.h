//===- EntryPoint.h - The ABI view of an entry point --------*- C++ -*-===//
//
// This file declares the C++ view of the `aotc.entry` / `aotc.pool`
// attributes shared by the passes, the header emitter and the driver.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_ENTRYPOINT_H
#define AOTC_TRANSFORMS_ENTRYPOINT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aotc {

/// One input or output tensor of an entry point.
struct TensorSignature {
  std::string name;
  std::string dtype; ///< f32 f64 f16 bf16 i8 u8 i16 i32 i64 i1
  std::vector<int64_t> shape; ///< -1 marks a symbolic dimension
  /// Per dimension: "" when static, else the symbol naming it.
  std::vector<std::string> dims;
};

/// A symbolic dimension: an int64_t parameter of the entry point, with the
/// bound the pool is planned for.
struct SymbolicDim {
  std::string name;
  int64_t max;
};

/// A run-time guard: two symbols, or a symbol and a constant, that must be
/// equal for the program to be well defined.
struct ShapeGuard {
  std::string lhs, rhs; ///< a symbol or a decimal integer each
};

/// One scratch buffer of the pool plan.
struct PlannedBuffer {
  int64_t size, offset, start, end;
};

/// Everything the header, manifest and info struct say about an entry point.
struct EntryPointSignature {
  std::string name;
  std::vector<TensorSignature> inputs, outputs;
  /// Symbolic dimensions, in parameter order; empty for a static program.
  std::vector<SymbolicDim> symbols;
  std::vector<ShapeGuard> guards;
  /// Graph inputs fixed at compile time (`--bind-input`), described for
  /// people: "shape: int64[2] = {3, 4}".
  std::vector<std::string> boundInputs;
  uint64_t poolBytes = 0;
  uint64_t poolLowerBound = 0;
  uint32_t poolAlignment = 64;
  std::vector<PlannedBuffer> buffers;
};

/// The dtype string of an MLIR element type ("f32", "i1", ...), or "" when the
/// ABI cannot describe it.
std::string dtypeName(mlir::Type elementType);
/// The AOT_DTYPE_* code of a dtype string (0 when unknown).
int32_t dtypeCode(llvm::StringRef dtype);
/// The C element type of a dtype string ("float", "int64_t", ...).
llvm::StringRef dtypeCType(llvm::StringRef dtype);
/// Size in bytes of one element of a dtype.
int64_t dtypeBytes(llvm::StringRef dtype);
/// True when `name` can be used as a C identifier.
bool isValidCIdentifier(llvm::StringRef name);

/// Reads `aotc.entry` (and `aotc.pool` when present) from a function-like
/// op: none when it has no `aotc.entry`, failure (an error emitted on the
/// op) when either record is malformed.
mlir::FailureOr<std::optional<EntryPointSignature>>
readEntryPoint(mlir::Operation *func);

/// Size in bytes of the data of a tensor of static shape.
int64_t tensorBytes(const TensorSignature &tensor);
/// `sig`'s `aotc.pool` with one slot per tensor of `tensors` appended after
/// its planned buffers (aligned to the pool's alignment): `bytes` and
/// `lower_bound` grown (the slots live for the whole call), the slots'
/// offsets recorded under `key`.
mlir::DictionaryAttr appendPoolSlots(mlir::DictionaryAttr pool,
                                     const EntryPointSignature &sig,
                                     llvm::ArrayRef<TensorSignature> tensors,
                                     llvm::StringRef key);

} // namespace aotc

#endif // AOTC_TRANSFORMS_ENTRYPOINT_H
