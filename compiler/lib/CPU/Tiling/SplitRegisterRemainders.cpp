//===- SplitRegisterRemainders.cpp - Contractions in whole tiles -*- C++
//-*-===//
//
// This file implements the aotc-split-register-remainders pass: every
// contraction whose rows or columns are not a multiple of its register tile
// is split into static parts that are, before the register tiles are
// chosen.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/CPU/Tiling/RegisterRemainders.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

namespace aotc {
#define GEN_PASS_DEF_SPLITREGISTERREMAINDERS
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Splits a contraction whose row or lane loop is not a multiple of the
/// register tile into a multiple part and a remainder (each static), so
/// that e.g. 197 rows become 192 rows of 8-row tiles and one 5-row tile
/// (with 512-bit registers) instead of 197 one-row tiles (49 rows are not
/// split: seven 7-row tiles, aotc::contractionRowTile). A lane remainder
/// wider than one vector register is split again at a whole register (49
/// columns: 32 + 16 + 1), since a vector a little wider than a register
/// (17 lanes) is lowered element by element. Each part computes its own
/// init producer and elementwise consumer (aotc::splitWithOwnInits,
/// aotc::splitElementwiseConsumer), which it can then take into its
/// register tiles. Last, a part whose register tiles span several row
/// panels (aotc::rowPanelSpan) is split at the last multiple of that span
/// when it does not divide the panels: SqueezeNet's classifier has thread
/// tiles of 31 row panels (1000 = 125 x 8 rows), prime, so its 9-column
/// remainder had one-panel tiles of 8 accumulators of 9 lanes; 30 + 1
/// panels give most of it 16.
void splitRemainders(RewriterBase &rewriter, linalg::LinalgOp op, int64_t lanes,
                     aotc::VectorRegisters registers) {
  SmallVector<linalg::LinalgOp> parts = {op};
  auto [row, lane] = *aotc::contractionTileDims(op);
  for (auto [dim, step] :
       {std::make_pair(row, aotc::contractionRowTile(
                                op.getStaticLoopRanges()[row], registers)),
        std::make_pair(lane, aotc::kContractionRegistersPerRow * lanes),
        std::make_pair(lane, lanes)}) {
    SmallVector<linalg::LinalgOp> next;
    for (linalg::LinalgOp part : parts) {
      int64_t range = part.getStaticLoopRanges()[dim];
      if (range <= step || range % step == 0) {
        next.push_back(part);
        continue;
      }
      auto [head, tail] =
          aotc::splitWithOwnInits(rewriter, part, dim, range / step * step);
      aotc::splitElementwiseConsumer(rewriter, {head, tail});
      next.push_back(head);
      next.push_back(tail);
    }
    parts = std::move(next);
  }
  for (linalg::LinalgOp part : parts) {
    std::optional<unsigned> panel = aotc::contractionPanelLoop(part, row);
    int64_t span = aotc::rowPanelSpan(part, lanes, registers);
    if (!panel || span <= 1)
      continue;
    int64_t panels = part.getStaticLoopRanges()[*panel];
    if (panels <= span || aotc::largestDivisorAtMost(panels, span) > 1)
      continue;
    auto [head, tail] =
        aotc::splitWithOwnInits(rewriter, part, *panel, panels / span * span);
    aotc::splitElementwiseConsumer(rewriter, {head, tail});
  }
}

struct SplitRegisterRemaindersPass
    : aotc::impl::SplitRegisterRemaindersBase<SplitRegisterRemaindersPass> {
  using Base::Base;

  void runOnOperation() override {
    aotc::splitRegisterRemainders(
        getOperation(),
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption));
  }
};

} // namespace

void aotc::splitRegisterRemainders(func::FuncOp func,
                                   VectorRegisters registers) {
  SmallVector<std::pair<linalg::LinalgOp, int64_t>> contractions;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
        contractionTileDims(op))
      if (int64_t lanes = vectorLanesOf(op, registers.bits))
        contractions.push_back({op, lanes});
  });
  IRRewriter rewriter(func.getContext());
  for (auto [op, lanes] : contractions)
    splitRemainders(rewriter, op, lanes, registers);
}
