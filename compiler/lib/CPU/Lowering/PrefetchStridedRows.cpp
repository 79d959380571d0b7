//===- PrefetchStridedRows.cpp - Prefetch far-apart rows --------*- C++ -*-===//
//
// This file implements the aotc-prefetch-strided-rows pass: a loop that
// reads one short contiguous row of a buffer per iteration, its rows at
// least a KiB apart (a register tile's lanes down the reduction of a
// right-hand side read in place, unpacked: one row per input channel of a
// 1x1 convolution over a 55 x 55 image, 12 KiB apart), gets a prefetch of
// the same row further along, where the tiles after the next one read it.
// The hardware prefetchers follow a stream within a page and only a few
// streams at once; such a loop starts a new page every few iterations, and
// a register tile otherwise waits for each of its rows to come from the L3
// cache or memory. A loop that walks a large buffer of constants (a
// register tile's packed weights down its reduction, a few hundred KiB a
// layer, which do not stay in the caches between runs of a model) gets a
// prefetch 4 KiB ahead in that buffer: the stream prefetchers fetched it
// too late, and the tile waited on memory (regnet_x_400mf's 1x1
// convolutions ran at 0.12 ms in the model, 0.074 ms alone).
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"
#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aotc {
#define GEN_PASS_DEF_PREFETCHSTRIDEDROWS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Reads ahead: the row two reads further along, which the register tile
/// after the next one reads. For rows 12 KiB apart (squeezenet1_1's first
/// squeeze layer, 64 -> 16 channels over 55 x 55 pixels) one read ahead
/// comes too late, and four gain nothing over two.
constexpr int64_t kReadsAhead = 2;

/// Smallest buffer prefetched: one of at most 64 KiB (a thread tile's
/// scratch, such as the im2col block of a stem convolution, written just
/// before) stays in L1 and L2 between its writes and reads, and its
/// prefetches only cost instructions, many for few FMAs (squeezenet1_1's
/// stem: 27 steps of 12 FMAs over a 36 KiB block).
constexpr int64_t kMinBufferBytes = 64 * 1024;

/// How far ahead a stream of weights is prefetched. regnet_x_400mf, A/B at
/// 1 thread: 2 KiB took 0.84x the time without, 4 KiB 0.95x the time of
/// 2 KiB, 1 KiB 1.06x; 8 KiB no better than 4 KiB.
constexpr int64_t kWeightsAheadBytes = 4096;

/// The vector dimension that reads memref dimension `dim` through
/// `read`'s permutation map, if any.
std::optional<unsigned> vectorDimOf(vector::TransferReadOp read, unsigned dim) {
  return read.getPermutationMap().getResultPosition(
      getAffineDimExpr(dim, read.getContext()));
}

struct PrefetchStridedRowsPass
    : aotc::impl::PrefetchStridedRowsBase<PrefetchStridedRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<vector::TransferReadOp> reads;
    getOperation().walk([&](vector::TransferReadOp read) {
      if (isa_and_nonnull<scf::ForOp>(read->getParentOp()))
        reads.push_back(read);
    });
    // One prefetch per cache line of a register's row.
    int64_t lineBytes = aotc::CpuTarget::of(getOperation()).lineBytes;
    for (vector::TransferReadOp read : reads) {
      prefetch(read, lineBytes);
      prefetchWeights(read);
    }
  }

  /// Prefetches kWeightsAheadBytes further along a contiguous stream of
  /// constants that `read` walks: each iteration of its loop reads the
  /// next block of a weight buffer (a packed left-hand side panel down its
  /// reduction), a buffer larger than kMinBufferBytes.
  void prefetchWeights(vector::TransferReadOp read) {
    auto loop = cast<scf::ForOp>(read->getParentOp());
    auto global = read.getBase().getDefiningOp<memref::GetGlobalOp>();
    auto type = dyn_cast<MemRefType>(read.getBase().getType());
    if (!global || !type || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return;
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    if (type.getNumElements() * elementBytes <= kMinBufferBytes)
      return;
    auto step = getConstantIntValue(loop.getStep());
    if (!step || *step != 1)
      return;
    // The loop steps dimension `dim`; the read takes every element of the
    // dimensions after it: one contiguous block per iteration.
    unsigned rank = type.getRank();
    std::optional<unsigned> dim;
    for (unsigned d = 0; d < rank; ++d)
      if (read.getIndices()[d] == loop.getInductionVar())
        dim = d;
    if (!dim)
      return;
    for (unsigned d = *dim + 1; d < rank; ++d) {
      std::optional<unsigned> v = vectorDimOf(read, d);
      if (!v || read.getVectorType().getDimSize(*v) != type.getDimSize(d) ||
          !isConstantIntValue(read.getIndices()[d], 0))
        return;
    }
    // The element kWeightsAheadBytes further in the buffer (clamped to its
    // last), through a flat view of it.
    OpBuilder b(read);
    Location loc = read.getLoc();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      return;
    int64_t ahead = llvm::divideCeil(kWeightsAheadBytes, elementBytes);
    int64_t last = type.getNumElements() - 1;
    AffineExpr linear = b.getAffineConstantExpr(ahead);
    for (unsigned d = 0; d < rank; ++d)
      linear = linear + b.getAffineDimExpr(d) * strides[d];
    AffineMap clamp = AffineMap::get(
        rank, 0, {linear, b.getAffineConstantExpr(last)}, b.getContext());
    Value index =
        affine::AffineMinOp::create(b, loc, clamp, read.getIndices());
    SmallVector<ReassociationIndices> all(1);
    for (unsigned d = 0; d < rank; ++d)
      all.front().push_back(d);
    Value flat = memref::CollapseShapeOp::create(b, loc, read.getBase(), all);
    memref::PrefetchOp::create(b, loc, flat, ValueRange{index},
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
  }

  /// Prefetches the row `read` reads kReadsAhead reads further along its
  /// innermost dimension, when it is one contiguous row of a static buffer
  /// larger than kMinBufferBytes and its loop's induction variable steps a
  /// dimension at least `minRowBytes` apart.
  void prefetch(vector::TransferReadOp read, int64_t lineBytes) {
    auto loop = cast<scf::ForOp>(read->getParentOp());
    auto type = dyn_cast<MemRefType>(read.getBase().getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return;
    unsigned rank = type.getRank();
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    if (type.getNumElements() * elementBytes <= kMinBufferBytes)
      return;
    std::optional<unsigned> laneDim = vectorDimOf(read, rank - 1);
    if (!laneDim)
      return;
    int64_t lanes = read.getVectorType().getDimSize(*laneDim);
    // One row: every other dimension of the buffer is read at one index.
    bool steppedRows = false;
    for (unsigned d = 0; d + 1 < rank; ++d) {
      if (std::optional<unsigned> v = vectorDimOf(read, d);
          v && read.getVectorType().getDimSize(*v) != 1)
        return;
      if (read.getIndices()[d] == loop.getInductionVar() &&
          !ShapedType::isDynamic(strides[d]) &&
          std::abs(strides[d]) * elementBytes >=
              static_cast<int64_t>(minRowBytes))
        steppedRows = true;
    }
    if (!steppedRows || lanes * elementBytes < lineBytes)
      return;

    OpBuilder b(read);
    Location loc = read.getLoc();
    int64_t last = type.getShape().back() - 1;
    Value column = read.getIndices().back();
    SmallVector<Value> indices(read.getIndices());
    for (int64_t line = 0; line * lineBytes < lanes * elementBytes; ++line) {
      // Clamped to the row: a prefetch past the end of the buffer would
      // be an out-of-bounds access of the memref.
      int64_t ahead = kReadsAhead * lanes + line * lineBytes / elementBytes;
      AffineExpr d0 = b.getAffineDimExpr(0);
      AffineMap clamp = AffineMap::get(
          1, 0, {d0 + ahead, b.getAffineConstantExpr(last)}, b.getContext());
      indices.back() = affine::AffineMinOp::create(b, loc, clamp, column);
      memref::PrefetchOp::create(b, loc, read.getBase(), indices,
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  }
};

} // namespace
