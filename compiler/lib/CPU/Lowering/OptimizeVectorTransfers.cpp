//===- OptimizeVectorTransfers.cpp - Register accumulators ----*- C++ -*-===//
//
// This file implements the aotc-optimize-vector-transfers pass: after
// bufferization, loop-invariant vector loads/stores are hoisted out of the
// reduction loops so accumulators stay in registers.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"

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
    // No store-to-load forwarding here (vector::transferOpflowOpt): after
    // memory planning every buffer is a view of the pool, so it compares
    // each transfer with every other one of the function (7 of densenet121's
    // 31 s of lowering) and forwards nothing in the four models, the bench
    // kernels or the e2e programs; LLVM's GVN forwards what it can.
    // Only scf.for loops are touched; verifyNonZeroTrip keeps hoisting sound
    // for loops nested in parallel regions.
    linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/true);
  }
};

} // namespace
