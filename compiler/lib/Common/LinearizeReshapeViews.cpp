//===- LinearizeReshapeViews.cpp - Reshape chains as casts ----*- C++ -*-===//
//
// This file implements the aotc-linearize-reshape-views pass: an expanded
// view of a collapsed buffer becomes a reinterpret_cast of the buffer, so
// that loads through it index linearly instead of through div/mod.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aotc {
#define GEN_PASS_DEF_LINEARIZERESHAPEVIEWS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The buffer under the view chain (subview, collapse_shape, expand_shape)
/// of `view` when the chain has a collapse_shape; null otherwise.
Value collapsedRoot(Value view) {
  bool collapsed = false;
  while (Operation *op = view.getDefiningOp()) {
    if (isa<memref::CollapseShapeOp>(op))
      collapsed = true;
    else if (!isa<memref::SubViewOp, memref::ExpandShapeOp>(op))
      break;
    view = op->getOperand(0);
  }
  return collapsed ? view : Value();
}

struct LinearizeReshapeViewsPass
    : aotc::impl::LinearizeReshapeViewsBase<LinearizeReshapeViewsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<memref::ExpandShapeOp, Value>> expands;
    getOperation().walk([&](memref::ExpandShapeOp op) {
      MemRefType type = op.getResultType();
      int64_t offset;
      SmallVector<int64_t> strides;
      if (!type.hasStaticShape() ||
          failed(type.getStridesAndOffset(strides, offset)) ||
          ShapedType::isDynamic(offset) ||
          llvm::any_of(strides, ShapedType::isDynamic))
        return;
      Value root = collapsedRoot(op.getSrc());
      // The root's aligned pointer is the base the result's layout counts
      // from when the root itself starts there.
      auto rootType = root ? dyn_cast<MemRefType>(root.getType()) : nullptr;
      if (rootType && rootType.getLayout().isIdentity())
        expands.push_back({op, root});
    });
    OpBuilder b(&getContext());
    for (auto [op, root] : expands) {
      b.setInsertionPoint(op);
      MemRefType type = op.getResultType();
      auto [strides, offset] = type.getStridesAndOffset();
      Value view = memref::ReinterpretCastOp::create(
          b, op.getLoc(), type, root, offset, type.getShape(), strides);
      op.replaceAllUsesWith(view);
      op.erase();
    }
  }
};

} // namespace
