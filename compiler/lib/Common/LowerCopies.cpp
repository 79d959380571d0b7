//===- LowerCopies.cpp - memref.copy to linalg copies ---------*- C++ -*-===//
//
// This file implements the aotc-lower-copies pass. memref.copy between
// non-contiguous buffers lowers to a call of the `memrefCopy` runtime
// function; as a linalg copy it becomes plain loops instead. On the CPU,
// short contiguous rows (the tiles of a slice copy) are copied as vectors,
// one row per iteration: LLVM leaves such short loops scalar.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aotc {
#define GEN_PASS_DEF_LOWERCOPIES
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Longest row copied as one vector, in bits (four AVX-512 registers).
constexpr int64_t kMaxRowBits = 4 * 512;
/// Smallest copy outside any thread loop that gets threads of its own, in
/// multiples of min-work (an element copied costs less than an iteration
/// of an op): twice, 65536 elements (an image cropped from a flattened grid
/// before a matmul reads it collapsed: 144 x 56 x 56 floats in MobileNetV2).
/// In a function with thread loops, whose parallel regions the copy then
/// joins (a Winograd output cropped to the 192 x 13 x 13 of a concatenation
/// in SqueezeNet), the share of min-work from which
/// aotc-distribute-to-forall threads the ops without reductions around such
/// copies (aotc::kNonReducingMinWorkDivisor).
constexpr int64_t kStandaloneCopyWorkFactor = 2;

/// True when `type` is static with a unit innermost stride and elements of
/// whole bytes.
bool hasContiguousRows(MemRefType type) {
  int64_t offset;
  SmallVector<int64_t> strides;
  // Whole bytes only: a vector of i1 is bit-packed, the buffer is not.
  return type.hasStaticShape() && type.getRank() > 0 &&
         type.getElementType().isIntOrFloat() &&
         type.getElementType().getIntOrFloatBitWidth() % 8 == 0 &&
         succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Copies `source` into `target` row by row with vector transfers: loops over
/// the outer dims, one vector<row> per iteration; with `parallel`, the
/// outermost of them is an scf.forall (threads). Failure when a row cannot
/// be cut into equal vectors (see below) or is not contiguous on both sides
/// (the caller keeps a linalg copy).
LogicalResult copyRowsAsVectors(OpBuilder &b, Location loc, Value source,
                                Value target, bool parallel) {
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  if (!hasContiguousRows(sourceType) || !hasContiguousRows(targetType))
    return failure();
  Type elementType = sourceType.getElementType();
  int64_t row = sourceType.getShape().back();
  // A longer row is copied in equal pieces of at most kMaxRowBits (a row of
  // 224 floats as 4 x 56), if its length has a divisor of at least a quarter
  // of that; otherwise it stays a linalg copy.
  int64_t maxPiece = kMaxRowBits / elementType.getIntOrFloatBitWidth();
  int64_t piece = aotc::largestDivisorAtMost(row, maxPiece);
  if (row == 0 || (row > maxPiece && piece * 4 < maxPiece))
    return failure();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> indices;
  for (int64_t size : sourceType.getShape().drop_back()) {
    if (size == 1) {
      indices.push_back(zero);
      continue;
    }
    if (parallel) {
      auto loop = scf::ForallOp::create(
          b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(size)},
          ValueRange{}, std::nullopt);
      b.setInsertionPointToStart(loop.getBody());
      indices.push_back(loop.getInductionVar(0));
      parallel = false;
      continue;
    }
    Value bound = arith::ConstantIndexOp::create(b, loc, size);
    auto loop = scf::ForOp::create(b, loc, zero, bound, one);
    b.setInsertionPointToStart(loop.getBody());
    indices.push_back(loop.getInductionVar());
  }
  if (piece < row) {
    Value bound = arith::ConstantIndexOp::create(b, loc, row);
    Value step = arith::ConstantIndexOp::create(b, loc, piece);
    auto loop = scf::ForOp::create(b, loc, zero, bound, step);
    b.setInsertionPointToStart(loop.getBody());
    indices.push_back(loop.getInductionVar());
  } else {
    indices.push_back(zero);
  }
  auto vectorType = VectorType::get({piece}, elementType);
  Value padding = ub::PoisonOp::create(b, loc, elementType);
  SmallVector<bool> inBounds = {true};
  Value value = vector::TransferReadOp::create(
      b, loc, vectorType, source, indices, padding, inBounds);
  vector::TransferWriteOp::create(b, loc, value, target, indices, inBounds);
  return success();
}

struct LowerCopiesPass : aotc::impl::LowerCopiesBase<LowerCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp op) { copies.push_back(op); });
    bool threaded = false;
    getOperation().walk([&](scf::ForallOp) {
      threaded = true;
      return WalkResult::interrupt();
    });
    int64_t minParallel =
        threaded ? minParallelWork / aotc::kNonReducingMinWorkDivisor
                 : minParallelWork * kStandaloneCopyWorkFactor;
    OpBuilder b(&getContext());
    for (memref::CopyOp copy : copies) {
      // A tile written in place and "copied" onto itself is a no-op.
      if (copy.getSource() == copy.getTarget()) {
        copy.erase();
        continue;
      }
      b.setInsertionPoint(copy);
      // Copies outside every thread loop (made by bufferization between
      // ops) get threads when they are big.
      auto type = cast<MemRefType>(copy.getSource().getType());
      bool parallel = isa<func::FuncOp>(copy->getParentOp()) &&
                      type.hasStaticShape() &&
                      type.getNumElements() >= minParallel;
      if (!vectorRows ||
          failed(copyRowsAsVectors(b, copy.getLoc(), copy.getSource(),
                                   copy.getTarget(), parallel))) {
        b.setInsertionPoint(copy);
        linalg::makeMemRefCopyOp(b, copy.getLoc(), copy.getSource(),
                                 copy.getTarget());
      }
      copy.erase();
    }
  }
};

} // namespace
