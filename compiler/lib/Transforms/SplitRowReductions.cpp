//===- SplitRowReductions.cpp - Vector accumulators for rows --*- C++ -*-===//
//
// This file implements the aotc-split-row-reductions pass: a reduction over
// the innermost (contiguous) dimension is split into a partial reduction
// into one register of accumulators per row, and a final reduction of that
// register, so that the reduction loop carries a vector, not a scalar.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_SPLITROWREDUCTIONS
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Lanes of one vector register for `op`'s widest element type; 0 when the
/// op is not a row reduction this pass splits: one output, every loop
/// parallel but the innermost, which is a reduction over at least two whole
/// registers, read contiguously (the reduction loop is, where an input uses
/// it, that input's innermost index), and not a contraction (those take the
/// matmul path of aotc-tile-and-vectorize).
int64_t rowReductionLanes(linalg::LinalgOp op, int64_t vectorBits) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      op.getNumLoops() < 1)
    return 0;
  unsigned last = op.getNumLoops() - 1;
  if (op.getIteratorTypesArray()[last] != utils::IteratorType::reduction)
    return 0;
  if (aotc::contractionTileDims(op) || linalg::isaContractionOpInterface(op))
    return 0;
  unsigned bits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = getElementTypeOrSelf(operand.get().getType());
    if (!t.isIntOrFloat() || t.isInteger(1))
      return 0;
    bits = std::max(bits, t.getIntOrFloatBitWidth());
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [i, result] : llvm::enumerate(map.getResults())) {
      if (!result.isFunctionOfDim(last))
        continue;
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim || i + 1 != map.getNumResults())
        return 0;
    }
  }
  int64_t lanes = vectorBits / bits;
  int64_t range = op.getStaticLoopRanges()[last];
  if (lanes < 2 || range % lanes != 0 || range / lanes < 2)
    return 0;
  return lanes;
}

struct SplitRowReductionsPass
    : aotc::impl::SplitRowReductionsBase<SplitRowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Only ops directly in the function body: the partial results must be
    // function-level buffers (the pool planner rejects allocations inside
    // loops, such as those of aotc-tile-symbolic-dims).
    SmallVector<linalg::LinalgOp> candidates;
    for (Operation &op : getOperation().getBody().getOps())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
        if (rowReductionLanes(linalgOp, vectorBits) > 0)
          candidates.push_back(linalgOp);

    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      int64_t lanes = rowReductionLanes(op, vectorBits);
      // Split the reduction loop k into (k / lanes) x lanes with the inner
      // part parallel: a partial result of `lanes` per output element,
      // inserted after the output's own dimensions.
      int64_t outputRank =
          op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getNumResults();
      auto control = [&](linalg::LinalgOp) {
        linalg::SplitReductionOptions options;
        options.ratio = lanes;
        options.index = static_cast<unsigned>(outputRank);
        options.innerParallel = true;
        return options;
      };
      rewriter.setInsertionPoint(op);
      // Reductions without a recognised combiner or neutral element are
      // left as they are (nothing is created then).
      (void)linalg::splitReduction(rewriter, op, control);
    }
  }
};

} // namespace
