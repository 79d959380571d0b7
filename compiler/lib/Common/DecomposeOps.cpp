//===- DecomposeOps.cpp - Decompose aggregate tensor ops ------*- C++ -*-===//
//
// This file implements the aotc-decompose-ops pass: softmax-like aggregated
// linalg ops, tensor.concat and tensor.pad become linalg primitives and
// slices, which the tiling and vectorization stages handle uniformly.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_DECOMPOSEOPS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Replaces an op implementing AggregatedOpInterface (e.g. linalg.softmax) by
/// its decomposition.
struct DecomposeAggregatedOp
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> replacements =
        op.decomposeOperation(rewriter);
    if (failed(replacements))
      return rewriter.notifyMatchFailure(op, "cannot be decomposed");
    rewriter.replaceOp(op, *replacements);
    return success();
  }
};

/// Rewrites an all-parallel named linalg op (linalg.add, linalg.broadcast,
/// linalg.transpose, ...) as a linalg.generic, so elementwise fusion can merge
/// it with its producers and consumers. Fills stay named: destinations are
/// recognized by them.
struct GeneralizeParallelNamedOp
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::GenericOp, linalg::FillOp>(op) ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.hasPureTensorSemantics())
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

struct DecomposeOpsPass : aotc::impl::DecomposeOpsBase<DecomposeOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAggregatedOp, GeneralizeParallelNamedOp>(
        &getContext());
    tensor::populateDecomposeTensorConcatPatterns(patterns);
    linalg::populateDecomposePadPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
