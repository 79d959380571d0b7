//===- BufferLifetimes.h - Lifetimes of scratch buffers -----*- C++ -*-===//
//
// This file declares the IR side of memory planning: finding the scratch
// allocations of a bufferized function and their live ranges, in the form the
// pure planner (aotc/Analysis/MemoryPlan.h) consumes.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_BUFFERLIFETIMES_H
#define AOTC_TRANSFORMS_BUFFERLIFETIMES_H

#include "aotc/Analysis/MemoryPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aotc {

/// The scratch buffers of one function and their lifetimes.
struct BufferLifetimes {
  llvm::SmallVector<mlir::memref::AllocOp> allocs;
  llvm::SmallVector<BufferRequest> requests; ///< one per alloc
};

/// Collects every `memref.alloc` of `func`: program points are the positions
/// of the ops in the function's entry block; a buffer lives from its
/// allocation to the last op (or the op enclosing the last use) that uses it
/// or any view of it. Fails, with a diagnostic, on an allocation of dynamic
/// size or one nested in a region.
/// Lifetimes of every top-level `memref.alloc` of `func`. A buffer with
/// dynamic sizes is sized at the bound of the entry point's symbolic
/// dimensions (index arguments marked `aotc.symbol`).
mlir::FailureOr<BufferLifetimes> computeBufferLifetimes(mlir::func::FuncOp func);

/// Bytes per element of `type` in a buffer (sub-byte elements take one byte
/// each, as LLVM lays them out).
inline int64_t elementBytes(mlir::ShapedType type) {
  return std::max<int64_t>(1,
                           llvm::divideCeil(type.getElementTypeBitWidth(), 8));
}

/// The value of an index computation (arith, affine.apply/min/max) when each
/// value in `known` takes its mapped value; std::nullopt when it depends on
/// anything else.
std::optional<int64_t>
evaluateIndex(mlir::Value value,
              const llvm::DenseMap<mlir::Value, int64_t> &known);

} // namespace aotc

#endif // AOTC_TRANSFORMS_BUFFERLIFETIMES_H
