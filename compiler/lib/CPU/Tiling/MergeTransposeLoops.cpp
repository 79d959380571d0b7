//===- MergeTransposeLoops.cpp - Transposes over merged loops -*- C++ -*-===//
//
// This file implements the aotc-merge-transpose-loops pass: a transpose
// whose adjacent loops every operand reads as adjacent dimensions in the
// same order has the groups of them that hold its innermost or a
// transposed loop collapsed into one loop, so that its register tiles are
// whole squares of lanes.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aotc {
#define GEN_PASS_DEF_MERGETRANSPOSELOOPS
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// `v` through the reshapes that produced it.
Value reshapeSource(Value v) {
  while (true) {
    if (auto expand = v.getDefiningOp<tensor::ExpandShapeOp>())
      v = expand.getSrc();
    else if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>())
      v = collapse.getSrc();
    else
      return v;
  }
}

/// Whether `v` is a whole buffer of its own once bufferized (a function
/// argument, a constant, a fresh tensor, an op's result computed into one
/// (aotc::computedInto), through reshapes, or such a tensor with slices
/// inserted: the parts of a peeled window op): any of its dimensions
/// collapse in place. A slice does not, nor does an op's result computed
/// in a slice of a larger tensor (a concat grown in place).
bool isWholeBuffer(Value v) {
  v = reshapeSource(v);
  if (auto insert = v.getDefiningOp<tensor::InsertSliceOp>())
    return isWholeBuffer(insert.getDest());
  if (isa<BlockArgument>(v))
    return isa<func::FuncOp>(v.getParentBlock()->getParentOp());
  Operation *def = v.getDefiningOp();
  if (isa<linalg::LinalgOp>(def)) {
    SmallVector<Operation *> reshapes;
    return static_cast<bool>(aotc::computedInto(v, reshapes));
  }
  return isa<tensor::EmptyOp, tensor::PadOp, arith::ConstantOp>(def);
}

/// Whether `v` (through reshapes) is inserted into a larger tensor, whose
/// slice it would then be computed in.
bool isInserted(Value v) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<tensor::InsertSliceOp>(user) ||
        (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
         isInserted(user->getResult(0))))
      return true;
  }
  return false;
}

/// The groups of adjacent loops of `op` that every operand reads as
/// adjacent dimensions in the same order, each holding the innermost or a
/// transposed loop and at least two non-unit loops; none when `op` is not
/// a static transpose (all loops parallel, an input read through a
/// permutation) of whole buffers in a function body.
SmallVector<ReassociationIndices> mergeableGroups(linalg::LinalgOp op) {
  if (!isa<func::FuncOp>(op->getParentOp()) || !op.hasPureTensorSemantics() ||
      op.hasDynamicShape() || op->getNumResults() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      aotc::transposedInputLoops(op).empty() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }) ||
      !llvm::all_of(op->getOperands(), isWholeBuffer) ||
      isInserted(op->getResult(0)))
    return {};
  SmallVector<unsigned> wanted = aotc::transposedInputLoops(op);
  wanted.push_back(op.getNumLoops() - 1);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<ReassociationIndices> groups;
  for (unsigned first = 0, n = op.getNumLoops(); first < n;) {
    ReassociationIndices group = {static_cast<int64_t>(first)};
    while (group.back() + 1 < n) {
      ReassociationIndices longer = group;
      longer.push_back(group.back() + 1);
      if (!linalg::areDimSequencesPreserved(maps, {longer}))
        break;
      group = std::move(longer);
    }
    first = group.back() + 1;
    bool holdsWanted = llvm::any_of(group, [&](int64_t d) {
      return llvm::is_contained(wanted, static_cast<unsigned>(d));
    });
    int64_t nonUnit =
        llvm::count_if(group, [&](int64_t d) { return ranges[d] != 1; });
    if (group.size() > 1 && holdsWanted && nonUnit >= 2)
      groups.push_back(std::move(group));
  }
  return groups;
}

struct MergeTransposeLoopsPass
    : aotc::impl::MergeTransposeLoopsBase<MergeTransposeLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      SmallVector<ReassociationIndices> groups = mergeableGroups(op);
      if (groups.empty())
        continue;
      rewriter.setInsertionPoint(op);
      // collapseOpIterationDims takes generics (and copies).
      if (!isa<linalg::GenericOp>(op.getOperation())) {
        FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(
            rewriter, cast<linalg::LinalgOp>(op.getOperation()));
        if (failed(generic))
          continue;
        op = cast<linalg::LinalgOp>(generic->getOperation());
      }
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, groups, rewriter);
      if (succeeded(collapsed))
        rewriter.replaceOp(op, collapsed->results);
    }
  }
};

} // namespace
