//===- TileSymbolicDims.cpp - Loops over symbolic dimensions ---*- C++ -*-===//
//
// This file implements the aotc-tile-symbolic-dims pass: linalg ops with
// dynamic loop ranges are tiled by 1 along them, so that the ops inside the
// loops are static and get the static thread and register strategies.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"
#include "aotc/Common/TilingUtils.h"

namespace aotc {
#define GEN_PASS_DEF_TILESYMBOLICDIMS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct TileSymbolicDimsPass
    : aotc::impl::TileSymbolicDimsBase<TileSymbolicDimsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op.hasDynamicShape())
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      SmallVector<int64_t> tileSizes = llvm::map_to_vector(
          op.getStaticLoopRanges(),
          [](int64_t range) -> int64_t { return ShapedType::isDynamic(range); });
      if (failed(aotc::tileAndReplace(rewriter, op, tileSizes,
                                      scf::SCFTilingOptions::LoopType::ForOp)))
        return signalPassFailure();
    }
  }
};

} // namespace
