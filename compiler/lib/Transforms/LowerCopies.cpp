//===- LowerCopies.cpp - memref.copy to linalg copies ---------*- C++ -*-===//
//
// This file implements the aotc-lower-copies pass. memref.copy between
// non-contiguous buffers lowers to a call of the `memrefCopy` runtime
// function; as a linalg copy it becomes plain loops instead. On the CPU,
// short contiguous rows (the tiles of a slice copy) are copied as vectors,
// one row per iteration: LLVM leaves such short loops scalar.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aotc {
#define GEN_PASS_DEF_LOWERCOPIES
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Longest row copied as one vector, in bits (four AVX-512 registers).
constexpr int64_t kMaxRowBits = 4 * 512;

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
/// the outer dims, one vector<row> per iteration. Failure when a row is too
/// long or not contiguous on both sides (the caller keeps a linalg copy).
LogicalResult copyRowsAsVectors(OpBuilder &b, Location loc, Value source,
                                Value target) {
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  if (!hasContiguousRows(sourceType) || !hasContiguousRows(targetType))
    return failure();
  Type elementType = sourceType.getElementType();
  int64_t row = sourceType.getShape().back();
  if (row * elementType.getIntOrFloatBitWidth() > kMaxRowBits || row == 0)
    return failure();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> indices;
  for (int64_t size : sourceType.getShape().drop_back()) {
    if (size == 1) {
      indices.push_back(zero);
      continue;
    }
    Value bound = arith::ConstantIndexOp::create(b, loc, size);
    auto loop = scf::ForOp::create(b, loc, zero, bound, one);
    b.setInsertionPointToStart(loop.getBody());
    indices.push_back(loop.getInductionVar());
  }
  indices.push_back(zero);
  auto vectorType = VectorType::get({row}, elementType);
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
    OpBuilder b(&getContext());
    for (memref::CopyOp copy : copies) {
      // A tile written in place and "copied" onto itself is a no-op.
      if (copy.getSource() == copy.getTarget()) {
        copy.erase();
        continue;
      }
      b.setInsertionPoint(copy);
      if (!vectorRows || failed(copyRowsAsVectors(b, copy.getLoc(),
                                                  copy.getSource(),
                                                  copy.getTarget()))) {
        b.setInsertionPoint(copy);
        linalg::makeMemRefCopyOp(b, copy.getLoc(), copy.getSource(),
                                 copy.getTarget());
      }
      copy.erase();
    }
  }
};

} // namespace
