//===- GpuBlockReductions.cpp - Reductions as block-level trees -*- C++ -*-===//
//
// This file implements the aotc-gpu-block-reductions pass: a statically
// shaped linalg reduction whose payload ends in an associative, commutative
// combiner (add, mul, max, min, and, or, xor) of the accumulator and a value
// computed from the inputs becomes one gpu.launch with a block per output
// element. Each thread combines a strided share of the reduction (so that
// consecutive threads read consecutive elements), the partials meet in
// workgroup memory, and a tree of halving steps separated by barriers
// combines them; thread 0 combines the total into the output.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

namespace aotc {
#define GEN_PASS_DEF_GPUBLOCKREDUCTIONS
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The combiners whose order does not matter (up to floating-point
/// rounding, which the tree changes as any parallel reduction does).
bool isCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
             arith::AddIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp>(op);
}

/// A reduction: loops split into parallel (the output's) and reduction
/// ones, the payload `yield combine(value(inputs), acc)`.
struct Reduction {
  SmallVector<unsigned> parallel, reduced;
  SmallVector<int64_t> ranges;
  Operation *combiner = nullptr;
  unsigned accOperand = 0; // the combiner operand that is the accumulator

  int64_t size(ArrayRef<unsigned> dims) const {
    int64_t s = 1;
    for (unsigned d : dims)
      s *= ranges[d];
    return s;
  }
};

std::optional<Reduction> matchReduction(linalg::LinalgOp op,
                                        int64_t minExtent) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() < 1 || op.hasIndexSemantics() ||
      op.hasDynamicShape() || op.getNumReductionLoops() == 0)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (!isa<MemRefType>(operand.get().getType()))
      return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap outMap = maps.back();
  if (!outMap.isProjectedPermutation())
    return std::nullopt;
  Reduction r;
  r.ranges = op.getStaticLoopRanges();
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool inOut = outMap.isFunctionOfDim(d);
    if (type == utils::IteratorType::parallel && inOut)
      r.parallel.push_back(d);
    else if (type == utils::IteratorType::reduction && !inOut)
      r.reduced.push_back(d);
    else
      return std::nullopt;
  }
  if (r.size(r.reduced) < minExtent)
    return std::nullopt;
  // Worth it when the reduction runs along the contiguous dimension of the
  // inputs it reads (one block reads a row); a reduction across rows is
  // better served by one thread per output (coalesced across threads).
  unsigned innermost = r.reduced.back();
  for (unsigned i = 0, e = op.getNumDpsInputs(); i < e; ++i) {
    bool readsReduced = llvm::any_of(r.reduced, [&](unsigned d) {
      return maps[i].isFunctionOfDim(d);
    });
    if (!readsReduced || op.getBlock()->getArgument(i).use_empty())
      continue;
    if (!maps[i].getResults().back().isFunctionOfDim(innermost))
      return std::nullopt;
  }
  // yield combine(value, acc), acc used by the combiner only.
  Block *body = op.getBlock();
  BlockArgument acc = body->getArguments().back();
  Value yielded = body->getTerminator()->getOperand(0);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getBlock() != body || !isCombiner(combiner) ||
      !acc.hasOneUse() || acc.getUses().begin()->getOwner() != combiner)
    return std::nullopt;
  r.combiner = combiner;
  r.accOperand = combiner->getOperand(0) == acc ? 0 : 1;
  if (combiner->getOperand(1 - r.accOperand) == acc)
    return std::nullopt;
  return r;
}

/// Builds the block reduction of one op in its place.
class ReductionBuilder {
public:
  ReductionBuilder(linalg::LinalgOp op, const Reduction &r, int64_t maxThreads)
      : op(op), r(r), b(op), loc(op.getLoc()),
        maps(op.getIndexingMapsArray()) {
    int64_t extent = r.size(r.reduced);
    threads = std::min<int64_t>(maxThreads, llvm::PowerOf2Ceil(extent));
    threads = std::max<int64_t>(threads, 32);
  }

  void build();

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  void delinearize(Value linear, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &iv) {
    for (unsigned d : llvm::reverse(dims)) {
      if (d == dims.front()) {
        iv[d] = linear;
        break;
      }
      iv[d] = arith::RemUIOp::create(b, loc, linear, cst(r.ranges[d]));
      linear = arith::DivUIOp::create(b, loc, linear, cst(r.ranges[d]));
    }
  }
  SmallVector<Value> indices(AffineMap map, ArrayRef<Value> iv) {
    SmallVector<Value> result;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        result.push_back(iv[dim.getPosition()]);
        continue;
      }
      result.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, expr), iv));
    }
    return result;
  }
  /// The payload's value (everything but the combiner) at reduction index
  /// `linear`.
  Value valueAt(Value linear);
  /// combine(x, acc) with the payload's combiner.
  Value combine(Value x, Value acc) {
    IRMapping mapping;
    mapping.map(r.combiner->getOperand(r.accOperand), acc);
    mapping.map(r.combiner->getOperand(1 - r.accOperand), x);
    return b.clone(*r.combiner, mapping)->getResult(0);
  }

  linalg::LinalgOp op;
  const Reduction &r;
  OpBuilder b;
  Location loc;
  SmallVector<AffineMap> maps;
  SmallVector<Value> outputIv;
  int64_t threads;
};

Value ReductionBuilder::valueAt(Value linear) {
  SmallVector<Value> iv(outputIv);
  delinearize(linear, r.reduced, iv);
  Block *body = op.getBlock();
  IRMapping mapping;
  for (auto [i, operand] : llvm::enumerate(op.getDpsInputOperands())) {
    BlockArgument arg = body->getArgument(i);
    if (arg.use_empty())
      continue;
    Value v = operand->get();
    mapping.map(arg, memref::LoadOp::create(b, loc, v, indices(maps[i], iv)));
  }
  for (Operation &inner : body->without_terminator()) {
    if (&inner == r.combiner)
      continue;
    b.clone(inner, mapping);
  }
  return mapping.lookupOrDefault(
      r.combiner->getOperand(1 - r.accOperand));
}

void ReductionBuilder::build() {
  MLIRContext *ctx = op.getContext();
  int64_t outputs = r.size(r.parallel), extent = r.size(r.reduced);
  Type accType = op.getBlock()->getArguments().back().getType();
  auto partialsType = MemRefType::get(
      {threads}, accType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value one = cst(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(outputs), one, one, cst(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{partialsType});
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);
  Value tid = launch.getThreadIds().x;
  Value partials = launch.getWorkgroupAttributions()[0];
  outputIv.assign(op.getNumLoops(), cst(0));
  delinearize(launch.getBlockIds().x, r.parallel, outputIv);

  // This thread's share: elements tid, tid + threads, ... (every thread
  // has one when the extent is at least the block; otherwise the threads
  // past it start from element 0 and never publish).
  Value first = tid;
  if (extent < threads)
    first = arith::MinUIOp::create(b, loc, tid, cst(extent - 1));
  Value partial = valueAt(first);
  if (extent > threads) {
    // Strided steps: the last one may be partial, guarded.
    int64_t whole = extent / threads, rest = extent % threads;
    if (whole > 1) {
      auto loop = scf::ForOp::create(b, loc, cst(threads),
                                     cst(whole * threads), cst(threads),
                                     ValueRange{partial});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value at = arith::AddIOp::create(b, loc, loop.getInductionVar(), tid);
      scf::YieldOp::create(
          b, loc, combine(valueAt(at), loop.getRegionIterArgs()[0]));
      partial = loop.getResult(0);
    }
    if (rest) {
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           tid, cst(rest));
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{accType}, inside,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value at = arith::AddIOp::create(b, loc, tid, cst(whole * threads));
      scf::YieldOp::create(b, loc, combine(valueAt(at), partial));
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, partial);
      partial = ifOp.getResult(0);
    }
  }
  memref::StoreOp::create(b, loc, partial, partials, ValueRange{tid});
  gpu::BarrierOp::create(b, loc);

  // Tree: at each step the lower half combines the upper half into itself.
  int64_t live = std::min(extent, threads);
  for (int64_t half = threads / 2; half >= 1; half /= 2) {
    if (half < live) {
      // Threads tid < live - half have a partner tid + half < live.
      Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           tid, cst(live - half));
      auto ifOp = scf::IfOp::create(b, loc, active, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value mine = memref::LoadOp::create(b, loc, partials, ValueRange{tid});
      Value partner = memref::LoadOp::create(
          b, loc, partials,
          ValueRange{arith::AddIOp::create(b, loc, tid, cst(half))});
      memref::StoreOp::create(b, loc, combine(partner, mine), partials,
                              ValueRange{tid});
    }
    live = std::min(live, half);
    gpu::BarrierOp::create(b, loc);
  }

  // Thread 0: the output combines with the block's total.
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                        cst(0));
  auto ifOp = scf::IfOp::create(b, loc, isFirst, /*withElse=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value out = op.getDpsInits()[0];
  SmallVector<Value> outIndices = indices(maps.back(), outputIv);
  Value total = memref::LoadOp::create(b, loc, partials, ValueRange{cst(0)});
  Value init = memref::LoadOp::create(b, loc, out, outIndices);
  memref::StoreOp::create(b, loc, combine(total, init), out, outIndices);
}

struct GpuBlockReductionsPass
    : aotc::impl::GpuBlockReductionsBase<GpuBlockReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if ((!allFunctions && !func->hasAttr(aotc::kEntryAttrName)) ||
        func.isExternal())
      return;
    if (blockSize < 32 || blockSize > 1024 ||
        !llvm::isPowerOf2_64(blockSize)) {
      func.emitError("block-size must be a power of two in [32, 1024]");
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      if (op->getParentOp() != func.getOperation())
        continue;
      std::optional<Reduction> r = matchReduction(op, minExtent);
      if (!r)
        continue;
      ReductionBuilder(op, *r, blockSize).build();
      op->erase();
    }
  }
};

} // namespace
