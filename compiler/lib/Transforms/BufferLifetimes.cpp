//===- BufferLifetimes.cpp - Lifetimes of scratch buffers ------*- C++ -*-===//
//
// This file implements the lifetime analysis feeding the memory planner.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/BufferLifetimes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace aotc {

/// Size in bytes of a statically shaped memref (sub-byte elements take one
/// byte each, as LLVM lays them out).
static int64_t memrefBytes(MemRefType type) {
  int64_t elementBytes =
      std::max<int64_t>(1, llvm::divideCeil(
                               type.getElementTypeBitWidth(), 8));
  return type.getNumElements() * elementBytes;
}

FailureOr<BufferLifetimes> computeBufferLifetimes(func::FuncOp func) {
  Block &entry = func.getBody().front();
  DenseMap<Operation *, int64_t> position;
  int64_t index = 0;
  for (Operation &op : entry)
    position[&op] = index++;

  BufferLifetimes result;
  WalkResult walk = func.walk([&](memref::AllocOp alloc) -> WalkResult {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !alloc.getDynamicSizes().empty())
      return alloc.emitError("scratch buffer of dynamic size ")
             << type << " cannot be placed in the static pool";
    if (alloc->getBlock() != &entry)
      return alloc.emitError("scratch buffer allocated inside a region; "
                             "the pool planner needs it at function level");
    int64_t start = position[alloc];
    int64_t end = start;
    // Follow every alias (views, casts, reshapes) to its last use.
    SmallVector<Value> worklist = {alloc.getResult()};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (auto view = dyn_cast<ViewLikeOpInterface>(user))
          if (view.getViewSource() == value)
            llvm::append_range(worklist, user->getResults());
        if (isa<memref::CastOp, memref::ReinterpretCastOp>(user))
          llvm::append_range(worklist, user->getResults());
        Operation *top = entry.findAncestorOpInBlock(*user);
        if (top)
          end = std::max(end, position[top]);
      }
    }
    result.allocs.push_back(alloc);
    result.requests.push_back({memrefBytes(type), start, end});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return result;
}

} // namespace aotc
