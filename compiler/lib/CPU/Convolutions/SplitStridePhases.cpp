//===- SplitStridePhases.cpp - Stride-2 convolutions on column phases -*- C++ -*-===//
//
// This file implements the aotc-split-stride-phases pass: a direct 2-D
// convolution over input channels (one that aotc-im2col-convolutions left
// direct, ResNet's 7x7 stride-2 stem) with stride 2 along the image's
// columns reads every other input column, so each register of output lanes
// is gathered from strided input (two loads and two shuffles per vector,
// aotc-vectorize-convolutions). The padded input is copied once into its two
// column phases, x'[..., h, p, j] = x[..., h, 2 * j + p], and window column
// kw = 2 * q + p reads phase p at column ow + q: one contiguous register.
// The convolution becomes two with stride 1 along the columns, one per
// phase (the even window columns, then the odd ones accumulating into its
// result), each with its columns of the constant filter, rebuilt at compile
// time (7 columns: 4 + 3). No zero taps: a padded filter would multiply
// zeros with real input columns (an infinity there would turn outputs that
// never read it into NaN).
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_SPLITSTRIDEPHASES
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The taps of a filter of `type` [..., K] (its elements `all`) at window
/// columns `phase`, `phase` + 2, ...: [..., (K - phase + 1) / 2].
DenseElementsAttr phaseTaps(RankedTensorType type, ArrayRef<Attribute> all,
                            int64_t phase) {
  int64_t taps = type.getShape().back();
  int64_t count = aotc::phaseTaps(taps, phase);
  SmallVector<int64_t> shape(type.getShape().drop_back());
  shape.push_back(count);
  SmallVector<Attribute> values;
  for (int64_t row = 0, rows = type.getNumElements() / taps; row < rows;
       ++row)
    for (int64_t q = 0; q < count; ++q)
      values.push_back(all[row * taps + aotc::kColumnPhases * q + phase]);
  return DenseElementsAttr::get(
      RankedTensorType::get(shape, type.getElementType()), values);
}

struct SplitStridePhasesPass
    : aotc::impl::SplitStridePhasesBase<SplitStridePhasesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, aotc::ConvolutionLoops>, 2> convs;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::StridePhases))
        return;
      std::optional<aotc::ConvolutionLoops> conv =
          aotc::matchNchwConvolution(op);
      if (conv && isCandidate(op, *conv))
        convs.push_back({op, *conv});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, conv] : convs)
      split(rewriter, op, conv);
  }

  /// A 2-D convolution over input channels with stride 2 and dilation 1
  /// along the columns, the window loop last, an even padded width, and a
  /// constant filter indexed by the window column last.
  static bool isCandidate(linalg::GenericOp op,
                          const aotc::ConvolutionLoops &conv) {
    if (conv.image.size() != 2 || conv.strides[1] != aotc::kColumnPhases ||
        conv.dilations[1] != 1 || !aotc::convolutionChannelRowLoop(op) ||
        conv.window[1] != op.getNumLoops() - 1 ||
        op.getStaticLoopRanges()[conv.window[1]] < aotc::kColumnPhases)
      return false;
    auto xType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
    if (xType.getShape().back() % aotc::kColumnPhases != 0)
      return false;
    AffineMap wMap = op.getIndexingMapsArray()[1];
    auto filter = op.getDpsInputs()[1].getDefiningOp<arith::ConstantOp>();
    auto attr =
        filter ? dyn_cast<DenseElementsAttr>(filter.getValue()) : nullptr;
    return attr &&
           wMap.getDimPosition(wMap.getNumResults() - 1) == conv.window[1];
  }

  void split(RewriterBase &rewriter, linalg::GenericOp op,
             const aotc::ConvolutionLoops &conv) {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // x [..., H, W] -> [..., H, W / 2, 2] -> phases [..., H, 2, W / 2].
    Value x = op.getDpsInputs()[0];
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    SmallVector<int64_t> pairShape(xType.getShape());
    pairShape.back() /= aotc::kColumnPhases;
    pairShape.push_back(aotc::kColumnPhases);
    Value pairs = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(pairShape, xType.getElementType()), x,
        aotc::collapseTrailing(rank + 1, 2));
    SmallVector<int64_t> phaseShape(pairShape);
    std::swap(phaseShape[rank - 1], phaseShape[rank]);
    Value empty = tensor::EmptyOp::create(rewriter, loc, phaseShape,
                                          xType.getElementType());
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank + 1));
    std::swap(permutation[rank - 1], permutation[rank]);
    Value phases =
        linalg::TransposeOp::create(rewriter, loc, pairs, empty, permutation)
            ->getResult(0);

    // One convolution per phase p, the second accumulating into the
    // first: phase p's rows [..., H, W / 2] and the filter's columns p,
    // p + 2, ..., read at column ow + q (kw = 2 * q + p).
    auto filter = op.getDpsInputs()[1].getDefiningOp<arith::ConstantOp>();
    auto filterAttr = cast<DenseElementsAttr>(filter.getValue());
    auto filterType = cast<RankedTensorType>(filterAttr.getType());
    SmallVector<Attribute> filterValues(filterAttr.getValues<Attribute>());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<AffineExpr> exprs(maps[0].getResults().drop_back());
    exprs.push_back(getAffineDimExpr(conv.image[1], ctx) +
                    getAffineDimExpr(conv.window[1], ctx));
    maps[0] = AffineMap::get(op.getNumLoops(), 0, exprs, ctx);
    SmallVector<int64_t> rowsShape(phaseShape);
    rowsShape.erase(rowsShape.end() - 2);
    Value result = op.getDpsInits()[0];
    for (int64_t phase = 0; phase < aotc::kColumnPhases; ++phase) {
      SmallVector<OpFoldResult> offsets(rank + 1, rewriter.getIndexAttr(0));
      offsets[rank - 1] = rewriter.getIndexAttr(phase);
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(ctx, phaseShape);
      sizes[rank - 1] = rewriter.getIndexAttr(1);
      SmallVector<OpFoldResult> strides(rank + 1, rewriter.getIndexAttr(1));
      Value rows = tensor::ExtractSliceOp::create(
          rewriter, loc,
          RankedTensorType::get(rowsShape, xType.getElementType()), phases,
          offsets, sizes, strides);
      Value taps = arith::ConstantOp::create(
          rewriter, loc, phaseTaps(filterType, filterValues, phase));
      auto phased = linalg::GenericOp::create(
          rewriter, loc, op->getResultTypes(), ValueRange{rows, taps},
          ValueRange{result}, maps, op.getIteratorTypesArray());
      IRMapping mapping;
      op.getRegion().cloneInto(&phased.getRegion(), mapping);
      result = phased.getResult(0);
    }
    rewriter.replaceOp(op, result);
  }
};

} // namespace

bool aotc::canUseStridePhases(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return false;
  std::optional<aotc::ConvolutionLoops> conv =
      aotc::matchNchwConvolution(generic);
  return conv && SplitStridePhasesPass::isCandidate(generic, *conv);
}
