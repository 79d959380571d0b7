//===- EliminateReshapedEmptyTensors.cpp - Compute into inserts -*- C++ -*-===//
//
// This file implements the aotc-eliminate-reshaped-empty-tensors pass: a
// result inserted into a larger tensor (a concatenation, or a padded image
// whose border was filled) through reshapes is computed in that tensor's
// slice instead of in a tensor of its own that the insert then copies.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// True when the static slice `insert` writes is one contiguous range of
/// its destination: unit sizes, then at most one partial dimension, then
/// whole ones.
bool isContiguousSlice(tensor::InsertSliceOp insert) {
  ArrayRef<int64_t> sizes = insert.getStaticSizes();
  ArrayRef<int64_t> shape = insert.getDestType().getShape();
  unsigned d = 0;
  while (d < sizes.size() && sizes[d] == 1)
    ++d;
  for (unsigned i = d + 1; i < sizes.size(); ++i)
    if (sizes[i] != shape[i])
      return false;
  return true;
}

/// Moves the ops that compute `value` (with those defining what their
/// regions use) before `point`, in their order, when all of them are in
/// `point`'s block and free of memory effects (a filling scf.forall on
/// tensors is; upstream moveValueDefinitions wants them speculatable too);
/// false, moving nothing, otherwise.
bool moveComputationBefore(RewriterBase &rewriter, Value value,
                           Operation *point, DominanceInfo &dominance) {
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitUsesFromAbove = false;
  options.omitBlockArguments = true;
  bool movable = true;
  options.filter = [&](Operation *op) {
    if (dominance.properlyDominates(op, point))
      return false;
    if (op->getBlock() != point->getBlock() || !isMemoryEffectFree(op))
      movable = false;
    return movable;
  };
  llvm::SetVector<Operation *> slice;
  if (failed(getBackwardSlice(value, &slice, options)) || !movable ||
      slice.contains(point))
    return false;
  for (Operation *op : slice)
    rewriter.moveOpBefore(op, point);
  return true;
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
      // The destination as it was before any insert: a tensor.empty (a
      // concatenation), or a value computed into one that only this insert
      // uses (a padded image: its fill).
      Value dest = insert.getDest();
      while (auto inner = dest.getDefiningOp<tensor::InsertSliceOp>())
        dest = inner.getDest();
      SmallVector<Operation *> destReshapes;
      tensor::EmptyOp root = dest.getDefiningOp<tensor::EmptyOp>();
      if (!root && dest == insert.getDest() && dest.hasOneUse())
        root = computedInto(dest, destReshapes);
      SmallVector<Operation *> reshapes;
      tensor::EmptyOp empty = computedInto(insert.getSource(), reshapes);
      if (!root || !empty || empty == root || !destReshapes.empty() ||
          !root.getDynamicSizes().empty())
        continue;
      // The slice, reshaped back, has the empty tensor's type (the ops in
      // between keep their destinations' types).
      Type computedType = reshapes.empty()
                              ? insert.getSourceType()
                              : reshapes.back()->getOperand(0).getType();
      if (computedType != empty.getType())
        continue;
      // Undoing a collapse expands the slice, which any slice allows;
      // undoing an expansion collapses it, which only a contiguous one
      // does (the interior of a padded image is not: its rows are apart).
      if (!isContiguousSlice(insert) &&
          !llvm::all_of(reshapes, llvm::IsaPred<tensor::CollapseShapeOp>))
        continue;
      // The destination (with what computes it) moves before the source's
      // empty tensor, whose uses its slice then replaces.
      if (!dominance.properlyDominates(dest, empty)) {
        if (dest.getParentBlock() != empty->getBlock() ||
            !moveComputationBefore(rewriter, dest, empty, dominance))
          continue;
      }
      rewriter.setInsertionPoint(empty);
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, insert.getLoc(), insert.getSourceType(), dest,
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
