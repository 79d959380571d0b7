//===- PointwiseConvToMatmul.cpp - 1x1 convolutions as matmuls -*- C++ -*-===//
//
// This file implements the aotc-pointwise-conv-to-matmul pass: a convolution
// whose window is one element with stride 1 and no padding (a 1x1
// convolution) reads its input at the output position, so its image
// dimensions collapse into one and it becomes a contraction that the matmul
// path tiles and vectorizes (lanes along the whole image instead of one
// image row).
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"

#include "mlir/Dialect/Linalg/Utils/Utils.h"

namespace aotc {
#define GEN_PASS_DEF_POINTWISECONVTOMATMUL
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The image loops I and window loops F of a pointwise convolution: the
/// trailing results of the output map are I (in order), those of the input
/// map are I_j + F_j * dilation with F_j of extent 1, those of the filter
/// map are F_j, the input and output images have the same sizes, and every
/// other result is a plain loop outside I and F.
struct PointwiseConv {
  SmallVector<unsigned> image, window;
};

std::optional<PointwiseConv> matchPointwiseConv(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getIndexingMapsArray()[2];
  if (!oMap.isProjectedPermutation() || !wMap.isProjectedPermutation())
    return std::nullopt;
  auto xType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto oType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  PointwiseConv conv;
  // Windowed input results, from the last one backwards.
  for (int64_t r = static_cast<int64_t>(xMap.getNumResults()) - 1; r >= 0;
       --r) {
    auto sum = dyn_cast<AffineBinaryOpExpr>(xMap.getResult(r));
    if (!sum || sum.getKind() != AffineExprKind::Add)
      break;
    auto image = dyn_cast<AffineDimExpr>(sum.getLHS());
    AffineExpr windowExpr = sum.getRHS();
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(windowExpr))
      if (mul.getKind() == AffineExprKind::Mul &&
          isa<AffineConstantExpr>(mul.getRHS()))
        windowExpr = mul.getLHS();
    auto window = dyn_cast<AffineDimExpr>(windowExpr);
    if (!image || !window || ranges[window.getPosition()] != 1)
      return std::nullopt;
    conv.image.insert(conv.image.begin(), image.getPosition());
    conv.window.insert(conv.window.begin(), window.getPosition());
  }
  int64_t n = conv.image.size();
  if (n == 0 || n >= static_cast<int64_t>(xMap.getNumResults()) ||
      n >= static_cast<int64_t>(wMap.getNumResults()) ||
      n >= static_cast<int64_t>(oMap.getNumResults()))
    return std::nullopt;
  for (int64_t j = 0; j < n; ++j) {
    int64_t xr = xMap.getNumResults() - n + j;
    int64_t wr = wMap.getNumResults() - n + j;
    int64_t orr = oMap.getNumResults() - n + j;
    if (oMap.getDimPosition(orr) != conv.image[j] ||
        wMap.getDimPosition(wr) != conv.window[j] ||
        xType.getDimSize(xr) != oType.getDimSize(orr))
      return std::nullopt;
  }
  // Everything else reads plain loops outside the image and window.
  auto special = [&](unsigned d) {
    return llvm::is_contained(conv.image, d) ||
           llvm::is_contained(conv.window, d);
  };
  for (auto [map, count] : {std::make_pair(xMap, n), std::make_pair(wMap, n),
                            std::make_pair(oMap, n)})
    for (AffineExpr e : map.getResults().drop_back(count)) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || special(d.getPosition()))
        return std::nullopt;
    }
  return conv;
}

} // namespace

bool aotc::canUsePointwiseMatmul(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  return generic && matchPointwiseConv(generic).has_value();
}

namespace {

struct PointwiseConvToMatmulPass
    : aotc::impl::PointwiseConvToMatmulBase<PointwiseConvToMatmulPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, PointwiseConv>> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::PointwiseMatmul))
        return;
      if (std::optional<PointwiseConv> conv = matchPointwiseConv(op))
        candidates.push_back({op, *conv});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, conv] : candidates)
      rewrite(rewriter, op, conv);
  }

  /// (n, ..., oh, ow, ..., kh, kw) -> (n, ..., p, ...): the first image loop
  /// becomes the collapsed image p, the other image loops and the window
  /// loops disappear; the tensors collapse accordingly.
  void rewrite(RewriterBase &rewriter, linalg::GenericOp op,
               const PointwiseConv &conv) {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    int64_t n = conv.image.size();
    unsigned numLoops = op.getNumLoops();
    SmallVector<int64_t> newIndex(numLoops, -1);
    SmallVector<utils::IteratorType> iterators;
    for (unsigned d = 0; d < numLoops; ++d) {
      if (llvm::is_contained(conv.window, d) ||
          (llvm::is_contained(conv.image, d) && d != conv.image.front()))
        continue;
      newIndex[d] = iterators.size();
      iterators.push_back(op.getIteratorTypesArray()[d]);
    }
    auto remap = [&](AffineMap map, bool windowed) {
      SmallVector<AffineExpr> exprs;
      for (AffineExpr e : map.getResults().drop_back(n))
        exprs.push_back(getAffineDimExpr(
            newIndex[cast<AffineDimExpr>(e).getPosition()], ctx));
      if (windowed)
        exprs.push_back(getAffineDimExpr(newIndex[conv.image.front()], ctx));
      return AffineMap::get(iterators.size(), 0, exprs, ctx);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<AffineMap> newMaps = {remap(maps[0], true),
                                      remap(maps[1], false),
                                      remap(maps[2], true)};

    rewriter.setInsertionPoint(op);
    auto collapse = [&](Value v, int64_t count) -> Value {
      int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
      return tensor::CollapseShapeOp::create(rewriter, loc, v,
                                             aotc::collapseTrailing(rank, count));
    };
    Value x = collapse(op.getDpsInputs()[0], n);
    // The filter's window dims (all of extent 1) fold into the dim before.
    Value w = collapse(op.getDpsInputs()[1], n + 1);
    Value init = collapse(op.getDpsInits()[0], n);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{x, w}, ValueRange{init},
        newMaps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    auto outType = cast<RankedTensorType>(op.getResult(0).getType());
    Value result = tensor::ExpandShapeOp::create(
        rewriter, loc, outType, generic.getResult(0),
        aotc::collapseTrailing(outType.getRank(), n));
    rewriter.replaceOp(op, result);
  }
};

} // namespace
