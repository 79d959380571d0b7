//===- OptimizeVectorTransfers.cpp - Register accumulators ----*- C++ -*-===//
//
// This file implements the aotc-optimize-vector-transfers pass: after
// bufferization, loop-invariant vector loads/stores are hoisted out of the
// reduction loops so accumulators stay in registers.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"

namespace aotc {
#define GEN_PASS_DEF_OPTIMIZEVECTORTRANSFERS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct OptimizeVectorTransfersPass
    : aotc::impl::OptimizeVectorTransfersBase<OptimizeVectorTransfersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    // Store-to-load forwarding and dead store removal first: they expose
    // the read/write pairs that hoisting moves.
    vector::transferOpflowOpt(rewriter, func);
    // Only scf.for loops are touched; verifyNonZeroTrip keeps hoisting sound
    // for loops nested in parallel regions.
    linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/true);
  }
};

} // namespace
