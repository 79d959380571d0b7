//===- MergeParallelRegions.cpp - One fork for adjacent regions -*- C++ -*-===//
//
// This file implements the aotc-merge-parallel-regions pass: parallel
// regions that follow each other, with nothing but side-effect-free ops
// between them, become one region whose parts are separated by a barrier,
// so that the threads are forked and joined once for all of them.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace aotc {
#define GEN_PASS_DEF_MERGEPARALLELREGIONS
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Whether `region` can take in the next one: a parallel region with no
/// clause but its thread count, whose body is one block ending in its
/// terminator.
bool mergeable(omp::ParallelOp region) {
  return region.getIfExpr() == nullptr && !region.getProcBindKind() &&
         region.getPrivateVars().empty() && region.getReductionVars().empty() &&
         region.getAllocateVars().empty() && region.getRegion().hasOneBlock();
}

/// The parallel region after `region` in its block when only
/// side-effect-free ops without regions stand between them (addresses,
/// views, constants), and both have the same thread count; those ops are
/// collected in `between`.
omp::ParallelOp nextRegion(omp::ParallelOp region,
                           SmallVectorImpl<Operation *> &between) {
  between.clear();
  for (Operation *op = region->getNextNode(); op; op = op->getNextNode()) {
    if (auto next = dyn_cast<omp::ParallelOp>(op)) {
      if (!mergeable(next) || next.getNumThreads() != region.getNumThreads())
        return {};
      return next;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return {};
    between.push_back(op);
  }
  return {};
}

struct MergeParallelRegionsPass
    : aotc::impl::MergeParallelRegionsBase<MergeParallelRegionsPass> {
  void runOnOperation() override {
    llvm::SetVector<Block *> blocks;
    getOperation().walk([&](omp::ParallelOp region) {
      if (!region->getParentOfType<omp::ParallelOp>())
        blocks.insert(region->getBlock());
    });
    OpBuilder b(&getContext());
    SmallVector<Operation *> between;
    for (Block *block : blocks) {
      for (Operation *op = &block->front(); op; op = op->getNextNode()) {
        auto region = dyn_cast<omp::ParallelOp>(op);
        if (!region || !mergeable(region))
          continue;
        // Each region takes in all those that follow it.
        while (omp::ParallelOp next = nextRegion(region, between)) {
          // The ops between them read nothing the region writes: they are
          // computed before it.
          for (Operation *pure : between)
            pure->moveBefore(region);
          Block &body = region.getRegion().front();
          Block &nextBody = next.getRegion().front();
          b.setInsertionPoint(body.getTerminator());
          omp::BarrierOp::create(b, next.getLoc());
          body.getOperations().splice(body.getTerminator()->getIterator(),
                                      nextBody.getOperations(),
                                      nextBody.begin(),
                                      std::prev(nextBody.end()));
          next.erase();
        }
      }
    }
  }
};

} // namespace
