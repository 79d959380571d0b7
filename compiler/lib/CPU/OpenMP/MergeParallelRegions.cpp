//===- MergeParallelRegions.cpp - One fork for adjacent regions -*- C++ -*-===//
//
// This file implements the aotc-merge-parallel-regions pass: parallel
// regions that follow each other become one region whose parts are
// separated by a barrier, so that the threads are forked and joined once for
// all of them; sequential code between them runs on the primary thread. A
// call between them (an extern kernel's) keeps them apart.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/OpenMP/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace aotc {
#define GEN_PASS_DEF_MERGEPARALLELREGIONS
#include "aotc/CPU/OpenMP/Passes.h.inc"
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

/// The parallel region after `region` in its block with the same thread
/// count. The ops between them are collected: side-effect-free ops without
/// regions that use no value the others define (addresses, views,
/// constants) in `pure`, the others (sequential code: a copy's loops, a
/// remainder's contraction) in `sequential`, which must be no OpenMP ops
/// and define no value used after them.
omp::ParallelOp nextRegion(omp::ParallelOp region,
                           SmallVectorImpl<Operation *> &pure,
                           SmallVectorImpl<Operation *> &sequential) {
  pure.clear();
  sequential.clear();
  llvm::SmallPtrSet<Operation *, 16> sequentialSet;
  for (Operation *op = region->getNextNode(); op; op = op->getNextNode()) {
    if (auto next = dyn_cast<omp::ParallelOp>(op)) {
      if (!mergeable(next) || next.getNumThreads() != region.getNumThreads())
        return {};
      // Sequential results are read by sequential ops only.
      Block *block = region->getBlock();
      for (Operation *seq : sequential)
        for (Operation *user : seq->getUsers())
          if (!sequentialSet.contains(block->findAncestorOpInBlock(*user)))
            return {};
      return next;
    }
    // A call (an extern kernel's) runs outside parallel regions: the
    // kernel may use threads of its own, and its status may end the run.
    if (op->hasTrait<OpTrait::IsTerminator>() ||
        isa_and_present<omp::OpenMPDialect>(op->getDialect()) ||
        isa<CallOpInterface>(op))
      return {};
    bool readsSequential = llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && sequentialSet.contains(def);
    });
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
        !readsSequential) {
      pure.push_back(op);
      continue;
    }
    bool nestedOpenMP = false;
    op->walk([&](Operation *nested) {
      nestedOpenMP |= isa_and_present<omp::OpenMPDialect>(nested->getDialect());
    });
    if (nestedOpenMP)
      return {};
    sequential.push_back(op);
    sequentialSet.insert(op);
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
    SmallVector<Operation *> pure, sequential;
    for (Block *block : blocks) {
      for (Operation *op = &block->front(); op; op = op->getNextNode()) {
        auto region = dyn_cast<omp::ParallelOp>(op);
        if (!region || !mergeable(region))
          continue;
        // Each region takes in all those that follow it.
        while (omp::ParallelOp next = nextRegion(region, pure, sequential)) {
          // The pure ops between them read nothing the region writes: they
          // are computed before it.
          for (Operation *hoisted : pure)
            hoisted->moveBefore(region);
          Block &body = region.getRegion().front();
          Block &nextBody = next.getRegion().front();
          b.setInsertionPoint(body.getTerminator());
          omp::BarrierOp::create(b, next.getLoc());
          // Sequential code between them runs on the primary thread, between
          // barriers, instead of between a join and a fork.
          if (!sequential.empty()) {
            auto masked =
                omp::MaskedOp::create(b, sequential.front()->getLoc(),
                                      omp::MaskedOperands{});
            Block *maskedBody = b.createBlock(&masked.getRegion());
            b.setInsertionPointToEnd(maskedBody);
            auto terminator = omp::TerminatorOp::create(b, next.getLoc());
            for (Operation *seq : sequential)
              seq->moveBefore(terminator);
            b.setInsertionPointAfter(masked);
            omp::BarrierOp::create(b, next.getLoc());
          }
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
