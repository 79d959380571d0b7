//===- MaskPartialVectors.cpp - Odd loads as masked loads -----*- C++ -*-===//
//
// This file implements the aotc-mask-partial-vectors pass: a 1-D load
// whose lanes past its last whole register are not a power of two (a row
// of 14 or 7 floats, an image row's part past its whole registers) becomes
// a masked load of the next power of two of them, when the target's rule
// (aotc::maskedAccessLanes) says so. LLVM would otherwise split it into
// power-of-two pieces, three loads and two inserts for 14 floats.
//
// Stores stay split: a masked store's whole register counts for the loads
// after it, so a loop that reads the row after the one it stored waits for
// the store to retire (ReLU in place on MnasNet's 7-wide rows took 8 times
// as long with masked stores of 7 lanes).
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"
#include "aotc/CPU/Strategy/Tiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aotc {
#define GEN_PASS_DEF_MASKPARTIALVECTORS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The lanes `type` is widened to (aotc::maskedAccessLanes), 0 when it is
/// not: fixed 1-D vectors of integers or floats only.
int64_t widenedLanes(VectorType type, const aotc::CpuTarget &target) {
  if (type.getRank() != 1 || type.isScalable() ||
      !type.getElementType().isIntOrFloat())
    return 0;
  return aotc::maskedAccessLanes(type.getNumElements(),
                                 type.getElementType().getIntOrFloatBitWidth(),
                                 target);
}

/// `load` as a masked load of `lanes`, its own lanes taken out of it.
void widenLoad(OpBuilder &b, vector::LoadOp load, int64_t lanes) {
  VectorType narrow = load.getVectorType();
  auto wide = VectorType::get({lanes}, narrow.getElementType());
  Location loc = load.getLoc();
  b.setInsertionPoint(load);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
  Value mask = vector::ConstantMaskOp::create(
      b, loc, VectorType::get({lanes}, b.getI1Type()),
      ArrayRef<int64_t>{narrow.getNumElements()});
  auto masked = vector::MaskedLoadOp::create(b, loc, wide, load.getBase(),
                                             load.getIndices(), mask, zero);
  if (auto alignment = load.getAlignment())
    masked.setAlignment(alignment);
  Value part = vector::ExtractStridedSliceOp::create(
      b, loc, masked.getResult(), ArrayRef<int64_t>{0},
      ArrayRef<int64_t>{narrow.getNumElements()}, ArrayRef<int64_t>{1});
  load.getResult().replaceAllUsesWith(part);
  load.erase();
}

struct MaskPartialVectorsPass
    : aotc::impl::MaskPartialVectorsBase<MaskPartialVectorsPass> {
  void runOnOperation() override {
    aotc::CpuTarget target = aotc::CpuTarget::of(getOperation());
    SmallVector<std::pair<vector::LoadOp, int64_t>> loads;
    getOperation().walk([&](vector::LoadOp load) {
      if (int64_t lanes = widenedLanes(load.getVectorType(), target))
        loads.emplace_back(load, lanes);
    });
    OpBuilder b(&getContext());
    for (auto [load, lanes] : loads)
      widenLoad(b, load, lanes);
  }
};

} // namespace
