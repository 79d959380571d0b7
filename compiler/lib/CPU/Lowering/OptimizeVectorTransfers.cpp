//===- OptimizeVectorTransfers.cpp - Register accumulators ----*- C++ -*-===//
//
// This file implements the aotc-optimize-vector-transfers pass: after
// bufferization, loop-invariant vector loads/stores are hoisted out of the
// reduction loops so accumulators stay in registers, and a vector load of a
// scalar buffer reshaped to rank 1 or more reads the scalar.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_OPTIMIZEVECTORTRANSFERS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// `vector.load (memref.expand_shape %scalar)` (a 0-d buffer seen as
/// [1, ...]) as a load of the scalar and a broadcast: fold-memref-alias-ops
/// would fold the reshape into a vector.load of the 0-d buffer, which does
/// not verify.
struct LoadOfExpandedScalar : OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::LoadOp load,
                                PatternRewriter &rewriter) const override {
    auto expand = load.getBase().getDefiningOp<memref::ExpandShapeOp>();
    if (!expand || expand.getSrcType().getRank() != 0)
      return failure();
    Value scalar = memref::LoadOp::create(rewriter, load.getLoc(),
                                          expand.getSrc(), ValueRange{});
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(load, load.getVectorType(),
                                                     scalar);
    return success();
  }
};

struct OptimizeVectorTransfersPass
    : aotc::impl::OptimizeVectorTransfersBase<OptimizeVectorTransfersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // No store-to-load forwarding here (vector::transferOpflowOpt): after
    // memory planning every buffer is a view of the pool, so it compares
    // each transfer with every other one of the function (7 of densenet121's
    // 31 s of lowering) and forwards nothing in the four models, the bench
    // kernels or the e2e programs; LLVM's GVN forwards what it can.
    // Only scf.for loops are touched; verifyNonZeroTrip keeps hoisting sound
    // for loops nested in parallel regions.
    linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/true);
    SmallVector<Operation *> loads;
    func.walk([&](vector::LoadOp load) {
      if (auto expand = load.getBase().getDefiningOp<memref::ExpandShapeOp>())
        if (expand.getSrcType().getRank() == 0)
          loads.push_back(load);
    });
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadOfExpandedScalar>(&getContext());
    if (!loads.empty() &&
        failed(applyOpPatternsGreedily(loads, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
