//===- NormalizeContractions.cpp - One loop per kind ----------*- C++ -*-===//
//
// This file implements the aotc-normalize-contractions pass: a static
// contraction whose reduction runs over a real loop and unit ones loses the
// unit ones, and adjacent loops of one kind (reduction, or rows other than
// the lanes) read in the same order by every operand are collapsed into
// one, constant operands reshaped at compile time, so that the packing
// strategy (aotc-select-cpu-packing, aotc-pack-contraction-operands) sees
// one reduction loop and the thread tiles see all rows at once.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Tiling/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace aotc {
#define GEN_PASS_DEF_NORMALIZECONTRACTIONS
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// `contraction`'s operands that are collapse_shapes of constants replaced
/// by reshaped constants (folded at compile time, so that packing
/// sees a constant right-hand side).
void foldCollapsedConstants(RewriterBase &rewriter, Operation *contraction) {
  for (OpOperand &operand : contraction->getOpOperands()) {
    auto collapse = operand.get().getDefiningOp<tensor::CollapseShapeOp>();
    DenseElementsAttr attr;
    if (!collapse ||
        !matchPattern(collapse.getSrc(), m_Constant(&attr)))
      continue;
    rewriter.setInsertionPoint(contraction);
    Value folded = arith::ConstantOp::create(
        rewriter, collapse.getLoc(),
        attr.reshape(cast<ShapedType>(collapse.getResultType())));
    rewriter.modifyOpInPlace(contraction, [&] { operand.set(folded); });
    if (collapse->use_empty())
      rewriter.eraseOp(collapse);
  }
}

/// The non-unit reduction loops of a static contraction generic, or none
/// for any other op.
SmallVector<unsigned> reductionLoops(linalg::GenericOp op,
                                     SmallVectorImpl<unsigned> *unit = nullptr) {
  if (!linalg::isaContractionOpInterface(op) || !op.hasPureTensorSemantics() ||
      op.hasDynamicShape())
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> loops;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    if (ranges[d] != 1)
      loops.push_back(d);
    else if (unit)
      unit->push_back(d);
  }
  return loops;
}

/// A contraction with a unit reduction loop besides its real one (a
/// classifier's [1, 1, C] activations times [N, 1, C] weights, as Flatten +
/// Gemm leave it) loses it, so that it has one reduction loop and its
/// right-hand side can be packed; a constant operand reshaped by that is
/// folded into a reshaped constant.
void dropUnitReductionLoops(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<unsigned> unit;
  SmallVector<unsigned> real = reductionLoops(op, &unit);
  if (unit.empty() || real.empty())
    return;
  linalg::ControlDropUnitDims control;
  control.controlFn = [&](Operation *) { return unit; };
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, op, control);
  if (failed(dropped))
    return;
  rewriter.replaceOp(op, dropped->replacements);
  foldCollapsedConstants(rewriter, dropped->resultOp.getOperation());
}

/// `op` with the adjacent loops `group` collapsed into one when every operand
/// reads them as adjacent dimensions in the same order, its operands
/// reshaped (constants at compile time).
void collapseLoops(RewriterBase &rewriter, linalg::GenericOp op,
                   ArrayRef<unsigned> loops) {
  ReassociationIndices group(loops.begin(), loops.end());
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {group}))
    return;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed = linalg::collapseOpIterationDims(
      cast<linalg::LinalgOp>(op.getOperation()), {group}, rewriter);
  if (failed(collapsed))
    return;
  rewriter.replaceOp(op, collapsed->results);
  foldCollapsedConstants(rewriter, collapsed->collapsedOp.getOperation());
}

/// Whether `loops` (ascending) are adjacent.
bool adjacent(ArrayRef<unsigned> loops) {
  for (size_t i = 1; i < loops.size(); ++i)
    if (loops[i] != loops[i - 1] + 1)
      return false;
  return true;
}

/// A contraction whose reduction runs over several adjacent loops that
/// every operand reads as adjacent dimensions in the same order (attention
/// heads x head width in a transformer's output projection: [64, 4, 64]
/// activations times [256, 4, 64] weights) has them collapsed into one
/// reduction loop, so that its right-hand side is packed into panels like
/// any other's. Left as it was, each register tile's row of 32 output
/// channels was gathered from 32 weight rows at every reduction step, a
/// gather that costs more than the multiply-adds (bert_encoder's output
/// projections).
void collapseReductionLoops(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<unsigned> loops = reductionLoops(op);
  if (loops.size() >= 2 && adjacent(loops))
    collapseLoops(rewriter, op, loops);
}

/// A contraction whose rows run over several adjacent loops (all of the
/// output's loops of one kind, M or N, but its innermost, the lanes) that
/// every operand reads as adjacent dimensions in the same order has them
/// collapsed into one loop: a Linear layer on a channels-last image ([1, 7,
/// 7, 768] activations times [768, 3072] weights, as ConvNeXt's and Swin's
/// MLP blocks leave it) then has 49 rows rather than 7 per image row, so
/// that its thread tiles split the columns and read each column panel of
/// the weights once for the whole image, not once per image row.
void collapseRowLoops(RewriterBase &rewriter, linalg::GenericOp op) {
  // Only ops directly in a function body: one inside a loop (a slice of a
  // symbolic batch, aotc-tile-symbolic-dims) reads slices whose rows may
  // not collapse without a copy in that loop.
  if (!isa<func::FuncOp>(op->getParentOp()) ||
      !linalg::isaContractionOpInterface(op) || !op.hasPureTensorSemantics() ||
      op.hasDynamicShape())
    return;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (failed(dims) || outMap.getNumResults() == 0)
    return;
  auto lane = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!lane)
    return;
  for (ArrayRef<unsigned> kind : {ArrayRef(dims->m), ArrayRef(dims->n)}) {
    SmallVector<unsigned> loops(kind);
    llvm::sort(loops);
    if (loops.size() >= 2 && adjacent(loops) &&
        !llvm::is_contained(loops, lane.getPosition())) {
      collapseLoops(rewriter, op, loops);
      return;
    }
  }
}

struct NormalizeContractionsPass
    : aotc::impl::NormalizeContractionsBase<NormalizeContractionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Each step over the generics the previous one left (they replace the
    // ops they change).
    for (auto step : {dropUnitReductionLoops, collapseReductionLoops,
                      collapseRowLoops}) {
      SmallVector<linalg::GenericOp> generics;
      getOperation().walk(
          [&](linalg::GenericOp op) { generics.push_back(op); });
      for (linalg::GenericOp op : generics)
        step(rewriter, op);
    }
  }
};

} // namespace
