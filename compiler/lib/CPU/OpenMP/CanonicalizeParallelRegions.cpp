//===- CanonicalizeParallelRegions.cpp - Canonicalize by region -*- C++ -*-===//
//
// This file implements the aotc-canonicalize-parallel-regions pass: the
// canonicalizer run on each omp.parallel region as its own scope before the
// whole op, so that rewrites inside a large region do not revisit the
// region's ancestors.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/OpenMP/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_CANONICALIZEPARALLELREGIONS
#include "aotc/CPU/OpenMP/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct CanonicalizeParallelRegionsPass
    : aotc::impl::CanonicalizeParallelRegionsBase<
          CanonicalizeParallelRegionsPass> {
  LogicalResult initialize(MLIRContext *context) override {
    // The canonicalize pass's patterns.
    RewritePatternSet owned(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owned);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owned, context);
    patterns = FrozenRewritePatternSet(std::move(owned));
    return success();
  }

  void runOnOperation() override {
    // The canonicalize pass's configuration (its option defaults).
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal);
    // Outermost regions only: a region's run covers the regions nested in
    // it.
    SmallVector<omp::ParallelOp> regions;
    getOperation()->walk<WalkOrder::PreOrder>([&](omp::ParallelOp parallel) {
      regions.push_back(parallel);
      return WalkResult::skip();
    });
    for (omp::ParallelOp parallel : regions) {
      GreedyRewriteConfig scoped = config;
      scoped.setScope(&parallel.getRegion());
      (void)applyPatternsGreedily(parallel.getRegion(), patterns, scoped);
    }
    (void)applyPatternsGreedily(getOperation(), patterns, config);
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
