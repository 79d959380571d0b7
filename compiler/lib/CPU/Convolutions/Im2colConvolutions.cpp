//===- Im2colConvolutions.cpp - Convolutions as im2col + matmul -*- C++ -*-===//
//
// This file implements the aotc-im2col-convolutions pass: a convolution
// generic with enough input channels and output channels per group (not a
// depthwise one) first copies every window position of its input into a
// column tensor (im2col: col[n, g, c, k..., o...] = x[n, g, c, o * s + k * d])
// and then contracts the filter with it. The column tensor is contiguous in
// (c, k...) and in (o...), so those loop groups collapse and the convolution
// becomes a plain contraction over one reduction dimension with the whole
// output image as lanes: the matmul path of aotc-tile-and-vectorize. The copy
// itself still reads through a window and is vectorized like a convolution.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_IM2COLCONVOLUTIONS
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The convolution loops of `op` when the copy pays for itself.
std::optional<aotc::ConvolutionLoops> matchConvolution(linalg::GenericOp op,
                                                       int64_t vectorBits) {
  std::optional<aotc::ConvolutionLoops> conv = aotc::matchNchwConvolution(op);
  if (!conv || !aotc::im2colPays(op, *conv, vectorBits))
    return std::nullopt;
  return conv;
}

} // namespace

bool aotc::canUseIm2col(linalg::LinalgOp op, int64_t vectorBits) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  return generic && matchConvolution(generic, vectorBits).has_value();
}

namespace {

struct Im2colConvolutionsPass
    : aotc::impl::Im2colConvolutionsBase<Im2colConvolutionsPass> {
  using Base::Base;

  /// The vector register width: the option when set, else the module's
  /// CpuTarget's.
  int64_t vectorBits = 0;

  void runOnOperation() override {
    vectorBits = aotc::vectorBitsOf(getOperation(), vectorBitsOption);
    SmallVector<std::pair<linalg::GenericOp, aotc::ConvolutionLoops>, 4> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::Im2col))
        return;
      if (std::optional<aotc::ConvolutionLoops> conv =
              matchConvolution(op, vectorBits))
        candidates.push_back({op, *conv});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, conv] : candidates)
      if (failed(rewrite(rewriter, op, conv)))
        return signalPassFailure();
  }

  /// The column tensor col[outer..., c, k..., o...] of `op`'s input.
  Value buildColumns(RewriterBase &rewriter, linalg::GenericOp op,
                     const aotc::ConvolutionLoops &conv, AffineMap &colMap) {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    AffineMap xMap = op.getIndexingMapsArray()[0];
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t n = conv.image.size();
    // The copy's loops, in col's order, as loops of `op`.
    SmallVector<unsigned> loops;
    for (AffineExpr e : xMap.getResults().drop_back(n))
      loops.push_back(cast<AffineDimExpr>(e).getPosition());
    loops.append(conv.window.begin(), conv.window.end());
    loops.append(conv.image.begin(), conv.image.end());
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> colExprs, toCopyLoops(op.getNumLoops());
    for (auto [i, loop] : llvm::enumerate(loops)) {
      shape.push_back(ranges[loop]);
      colExprs.push_back(getAffineDimExpr(loop, ctx));
      toCopyLoops[loop] = getAffineDimExpr(i, ctx);
    }
    colMap = AffineMap::get(op.getNumLoops(), 0, colExprs, ctx);
    // x's map in the copy's loops (every loop x reads is one of them).
    for (AffineExpr &e : toCopyLoops)
      if (!e)
        e = getAffineConstantExpr(0, ctx);
    AffineMap readMap = xMap.replaceDimsAndSymbols(toCopyLoops, {},
                                                   loops.size(), 0);
    Value x = op.getDpsInputs()[0];
    Type elementType = getElementTypeOrSelf(x.getType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, elementType);
    SmallVector<utils::IteratorType> parallel(loops.size(),
                                              utils::IteratorType::parallel);
    auto copy = linalg::GenericOp::create(
        rewriter, loc, empty.getType(), ValueRange{x}, ValueRange{empty},
        ArrayRef<AffineMap>{
            readMap, AffineMap::getMultiDimIdentityMap(loops.size(), ctx)},
        parallel, [](OpBuilder &b, Location nested, ValueRange args) {
          linalg::YieldOp::create(b, nested, args[0]);
        });
    return copy.getResult(0);
  }

  LogicalResult rewrite(RewriterBase &rewriter, linalg::GenericOp op,
                        const aotc::ConvolutionLoops &conv) {
    rewriter.setInsertionPoint(op);
    AffineMap colMap;
    Value columns = buildColumns(rewriter, op, conv, colMap);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps[0] = colMap;
    auto contraction = linalg::GenericOp::create(
        rewriter, op.getLoc(), op.getResultTypes(),
        ValueRange{columns, op.getDpsInputs()[1]}, op.getDpsInits(), maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), contraction.getRegion(),
                                contraction.getRegion().begin());
    rewriter.replaceOp(op, contraction.getResults());
    // (o...) -> one image dimension, (c, k...) -> one reduction dimension.
    ReassociationIndices image(conv.image.begin(), conv.image.end());
    ReassociationIndices reduction = {conv.channels};
    reduction.append(conv.window.begin(), conv.window.end());
    SmallVector<ReassociationIndices> groups;
    for (const ReassociationIndices &g : {image, reduction})
      if (g.size() > 1)
        groups.push_back(g);
    if (groups.empty())
      return success();
    if (!linalg::areDimSequencesPreserved(contraction.getIndexingMapsArray(),
                                          groups))
      return contraction.emitError("im2col: loop groups do not collapse");
    rewriter.setInsertionPoint(contraction);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(contraction, groups, rewriter);
    if (failed(collapsed))
      return contraction.emitError("im2col: failed to collapse loops");
    rewriter.replaceOp(contraction, collapsed->results);
    return success();
  }
};

} // namespace
