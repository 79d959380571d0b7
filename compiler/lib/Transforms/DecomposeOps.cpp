//===- DecomposeOps.cpp - Decompose aggregate tensor ops ------*- C++ -*-===//
//
// This file implements the aotc-decompose-ops pass: softmax-like aggregated
// linalg ops, tensor.concat and tensor.pad become linalg primitives and
// slices, which the tiling and vectorization stages handle uniformly.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_DECOMPOSEOPS
#include "aotc/Transforms/Passes.h.inc"
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

struct DecomposeOpsPass : aotc::impl::DecomposeOpsBase<DecomposeOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAggregatedOp>(&getContext());
    tensor::populateDecomposeTensorConcatPatterns(patterns);
    linalg::populateDecomposePadPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
