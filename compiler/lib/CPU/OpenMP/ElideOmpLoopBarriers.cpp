//===- ElideOmpLoopBarriers.cpp - One barrier per parallel region -*- C++ -*-===//
//
// This file implements the aotc-elide-omp-loop-barriers pass: a worksharing
// loop that ends its parallel region skips its own barrier (nowait), since
// the region's end is a barrier too.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/OpenMP/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace aotc {
#define GEN_PASS_DEF_ELIDEOMPLOOPBARRIERS
#include "aotc/CPU/OpenMP/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct ElideOmpLoopBarriersPass
    : aotc::impl::ElideOmpLoopBarriersBase<ElideOmpLoopBarriersPass> {
  void runOnOperation() override {
    getOperation().walk([](omp::WsloopOp loop) {
      // Reductions keep their barrier: their result is read after it.
      if (!isa<omp::ParallelOp>(loop->getParentOp()) ||
          !loop.getReductionVars().empty())
        return;
      if (isa<omp::TerminatorOp>(loop->getNextNode()))
        loop.setNowait(true);
    });
  }
};

} // namespace
