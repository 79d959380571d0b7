//===- PartitionOmpLoops.cpp - Static thread ranges in the region -*- C++ -*-===//
//
// This file implements the aotc-partition-omp-loops pass: each thread of a
// parallel region computes its own contiguous share of a worksharing loop's
// iterations from its thread number, instead of asking the OpenMP runtime
// (__kmpc_for_static_init / __kmpc_for_static_fini) for the same bounds.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/OpenMP/OpenMPUtils.h"
#include "aotc/CPU/OpenMP/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace aotc {
#define GEN_PASS_DEF_PARTITIONOMPLOOPS
#include "aotc/CPU/OpenMP/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The loop nest of `loop` when this pass can take it over: a worksharing
/// loop directly in a parallel region, with no clause but nowait (no
/// reduction, private copy, schedule, order or linear variable), over one
/// single-block loop nest of `index` induction variables (as
/// convert-scf-to-openmp makes them) with exclusive upper bounds.
omp::LoopNestOp partitionableNest(omp::WsloopOp loop) {
  if (!isa<omp::ParallelOp>(loop->getParentOp()) ||
      !loop.getReductionVars().empty() || !loop.getPrivateVars().empty() ||
      !loop.getLinearVars().empty() || loop.getScheduleKind() ||
      loop.getOrdered() || loop.getOrder())
    return {};
  auto nest = dyn_cast<omp::LoopNestOp>(loop.getWrappedLoop());
  if (!nest || nest.getLoopInclusive() || !nest.getRegion().hasOneBlock() ||
      !llvm::all_of(nest.getIVs(), [](Value iv) {
        return iv.getType().isIndex();
      }))
    return {};
  return nest;
}

/// `loop` replaced by a sequential loop over this thread's share of its
/// iterations: the nest's iteration space linearized (row-major), cut into
/// as many contiguous ranges as there are threads, sizes differing by at
/// most one (the first `total % threads` threads take one more, as libomp's
/// static schedule does), each iteration's indices recovered from its
/// linear number. A loop without nowait keeps its barrier.
void partition(omp::WsloopOp loop, omp::LoopNestOp nest,
               func::FuncOp threadNum, func::FuncOp numThreads) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = index(0), one = index(1);
  SmallVector<Value> trips;
  Value total = one;
  for (auto [lb, ub, step] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps())) {
    // ceil(max(ub - lb, 0) / step); steps are positive.
    Value span = b.createOrFold<arith::MaxSIOp>(
        loc, b.createOrFold<arith::SubIOp>(loc, ub, lb), zero);
    Value rounded = b.createOrFold<arith::AddIOp>(
        loc, span, b.createOrFold<arith::SubIOp>(loc, step, one));
    Value trip = b.createOrFold<arith::DivUIOp>(loc, rounded, step);
    trips.push_back(trip);
    total = b.createOrFold<arith::MulIOp>(loc, total, trip);
  }
  auto threadValue = [&](func::FuncOp getter) -> Value {
    Value v = func::CallOp::create(b, loc, getter).getResult(0);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  };
  Value thread = threadValue(threadNum);
  Value threads = threadValue(numThreads);
  // Thread tiles' scratch in pool slots (aotc-plan-memory): the thread's
  // slot, the same for all its iterations, instead of the iteration's. A
  // thread with any iteration has a number below the iteration count, so
  // only where the slots cover that count (else the iteration's stays).
  std::optional<int64_t> iterations = getConstantIntValue(total);
  nest.walk([&](memref::ViewOp view) {
    auto bytes = view->getAttrOfType<IntegerAttr>(aotc::kThreadSlotAttrName);
    if (!bytes)
      return;
    view->removeAttr(aotc::kThreadSlotAttrName);
    MemRefType slots = view.getSource().getType();
    if (!iterations || !slots.hasStaticShape() ||
        slots.getNumElements() < *iterations * bytes.getInt())
      return;
    Value shift =
        arith::MulIOp::create(b, loc, thread, index(bytes.getInt()));
    view.getByteShiftMutable().assign(shift);
  });
  Value share = b.createOrFold<arith::DivUIOp>(loc, total, threads);
  Value rest = b.createOrFold<arith::RemUIOp>(loc, total, threads);
  Value first = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, thread, share),
      arith::MinUIOp::create(b, loc, thread, rest));
  Value longer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       thread, rest);
  Value end = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, first, share),
      arith::SelectOp::create(b, loc, longer, one, zero));
  auto forOp = scf::ForOp::create(b, loc, first, end, one);

  b.setInsertionPointToStart(forOp.getBody());
  Block &body = nest.getRegion().front();
  Value linear = forOp.getInductionVar();
  unsigned n = trips.size();
  for (unsigned d = n; d-- > 0;) {
    Value position = linear;
    if (d > 0) {
      position = arith::RemUIOp::create(b, loc, linear, trips[d]);
      linear = arith::DivUIOp::create(b, loc, linear, trips[d]);
    }
    Value iv = arith::AddIOp::create(
        b, loc, nest.getLoopLowerBounds()[d],
        arith::MulIOp::create(b, loc, position, nest.getLoopSteps()[d]));
    body.getArgument(d).replaceAllUsesWith(iv);
  }
  // The body, but for its omp.yield, runs in the loop, inside an
  // scf.execute_region: lowering its memref.alloca_scope (convert-scf-to-
  // openmp's, freeing each iteration's stack buffers) splits the enclosing
  // region into blocks, which an scf.for body cannot hold but an
  // execute_region can.
  auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
  Block *inner = b.createBlock(&region.getRegion());
  inner->getOperations().splice(inner->end(), body.getOperations(),
                                body.begin(), std::prev(body.end()));
  b.setInsertionPointToEnd(inner);
  scf::YieldOp::create(b, loc);
  if (!loop.getNowait()) {
    b.setInsertionPoint(loop);
    omp::BarrierOp::create(b, loc);
  }
  loop.erase();
}

struct PartitionOmpLoopsPass
    : aotc::impl::PartitionOmpLoopsBase<PartitionOmpLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<omp::WsloopOp, omp::LoopNestOp>> loops;
    module.walk([&](omp::WsloopOp loop) {
      if (omp::LoopNestOp nest = partitionableNest(loop))
        loops.emplace_back(loop, nest);
    });
    if (loops.empty())
      return;
    func::FuncOp threadNum =
        aotc::ompQueryFunction(module, "omp_get_thread_num");
    func::FuncOp numThreads =
        aotc::ompQueryFunction(module, "omp_get_num_threads");
    for (auto [loop, nest] : loops)
      partition(loop, nest, threadNum, numThreads);
  }
};

} // namespace
