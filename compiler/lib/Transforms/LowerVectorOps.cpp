//===- LowerVectorOps.cpp - Progressive vector lowering -------*- C++ -*-===//
//
// This file implements the aotc-lower-vector-ops pass: n-D vector ops
// produced by the vectorizer are lowered, in stages, to the 1-D vector
// arithmetic, loads and stores that map onto machine registers.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_LOWERVECTOROPS
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct LowerVectorOpsPass
    : aotc::impl::LowerVectorOpsBase<LowerVectorOpsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    func::FuncOp func = getOperation();

    // Stage 1: contractions become outer products (one FMA per row of the
    // accumulator), reductions become elementwise ops + 1-D reductions, and
    // leading unit dimensions disappear.
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    // Stage 2: what remains n-D becomes 1-D operations.
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      vector::populateVectorInterleaveLoweringPatterns(patterns);
      vector::populateVectorGatherLoweringPatterns(patterns);
      vector::populateVectorStepLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
