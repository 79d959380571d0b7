//===- SplitRowReductions.cpp - Vector accumulators for rows --*- C++ -*-===//
//
// This file implements the aotc-split-row-reductions pass: a reduction over
// the innermost (contiguous) dimension is split into a partial reduction
// into one register of accumulators per row, and a final reduction of that
// register, so that the reduction loop carries a vector, not a scalar.
// Trailing reduction loops that read one contiguous range (a global average
// pool's 13 x 13 image) are one reduction loop first; a row that is not a
// whole number of registers reduces its last part register after the split
// bulk.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_SPLITROWREDUCTIONS
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Lanes of one vector register for `op`'s widest element type; 0 for
/// element types other than integers (but i1) and floats.
int64_t widestTypeLanes(linalg::LinalgOp op, int64_t vectorBits) {
  unsigned bits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = getElementTypeOrSelf(operand.get().getType());
    if (!t.isIntOrFloat() || t.isInteger(1))
      return 0;
    bits = std::max(bits, t.getIntOrFloatBitWidth());
  }
  return bits ? vectorBits / bits : 0;
}

/// Lanes of one vector register for `op`'s widest element type; 0 when the
/// op is not a row reduction this pass splits (nor one whose body reads a
/// loop index: linalg::splitReduction keeps the body as it is, so the index
/// of the split loop would name the wrong loop): one output, every loop
/// parallel but the innermost, which is a reduction over at least two whole
/// registers, read contiguously (the reduction loop is, where an input uses
/// it, that input's innermost index), and not a contraction (those take the
/// matmul path of aotc-tile-and-vectorize).
int64_t rowReductionLanes(linalg::LinalgOp op, int64_t vectorBits) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      op.getNumLoops() < 1 || op.hasIndexSemantics())
    return 0;
  unsigned last = op.getNumLoops() - 1;
  if (op.getIteratorTypesArray()[last] != utils::IteratorType::reduction)
    return 0;
  if (aotc::contractionTileDims(op) || linalg::isaContractionOpInterface(op))
    return 0;
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation();
      }))
    return 0;
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
  int64_t lanes = widestTypeLanes(op, vectorBits);
  int64_t range = op.getStaticLoopRanges()[last];
  if (lanes < 2 || range / lanes < 2)
    return 0;
  return lanes;
}

/// `op` with its trailing reduction loops collapsed into one when they are
/// at least two, every reduction loop is one of them, every input that
/// reads them reads them as its innermost indices in loop order (one
/// contiguous range: a global average pool's [..., 13, 13] image is 169
/// elements), together they span two registers at least (a row this pass
/// then splits), `op` is not a contraction and reads no loop index (which
/// the split could not carry); `op` itself otherwise.
linalg::LinalgOp collapseTrailingReductions(RewriterBase &rewriter,
                                            linalg::LinalgOp op,
                                            int64_t vectorBits) {
  if (!isa<linalg::GenericOp>(op.getOperation()) ||
      !op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || aotc::contractionTileDims(op) ||
      linalg::isaContractionOpInterface(op) || op.hasIndexSemantics())
    return op;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned loops = op.getNumLoops();
  unsigned first = loops;
  while (first > 0 && iterators[first - 1] == utils::IteratorType::reduction)
    --first;
  int64_t lanes = widestTypeLanes(op, vectorBits);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t elements = 1;
  for (unsigned d = first; d < loops; ++d)
    elements *= ranges[d];
  if (loops - first < 2 || op.getNumReductionLoops() != loops - first ||
      lanes < 2 || elements / lanes < 2)
    return op;
  // Upstream's collapse and split take maps of loop indices only (not a
  // broadcast written as a constant index, `(d0, d1) -> (0)`).
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation();
      }))
    return op;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    unsigned n = map.getNumResults();
    bool reads = llvm::any_of(llvm::seq(first, loops), [&](unsigned d) {
      return map.isFunctionOfDim(d);
    });
    if (!reads)
      continue;
    if (n < loops - first)
      return op;
    for (unsigned i = 0; i < n; ++i) {
      bool trailing = i >= n - (loops - first);
      AffineExpr result = map.getResult(i);
      if (trailing
              ? result != getAffineDimExpr(first + i - (n - (loops - first)),
                                           op.getContext())
              : llvm::any_of(llvm::seq(first, loops), [&](unsigned d) {
                  return result.isFunctionOfDim(d);
                }))
        return op;
    }
  }
  ReassociationIndices trailing =
      llvm::to_vector(llvm::seq<int64_t>(first, static_cast<int64_t>(loops)));
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {trailing}, rewriter);
  if (failed(collapsed))
    return op;
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

struct SplitRowReductionsPass
    : aotc::impl::SplitRowReductionsBase<SplitRowReductionsPass> {
  using Base::Base;

  /// The vector register width: the option when set, else the module's
  /// CpuTarget's.
  int64_t vectorBits = 0;

  void runOnOperation() override {
    vectorBits = aotc::vectorBitsOf(getOperation(), vectorBitsOption);
    // Only ops directly in the function body: the partial results must be
    // function-level buffers (the pool planner rejects allocations inside
    // loops, such as those of aotc-tile-symbolic-dims).
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> candidates;
    for (Operation &op :
         llvm::make_early_inc_range(getOperation().getBody().getOps()))
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op)) {
        linalg::LinalgOp collapsed =
            collapseTrailingReductions(rewriter, linalgOp, vectorBits);
        if (rowReductionLanes(collapsed, vectorBits) > 0)
          candidates.push_back(collapsed);
      }

    for (linalg::LinalgOp op : candidates) {
      int64_t lanes = rowReductionLanes(op, vectorBits);
      // A row that is not a whole number of registers: the bulk is split,
      // the last part register reduces into its result (169 = 160 + 9).
      unsigned last = op.getNumLoops() - 1;
      int64_t range = op.getStaticLoopRanges()[last];
      if (range % lanes != 0) {
        rewriter.setInsertionPoint(op);
        auto [bulk, rest] =
            linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()),
                            last, rewriter.getIndexAttr(range / lanes * lanes));
        op = cast<linalg::LinalgOp>(bulk.getOperation());
      }
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
