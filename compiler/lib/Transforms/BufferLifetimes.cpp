//===- BufferLifetimes.cpp - Lifetimes of scratch buffers ------*- C++ -*-===//
//
// This file implements the lifetime analysis feeding the memory planner.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/BufferLifetimes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

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
    // Follow every value that may alias the buffer to its last use. This is
    // deliberately conservative: any memref produced by an op that uses the
    // buffer (views, casts, arith.select, scf.for/if results, ...) and the
    // results of a region op whose terminator yields it are aliases.
    SmallVector<Value> worklist = {alloc.getResult()};
    DenseSet<Value> seen = {alloc.getResult()};
    auto addAlias = [&](Value v) {
      if (isa<BaseMemRefType>(v.getType()) && seen.insert(v).second)
        worklist.push_back(v);
    };
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        for (Value result : user->getResults())
          addAlias(result);
        if (user->hasTrait<OpTrait::IsTerminator>())
          if (Operation *parent = user->getParentOp())
            if (parent != func.getOperation())
              for (Value result : parent->getResults())
                addAlias(result);
        // Loop-carried: the region arguments tied to this operand.
        for (Region &region : user->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              if (arg.getType() == value.getType())
                addAlias(arg);
        if (Operation *top = entry.findAncestorOpInBlock(*user))
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
