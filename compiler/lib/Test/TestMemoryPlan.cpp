//===- TestMemoryPlan.cpp - Print memory plans for FileCheck ---*- C++ -*-===//
//
// This file implements the test-only aotc-test-memory-plan pass, which
// prints the analysis result without changing the IR.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/Test/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace aotc {
#define GEN_PASS_DEF_TESTMEMORYPLAN
#include "aotc/Test/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct TestMemoryPlanPass
    : aotc::impl::TestMemoryPlanBase<TestMemoryPlanPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    FailureOr<aotc::BufferLifetimes> lifetimes =
        aotc::computeBufferLifetimes(func);
    if (failed(lifetimes))
      return signalPassFailure();
    aotc::MemoryPlan plan = aotc::planMemory(lifetimes->requests);
    llvm::outs() << "memory plan @" << func.getSymName() << "\n";
    for (auto [request, offset] :
         llvm::zip_equal(lifetimes->requests, plan.offsets))
      llvm::outs() << "  buffer size=" << request.size << " offset=" << offset
                   << " live=[" << request.start << ", " << request.end
                   << "]\n";
    llvm::outs() << "  pool=" << plan.poolBytes
                 << " lower_bound=" << plan.lowerBound << "\n";
  }
};

} // namespace
