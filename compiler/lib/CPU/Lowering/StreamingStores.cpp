//===- StreamingStores.cpp - Non-temporal stores of big outputs -*- C++ -*-===//
//
// This file implements the aotc-streaming-stores pass: a thread loop that
// only writes a buffer larger than the caches writes it with non-temporal
// vector stores, which skip the read of every line before its write (a
// quarter of such a loop's memory traffic when it reads two buffers) and do
// not evict the data the loop reads. Stores become non-temporal only where
// they are aligned to their vector size: statically for the offsets, by a
// run-time check of the buffer's address (the ABI only guarantees element
// alignment), with the original loop kept for a misaligned buffer.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include <numeric>

namespace aotc {
#define GEN_PASS_DEF_STREAMINGSTORES
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// A number that `value` is known to be a multiple of (0: `value` is 0).
int64_t knownDivisor(Value value);

int64_t divisorOfStep(OpFoldResult lower, OpFoldResult step) {
  auto divisor = [](OpFoldResult ofr) -> int64_t {
    if (std::optional<int64_t> c = getConstantIntValue(ofr))
      return std::abs(*c);
    return knownDivisor(cast<Value>(ofr));
  };
  return std::gcd(divisor(lower), divisor(step));
}

int64_t divisorOfExpr(AffineExpr expr, ValueRange dims, ValueRange symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return std::abs(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return knownDivisor(dims[d.getPosition()]);
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return knownDivisor(symbols[s.getPosition()]);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = divisorOfExpr(binary.getLHS(), dims, symbols);
  int64_t rhs = divisorOfExpr(binary.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::gcd(lhs, rhs);
  case AffineExprKind::Mul:
    return lhs * rhs;
  default:
    return 1;
  }
}

int64_t knownDivisor(Value value) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return std::abs(*c);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar())
      return divisorOfStep(loop.getLowerBound(), loop.getStep());
    if (auto forall = dyn_cast<scf::ForallOp>(owner)) {
      unsigned i = arg.getArgNumber();
      if (i < forall.getRank())
        return divisorOfStep(forall.getMixedLowerBound()[i],
                             forall.getMixedStep()[i]);
    }
    return 1;
  }
  Operation *op = value.getDefiningOp();
  if (auto add = dyn_cast<arith::AddIOp>(op))
    return std::gcd(knownDivisor(add.getLhs()), knownDivisor(add.getRhs()));
  if (auto mul = dyn_cast<arith::MulIOp>(op))
    return knownDivisor(mul.getLhs()) * knownDivisor(mul.getRhs());
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    return divisorOfExpr(map.getResult(0), apply.getDimOperands(),
                         apply.getSymbolOperands());
  }
  return 1;
}

/// The bytes `store` writes.
int64_t storedBytes(vector::StoreOp store) {
  VectorType vector = store.getVectorType();
  return vector.getNumElements() * vector.getElementTypeBitWidth() / 8;
}

/// Whether `store` writes a whole vector at an offset (in bytes, from the
/// buffer's address) that is a multiple of the vector's size.
bool hasAlignedOffset(vector::StoreOp store) {
  auto type = cast<MemRefType>(store.getBase().getType());
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t vectorBytes = storedBytes(store);
  if (store.getVectorType().getRank() != 1 ||
      !llvm::isPowerOf2_64(vectorBytes) ||
      type.getElementTypeBitWidth() % 8 != 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset * elementBytes % vectorBytes)
    return false;
  for (auto [index, stride] : llvm::zip(store.getIndices(), strides)) {
    if (ShapedType::isDynamic(stride))
      return false;
    // index * stride * elementBytes must be a multiple of vectorBytes
    // (modulo arithmetic: no overflow).
    int64_t divisor = knownDivisor(index) % vectorBytes;
    int64_t strideBytes = std::abs(stride) % vectorBytes * elementBytes;
    if (divisor * strideBytes % vectorBytes != 0)
      return false;
  }
  return true;
}

struct StreamingStoresPass
    : aotc::impl::StreamingStoresBase<StreamingStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForallOp> loops;
    getOperation().walk([&](scf::ForallOp loop) {
      if (!loop->getParentOfType<scf::ForallOp>())
        loops.push_back(loop);
    });
    for (scf::ForallOp loop : loops)
      stream(loop);
  }

  /// The buffers `loop` only writes, with whole aligned vector stores, and
  /// that hold at least `minBytes`.
  SmallVector<Value> streamedBuffers(scf::ForallOp loop) {
    llvm::SetVector<Value> buffers;
    loop.walk([&](vector::StoreOp store) {
      auto type = cast<MemRefType>(store.getBase().getType());
      if (type.hasStaticShape() &&
          type.getNumElements() * type.getElementTypeBitWidth() / 8 >=
              static_cast<int64_t>(minBytes) &&
          !loop->isAncestor(store.getBase().getParentBlock()->getParentOp()))
        buffers.insert(store.getBase());
    });
    SmallVector<Value> result;
    for (Value buffer : buffers) {
      auto isAlignedStore = [&](Operation *user) {
        if (!loop->isAncestor(user))
          return true;
        auto store = dyn_cast<vector::StoreOp>(user);
        return store && store.getBase() == buffer && hasAlignedOffset(store);
      };
      if (llvm::all_of(buffer.getUsers(), isAlignedStore))
        result.push_back(buffer);
    }
    return result;
  }

  void stream(scf::ForallOp loop) {
    SmallVector<Value> buffers = streamedBuffers(loop);
    if (buffers.empty())
      return;
    // if (every buffer's address is aligned) { loop, non-temporal stores }
    // else { loop }
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value aligned;
    for (Value buffer : buffers) {
      int64_t vectorBytes = 0;
      for (Operation *user : buffer.getUsers())
        if (auto store = dyn_cast<vector::StoreOp>(user);
            store && loop->isAncestor(store))
          vectorBytes = std::max(vectorBytes, storedBytes(store));
      Value address =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
      Value misalignment = arith::RemUIOp::create(
          b, loc, address, arith::ConstantIndexOp::create(b, loc, vectorBytes));
      Value isAligned = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, misalignment,
          arith::ConstantIndexOp::create(b, loc, 0));
      aligned = aligned ? arith::AndIOp::create(b, loc, aligned, isAligned)
                        : isAligned;
    }
    auto branch = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    b.setInsertionPointToStart(branch.thenBlock());
    auto streaming = cast<scf::ForallOp>(b.clone(*loop));
    loop->moveBefore(branch.elseBlock()->getTerminator());
    streaming.walk([&](vector::StoreOp store) {
      if (!llvm::is_contained(buffers, store.getBase()))
        return;
      store.setNontemporal(true);
      store.setAlignment(storedBytes(store));
    });
    // Non-temporal stores are weakly ordered: every iteration (a thread tile)
    // fences its own before the loop's end makes them visible to the others.
    b.setInsertionPoint(streaming.getTerminator());
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
  }
};

} // namespace
