//===- MapToGpu.cpp - Map entry point loops to GPU blocks/threads -*- C++ -*-===//
//
// This file implements the aotc-map-to-gpu pass. On bufferized entry points
// (memrefs, pool planned) every linalg op becomes an scf.parallel nest whose
// parallel dimensions come first; each outermost parallel loop is collapsed
// to one dimension and tiled into blocks of threads, so that consecutive
// threads touch consecutive elements of the innermost dimension (coalesced
// accesses). Memory work that is not a parallel loop runs in a one-thread
// kernel; calls (of extern kernels) stay on the host.
// `convert-parallel-loops-to-gpu` then turns the mapped loops into
// gpu.launch ops.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aotc {
#define GEN_PASS_DEF_MAPTOGPU
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Sets the mapping of a one-dimensional scf.parallel to `processor`.
void mapTo(scf::ParallelOp loop, gpu::Processor processor) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto mapping =
      gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity, identity);
  (void)gpu::setMappingAttr(loop, {mapping});
}

/// Marks every scf.parallel nested in `root` as a sequential loop.
void mapNestedSequential(Operation *root) {
  MLIRContext *ctx = root->getContext();
  root->walk([&](scf::ParallelOp loop) {
    if (loop == root || loop->hasAttr(gpu::getMappingAttrName()))
      return;
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
    SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
        loop.getNumLoops(),
        gpu::ParallelLoopDimMappingAttr::get(ctx, gpu::Processor::Sequential,
                                             identity, identity));
    (void)gpu::setMappingAttr(loop, mapping);
  });
}

struct MapToGpuPass : aotc::impl::MapToGpuBase<MapToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(aotc::kEntryAttrName) || func.isExternal())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitError("entry point with control flow has no GPU lowering");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    if (failed(lowerLinalgToParallelLoops(rewriter, func)))
      return signalPassFailure();
    sinkGlobals(func);
    if (failed(wrapSerialWork(rewriter, func)))
      return signalPassFailure();
    for (auto loop : llvm::to_vector(func.getOps<scf::ParallelOp>()))
      mapParallelLoop(rewriter, loop);
  }

  /// Every linalg op becomes loops, with its parallel dimensions outermost.
  LogicalResult lowerLinalgToParallelLoops(IRRewriter &rewriter,
                                           func::FuncOp func) {
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      SmallVector<unsigned> order;
      for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
        if (type == utils::IteratorType::parallel)
          order.push_back(i);
      for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
        if (type != utils::IteratorType::parallel)
          order.push_back(i);
      if (!llvm::is_sorted(order)) {
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (!generic) {
          FailureOr<linalg::GenericOp> general =
              linalg::generalizeNamedOp(rewriter, op);
          if (failed(general))
            return op->emitError("has no GPU lowering (cannot generalize)");
          generic = *general;
        }
        FailureOr<linalg::GenericOp> interchanged =
            linalg::interchangeGenericOp(rewriter, generic, order);
        if (failed(interchanged))
          return generic->emitError("has no GPU lowering (cannot interchange)");
        op = *interchanged;
      }
      if (failed(linalg::linalgOpToParallelLoops(rewriter, op)))
        return op->emitError("has no GPU lowering (no loop form)");
      rewriter.eraseOp(op);
    }
    return success();
  }

  /// Constants (weights) belong to the device module: each use of a global
  /// inside a loop reads it through its own memref.get_global there, which
  /// kernel outlining copies into the GPU module with the global.
  void sinkGlobals(func::FuncOp func) {
    for (auto get : llvm::to_vector(func.getOps<memref::GetGlobalOp>())) {
      for (OpOperand &use : llvm::make_early_inc_range(get->getUses())) {
        Operation *owner = use.getOwner();
        if (owner->getBlock() == get->getBlock())
          continue;
        Operation *top = owner;
        while (top->getBlock() != get->getBlock())
          top = top->getParentOp();
        Block &body = top->getRegion(0).front();
        OpBuilder b(&body, body.begin());
        use.set(b.clone(*get)->getResult(0));
      }
      if (get->use_empty())
        get->erase();
    }
  }

  /// Runs of host-level ops that touch memory outside a parallel loop (a
  /// full reduction, a rank-0 store) move, with the pure ops between them,
  /// into a one-iteration parallel loop: a kernel with one thread.
  LogicalResult wrapSerialWork(IRRewriter &rewriter, func::FuncOp func) {
    Block &body = func.getBody().front();
    // Each run: from its first to its last memory-touching op.
    SmallVector<SmallVector<Operation *>> runs(1);
    SmallVector<Operation *> pending;
    for (Operation &op : body) {
      // Loops and kernels built earlier (aotc-tile-gpu-contractions) end a
      // run, and so do calls: extern kernels, host functions that enqueue
      // their own work on the stream.
      if (isa<scf::ParallelOp, gpu::LaunchOp, func::CallOp>(op) ||
          op.hasTrait<OpTrait::IsTerminator>()) {
        pending.clear();
        if (!runs.back().empty())
          runs.emplace_back();
        continue;
      }
      if (isMemoryEffectFree(&op) && op.getNumRegions() == 0) {
        if (!runs.back().empty())
          pending.push_back(&op);
        continue;
      }
      llvm::append_range(runs.back(), pending);
      pending.clear();
      runs.back().push_back(&op);
    }
    for (ArrayRef<Operation *> run : runs) {
      if (run.empty())
        continue;
      Location loc = run.front()->getLoc();
      rewriter.setInsertionPoint(run.front());
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
      Operation *terminator = loop.getBody()->getTerminator();
      for (Operation *op : run)
        op->moveBefore(terminator);
      // Pure values the host still needs are recomputed there.
      for (Operation *op : run) {
        bool usedOutside = llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !loop->isProperAncestor(user);
        });
        if (!usedOutside)
          continue;
        bool hoistable =
            isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
            llvm::none_of(op->getOperands(), [&](Value v) {
              return loop->isAncestor(v.getParentRegion()->getParentOp());
            });
        if (!hoistable)
          return op->emitError("has no GPU lowering: its result is used "
                               "outside the kernel it runs in");
        rewriter.setInsertionPoint(loop);
        Operation *copy = rewriter.clone(*op);
        op->replaceUsesWithIf(copy, [&](OpOperand &use) {
          return !loop->isProperAncestor(use.getOwner());
        });
      }
      mapTo(loop, gpu::Processor::BlockX);
      mapNestedSequential(loop);
    }
    return success();
  }

  /// One dimension of blocks of threads over all parallel iterations.
  void mapParallelLoop(IRRewriter &rewriter, scf::ParallelOp loop) {
    if (loop->hasAttr(gpu::getMappingAttrName()))
      return;
    if (loop.getNumLoops() > 1) {
      Operation *next = loop->getNextNode();
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0u);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
      loop = cast<scf::ParallelOp>(next->getPrevNode());
    }
    // Fewer threads than the block size when there is little work, rounded
    // to whole warps.
    int64_t threads = blockSize;
    std::optional<int64_t> trips = constantTripCount(loop);
    if (trips && *trips < threads)
      threads = std::max<int64_t>(32, llvm::alignTo(*trips, 32));
    auto [outer, inner] =
        scf::tileParallelLoop(loop, {threads}, /*noMinMaxBounds=*/true);
    mapTo(outer, gpu::Processor::BlockX);
    mapTo(inner, gpu::Processor::ThreadX);
    mapNestedSequential(outer);
  }

  static std::optional<int64_t> constantTripCount(scf::ParallelOp loop) {
    std::optional<int64_t> lb =
        getConstantIntValue(loop.getLowerBound().front());
    std::optional<int64_t> ub =
        getConstantIntValue(loop.getUpperBound().front());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep().front());
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    return llvm::divideCeil(*ub - *lb, *step);
  }
};

} // namespace
