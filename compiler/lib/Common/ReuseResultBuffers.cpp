//===- ReuseResultBuffers.cpp - Results computed in their outputs -*- C++ -*-===//
//
// This file implements the aotc-reuse-result-buffers pass: a scratch buffer
// copied into an out-parameter through reshapes (the last operation to read
// it) is replaced by a view of the out-parameter, so the result is computed
// where the caller wants it and the copy disappears.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aotc {
#define GEN_PASS_DEF_REUSERESULTBUFFERS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The allocation under a chain of collapse_shape / expand_shape ops ending
/// in `value`, with the chain's ops (nearest the allocation first); null
/// when `value` is not such a chain of at least one reshape.
memref::AllocOp reshapedAllocation(Value value,
                                   SmallVectorImpl<Operation *> &chain) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::reverse(chain.begin(), chain.end());
      return chain.empty() ? memref::AllocOp() : alloc;
    }
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(op))
      break;
    chain.push_back(op);
    value = op->getOperand(0);
  }
  return {};
}

/// True when every operation reading or writing `buffer` (directly or
/// through views) is, at the level of `point`'s block, before `point`, or
/// is `point` itself or one of `chain`.
bool onlyUsedBefore(Value buffer, Operation *point,
                    ArrayRef<Operation *> chain) {
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user == point || llvm::is_contained(chain, user)) {
        continue;
      }
      if (isa<ViewLikeOpInterface>(user)) {
        for (Value result : user->getResults())
          worklist.push_back(result);
        continue;
      }
      Operation *ancestor = point->getBlock()->findAncestorOpInBlock(*user);
      if (!ancestor || !ancestor->isBeforeInBlock(point))
        return false;
    }
  }
  return true;
}

struct ReuseResultBuffersPass
    : aotc::impl::ReuseResultBuffersBase<ReuseResultBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<memref::CopyOp> copies;
    for (auto copy : func.getBody().front().getOps<memref::CopyOp>())
      copies.push_back(copy);
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      auto result = dyn_cast<BlockArgument>(copy.getTarget());
      if (!result || result.getOwner() != &func.getBody().front() ||
          !result.hasOneUse())
        continue;
      auto resultType = cast<MemRefType>(result.getType());
      SmallVector<Operation *> chain;
      memref::AllocOp alloc = reshapedAllocation(copy.getSource(), chain);
      if (!alloc || !resultType.getLayout().isIdentity() ||
          !alloc.getType().getLayout().isIdentity() ||
          !alloc.getType().hasStaticShape() ||
          alloc.getType().getMemorySpace() != resultType.getMemorySpace() ||
          alloc->getBlock() != copy->getBlock() ||
          !onlyUsedBefore(alloc, copy, chain))
        continue;
      // The out-parameter is contiguous and row-major, as is the
      // allocation, so the allocation's shape is a reinterpretation of it.
      MemRefType allocType = alloc.getType();
      SmallVector<int64_t> strides = allocType.getStridesAndOffset().first;
      rewriter.setInsertionPoint(alloc);
      auto view = memref::ReinterpretCastOp::create(
          rewriter, alloc.getLoc(), allocType, result, /*offset=*/0,
          allocType.getShape(), strides);
      rewriter.eraseOp(copy);
      rewriter.replaceOp(alloc, view.getResult());
      for (Operation *op : llvm::reverse(chain))
        if (op->use_empty())
          rewriter.eraseOp(op);
    }
  }
};

} // namespace
