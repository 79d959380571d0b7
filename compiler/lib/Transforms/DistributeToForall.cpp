//===- DistributeToForall.cpp - Thread-level tiling ------------*- C++ -*-===//
//
// This file implements the aotc-distribute-to-forall pass: the outer parallel
// loops of each linalg op become an scf.forall, the unit of multithreading
// (one OpenMP parallel region per op after lowering).
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"


namespace aotc {
#define GEN_PASS_DEF_DISTRIBUTETOFORALL
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::largestDivisorAtMost;

namespace {

/// Tile sizes that split the parallel loops of `op` into about `targetTiles`
/// static tiles, outermost loops first; 0 leaves a loop untiled.
SmallVector<int64_t> computeForallTileSizes(linalg::LinalgOp op,
                                            int64_t targetTiles) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t tiles = 1;
  for (auto [i, range] : llvm::enumerate(ranges)) {
    if (tiles >= targetTiles)
      break;
    if (iterators[i] != utils::IteratorType::parallel || range <= 1)
      continue;
    // Never more than the target: tiles stay static (divisors) and the
    // count stays bounded even for prime dimensions.
    int64_t count = largestDivisorAtMost(range, targetTiles / tiles);
    if (count <= 1)
      continue;
    sizes[i] = range / count;
    tiles *= count;
  }
  return sizes;
}

struct DistributeToForallPass
    : aotc::impl::DistributeToForallBase<DistributeToForallPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Only ops directly in the function body: one level of parallelism.
    SmallVector<linalg::LinalgOp> candidates;
    for (Operation &op : func.getBody().getOps())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
        if (linalgOp.hasPureTensorSemantics() && !linalgOp.hasDynamicShape())
          candidates.push_back(linalgOp);

    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      int64_t work = 1;
      for (int64_t r : op.getStaticLoopRanges())
        work *= r;
      if (work < minWork)
        continue;
      int64_t targetTiles = std::min<int64_t>(maxTiles, work / minWork);
      SmallVector<int64_t> sizes = computeForallTileSizes(op, targetTiles);
      if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
        continue;

      if (failed(aotc::tileAndReplace(
              rewriter, op, sizes,
              scf::SCFTilingOptions::LoopType::ForallOp)))
        return signalPassFailure();
    }
  }
};

} // namespace
