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
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_IM2COLCONVOLUTIONS
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Smallest reduction (input channels x window) and number of output
/// channels per group for which the copy pays: below them (depthwise
/// convolutions, a single input channel) the direct convolution is kept.
constexpr int64_t kMinReduction = 8;
constexpr int64_t kMinOutputChannels = 8;
/// A stride-1 convolution whose flattened-image grid computes at least
/// kWastedGridNumerator / kWastedGridDenominator times its outputs (1.2: a
/// 13 x 13 image, 15 grid rows of 16 for 169 outputs; 14 x 14, 240 for 196)
/// takes the copy when its image has at least kMinCopiedImage outputs, the
/// rows of the contraction (7 x 7 stays direct: 49 rows are six register
/// tiles and a one-row remainder). With 512-bit registers the copy repays
/// its cost on 13 x 13 and 14 x 14 images, not on a grid that wastes less
/// (28 x 28: 1.10 times its outputs). With narrower ones (AVX2) the
/// threshold is 1.25 (kNarrowWastedGrid*): there 14 x 14 runs better
/// direct, in 4 x 3 register tiles, and so does 7 x 7. Convolutions with
/// enough channels reach this pass only when aotc-channel-lane-convolutions
/// left them: ResNet-18's 7 x 7 x 512 ones no longer do with 512-bit
/// registers.
constexpr int64_t kWastedGridNumerator = 6;
constexpr int64_t kWastedGridDenominator = 5;
constexpr int64_t kNarrowWastedGridNumerator = 5;
constexpr int64_t kNarrowWastedGridDenominator = 4;
constexpr int64_t kMinCopiedImage = 128;
/// A strided convolution whose column tensor holds at least this many
/// copies of each input element it reads (window elements per stride area:
/// 12.25 for ResNet's 7 x 7 stride-2 stem, 2.25 for a 3 x 3 stride-2 layer)
/// is computed directly (aotc-vectorize-convolutions' windowed path): the
/// stem's 147 x 12544 columns (7.4 MB, far beyond L2) cost a copy and a
/// contraction reading them from memory, more than the direct convolution
/// takes. The 3 x 3 stride-2 stems of squeezenet1_1 and mobilenet_v2 stay
/// copied: computed directly, they are no faster. Only when the direct
/// path's vectors along an output row hold at least half a register
/// (kMinDirectRowLanesDivisor): its lanes are the largest divisor of the
/// row's width up to a register, so a 109-wide row (prime) would be
/// computed one lane at a time.
constexpr int64_t kMaxWindowCopies = 8;
constexpr int64_t kMinDirectRowLanesDivisor = 2;

/// True when the flattened-image grid of the stride-1 convolution `op`
/// wastes enough for the copy to pay (see kWastedGridNumerator).
bool wastefulGrid(linalg::GenericOp op, int64_t vectorBits) {
  auto xType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!xType || !outType || !xType.hasStaticShape() ||
      !outType.hasStaticShape() || !aotc::convolutionChannelRowLoop(op))
    return false;
  int64_t bits = outType.getElementTypeBitWidth();
  int64_t lanes = aotc::registerLanes(vectorBits, bits);
  int64_t rank = outType.getRank();
  int64_t height = outType.getDimSize(rank - 2);
  int64_t outputs = height * outType.getDimSize(rank - 1);
  int64_t grid = aotc::convolutionGridLength(
      height, outType.getDimSize(rank - 1),
      xType.getDimSize(xType.getRank() - 1), lanes, vectorBits);
  auto [numerator, denominator] =
      vectorBits >= 512
          ? std::pair(kWastedGridNumerator, kWastedGridDenominator)
          : std::pair(kNarrowWastedGridNumerator, kNarrowWastedGridDenominator);
  return outputs >= kMinCopiedImage &&
         grid * denominator >= outputs * numerator;
}

/// The convolution loops of `op` when the copy pays for itself.
std::optional<aotc::ConvolutionLoops> matchConvolution(linalg::GenericOp op,
                                                       int64_t vectorBits) {
  std::optional<aotc::ConvolutionLoops> conv = aotc::matchNchwConvolution(op);
  if (!conv)
    return std::nullopt;
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getIndexingMapsArray()[2];
  // Enough work per copied element: not depthwise, more than one channel.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t reduction = ranges[conv->channels];
  for (unsigned k : conv->window)
    reduction *= ranges[k];
  int64_t outputChannels = 1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (wMap.isFunctionOfDim(d) && oMap.isFunctionOfDim(d) &&
        !xMap.isFunctionOfDim(d))
      outputChannels *= ranges[d];
  if (reduction < kMinReduction || outputChannels < kMinOutputChannels)
    return std::nullopt;
  int64_t window = 1, strideArea = 1;
  for (auto [k, stride] : llvm::zip_equal(conv->window, conv->strides)) {
    window *= ranges[k];
    strideArea *= stride;
  }
  int64_t lanes = aotc::registerLanes(vectorBits, 32);
  int64_t rowLanes =
      aotc::largestDivisorAtMost(ranges[conv->image.back()], lanes);
  if (strideArea > 1 && window >= kMaxWindowCopies * strideArea &&
      rowLanes * kMinDirectRowLanesDivisor >= lanes)
    return std::nullopt;
  // Stride-1 windows are computed directly on the flattened image
  // (aotc-flatten-convolution-images), which reads each input row where the
  // copy would write it kh x kw times.
  if (aotc::isFlatImageConvolution(op, *conv) &&
      llvm::any_of(conv->window, [&](unsigned k) { return ranges[k] > 1; }) &&
      !wastefulGrid(op, vectorBits))
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
