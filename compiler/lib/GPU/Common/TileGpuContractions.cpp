//===- TileGpuContractions.cpp - Shared-memory tiled GPU contractions -*- C++ -*-===//
//
// This file implements the aotc-tile-gpu-contractions pass. A statically
// shaped linalg contraction on memrefs (matmul, batch_matmul, a convolution,
// any generic whose loops split into batch, M, N and K dimensions) becomes
// one gpu.launch: a block computes a BM x BN tile of the output, stepping
// through K in BK slices; for each slice all threads copy the A (BM x BK) and
// B (BK x BN) tiles into workgroup memory with consecutive threads on the
// operand's contiguous dimension, synchronise, and each thread accumulates
// an RM x RN register tile from workgroup memory. Out-of-range rows and
// columns read a clamped (valid) element and are never stored; a last
// partial K slice only runs over its valid part, so any payload, not just
// multiply-add, keeps the loop order of the sequential definition.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/TilingUtils.h"
#include "aotc/GPU/Common/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace aotc {
#define GEN_PASS_DEF_TILEGPUCONTRACTIONS
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// The loops of a contraction C[batch, M, N] += f(A[batch, M, K],
/// B[batch, N, K]) by the operands that index with them. Each group keeps
/// loop order, the last loop being the fastest-varying one when the group is
/// linearized. A is the input whose loops are the rows of a block tile; it
/// is the second input when C's innermost dimension indexes the first one,
/// so that the columns (consecutive threads) follow C's contiguous
/// dimension.
struct Contraction {
  SmallVector<unsigned> batch, m, n, k;
  SmallVector<int64_t> ranges;
  unsigned aInput = 0;

  int64_t size(ArrayRef<unsigned> dims) const {
    int64_t s = 1;
    for (unsigned d : dims)
      s *= ranges[d];
    return s;
  }
};

std::optional<Contraction> matchContraction(linalg::LinalgOp op) {
  std::optional<aotc::ContractionLoops> loops =
      aotc::classifyStaticContractionLoops(op);
  if (!loops)
    return std::nullopt;
  // Both inputs must be read (a pooling window operand is not).
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || body->getArgument(0).use_empty() ||
      body->getArgument(1).use_empty())
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation())
    return std::nullopt;
  Contraction c;
  c.ranges = op.getStaticLoopRanges();
  c.batch = loops->batch;
  c.m = loops->m;
  c.n = loops->n;
  c.k = loops->k;
  if (c.k.empty())
    return std::nullopt;
  AffineExpr innermost = maps[2].getResults().back();
  if (llvm::any_of(c.m, [&](unsigned d) { return innermost.isFunctionOfDim(d); })) {
    std::swap(c.m, c.n);
    c.aInput = 1;
  }
  return c;
}

//===----------------------------------------------------------------------===//
// Tile sizes
//===----------------------------------------------------------------------===//

/// A block computes a bm x bn output tile with (bn / rn) x (bm / rm)
/// threads, each an rm x rn register tile, through bk-deep K slices.
struct TileConfig {
  int64_t bm, bn, bk, rm, rn;
  int64_t threadsX() const { return bn / rn; }
  int64_t threadsY() const { return bm / rm; }
  int64_t threads() const { return threadsX() * threadsY(); }
};

/// Tiles of up to 64x64x16 (smaller for small dimensions, powers of two),
/// each thread an up-to-4x4 register tile, so a 64x64 tile runs 16x16
/// threads of 4x4 outputs. A thin side (a matrix-vector product, a
/// convolution with few channels) leaves threads free: the other side's
/// register tile shrinks to use up to 256 threads. The K slice shrinks
/// until each thread copies at most 8 elements per slice (each copy keeps
/// its addresses in registers across the K loop).
TileConfig chooseTiles(int64_t m, int64_t n, int64_t k,
                       ArrayRef<int64_t> requested) {
  auto pow2 = [](int64_t v, int64_t cap) {
    return std::min<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(v, 1)),
                             cap);
  };
  TileConfig c;
  bool fixed = requested.size() == 3;
  c.bm = fixed ? requested[0] : pow2(m, 64);
  c.bn = fixed ? requested[1] : pow2(n, 64);
  c.bk = fixed ? requested[2] : pow2(k, 16);
  c.rm = std::max<int64_t>(1, c.bm / 16);
  c.rn = std::max<int64_t>(1, c.bn / 16);
  while (c.threads() < 256 && c.rm > 1)
    c.rm /= 2;
  while (c.threads() < 256 && c.rn > 1)
    c.rn /= 2;
  auto copies = [&] {
    return llvm::divideCeil(c.bm * c.bk, c.threads()) +
           llvm::divideCeil(c.bn * c.bk, c.threads());
  };
  while (!fixed && c.bk > 1 && copies() > 8)
    c.bk /= 2;
  return c;
}

//===----------------------------------------------------------------------===//
// Kernel construction
//===----------------------------------------------------------------------===//

/// Builds the tiled kernel of one contraction in place of the op.
class KernelBuilder {
public:
  KernelBuilder(linalg::LinalgOp op, const Contraction &c, TileConfig t)
      : op(op), c(c), t(t), b(op), loc(op.getLoc()),
        maps(op.getIndexingMapsArray()) {}

  void build();

private:
  /// One operand's side of the contraction: A (with the M loops) or B (with
  /// the N loops).
  struct Side {
    unsigned input;      // its position among the op's inputs
    Value global;        // the operand in global memory
    AffineMap map;       // its indexing map
    ArrayRef<unsigned> parallel; // M or N loops
    int64_t size;        // M or N
    int64_t tile;        // bm or bn
    bool kFastest;       // consecutive elements run along K
    Value tileBuffer;    // the workgroup memory tile [bk][tile + pad]
    Value origin;        // first row (column) of this block
  };

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, cst(y)).getResult();
  }
  /// min(x, bound - 1) when x may leave [0, bound).
  Value clamp(Value x, int64_t bound, bool needed) {
    return needed ? arith::MinSIOp::create(b, loc, x, cst(bound - 1))
                        .getResult()
                  : x;
  }
  /// Writes the loop values of `dims` (linearized as `linear`) into `iv`.
  void delinearize(Value linear, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &iv);
  /// The indices an indexing map yields for the loop values `iv`.
  SmallVector<Value> indices(AffineMap map, ArrayRef<Value> iv);
  bool kFastest(AffineMap map, ArrayRef<unsigned> parallel) const;
  /// Cooperative copy of one side's K slice starting at `k0` into its tile.
  void copyTile(Side &side, Value k0);
  /// Accumulates `kCount` steps of the slice in workgroup memory.
  SmallVector<Value> accumulate(ValueRange accs, int64_t kCount);
  /// Copy, barrier, accumulate (and a barrier before the next copy).
  SmallVector<Value> slice(ValueRange accs, Value k0, int64_t kCount,
                           bool trailingBarrier);

  linalg::LinalgOp op;
  const Contraction &c;
  TileConfig t;
  OpBuilder b;
  Location loc;
  SmallVector<AffineMap> maps;
  Side sides[2];
  Value tid, tx, ty;
  SmallVector<Value> batchIv; // loop values with the batch loops set
  int64_t kSize = 0;
};

void KernelBuilder::delinearize(Value linear, ArrayRef<unsigned> dims,
                                SmallVectorImpl<Value> &iv) {
  for (unsigned d : llvm::reverse(dims)) {
    int64_t extent = c.ranges[d];
    if (d == dims.front()) {
      iv[d] = linear;
      break;
    }
    iv[d] = arith::RemUIOp::create(b, loc, linear, cst(extent));
    linear = arith::DivUIOp::create(b, loc, linear, cst(extent));
  }
}

SmallVector<Value> KernelBuilder::indices(AffineMap map, ArrayRef<Value> iv) {
  SmallVector<Value> result;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      result.push_back(iv[dim.getPosition()]);
      continue;
    }
    AffineMap one = AffineMap::get(map.getNumDims(), 0, expr);
    result.push_back(affine::AffineApplyOp::create(b, loc, one, iv));
  }
  return result;
}

bool KernelBuilder::kFastest(AffineMap map, ArrayRef<unsigned> parallel) const {
  AffineExpr last = map.getResults().back();
  if (!parallel.empty() && last.isFunctionOfDim(parallel.back()))
    return false;
  return last.isFunctionOfDim(c.k.back()) || parallel.empty();
}

void KernelBuilder::copyTile(Side &side, Value k0) {
  int64_t elements = side.tile * t.bk;
  int64_t threads = t.threads();
  int64_t rounds = llvm::divideCeil(elements, threads);
  for (int64_t r = 0; r < rounds; ++r) {
    OpBuilder::InsertionGuard guard(b);
    Value e = add(tid, cst(r * threads));
    if ((r + 1) * threads > elements) {
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           e, cst(elements));
      auto ifOp = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    Value kk, pp;
    if (side.kFastest) {
      kk = arith::RemUIOp::create(b, loc, e, cst(t.bk));
      pp = arith::DivUIOp::create(b, loc, e, cst(t.bk));
    } else {
      pp = arith::RemUIOp::create(b, loc, e, cst(side.tile));
      kk = arith::DivUIOp::create(b, loc, e, cst(side.tile));
    }
    Value gp = clamp(add(side.origin, pp), side.size, side.size % side.tile);
    Value gk = clamp(add(k0, kk), kSize, kSize % t.bk);
    SmallVector<Value> iv(batchIv);
    delinearize(gp, side.parallel, iv);
    delinearize(gk, c.k, iv);
    Value v = memref::LoadOp::create(b, loc, side.global,
                                     indices(side.map, iv));
    memref::StoreOp::create(b, loc, v, side.tileBuffer, ValueRange{kk, pp});
  }
}

SmallVector<Value> KernelBuilder::accumulate(ValueRange accs, int64_t kCount) {
  auto loop = scf::ForOp::create(b, loc, cst(0), cst(kCount), cst(1), accs);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kk = loop.getInductionVar();
  SmallVector<Value> a, bv;
  for (int64_t i = 0; i < t.rm; ++i)
    a.push_back(memref::LoadOp::create(
        b, loc, sides[0].tileBuffer,
        ValueRange{kk, add(ty, cst(i * t.threadsY()))}));
  for (int64_t j = 0; j < t.rn; ++j)
    bv.push_back(memref::LoadOp::create(
        b, loc, sides[1].tileBuffer,
        ValueRange{kk, add(tx, cst(j * t.threadsX()))}));
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<Value> next;
  for (int64_t i = 0; i < t.rm; ++i) {
    for (int64_t j = 0; j < t.rn; ++j) {
      IRMapping mapping;
      mapping.map(body->getArgument(sides[0].input), a[i]);
      mapping.map(body->getArgument(sides[1].input), bv[j]);
      mapping.map(body->getArgument(2), loop.getRegionIterArg(i * t.rn + j));
      for (Operation &inner : body->without_terminator()) {
        Operation *copy = b.clone(inner, mapping);
        // A multiply feeding an add may become one FMA (as on the CPU
        // path, where contractions lower to vector FMAs).
        // (Ops whose flags are optional and unset, as arith.extf of a
        // mixed-precision matmul, are left alone.)
        auto fastMath = dyn_cast<arith::ArithFastMathInterface>(copy);
        if (arith::FastMathFlagsAttr flags =
                fastMath ? fastMath.getFastMathFlagsAttr() : nullptr)
          copy->setAttr(fastMath.getFastMathAttrName(),
                        arith::FastMathFlagsAttr::get(
                            copy->getContext(),
                            flags.getValue() | arith::FastMathFlags::contract));
      }
      next.push_back(mapping.lookupOrDefault(yield.getOperand(0)));
    }
  }
  scf::YieldOp::create(b, loc, next);
  return llvm::to_vector_of<Value>(loop.getResults());
}

SmallVector<Value> KernelBuilder::slice(ValueRange accs, Value k0,
                                        int64_t kCount, bool trailingBarrier) {
  copyTile(sides[0], k0);
  copyTile(sides[1], k0);
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> result = accumulate(accs, kCount);
  if (trailingBarrier)
    gpu::BarrierOp::create(b, loc);
  return result;
}

void KernelBuilder::build() {
  MLIRContext *ctx = op.getContext();
  int64_t m = c.size(c.m), n = c.size(c.n), batch = c.size(c.batch);
  kSize = c.size(c.k);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  for (int s = 0; s < 2; ++s) {
    Side &side = sides[s];
    side.input = s == 0 ? c.aInput : 1 - c.aInput;
    side.global = op.getDpsInputs()[side.input];
    side.map = maps[side.input];
    side.parallel = s == 0 ? c.m : c.n;
    side.size = s == 0 ? m : n;
    side.tile = s == 0 ? t.bm : t.bn;
    side.kFastest = kFastest(side.map, side.parallel);
  }
  // Tiles are [bk][tile]; a K-fastest copy writes a column, so one padding
  // element per row spreads it over the banks.
  SmallVector<Type> tileTypes;
  for (Side &side : sides)
    tileTypes.push_back(MemRefType::get(
        {t.bk, side.tile + (side.kFastest ? 1 : 0)},
        getElementTypeOrSelf(side.global.getType()), MemRefLayoutAttrInterface(),
        workgroup));

  auto launch = gpu::LaunchOp::create(
      b, loc, cst(llvm::divideCeil(n, t.bn)), cst(llvm::divideCeil(m, t.bm)),
      cst(batch), cst(t.threadsX()), cst(t.threadsY()), cst(1),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, tileTypes);
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);

  tx = launch.getThreadIds().x;
  ty = launch.getThreadIds().y;
  tid = add(mul(ty, t.threadsX()), tx);
  sides[0].origin = mul(launch.getBlockIds().y, t.bm);
  sides[1].origin = mul(launch.getBlockIds().x, t.bn);
  for (int s = 0; s < 2; ++s)
    sides[s].tileBuffer = launch.getWorkgroupAttributions()[s];
  Value zero = cst(0);
  batchIv.assign(op.getNumLoops(), zero);
  delinearize(launch.getBlockIds().z, c.batch, batchIv);

  // This thread's outputs: rows ty + i * threadsY, columns tx + j *
  // threadsX of the block tile, so consecutive threads store consecutive
  // columns. Their current values seed the accumulators.
  Value out = op.getDpsInits()[0];
  SmallVector<SmallVector<Value>> outIndices;
  SmallVector<Value> rows, cols, accs;
  for (int64_t i = 0; i < t.rm; ++i)
    rows.push_back(add(sides[0].origin, add(ty, cst(i * t.threadsY()))));
  for (int64_t j = 0; j < t.rn; ++j)
    cols.push_back(add(sides[1].origin, add(tx, cst(j * t.threadsX()))));
  for (int64_t i = 0; i < t.rm; ++i) {
    for (int64_t j = 0; j < t.rn; ++j) {
      SmallVector<Value> iv(batchIv);
      delinearize(clamp(rows[i], m, m % t.bm), c.m, iv);
      delinearize(clamp(cols[j], n, n % t.bn), c.n, iv);
      outIndices.push_back(indices(maps[2], iv));
      accs.push_back(memref::LoadOp::create(b, loc, out, outIndices.back()));
    }
  }

  // Whole K slices in a loop, then the partial one.
  int64_t whole = kSize / t.bk, rest = kSize % t.bk;
  if (whole > 0) {
    auto loop =
        scf::ForOp::create(b, loc, zero, cst(whole * t.bk), cst(t.bk), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next =
        slice(loop.getRegionIterArgs(), loop.getInductionVar(), t.bk,
              /*trailingBarrier=*/true);
    scf::YieldOp::create(b, loc, next);
    accs = llvm::to_vector_of<Value>(loop.getResults());
  }
  if (rest > 0)
    accs = slice(accs, cst(whole * t.bk), rest, /*trailingBarrier=*/false);

  // Stores of the in-range outputs.
  for (int64_t i = 0; i < t.rm; ++i) {
    for (int64_t j = 0; j < t.rn; ++j) {
      OpBuilder::InsertionGuard guard(b);
      SmallVector<Value> conditions;
      if (m % t.bm)
        conditions.push_back(arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, rows[i], cst(m)));
      if (n % t.bn)
        conditions.push_back(arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, cols[j], cst(n)));
      if (!conditions.empty()) {
        Value inside = conditions.front();
        if (conditions.size() == 2)
          inside = arith::AndIOp::create(b, loc, inside, conditions.back());
        auto ifOp = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      memref::StoreOp::create(b, loc, accs[i * t.rn + j], out,
                              outIndices[i * t.rn + j]);
    }
  }
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TileGpuContractionsPass
    : aotc::impl::TileGpuContractionsBase<TileGpuContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if ((!allFunctions && !func->hasAttr(aotc::kEntryAttrName)) ||
        func.isExternal())
      return;
    SmallVector<int64_t> requested(tileSizes.begin(), tileSizes.end());
    if (!requested.empty() &&
        (requested.size() != 3 || llvm::any_of(requested, [](int64_t s) {
           return s <= 0 || !llvm::isPowerOf2_64(s) || s > 256;
         }))) {
      func.emitError("tile-sizes must be three powers of two up to 256 "
                     "(M, N, K)");
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      // Only ops at the top level of the entry point (others already sit
      // in a loop that will be mapped).
      if (op->getParentOp() != func.getOperation())
        continue;
      std::optional<Contraction> c = matchContraction(op);
      if (!c)
        continue;
      TileConfig tiles =
          chooseTiles(c->size(c->m), c->size(c->n), c->size(c->k), requested);
      KernelBuilder(op, *c, tiles).build();
      op->erase();
    }
  }
};

} // namespace
