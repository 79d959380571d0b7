//===- PartitionOmpLoops.cpp - Thread ranges of worksharing loops -*- C++ -*-===//
//
// This file implements the aotc-partition-omp-loops pass: each thread of a
// parallel region computes its own contiguous share of a worksharing loop's
// iterations from its thread number, instead of asking the OpenMP runtime
// (__kmpc_for_static_init / __kmpc_for_static_fini) for the same bounds;
// the last part of each share is claimed at run time by whichever thread is
// free.
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
#include "mlir/IR/Matchers.h"

namespace aotc {
#define GEN_PASS_DEF_PARTITIONOMPLOOPS
#include "aotc/CPU/OpenMP/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Threads that take part in dynamic tails: the claim counters are a stack
/// array of one 64-byte line per thread (16 KiB for 256 threads).
constexpr int64_t kMaxDynamicThreads = 256;
/// i64 counters per 64-byte line: each thread's counter on a line of its
/// own, so that claims on one do not move the others' lines.
constexpr int64_t kCounterStride = 8;
/// Tails a thread claims from, its own first: enough to even out a slow
/// thread; each one costs every thread one failed claim per loop.
constexpr int64_t kTailsVisited = 4;

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

/// Whether a barrier follows `loop`: its own, or the end of its region.
/// The claims of a dynamic tail must all be made before those of the next
/// loop, which reuses the counters.
bool barrierFollows(omp::WsloopOp loop) {
  return !loop.getNowait() || isa<omp::TerminatorOp>(loop->getNextNode());
}

/// The claim counters of `func`'s dynamic tails: `memref<?xi64>` on its
/// stack, a line (kCounterStride counters) for each thread its parallel
/// regions may have, at most kMaxDynamicThreads, the first counter of each
/// line zeroed at the function's entry. Each loop leaves them zero again.
Value claimCounters(func::FuncOp func, func::FuncOp maxThreads) {
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = func.getLoc();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // A team has at most its num_threads clause's threads (the caller's count,
  // an argument of the function that aotc-bind-omp-num-threads adds), else
  // omp_get_max_threads(). Everything here goes at the entry's start, which
  // dominates every region.
  Value bound;
  func.walk([&](omp::ParallelOp parallel) {
    Value requested = parallel.getNumThreads();
    APInt constant;
    Value count;
    if (requested && matchPattern(requested, m_ConstantInt(&constant))) {
      count = index(constant.getSExtValue());
    } else if (auto argument = dyn_cast_or_null<BlockArgument>(requested);
               argument && argument.getOwner() == &entry) {
      count = argument.getType().isIndex()
                  ? requested
                  : arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                               requested)
                        .getResult();
    } else {
      Value max = func::CallOp::create(b, loc, maxThreads).getResult(0);
      count = arith::IndexCastOp::create(b, loc, b.getIndexType(), max);
    }
    bound = bound ? arith::MaxSIOp::create(b, loc, bound, count) : count;
  });
  Value threads = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, bound, index(1)),
      index(kMaxDynamicThreads));
  Value length = arith::MulIOp::create(b, loc, threads, index(kCounterStride));
  Value counters = memref::AllocaOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI64Type()),
      ValueRange{length});
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  scf::ForOp::create(
      b, loc, index(0), length, index(kCounterStride), ValueRange{},
      [&](OpBuilder &nested, Location loc, Value line, ValueRange) {
        memref::StoreOp::create(nested, loc, zero, counters, line);
        scf::YieldOp::create(nested, loc);
      });
  return counters;
}

/// `loop` replaced by a sequential loop over this thread's share of its
/// iterations: the nest's iteration space linearized (row-major), cut into
/// as many contiguous ranges as there are threads, sizes differing by at
/// most one (the first `total % threads` threads take one more, as libomp's
/// static schedule does), each iteration's indices recovered from its
/// linear number. A loop without nowait keeps its barrier.
///
/// With `counters`, the last 1/`tailDivisor` of each range is a dynamic
/// tail: a thread runs the rest of its range, then claims the iterations of
/// its own tail and then of the next kTailsVisited - 1 threads' tails, one
/// at a time, by incrementing the tail's counter until a claim fails (see
/// the pass description).
void partition(omp::WsloopOp loop, omp::LoopNestOp nest, func::FuncOp threadNum,
               func::FuncOp numThreads, Value counters, int64_t tailDivisor) {
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
  // Threads that claim iterations of other threads' tails have some of
  // their own.
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
  // The range [first(t), first(t) + length(t)) of thread t.
  auto firstOf = [&](OpBuilder &b, Value t) -> Value {
    return arith::AddIOp::create(b, loc,
                                 arith::MulIOp::create(b, loc, t, share),
                                 arith::MinUIOp::create(b, loc, t, rest));
  };
  auto lengthOf = [&](OpBuilder &b, Value t) -> Value {
    Value longer =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t, rest);
    return arith::AddIOp::create(
        b, loc, share, arith::SelectOp::create(b, loc, longer, one, zero));
  };
  Value first = firstOf(b, thread);
  Value length = lengthOf(b, thread);
  Value end = arith::AddIOp::create(b, loc, first, length);

  // The body, but for its omp.yield, at the builder's point with the
  // iteration whose linear number is `linear`: inside an
  // scf.execute_region, since lowering its memref.alloca_scope (convert-
  // scf-to-openmp's, freeing each iteration's stack buffers) splits the
  // enclosing region into blocks, which an scf.for or scf.while body cannot
  // hold but an execute_region can.
  auto emitBody = [&](OpBuilder &b, Value linear) {
    OpBuilder::InsertionGuard guard(b);
    Block &body = nest.getRegion().front();
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
    auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
    Block *inner = b.createBlock(&region.getRegion());
    inner->getOperations().splice(inner->end(), body.getOperations(),
                                  body.begin(), std::prev(body.end()));
    b.setInsertionPointToEnd(inner);
    scf::YieldOp::create(b, loc);
  };

  if (!counters) {
    auto forOp = scf::ForOp::create(b, loc, first, end, one);
    OpBuilder inside(forOp.getBody()->getTerminator());
    emitBody(inside, forOp.getInductionVar());
  } else {
    // Threads with a tail: those below the iteration count and the
    // counters' lines, when there are two or more of them.
    Value stride = index(kCounterStride);
    Value slots = arith::DivUIOp::create(
        b, loc, memref::DimOp::create(b, loc, counters, 0), stride);
    Value participants = arith::MinUIOp::create(
        b, loc, arith::MinUIOp::create(b, loc, threads, total), slots);
    Value shared = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, participants,
                              one),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                              participants));
    // Every participant visits as many tails, so each tail's counter is
    // visited by that many threads.
    Value visits = arith::SelectOp::create(
        b, loc, shared,
        arith::MinUIOp::create(b, loc, participants, index(kTailsVisited)),
        zero);
    // (The region builders below are `b` itself, moved into the regions:
    // the constants they use are made here.)
    Value divisor = index(tailDivisor);
    Value headEnd = arith::SubIOp::create(
        b, loc, end,
        arith::SelectOp::create(b, loc, shared,
                                arith::DivUIOp::create(b, loc, length, divisor),
                                zero));
    Type indexType = b.getIndexType(), i1 = b.getI1Type();
    // State: the next static iteration, the tail being claimed from.
    scf::WhileOp::create(
        b, loc, TypeRange{indexType, indexType, indexType},
        ValueRange{first, zero},
        [&](OpBuilder &b, Location loc, ValueRange state) {
          Value position = state[0], visited = state[1];
          Value inHead = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, position, headEnd);
          auto next = scf::IfOp::create(
              b, loc, TypeRange{i1, indexType, indexType, indexType}, inHead,
              /*withElseRegion=*/true);
          OpBuilder then = next.getThenBodyBuilder();
          Value yes = arith::ConstantIntOp::create(then, loc, 1, 1);
          scf::YieldOp::create(
              then, loc,
              ValueRange{yes, position,
                         arith::AddIOp::create(then, loc, position, one),
                         visited});
          OpBuilder other = next.getElseBodyBuilder();
          // Claims from tail `visited` on: (tail, claimed, iteration).
          auto claims = scf::WhileOp::create(
              other, loc, TypeRange{indexType, i1, indexType},
              ValueRange{visited},
              [&](OpBuilder &b, Location loc, ValueRange args) {
                Value tail = args[0];
                Value more = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::ult, tail, visits);
                auto claim = scf::IfOp::create(b, loc, TypeRange{i1, indexType},
                                               more, /*withElseRegion=*/true);
                OpBuilder c = claim.getThenBodyBuilder();
                Value owner = arith::RemUIOp::create(
                    c, loc, arith::AddIOp::create(c, loc, thread, tail),
                    participants);
                // The owner's tail: the last `length` of its range.
                Value range = lengthOf(c, owner);
                Value length = arith::DivUIOp::create(c, loc, range, divisor);
                Value start = arith::SubIOp::create(
                    c, loc,
                    arith::AddIOp::create(c, loc, firstOf(c, owner), range),
                    length);
                Value line = arith::MulIOp::create(c, loc, owner, stride);
                Value step =
                    arith::ConstantIntOp::create(c, loc, c.getI64Type(), 1);
                Value taken = memref::AtomicRMWOp::create(
                    c, loc, arith::AtomicRMWKind::addi, step, counters,
                    ValueRange{line});
                Value k =
                    arith::IndexCastUIOp::create(c, loc, indexType, taken);
                Value got = arith::CmpIOp::create(
                    c, loc, arith::CmpIPredicate::ult, k, length);
                // The tail's last claim: every visitor has failed once.
                Value lastClaim = arith::SubIOp::create(
                    c, loc, arith::AddIOp::create(c, loc, length, visits), one);
                Value last = arith::CmpIOp::create(
                    c, loc, arith::CmpIPredicate::eq, k, lastClaim);
                auto reset = scf::IfOp::create(c, loc, last);
                OpBuilder r = reset.getThenBodyBuilder();
                memref::AtomicRMWOp::create(
                    r, loc, arith::AtomicRMWKind::assign,
                    arith::ConstantIntOp::create(r, loc, r.getI64Type(), 0),
                    counters, ValueRange{line});
                scf::YieldOp::create(
                    c, loc,
                    ValueRange{got, arith::AddIOp::create(c, loc, start, k)});
                OpBuilder none = claim.getElseBodyBuilder();
                scf::YieldOp::create(
                    none, loc,
                    ValueRange{arith::ConstantIntOp::create(none, loc, 0, 1),
                               zero});
                Value claimed = claim.getResult(0);
                Value again = arith::AndIOp::create(
                    b, loc, more,
                    arith::XOrIOp::create(
                        b, loc, claimed,
                        arith::ConstantIntOp::create(b, loc, 1, 1)));
                scf::ConditionOp::create(
                    b, loc, again,
                    ValueRange{tail, claimed, claim.getResult(1)});
              },
              [&](OpBuilder &b, Location loc, ValueRange args) {
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{arith::AddIOp::create(b, loc, args[0], one)});
              });
          scf::YieldOp::create(other, loc,
                               ValueRange{claims.getResult(1),
                                          claims.getResult(2), position,
                                          claims.getResult(0)});
          scf::ConditionOp::create(b, loc, next.getResult(0),
                                   ValueRange{next.getResult(1),
                                              next.getResult(2),
                                              next.getResult(3)});
        },
        [&](OpBuilder &b, Location loc, ValueRange args) {
          emitBody(b, args[0]);
          scf::YieldOp::create(b, loc, ValueRange{args[1], args[2]});
        });
  }
  if (!loop.getNowait()) {
    b.setInsertionPoint(loop);
    omp::BarrierOp::create(b, loc);
  }
  loop.erase();
}

struct PartitionOmpLoopsPass
    : aotc::impl::PartitionOmpLoopsBase<PartitionOmpLoopsPass> {
  using PartitionOmpLoopsBase::PartitionOmpLoopsBase;

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
    llvm::DenseMap<Operation *, Value> counters;
    for (auto [loop, nest] : loops) {
      Value claims;
      auto func = loop->getParentOfType<func::FuncOp>();
      if (dynamicTail > 0 && func && barrierFollows(loop)) {
        Value &created = counters[func];
        if (!created)
          created = claimCounters(
              func, aotc::ompQueryFunction(module, "omp_get_max_threads"));
        claims = created;
      }
      partition(loop, nest, threadNum, numThreads, claims, dynamicTail);
    }
  }
};

} // namespace
