//===- TileAndVectorize.cpp - Register tiling + vectorization --*- C++ -*-===//
//
// This file implements the aotc-tile-and-vectorize pass: each linalg op is
// tiled with scf.for loops down to register-sized static tiles, and each tile
// is turned into vector ops by the upstream linalg vectorizer.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::largestDivisorAtMost;

namespace {

/// Widest element type of the op's operands, in bits; 0 when some operand
/// holds i1 (vectors of i1 are bit-packed in memory, unlike scalar i1 which
/// use one byte per element, so such ops are left to the scalar loop path).
unsigned widestElementBits(linalg::LinalgOp op) {
  unsigned bits = 8;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = getElementTypeOrSelf(operand.get().getType());
    if (t.isInteger(1))
      return 0;
    if (t.isIntOrFloat())
      bits = std::max(bits, t.getIntOrFloatBitWidth());
  }
  return bits;
}

/// Register tile sizes for `op`: one vector register along the innermost
/// loop, an 8 x register accumulator block for contractions, 1 elsewhere.
SmallVector<int64_t> computeVectorTileSizes(linalg::LinalgOp op,
                                            int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  if (ranges.empty())
    return sizes;
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (succeeded(dims) && !dims->m.empty() && !dims->n.empty()) {
      unsigned m = dims->m.back(), n = dims->n.back();
      sizes[m] = largestDivisorAtMost(ranges[m], 8);
      sizes[n] = largestDivisorAtMost(ranges[n], lanes);
      return sizes;
    }
  }
  sizes.back() = largestDivisorAtMost(ranges.back(), lanes);
  return sizes;
}

struct TileAndVectorizePass
    : aotc::impl::TileAndVectorizeBase<TileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape())
        candidates.push_back(op);
    });

    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      unsigned bits = widestElementBits(op);
      // Convolutions and pooling go through the loop path for now; so does
      // anything the vectorizer rejects.
      if (bits == 0 || linalg::isaConvolutionOpInterface(op) ||
          failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      int64_t lanes = std::max<int64_t>(1, vectorBits / bits);
      SmallVector<int64_t> sizes = computeVectorTileSizes(op, lanes);
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      SmallVector<int64_t> tileSizes;
      for (auto [size, range] : llvm::zip_equal(sizes, ranges))
        tileSizes.push_back(size >= range ? 0 : size);

      Operation *tile = op;
      if (llvm::any_of(tileSizes, [](int64_t s) { return s != 0; })) {
        FailureOr<Operation *> tiled = aotc::tileAndReplace(
            rewriter, op, tileSizes, scf::SCFTilingOptions::LoopType::ForOp);
        if (failed(tiled))
          return signalPassFailure();
        tile = *tiled;
      }
      rewriter.setInsertionPoint(tile);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, tile);
      if (failed(vectorized))
        continue; // Stays a linalg op: lowered to loops later.
      if (!vectorized->replacements.empty())
        rewriter.replaceOp(tile, vectorized->replacements);
      else
        rewriter.eraseOp(tile);
    }
  }
};

} // namespace
