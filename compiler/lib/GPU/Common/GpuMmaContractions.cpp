//===- GpuMmaContractions.cpp - f16/bf16 matmuls on matrix units -*- C++ -*-===//
//
// This file implements the aotc-gpu-mma-contractions pass. A statically
// shaped f16 or bf16 contraction with one M, one N and one K loop (plus
// batch loops) and a multiply-add payload becomes one gpu.launch whose
// warps issue matrix instructions: nvgpu.mma.sync 16x8x16 (NVIDIA tensor
// cores, sm_80 and newer) or amdgpu.mfma 16x16x16 (AMD CDNA2/3 matrix
// cores). A block of 256 threads (2 x 4 warps, or 2 x 2 waves) computes a
// 64 x 64 tile of the output through 16-deep K slices staged in workgroup
// memory; each lane gathers
// the elements of its operand fragments in the layout the instruction
// defines, and accumulates in f32. Elements past the edges of A and B read
// as zero and outputs past M or N are not stored, so any shape is exact.
// With wgmma=1 (fatbins with sm_90) NVIDIA kernels get a second body, kept
// for sm_90a by aotc-attach-cuda-targets: each warpgroup issues
// wgmma.mma_async m64n32k16 on the same workgroup buffers, which then hold
// K-major core matrices addressed by shared-memory matrix descriptors.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/TilingUtils.h"
#include "aotc/GPU/CUDA/WgmmaVariant.h"
#include "aotc/GPU/Common/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

namespace aotc {
#define GEN_PASS_DEF_GPUMMACONTRACTIONS
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// The loops of C[batch.., m, n] += A[.., m, .., k] * B[.., k, .., n] (any
/// operand dimension order), A and B of one 16-bit float type.
struct MmaContraction {
  SmallVector<unsigned> batch;
  unsigned m = 0, n = 0, k = 0;
  SmallVector<int64_t> ranges;
  Type inType, outType;
};

/// `v` is `x` or `extf(x)` to f32 with `x` the block argument `arg`.
bool isInputOrExtension(Value v, BlockArgument arg) {
  if (v == arg)
    return true;
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg && ext.getType().isF32();
}

/// The payload is `yield out + a * b` (a, b possibly extended to f32).
bool isMultiplyAdd(Block *body) {
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument out = body->getArgument(2);
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == out) == (add.getRhs() == out))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  BlockArgument a = body->getArgument(0), b = body->getArgument(1);
  bool direct = isInputOrExtension(mul.getLhs(), a) &&
                isInputOrExtension(mul.getRhs(), b);
  bool swapped = isInputOrExtension(mul.getLhs(), b) &&
                 isInputOrExtension(mul.getRhs(), a);
  if (!direct && !swapped)
    return false;
  // Nothing else in the body.
  for (Operation &op : body->without_terminator())
    if (!isa<arith::ExtFOp, arith::MulFOp, arith::AddFOp>(op))
      return false;
  return true;
}

std::optional<MmaContraction> matchMma(linalg::LinalgOp op) {
  std::optional<aotc::ContractionLoops> loops =
      aotc::classifyStaticContractionLoops(op);
  if (!loops)
    return std::nullopt;
  MmaContraction c;
  c.inType = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  c.outType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!(c.inType.isF16() || c.inType.isBF16()) ||
      getElementTypeOrSelf(op.getDpsInputs()[1].getType()) != c.inType ||
      !(c.outType.isF32() || c.outType == c.inType))
    return std::nullopt;
  if (!isMultiplyAdd(op.getBlock()))
    return std::nullopt;
  // Every indexing map is a projected permutation: operands index with
  // loop values only.
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  c.ranges = op.getStaticLoopRanges();
  c.batch = loops->batch;
  const SmallVector<unsigned> &ms = loops->m, &ns = loops->n, &ks = loops->k;
  if (ms.size() != 1 || ns.size() != 1 || ks.size() != 1)
    return std::nullopt;
  c.m = ms[0];
  c.n = ns[0];
  c.k = ks[0];
  // Matrix units pay off from one instruction tile on.
  if (c.ranges[c.m] < 16 || c.ranges[c.n] < 16 || c.ranges[c.k] < 16)
    return std::nullopt;
  return c;
}

//===----------------------------------------------------------------------===//
// Matrix instructions
//===----------------------------------------------------------------------===//

/// Position of one fragment element in an instruction tile.
struct Coord {
  Value row, col;
};

/// A warp-level matrix instruction D = A (mi x ki) * B (ki x ni) + C and the
/// fragment layouts that say which element of each operand a lane holds.
struct MatrixInstr {
  bool nvidia;
  int64_t warp, mi, ni, ki;
  int64_t aElems, bElems, cElems;
  VectorType aType, bType, cType;

  MatrixInstr(bool nvidia, Type in) : nvidia(nvidia) {
    MLIRContext *ctx = in.getContext();
    Type f32 = Float32Type::get(ctx);
    if (nvidia) {
      // PTX mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}: a lane holds
      // 4 x 2 elements of A, 2 x 2 of B, 2 x 2 of C (pairs in one register).
      warp = 32, mi = 16, ni = 8, ki = 16;
      aElems = 8, bElems = 4, cElems = 4;
      aType = VectorType::get({4, 2}, in);
      bType = VectorType::get({2, 2}, in);
      cType = VectorType::get({2, 2}, f32);
    } else {
      // v_mfma_f32_16x16x16{f16,bf16_1k}: 4 elements of each per lane.
      warp = 64, mi = 16, ni = 16, ki = 16;
      aElems = 4, bElems = 4, cElems = 4;
      aType = VectorType::get({4}, in);
      bType = VectorType::get({4}, in);
      cType = VectorType::get({4}, f32);
    }
  }

  /// Element `e` of a lane's fragment as a position in its vector.
  SmallVector<int64_t> position(VectorType type, int64_t e) const {
    if (type.getRank() == 2)
      return {e / 2, e % 2};
    return {e};
  }
};

//===----------------------------------------------------------------------===//
// Kernel construction
//===----------------------------------------------------------------------===//

/// Block tile 64 x 64 through 16-deep K slices: each thread copies 4
/// elements of A and 4 of B per slice (as the FMA kernels, every copy keeps
/// its addresses in registers across the K loop, so more would spill).
/// NVIDIA: 2 x 4 warps of 32 x 16 (2 x 2 mma.sync 16x8x16), 256 threads;
/// AMD: 2 x 2 waves of 32 x 32 (2 x 2 MFMA 16x16x16), 256 threads.
constexpr int64_t kBM = 64, kBN = 64, kBK = 16, kWarpsM = 2;
constexpr int64_t kWarpTileM = kBM / kWarpsM;

class MmaKernelBuilder {
public:
  MmaKernelBuilder(linalg::LinalgOp op, const MmaContraction &c,
                   const MatrixInstr &instr, bool wgmma)
      : op(op), c(c), in(instr), b(op), loc(op.getLoc()),
        maps(op.getIndexingMapsArray()), warpsN(instr.nvidia ? 4 : 2),
        warpTileN(kBN / warpsN), wgmma(wgmma) {}

  void build();

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, cst(y)); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, cst(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, cst(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, cst(y));
  }
  Value ult(Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, cst(y));
  }
  Value clamp(Value x, int64_t bound) {
    return arith::MinUIOp::create(b, loc, x, cst(bound - 1));
  }
  /// The operand indices of `map` for the loop values m, n, k (batch loops
  /// from the block).
  SmallVector<Value> indices(AffineMap map, Value m, Value n, Value k);
  /// Cooperative copy of the A (`isA`) or B tile of the K slice at `k0`,
  /// zero past the edges: into `tile` [row][k] (A, row = m) or [k][n] (B),
  /// or with `coreMatrices`, into `tile` [row / 8][k / 8][row % 8][k % 8]
  /// for A and B alike (row = m or n; wgmma's K-major layout).
  void copyTile(bool isA, Value k0, Value tile, bool coreMatrices = false);
  /// The body of the mma.sync / MFMA kernel.
  void buildMmaBody();
  /// The body of the wgmma kernel (sm_90a).
  void buildWgmmaBody();
  /// Guarded store of accumulator element `v` at (`row`, `col`) of C.
  void storeOutput(Value v, Value row, Value col);

  // Fragment layouts, from the PTX ISA ("Matrix Fragments for mma.m16n8k16
  // with floating point type") and the CDNA3 ISA (MFMA 16x16x16 operands).
  Coord aCoord(int64_t e);
  Coord bCoord(int64_t e);
  Coord cCoord(int64_t e);

  linalg::LinalgOp op;
  const MmaContraction &c;
  const MatrixInstr &in;
  OpBuilder b;
  Location loc;
  SmallVector<AffineMap> maps;
  int64_t warpsN, warpTileN;
  bool wgmma;
  Value tid, lane, group, quad;
  Value aTile, bTile;
  Value m0, n0;
  SmallVector<Value> batchIv;
  int64_t mSize = 0, nSize = 0, kSize = 0;
};

Coord MmaKernelBuilder::aCoord(int64_t e) {
  if (in.nvidia) // a0..a7: row g (+8 for a2,a3,a6,a7), col 2t + e%2 (+8 from a4)
    return {add(group, 8 * ((e / 2) % 2)), add(mul(quad, 2), e % 2 + 8 * (e / 4))};
  // row lane % 16, k 4 * (lane / 16) + e
  return {rem(lane, 16), add(mul(div(lane, 16), 4), e)};
}

Coord MmaKernelBuilder::bCoord(int64_t e) {
  if (in.nvidia) // b0..b3: k 2t + e%2 (+8 for b2,b3), col g
    return {add(mul(quad, 2), e % 2 + 8 * (e / 2)), group};
  return {add(mul(div(lane, 16), 4), e), rem(lane, 16)};
}

Coord MmaKernelBuilder::cCoord(int64_t e) {
  if (in.nvidia) // c0..c3: row g (+8 for c2,c3), col 2t + e%2
    return {add(group, 8 * (e / 2)), add(mul(quad, 2), e % 2)};
  return {add(mul(div(lane, 16), 4), e), rem(lane, 16)};
}

SmallVector<Value> MmaKernelBuilder::indices(AffineMap map, Value m, Value n,
                                             Value k) {
  SmallVector<Value> iv(batchIv);
  iv[c.m] = m;
  iv[c.n] = n;
  iv[c.k] = k;
  SmallVector<Value> result;
  for (AffineExpr expr : map.getResults())
    result.push_back(iv[cast<AffineDimExpr>(expr).getPosition()]);
  return result;
}

void MmaKernelBuilder::copyTile(bool isA, Value k0, Value tileBuffer,
                                bool coreMatrices) {
  // A tile [kBM][kBK] (row = m), B tile [kBK][kBN] (row = k).
  unsigned input = isA ? 0 : 1;
  Value global = op.getDpsInputs()[input];
  AffineMap map = maps[input];
  int64_t parallelSize = isA ? mSize : nSize;
  int64_t tile = isA ? kBM : kBN;
  // Consecutive threads along the operand's contiguous dimension.
  bool kFastest = map.getResults().back().isFunctionOfDim(c.k);
  int64_t elements = tile * kBK, threads = kWarpsM * warpsN * in.warp;
  Value origin = isA ? m0 : n0;
  Type elementType = c.inType;
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 0));
  for (int64_t r = 0; r < llvm::divideCeil(elements, threads); ++r) {
    Value e = add(tid, r * threads);
    Value kk = kFastest ? rem(e, kBK) : div(e, tile);
    Value pp = kFastest ? div(e, kBK) : rem(e, tile);
    Value gp = add(origin, pp), gk = add(k0, kk);
    SmallVector<Value> conditions;
    if (parallelSize % tile)
      conditions.push_back(ult(gp, parallelSize));
    if (kSize % kBK)
      conditions.push_back(ult(gk, kSize));
    Value lp = parallelSize % tile ? clamp(gp, parallelSize) : gp;
    Value lk = kSize % kBK ? clamp(gk, kSize) : gk;
    SmallVector<Value> idx = isA ? indices(map, lp, cst(0), lk)
                                 : indices(map, cst(0), lp, lk);
    Value v = memref::LoadOp::create(b, loc, global, idx);
    if (!conditions.empty()) {
      Value inside = conditions.front();
      if (conditions.size() == 2)
        inside = arith::AndIOp::create(b, loc, inside, conditions.back());
      v = arith::SelectOp::create(b, loc, inside, v, zero);
    }
    SmallVector<Value> at = isA ? SmallVector<Value>{pp, kk}
                                : SmallVector<Value>{kk, pp};
    if (coreMatrices)
      at = {div(pp, 8), div(kk, 8), rem(pp, 8), rem(kk, 8)};
    memref::StoreOp::create(b, loc, v, tileBuffer, at);
  }
}

void MmaKernelBuilder::build() {
  MLIRContext *ctx = op.getContext();
  mSize = c.ranges[c.m];
  nSize = c.ranges[c.n];
  kSize = c.ranges[c.k];
  int64_t batch = 1;
  for (unsigned d : c.batch)
    batch *= c.ranges[d];
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // Rows padded by 8 elements (16 bytes) against bank conflicts of the
  // fragment gathers.
  SmallVector<Type> tileTypes = {
      MemRefType::get({kBM, kBK + 8}, c.inType, MemRefLayoutAttrInterface(),
                      workgroup),
      MemRefType::get({kBK, kBN + 8}, c.inType, MemRefLayoutAttrInterface(),
                      workgroup)};
  int64_t threads = kWarpsM * warpsN * in.warp;
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(llvm::divideCeil(nSize, kBN)),
      cst(llvm::divideCeil(mSize, kBM)), cst(batch), cst(threads), cst(1),
      cst(1), /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, tileTypes);
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);

  tid = launch.getThreadIds().x;
  aTile = launch.getWorkgroupAttributions()[0];
  bTile = launch.getWorkgroupAttributions()[1];
  m0 = mul(launch.getBlockIds().y, kBM);
  n0 = mul(launch.getBlockIds().x, kBN);
  lane = rem(tid, in.warp);
  group = div(lane, 4);
  quad = rem(lane, 4);
  Value zero = cst(0);
  batchIv.assign(op.getNumLoops(), zero);
  {
    Value linear = launch.getBlockIds().z;
    for (unsigned d : llvm::reverse(c.batch)) {
      if (d == c.batch.front()) {
        batchIv[d] = linear;
        break;
      }
      batchIv[d] = rem(linear, c.ranges[d]);
      linear = div(linear, c.ranges[d]);
    }
  }
  if (!wgmma || !in.nvidia)
    return buildMmaBody();
  // Both bodies; aotc-attach-cuda-targets keeps one per chip.
  auto variants = scf::IfOp::create(
      b, loc, aotc::createWgmmaVariantMarker(b, loc), /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(variants.thenYield());
  buildWgmmaBody();
  b.setInsertionPoint(variants.elseYield());
  buildMmaBody();
}

void MmaKernelBuilder::storeOutput(Value v, Value row, Value col) {
  OpBuilder::InsertionGuard guard(b);
  if (v.getType() != c.outType)
    v = arith::TruncFOp::create(b, loc, c.outType, v);
  SmallVector<Value> conditions;
  if (mSize % kBM)
    conditions.push_back(ult(row, mSize));
  if (nSize % kBN)
    conditions.push_back(ult(col, nSize));
  if (!conditions.empty()) {
    Value inside = conditions.front();
    if (conditions.size() == 2)
      inside = arith::AndIOp::create(b, loc, inside, conditions.back());
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  memref::StoreOp::create(b, loc, v, op.getDpsInits()[0],
                          indices(maps[2], row, col, cst(0)));
}

void MmaKernelBuilder::buildMmaBody() {
  Value warpId = div(tid, in.warp);
  Value warpRow = mul(div(warpId, warpsN), kWarpTileM);
  Value warpCol = mul(rem(warpId, warpsN), warpTileN);
  Value zero = cst(0);

  // Accumulator fragments fm x fn, seeded from C (clamped reads).
  int64_t fm = kWarpTileM / in.mi, fn = warpTileN / in.ni;
  Value out = op.getDpsInits()[0];
  Type f32 = b.getF32Type();
  SmallVector<SmallVector<Value>> rows(fm * fn), cols(fm * fn);
  SmallVector<Value> accs;
  Value zeros =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(in.cType));
  for (int64_t i = 0; i < fm; ++i) {
    for (int64_t j = 0; j < fn; ++j) {
      Value acc = zeros;
      for (int64_t e = 0; e < in.cElems; ++e) {
        Coord at = cCoord(e);
        Value row = add(add(m0, warpRow), add(at.row, i * in.mi));
        Value col = add(add(n0, warpCol), add(at.col, j * in.ni));
        rows[i * fn + j].push_back(row);
        cols[i * fn + j].push_back(col);
        Value lr = mSize % kBM ? clamp(row, mSize) : row;
        Value lc = nSize % kBN ? clamp(col, nSize) : col;
        Value v = memref::LoadOp::create(b, loc, out,
                                         indices(maps[2], lr, lc, zero));
        if (!v.getType().isF32())
          v = arith::ExtFOp::create(b, loc, f32, v);
        acc = vector::InsertOp::create(b, loc, v, acc,
                                       in.position(in.cType, e));
      }
      accs.push_back(acc);
    }
  }

  // K slices: copy, barrier, kBK / ki steps of fm x fn instructions,
  // barrier.
  int64_t slices = llvm::divideCeil(kSize, kBK);
  auto loop = scf::ForOp::create(b, loc, zero, cst(slices * kBK), cst(kBK),
                                 accs);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k0 = loop.getInductionVar();
    copyTile(/*isA=*/true, k0, aTile);
    copyTile(/*isA=*/false, k0, bTile);
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value> cur = llvm::to_vector_of<Value>(loop.getRegionIterArgs());
    Value aZeros =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(in.aType));
    Value bZeros =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(in.bType));
    for (int64_t ks = 0; ks < kBK / in.ki; ++ks) {
      SmallVector<Value> aFrags, bFrags;
      for (int64_t i = 0; i < fm; ++i) {
        Value frag = aZeros;
        for (int64_t e = 0; e < in.aElems; ++e) {
          Coord at = aCoord(e);
          Value v = memref::LoadOp::create(
              b, loc, aTile,
              ValueRange{add(warpRow, add(at.row, i * in.mi)),
                         add(at.col, ks * in.ki)});
          frag = vector::InsertOp::create(b, loc, v, frag,
                                          in.position(in.aType, e));
        }
        aFrags.push_back(frag);
      }
      for (int64_t j = 0; j < fn; ++j) {
        Value frag = bZeros;
        for (int64_t e = 0; e < in.bElems; ++e) {
          Coord at = bCoord(e);
          Value v = memref::LoadOp::create(
              b, loc, bTile,
              ValueRange{add(at.row, ks * in.ki),
                         add(warpCol, add(at.col, j * in.ni))});
          frag = vector::InsertOp::create(b, loc, v, frag,
                                          in.position(in.bType, e));
        }
        bFrags.push_back(frag);
      }
      for (int64_t i = 0; i < fm; ++i) {
        for (int64_t j = 0; j < fn; ++j) {
          Value &acc = cur[i * fn + j];
          if (in.nvidia)
            acc = nvgpu::MmaSyncOp::create(
                b, loc, aFrags[i], bFrags[j], acc,
                ArrayRef<int64_t>{in.mi, in.ni, in.ki});
          else
            acc = amdgpu::MFMAOp::create(
                b, loc, in.cType, in.mi, in.ni, in.ki, /*blocks=*/1,
                aFrags[i], bFrags[j], acc);
        }
      }
    }
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, cur);
  }

  // Guarded stores of the fragments, in C's type.
  for (int64_t f = 0; f < fm * fn; ++f) {
    for (int64_t e = 0; e < in.cElems; ++e) {
      Value v = vector::ExtractOp::create(b, loc, loop.getResult(f),
                                          in.position(in.cType, e));
      storeOutput(v, rows[f][e], cols[f][e]);
    }
  }
}

/// wgmma m64n32k16: each of the 2 warpgroups computes 64 x 32 of the block
/// tile, one instruction per 16-deep K slice.
constexpr int64_t kWgmmaN = 32, kWgmmaThreads = 128, kWgmmaElems = 16;

void MmaKernelBuilder::buildWgmmaBody() {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  Value zero = cst(0);
  // PTX ISA, "Matrix fragments for wgmma .m64nNk16", accumulator D: warp w
  // of the warpgroup holds rows 16w..16w+15; element 4j + e of a lane is at
  // row lane / 4 (+8 for e >= 2), column 8j + 2 (lane % 4) + e % 2.
  Value warpgroup = div(tid, kWgmmaThreads);
  Value warpRow = mul(rem(div(tid, 32), 4), 16);
  Value groupCol = mul(warpgroup, kWgmmaN);
  SmallVector<Value> rows, cols;
  Value acc = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(VectorType::get({kWgmmaElems}, f32)));
  for (int64_t e = 0; e < kWgmmaElems; ++e) {
    Value row = add(m0, add(warpRow, add(group, 8 * ((e % 4) / 2))));
    Value col = add(add(n0, groupCol), add(mul(quad, 2), 8 * (e / 4) + e % 2));
    rows.push_back(row);
    cols.push_back(col);
    Value lr = mSize % kBM ? clamp(row, mSize) : row;
    Value lc = nSize % kBN ? clamp(col, nSize) : col;
    Value v = memref::LoadOp::create(b, loc, op.getDpsInits()[0],
                                     indices(maps[2], lr, lc, zero));
    if (!v.getType().isF32())
      v = arith::ExtFOp::create(b, loc, f32, v);
    acc = vector::InsertOp::create(b, loc, v, acc, ArrayRef<int64_t>{e});
  }

  // The workgroup buffers of the mma.sync body hold the K-major core
  // matrices: [row / 8][k / 8][row % 8][k % 8], 8 rows of 16 bytes per core
  // matrix (128 bytes), the two along K 128 bytes apart (leading byte
  // offset), consecutive 8-row groups 256 bytes apart (stride byte offset).
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto coreType = MemRefType::get({kBM / 8, kBK / 8, 8, 8}, c.inType,
                                  MemRefLayoutAttrInterface(), workgroup);
  auto asCore = [&](Value tile) -> Value {
    return memref::ReinterpretCastOp::create(
        b, loc, coreType, tile, /*offset=*/0,
        /*sizes=*/ArrayRef<int64_t>{kBM / 8, kBK / 8, 8, 8},
        /*strides=*/ArrayRef<int64_t>{kBK * 8, 64, 8, 1});
  };
  Value aCore = asCore(aTile), bCore = asCore(bTile);
  constexpr int64_t kLeadingBytes = 128, kStrideBytes = kBK / 8 * 128;
  // 64-bit matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start
  // address bits 0-13 ((address & 0x3FFFF) >> 4), leading byte offset >> 4
  // bits 16-29, stride byte offset >> 4 bits 32-45, base offset 0, swizzle
  // mode 0 (bits 62-63: none).
  auto i64c = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  auto descriptor = [&](Value tile, Value byteOffset) -> Value {
    Value address = arith::IndexCastOp::create(
        b, loc, i64,
        add(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tile),
            byteOffset));
    Value start = arith::ShRUIOp::create(
        b, loc, arith::AndIOp::create(b, loc, address, i64c(0x3FFFF)),
        i64c(4));
    int64_t fixed = ((kLeadingBytes >> 4) << 16) |
                    (int64_t((kStrideBytes >> 4)) << 32);
    return arith::OrIOp::create(b, loc, start, i64c(fixed));
  };
  // A: all 64 rows; B: this warpgroup's 32 columns (4 groups of 8 rows).
  Value descA = descriptor(aCore, zero);
  Value descB =
      descriptor(bCore, mul(warpgroup, kWgmmaN / 8 * kStrideBytes));

  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(kWgmmaElems, f32));
  NVVM::WGMMATypes inType =
      c.inType.isF16() ? NVVM::WGMMATypes::f16 : NVVM::WGMMATypes::bf16;
  int64_t slices = llvm::divideCeil(kSize, kBK);
  auto loop = scf::ForOp::create(b, loc, zero, cst(slices * kBK), cst(kBK),
                                 ValueRange{acc});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k0 = loop.getInductionVar();
    copyTile(/*isA=*/true, k0, aCore, /*coreMatrices=*/true);
    copyTile(/*isA=*/false, k0, bCore, /*coreMatrices=*/true);
    // The tiles were written through the generic proxy; wgmma reads them
    // through the async proxy.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b, loc);
    Value cur = loop.getRegionIterArg(0);
    Value packed = LLVM::PoisonOp::create(b, loc, structType);
    for (int64_t e = 0; e < kWgmmaElems; ++e)
      packed = LLVM::InsertValueOp::create(
          b, loc, packed,
          vector::ExtractOp::create(b, loc, cur, ArrayRef<int64_t>{e}), e);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value d = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, structType, packed, descA, descB,
        NVVM::MMAShapeAttr::get(ctx, 64, kWgmmaN, 16),
        NVVM::WGMMATypesAttr::get(ctx, inType),
        NVVM::WGMMATypesAttr::get(ctx, inType),
        NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
        NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
        NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
        NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
        // A row-major and B column-major: both K-major, no transpose.
        NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
        NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col),
        /*satfinite=*/nullptr);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    for (int64_t e = 0; e < kWgmmaElems; ++e)
      cur = vector::InsertOp::create(
          b, loc, LLVM::ExtractValueOp::create(b, loc, d, e), cur,
          ArrayRef<int64_t>{e});
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, cur);
  }
  for (int64_t e = 0; e < kWgmmaElems; ++e)
    storeOutput(vector::ExtractOp::create(b, loc, loop.getResult(0),
                                          ArrayRef<int64_t>{e}),
                rows[e], cols[e]);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct GpuMmaContractionsPass
    : aotc::impl::GpuMmaContractionsBase<GpuMmaContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if ((!allFunctions && !func->hasAttr(aotc::kEntryAttrName)) ||
        func.isExternal())
      return;
    if (target != "nvgpu" && target != "amdgpu") {
      func.emitError("target must be nvgpu or amdgpu, not '") << target << "'";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      if (op->getParentOp() != func.getOperation())
        continue;
      std::optional<MmaContraction> c = matchMma(op);
      if (!c)
        continue;
      MatrixInstr instr(target == "nvgpu", c->inType);
      MmaKernelBuilder(op, *c, instr, wgmma).build();
      op->erase();
    }
  }
};

} // namespace
