//===- EliminateReshapedEmptyTensors.cpp - Compute into inserts -*- C++ -*-===//
//
// This file implements the aotc-eliminate-reshaped-empty-tensors pass: a
// result inserted into a larger tensor (a concatenation, or a padded image
// whose border was filled) through reshapes is computed in that tensor's
// slice instead of in a tensor of its own that the insert then copies; its
// later readers read that slice. A thread tile's slice of an empty tensor
// shared by the tiles becomes an empty tensor of the tile's own.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aotc {
#define GEN_PASS_DEF_ELIMINATERESHAPEDEMPTYTENSORS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

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

/// Reads of `insert`'s source, or of a value it was collapsed from, after
/// the insert read the insert's slice instead (carried back through the
/// collapses): the same values, which once the source is computed in the
/// destination's slice are in the same buffer. Read from the source itself,
/// they follow the insert's write into that buffer, a conflict one-shot
/// bufferization resolves by computing the source out of place: a copy of
/// the (undefined) slice out before it and a copy back after (a padded
/// image whose interior is also a residual connection's input: ResNet-18's
/// block outputs).
void readInsertedSlice(RewriterBase &rewriter, tensor::InsertSliceOp insert) {
  Block *block = insert->getBlock();
  auto after = [&](OpOperand &use) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    return user && insert->isBeforeInBlock(user);
  };
  // The source and the values it was collapsed from, outward; the
  // collapses from values[i] to the source are the last i of `chain` (in
  // order).
  SmallVector<Value> values;
  SmallVector<Operation *> chain;
  for (Value v = insert.getSource();;) {
    values.push_back(v);
    auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      break;
    chain.insert(chain.begin(), collapse);
    v = collapse.getSrc();
  }
  // Another reshape of one of them, only read after the insert, is taken
  // there (it reads the slice then too).
  for (Value value : values)
    for (Operation *user : llvm::to_vector(value.getUsers()))
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user) &&
          user->getBlock() == block && user->isBeforeInBlock(insert) &&
          !llvm::is_contained(chain, user) &&
          llvm::all_of(user->getResult(0).getUses(), after))
        rewriter.moveOpAfter(user, insert);
  Value slice;
  for (auto [i, value] : llvm::enumerate(values)) {
    if (llvm::none_of(value.getUses(), after))
      continue;
    if (!slice) {
      rewriter.setInsertionPointAfter(insert);
      slice = tensor::ExtractSliceOp::create(
          rewriter, insert.getLoc(), insert.getSourceType(), insert.getResult(),
          insert.getMixedOffsets(), insert.getMixedSizes(),
          insert.getMixedStrides());
    }
    rewriter.setInsertionPointAfterValue(slice);
    Value read = aotc::undoReshapes(rewriter, insert.getLoc(), slice,
                                    ArrayRef(chain).take_back(i));
    rewriter.replaceUsesWithIf(value, read, after);
  }
}

/// A slice of a tensor.empty taken in an scf.forall the empty tensor is
/// outside of (a thread tile's part of a buffer the tiles only write, an
/// im2col tile) becomes an empty tensor of its own there: bufferized, the
/// slice of the shared buffer is written by every thread, so it was computed
/// in a copy; the tile's writes into parts of it (the 96 and 15 columns of
/// a 111-wide im2col row) each in one more buffer, then copied in: two
/// copies of every tile that an empty tensor of the tile's own avoids.
void localizeEmptySlices(RewriterBase &rewriter, Operation *root) {
  SmallVector<tensor::ExtractSliceOp> slices;
  root->walk([&](tensor::ExtractSliceOp slice) {
    auto empty = slice.getSource().getDefiningOp<tensor::EmptyOp>();
    auto forall = slice->getParentOfType<scf::ForallOp>();
    if (empty && forall && !forall->isAncestor(empty) &&
        slice.getType().hasStaticShape())
      slices.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : slices) {
    rewriter.setInsertionPoint(slice);
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
        slice, slice.getType().getShape(), slice.getType().getElementType());
  }
}

struct EliminateReshapedEmptyTensorsPass
    : aotc::impl::EliminateReshapedEmptyTensorsBase<
          EliminateReshapedEmptyTensorsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    localizeEmptySlices(rewriter, getOperation());
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation().walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
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
        root = aotc::computedInto(dest, destReshapes);
      SmallVector<Operation *> reshapes;
      tensor::EmptyOp empty = aotc::emptyComputedIntoSlice(insert, reshapes);
      if (!root || !empty || empty == root || !destReshapes.empty() ||
          !root.getDynamicSizes().empty())
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
      readInsertedSlice(rewriter, insert);
    }
  }
};

} // namespace
