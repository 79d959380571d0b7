//===- EliminateReshapedEmptyTensors.cpp - Compute into inserts -*- C++ -*-===//
//
// This file implements the aotc-eliminate-reshaped-empty-tensors pass: a
// result inserted into a larger tensor (a concatenation) through reshapes
// is computed in that tensor's slice instead of in a tensor of its own that
// the insert then copies.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace aotc {
#define GEN_PASS_DEF_ELIMINATERESHAPEDEMPTYTENSORS
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The tensor.empty that `value` was computed into, followed back through
/// reshapes (collected in `reshapes`, the one nearest `value` first), the
/// destinations of inserts and the tied inits of destination-style ops and
/// scf.forall loops; null when the chain ends elsewhere.
tensor::EmptyOp computedInto(Value value,
                             SmallVectorImpl<Operation *> &reshapes) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      reshapes.push_back(def);
      value = def->getOperand(0);
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
      value = insert.getDest();
    } else if (auto forall = dyn_cast<scf::ForallOp>(def)) {
      value = forall.getTiedOpOperand(cast<OpResult>(value))->get();
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      if (!dps.hasPureTensorSemantics())
        return {};
      value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
    } else {
      return dyn_cast<tensor::EmptyOp>(def);
    }
  }
  return {};
}

struct EliminateReshapedEmptyTensorsPass
    : aotc::impl::EliminateReshapedEmptyTensorsBase<
          EliminateReshapedEmptyTensorsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation().walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(getOperation());
    for (tensor::InsertSliceOp insert : inserts) {
      if (!insert.getOffsets().empty() || !insert.getSizes().empty() ||
          !insert.getStrides().empty())
        continue;
      // The destination as it was before any insert: a tensor.empty.
      Value dest = insert.getDest();
      while (auto inner = dest.getDefiningOp<tensor::InsertSliceOp>())
        dest = inner.getDest();
      auto root = dest.getDefiningOp<tensor::EmptyOp>();
      SmallVector<Operation *> reshapes;
      tensor::EmptyOp empty = computedInto(insert.getSource(), reshapes);
      if (!root || !empty || empty == root || !root.getDynamicSizes().empty())
        continue;
      // The slice, reshaped back, has the empty tensor's type (the ops in
      // between keep their destinations' types).
      Type computedType = reshapes.empty()
                              ? insert.getSourceType()
                              : reshapes.back()->getOperand(0).getType();
      if (computedType != empty.getType())
        continue;
      // The destination's empty tensor (no operands) moves before the
      // source's, whose uses its slice then replaces.
      if (!dominance.properlyDominates(root.getOperation(), empty)) {
        if (root->getBlock() != empty->getBlock())
          continue;
        rewriter.moveOpBefore(root, empty);
      }
      rewriter.setInsertionPoint(empty);
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, insert.getLoc(), insert.getSourceType(), root,
          insert.getMixedOffsets(), insert.getMixedSizes(),
          insert.getMixedStrides());
      Value replacement =
          aotc::undoReshapes(rewriter, insert.getLoc(), slice,
                             llvm::to_vector(llvm::reverse(reshapes)));
      rewriter.replaceOp(empty, replacement);
    }
  }
};

} // namespace
