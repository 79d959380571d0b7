//===- PlanMemory.cpp - Apply the pool plan to an entry point -*- C++ -*-===//
//
// This file implements the aotc-plan-memory pass: every scratch allocation of
// an entry point becomes a view into one caller-provided pool argument, at the
// offset the planner assigned.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/Common/Passes.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace aotc {
#define GEN_PASS_DEF_PLANMEMORY
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Replaces `alloc` by `buffer` (a stack or pool buffer of its type) and
/// drops its deallocations: the caller owns the pool, the allocation scope
/// frees the stack.
void replaceAlloc(memref::AllocOp alloc, Value buffer) {
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    if (isa<memref::DeallocOp>(user))
      user->erase();
  alloc.replaceAllUsesWith(buffer);
  alloc.erase();
}

/// `alloc` (in the body of `loop`, `bytes` of scratch per tile) as a view of
/// one buffer of slots allocated before the loop, in `entry`, which the pool
/// planner places: one slot per tile, the view's byte shift the tile's
/// linear index times the slot's bytes (marked aotc::kThreadSlotAttrName).
/// aotc-partition-omp-loops, which computes each thread's share of the
/// tiles, shifts it by the thread's number instead, so that each thread
/// reuses one slot, still in cache from its previous tile; a thread that
/// runs any tile has a number below the tile count. False, with `alloc`
/// left, for a loop without static bounds.
bool placeInThreadSlots(memref::AllocOp alloc, scf::ForallOp loop,
                        int64_t bytes, Block &entry) {
  std::optional<SmallVector<aotc::StaticLoopDim>> dims =
      aotc::staticLoopDims(loop);
  Operation *top = entry.findAncestorOpInBlock(*loop);
  if (!dims || !top)
    return false;
  int64_t tiles = 1;
  for (const aotc::StaticLoopDim &dim : *dims)
    tiles *= dim.trips;
  int64_t slotBytes = llvm::alignTo(bytes, aotc::kThreadSlotAlignment);
  Location loc = alloc.getLoc();
  OpBuilder b(top);
  auto slots = memref::AllocOp::create(
      b, loc, MemRefType::get({tiles * slotBytes}, b.getI8Type()),
      b.getI64IntegerAttr(aotc::kThreadSlotAlignment));
  // The tile's linear index over the loop's iteration space.
  b.setInsertionPoint(alloc);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value tile = index(0);
  for (auto [iv, dim] : llvm::zip_equal(loop.getInductionVars(), *dims)) {
    Value position = b.createOrFold<arith::DivUIOp>(
        loc, b.createOrFold<arith::SubIOp>(loc, iv, index(dim.lowerBound)),
        index(dim.step));
    tile = b.createOrFold<arith::AddIOp>(
        loc, b.createOrFold<arith::MulIOp>(loc, tile, index(dim.trips)),
        position);
  }
  Value shift = b.createOrFold<arith::MulIOp>(loc, tile, index(slotBytes));
  auto view = memref::ViewOp::create(b, loc, alloc.getType(), slots, shift,
                                     ValueRange{});
  view->setAttr(aotc::kThreadSlotAttrName, b.getI64IntegerAttr(slotBytes));
  replaceAlloc(alloc, view.getResult());
  return true;
}

/// Scratch buffers allocated in the body of a thread loop (one per thread
/// tile, static): at most aotc::kMaxTileScratchBytes (aotc-distribute-to-
/// forall's im2col columns of a contraction's tile, 27 x 333 f32 = 36 KB
/// for SqueezeNet's stem) become stack allocations, each tile's buffer the
/// same stack memory, still in cache from the previous tile, freed by the
/// loop's allocation scope; larger ones up to aotc::maxThreadSlotBytes
/// (aotc-distribute-to-forall's copy of a run-time right-hand side's panels
/// into each column tile of a GEMM, 768 KiB for 384x3072x768) go to pool
/// slots of the threads (placeInThreadSlots). Others are left to the pool
/// planner, which refuses them.
void placeTileScratch(func::FuncOp func) {
  Block &entry = func.getBody().front();
  func.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    Operation *loop = alloc->getParentOp();
    if (!isa<scf::ForallOp, scf::ParallelOp>(loop) ||
        !type.hasStaticShape() || !type.getLayout().isIdentity())
      return;
    int64_t bytes = type.getNumElements() * aotc::elementBytes(type);
    if (bytes <= aotc::kMaxTileScratchBytes) {
      OpBuilder b(alloc);
      replaceAlloc(alloc, memref::AllocaOp::create(b, alloc.getLoc(), type,
                                                   alloc.getAlignmentAttr()));
      return;
    }
    if (auto forall = dyn_cast<scf::ForallOp>(loop);
        forall && bytes <= aotc::maxThreadSlotBytes(aotc::CpuTarget::of(func)))
      (void)placeInThreadSlots(alloc, forall, bytes, entry);
  });
}

struct PlanMemoryPass : aotc::impl::PlanMemoryBase<PlanMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(aotc::kEntryAttrName) || func.isExternal())
      return;
    if (func->hasAttr(aotc::kPoolAttrName)) {
      func.emitError("the memory plan was already applied");
      return signalPassFailure();
    }
    placeTileScratch(func);
    FailureOr<aotc::BufferLifetimes> lifetimes =
        aotc::computeBufferLifetimes(func);
    if (failed(lifetimes))
      return signalPassFailure();
    aotc::MemoryPlan plan = aotc::planMemory(lifetimes->requests, alignment);
    std::string problem =
        aotc::verifyMemoryPlan(lifetimes->requests, plan, alignment);
    if (!problem.empty()) {
      func.emitError("internal error: invalid memory plan: ") << problem;
      return signalPassFailure();
    }

    // The pool is the last argument: memref<poolBytes x i8>.
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    auto poolType = MemRefType::get({plan.poolBytes}, b.getI8Type());
    unsigned poolIndex = func.getNumArguments();
    if (failed(func.insertArgument(poolIndex, poolType,
                                   b.getDictionaryAttr({b.getNamedAttr(
                                       aotc::kTensorNameAttrName,
                                       b.getStringAttr("pool"))}),
                                   func.getLoc())))
      return signalPassFailure();
    Value pool = func.getArgument(poolIndex);

    SmallVector<Attribute> buffers;
    for (auto [alloc, request, offset] :
         llvm::zip_equal(lifetimes->allocs, lifetimes->requests,
                         plan.offsets)) {
      b.setInsertionPoint(alloc);
      Value byteShift =
          arith::ConstantIndexOp::create(b, alloc.getLoc(), offset);
      auto view = memref::ViewOp::create(b, alloc.getLoc(), alloc.getType(),
                                         pool, byteShift,
                                         alloc.getDynamicSizes());
      // Buffers sized by symbolic dimensions name their slot, for the
      // pool-size function (aotc-outline-pool-bytes).
      if (!alloc.getDynamicSizes().empty())
        view->setAttr(aotc::kSlotAttrName,
                      b.getI64IntegerAttr(buffers.size()));
      replaceAlloc(alloc, view.getResult());
      buffers.push_back(b.getDenseI64ArrayAttr(
          {request.size, offset, request.start, request.end}));
    }
    func->setAttr(
        aotc::kPoolAttrName,
        b.getDictionaryAttr(
            {b.getNamedAttr("alignment", b.getI64IntegerAttr(alignment)),
             b.getNamedAttr("bytes", b.getI64IntegerAttr(plan.poolBytes)),
             b.getNamedAttr("lower_bound",
                            b.getI64IntegerAttr(plan.lowerBound)),
             b.getNamedAttr("buffers", b.getArrayAttr(buffers))}));
  }
};

} // namespace
