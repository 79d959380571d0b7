//===- FlattenConvolutionImages.cpp - Convolutions on flat images -*- C++ -*-===//
//
// This file implements the aotc-flatten-convolution-images pass: a 2-D
// convolution over input channels with stride 1 that stays direct (after
// aotc-winograd-convolutions, aotc-channel-lane-convolutions and
// aotc-im2col-convolutions took the others: few channels or output channels,
// or rows without a register tile of pixels, e.g. 13 or 27 wide)
// computes its output on the flattened padded image. With Wp the padded
// input's width, output (oh, ow) reads input (oh + kh * d, ow + kw * d),
// i.e. flat element j + kh * d * Wp + kw * d of the padded image for
// j = oh * Wp + ow: every window position is a shift of one contiguous
// range. So the output is computed for j over a grid of rows x lanes
// vectors (whole registers whatever the image width; the Wp - W columns
// past each row are computed and dropped) and the real output is a strided
// view of the grid. A convolution whose image rows fit one register while
// its padded rows do not (7x7 on AVX2) may take a row-aligned grid instead,
// one register per output row (aotc::isRowAlignedGrid): (r, l) reads flat
// r * Wp + l + kh * d * Wp + kw * d, and the output is the grid's first W
// columns.
//
// Convolutions without input channels (depthwise) do not take that grid:
// aotc-peel-padded-windows reads their input in place, where the flat buffer
// costs a fill and a copy of the input and a copy of the output back to the
// image for 9 multiply-adds per element (reading in place repays its border
// parts at every image size of mobilenet_v2). But a depthwise convolution of
// batch 1 whose image is at most four registers with rows narrower than one
// (7 x 7 on AVX-512: the peeled interior is 5 lanes wide) is computed on all
// its channels' flattened images at once, with no copy of the input: output
// (c, p), p = oh * W + ow, reads input element
// c * H * W + p + (kh * d - top) * W + (kw * d - left) for each tap, so every
// tap is one view of the unpadded input shifted by a constant, [C, H * W]
// from an offset; a tap that leaves the image (into a neighbouring row or
// channel) reads the padding value instead, selected by the pixel's row and
// column (linalg.index: constants once vectorized). One elementwise generic
// over [C - 2, H * W] takes channels 1 to C - 2 (their views stay inside the
// input); channels 0 and C - 1 each read a padded copy of their own image.
// Each channel's image is one vector (49 lanes: 3 registers and one lane),
// its bias read per channel, the taps summed in the window's order (results
// bit-identical). Peeled, such an image would leave that narrow interior with
// eight border parts around it.
//
// The padded input becomes one flat buffer (filled with the padding value,
// the unpadded input inserted: this replaces the pad's copy; a linalg op
// that produces the input for the convolution alone writes it in place);
// the output's initial value (bias broadcast or fill) is recomputed on the
// grid. Linalg consumers read the image through the strided view; any other
// user (a reshape, the function's result) reads a copy.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_FLATTENCONVOLUTIONIMAGES
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// `shape` with its last `count` sizes replaced by `tail`.
SmallVector<int64_t> replaceTrailing(ArrayRef<int64_t> shape, int64_t count,
                                     ArrayRef<int64_t> tail) {
  SmallVector<int64_t> result(shape.drop_back(count));
  result.append(tail.begin(), tail.end());
  return result;
}

/// A linalg copy of `source` into `dest` (same shape): unlike the copies
/// bufferization makes for slices and reshapes, it is tiled over threads
/// and vectorized by the tensor stage.
Value copyInto(RewriterBase &rewriter, Location loc, Value source,
               Value dest) {
  // A named copy: canonicalization would fold an identity generic away.
  return linalg::CopyOp::create(rewriter, loc, source, dest).getResult(0);
}

/// `op` writing its result into `dest` (same type) instead of its init: an
/// elementwise op that reads its init (an in-place update) reads it as one
/// more input instead. Null when `op` is not such an op.
Value retargetInit(RewriterBase &rewriter, Location loc,
                   linalg::LinalgOp op, Value dest) {
  OpOperand *init = op.getDpsInitOperand(0);
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() ||
      !op.getMatchingIndexingMap(init).isIdentity() ||
      init->get().getType() != dest.getType())
    return {};
  if (!op.payloadUsesValueFromOperand(init)) {
    Operation *clone = rewriter.clone(*op);
    clone->setOperand(init->getOperandNumber(), dest);
    return clone->getResult(0);
  }
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumParallelLoops() != generic.getNumLoops())
    return {};
  SmallVector<Value> inputs(generic.getDpsInputs());
  inputs.push_back(init->get());
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  maps.insert(maps.end() - 1, maps.back());
  auto updated = linalg::GenericOp::create(
      rewriter, loc, TypeRange{dest.getType()}, inputs, ValueRange{dest}, maps,
      generic.getIteratorTypesArray());
  Block *body = generic.getBody();
  Type element = getElementTypeOrSelf(dest.getType());
  SmallVector<Type> argTypes(body->getArgumentTypes());
  argTypes.insert(argTypes.end() - 1, element);
  SmallVector<Location> argLocs(argTypes.size(), loc);
  Block *block = rewriter.createBlock(&updated.getRegion(), {}, argTypes,
                                      argLocs);
  IRMapping mapping;
  unsigned numInputs = generic.getNumDpsInputs();
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(body->getArgument(i), block->getArgument(i));
  // The old init is the new last input.
  mapping.map(body->getArgument(numInputs), block->getArgument(numInputs));
  rewriter.setInsertionPointToStart(block);
  for (Operation &nested : body->getOperations())
    rewriter.clone(nested, mapping);
  rewriter.setInsertionPointAfter(updated);
  return updated.getResult(0);
}

/// `image` written into `dest` (same shape): by its producer when that is a
/// linalg op read only by the convolution (through `chain`, the original
/// padding ops, and reshapes such as the expand_shape made by `unpad`): it
/// is rebuilt to write `dest` (reshaped to its own shape) in place, and the
/// old producer and reshapes are appended to `dead` for the caller to erase
/// with the chain. Otherwise by a copy.
Value writeInto(RewriterBase &rewriter, Location loc, Value image, Value dest,
                ArrayRef<Operation *> chain,
                SmallVectorImpl<Operation *> &dead) {
  // Up through reshapes used only on this path.
  SmallVector<Operation *> reshapes;
  Value produced = image;
  auto onlyHere = [&](Value value, Operation *next) {
    return llvm::all_of(value.getUsers(), [&](Operation *user) {
      return user == next || llvm::is_contained(chain, user);
    });
  };
  if (!llvm::all_of(chain, [](Operation *op) { return op->hasOneUse(); }) ||
      !onlyHere(image, nullptr))
    return copyInto(rewriter, loc, image, dest);
  while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
      produced.getDefiningOp())) {
    Operation *reshape = produced.getDefiningOp();
    if (!onlyHere(reshape->getOperand(0), reshape))
      return copyInto(rewriter, loc, image, dest);
    reshapes.push_back(reshape);
    produced = reshape->getOperand(0);
  }
  auto producer = produced.getDefiningOp<linalg::LinalgOp>();
  if (!producer)
    return copyInto(rewriter, loc, image, dest);
  // `dest` in the producer's shape: the reshapes undone, last one first.
  Value init = dest;
  for (Operation *reshape : reshapes) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape))
      init = tensor::CollapseShapeOp::create(rewriter, loc, init,
                                             expand.getReassociationIndices());
    else
      init = tensor::ExpandShapeOp::create(
          rewriter, loc, reshape->getOperand(0).getType(), init,
          cast<tensor::CollapseShapeOp>(reshape).getReassociationIndices());
  }
  // The producer is rebuilt here (after `dest`; its operands dominate the
  // convolution, so they dominate this point).
  Value result = retargetInit(rewriter, loc, producer, init);
  if (!result)
    return copyInto(rewriter, loc, image, dest);
  dead.push_back(producer);
  for (Operation *reshape : llvm::reverse(reshapes)) {
    IRMapping mapping;
    mapping.map(reshape->getOperand(0), result);
    result = rewriter.clone(*reshape, mapping)->getResult(0);
    dead.insert(dead.begin(), reshape);
  }
  return result;
}

/// A flat buffer [outer..., length] holding `image` [outer..., H, W] as rows
/// of `width` elements, its element (i, j) at flat (low.first + i) * width +
/// low.second + j; `fill` everywhere else.
Value flattenImage(RewriterBase &rewriter, Location loc, Value image,
                   std::pair<int64_t, int64_t> low, int64_t width,
                   int64_t length, Value fill, ArrayRef<Operation *> chain,
                   SmallVectorImpl<Operation *> &dead) {
  auto type = cast<RankedTensorType>(image.getType());
  int64_t rank = type.getRank();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = low.first + shape[rank - 2];
  Value flat = tensor::EmptyOp::create(
      rewriter, loc, replaceTrailing(shape, 2, {length}),
      type.getElementType());
  flat = linalg::FillOp::create(rewriter, loc, fill, flat).getResult(0);
  // The rows holding the image, viewed two-dimensionally.
  SmallVector<int64_t> partShape = replaceTrailing(shape, 2, {rows * width});
  Value part = aotc::leadingSlice(rewriter, loc, flat, partShape);
  SmallVector<ReassociationIndices> groups = aotc::collapseTrailing(rank, 2);
  Value grid = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get(replaceTrailing(shape, 2, {rows, width}),
                            type.getElementType()),
      part, groups);
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  offsets[rank - 2] = rewriter.getIndexAttr(low.first);
  offsets[rank - 1] = rewriter.getIndexAttr(low.second);
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(rewriter.getContext(), shape);
  Value window = tensor::ExtractSliceOp::create(rewriter, loc, grid, offsets,
                                                sizes, strides);
  grid = tensor::InsertSliceOp::create(
      rewriter, loc, writeInto(rewriter, loc, image, window, chain, dead), grid, offsets,
      sizes, strides);
  part = tensor::CollapseShapeOp::create(rewriter, loc, part.getType(), grid,
                                         groups);
  SmallVector<OpFoldResult> zeros(rank - 1, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(rank - 1, rewriter.getIndexAttr(1));
  return tensor::InsertSliceOp::create(
      rewriter, loc, part, flat, zeros,
      getAsIndexOpFoldResult(rewriter.getContext(), partShape), ones);
}

/// The padded input of a convolution looked through to its unpadded source:
/// `x` = [expand_shape of the outer dims of] a padded image that pads only
/// the two image dims with a constant: tensor.pad, or its decomposed form
/// (tensor.insert_slice into a linalg.fill).
struct PaddedImage {
  Value source; // with x's outer dims
  std::pair<int64_t, int64_t> low{0, 0};
  Value padValue; // null: no padding found
  /// The padding ops from x up to the padded image (x's definition first).
  SmallVector<Operation *> chain;
};

/// (source, low pads, value) of a padded image of rank >= 2 padding only
/// its two last dims with a constant.
std::optional<std::tuple<Value, SmallVector<int64_t>, Value>>
matchPadding(Value padded) {
  auto outerUnpadded = [](ArrayRef<int64_t> low, ArrayRef<int64_t> sourceShape,
                          ArrayRef<int64_t> shape) {
    int64_t rank = shape.size();
    if (rank < 2)
      return false;
    for (int64_t i = 0; i < rank; ++i)
      if (ShapedType::isDynamic(low[i]) ||
          (i < rank - 2 && (low[i] != 0 || sourceShape[i] != shape[i])))
        return false;
    return true;
  };
  if (auto pad = padded.getDefiningOp<tensor::PadOp>()) {
    if (!pad.getConstantPaddingValue() || pad.getNofold() ||
        !pad.getSourceType().hasStaticShape() ||
        !pad.getResultType().hasStaticShape() ||
        !outerUnpadded(pad.getStaticLow(), pad.getSourceType().getShape(),
                       pad.getResultType().getShape()))
      return std::nullopt;
    return std::make_tuple(pad.getSource(),
                           SmallVector<int64_t>(pad.getStaticLow()),
                           pad.getConstantPaddingValue());
  }
  auto insert = padded.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !insert.hasUnitStride() ||
      !insert.getSourceType().hasStaticShape() ||
      insert.getSourceType().getRank() != insert.getDestType().getRank() ||
      !insert.getDestType().hasStaticShape())
    return std::nullopt;
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!fill || !outerUnpadded(insert.getStaticOffsets(),
                              insert.getSourceType().getShape(),
                              insert.getDestType().getShape()))
    return std::nullopt;
  return std::make_tuple(insert.getSource(),
                         SmallVector<int64_t>(insert.getStaticOffsets()),
                         fill.getInputs()[0]);
}

/// True when `expand` (of a rank-`rank` result) expands only outer
/// dimensions: the image's two trailing ones stay single groups.
bool keepsImageDims(tensor::ExpandShapeOp expand, int64_t rank) {
  SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
  return groups.size() >= 2 &&
         groups[groups.size() - 1] == ReassociationIndices{rank - 1} &&
         groups[groups.size() - 2] == ReassociationIndices{rank - 2};
}

PaddedImage unpad(RewriterBase &rewriter, Value x) {
  PaddedImage result{x};
  auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
  auto padding = matchPadding(expand ? expand.getSrc() : x);
  if (!padding)
    return result;
  auto [source, low, value] = *padding;
  if (expand)
    result.chain.push_back(expand);
  result.chain.push_back((expand ? expand.getSrc() : x).getDefiningOp());
  if (expand) {
    // Only outer dims may be expanded: the image dims stay single groups.
    auto xType = cast<RankedTensorType>(x.getType());
    if (!keepsImageDims(expand, xType.getRank()))
      return result;
    SmallVector<ReassociationIndices> groups =
        expand.getReassociationIndices();
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape = replaceTrailing(
        xType.getShape(), 2, sourceType.getShape().take_back(2));
    source = tensor::ExpandShapeOp::create(
        rewriter, expand.getLoc(),
        RankedTensorType::get(shape, sourceType.getElementType()), source,
        groups);
  }
  int64_t rank = low.size();
  result.source = source;
  result.low = {low[rank - 2], low[rank - 1]};
  result.padValue = value;
  return result;
}

/// A generic that writes every element of its single output from inputs
/// indexed without the last two loops (a broadcast of per-channel values)
/// and never reads its init.
bool isImageBroadcast(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      op.getNumLoops() < 2 ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return false;
  unsigned loops = op.getNumLoops();
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return !map.isFunctionOfDim(loops - 1) && !map.isFunctionOfDim(loops - 2);
  });
}

/// The image broadcast `op` on outputs of `type` (same inputs, a fresh
/// init).
linalg::GenericOp cloneOnGrid(RewriterBase &rewriter, linalg::GenericOp op,
                              RankedTensorType type) {
  rewriter.setInsertionPoint(op);
  Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                       type.getElementType());
  auto clone = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange{type}, op.getDpsInputs(),
      ValueRange{init},
      op.getIndexingMapsArray(), op.getIteratorTypesArray());
  IRMapping mapping;
  op.getRegion().cloneInto(&clone.getRegion(), mapping);
  return clone;
}

/// A depthwise convolution computed on its channels' flattened images: its
/// channel count, output image, window taps (row and column offsets of each
/// tap from the output pixel in the unpadded input, in the window's order),
/// and where the channels and window sit in its output and filter.
struct FlatDepthwise {
  int64_t channels, height, width, windowWidth;
  SmallVector<std::pair<int64_t, int64_t>> taps;
  int64_t outputChannelDim, filterChannelDim;
  int64_t filterWindowDims[2];
};

/// True when flattenDepthwise can carry `d` out on `op`'s input (unpad's
/// conditions, checked without creating anything): a padded image of
/// `d`'s channels, height and width (through an expand_shape of its outer
/// dimensions only), whose taps, shifted by the low padding, stay within
/// one image of the flat view.
bool hasFlatPaddedInput(linalg::GenericOp op, const FlatDepthwise &d) {
  Value x = op.getDpsInputs()[0];
  auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
  auto padding = matchPadding(expand ? expand.getSrc() : x);
  if (!padding)
    return false;
  auto &[source, low, value] = *padding;
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape(sourceType.getShape());
  if (expand) {
    auto xType = cast<RankedTensorType>(x.getType());
    if (!keepsImageDims(expand, xType.getRank()))
      return false;
    shape = replaceTrailing(xType.getShape(), 2,
                            sourceType.getShape().take_back(2));
  }
  int64_t rank = shape.size(), padRank = low.size();
  if (shape[rank - 2] != d.height || shape[rank - 1] != d.width ||
      sourceType.getNumElements() != d.channels * d.height * d.width)
    return false;
  int64_t margin = 0;
  for (auto [dh, dw] : d.taps)
    margin = std::max(margin, std::abs((dh - low[padRank - 2]) * d.width +
                                       dw - low[padRank - 1]));
  return margin <= d.height * d.width;
}

/// `op` as a depthwise convolution to compute on flattened images: f32,
/// one channel loop (no reduction over input channels), batch 1, stride 1,
/// sum of products (mulf then addf into the init), a small image and
/// enough channels (aotc::flatDepthwisePays), a padded input
/// (hasFlatPaddedInput).
std::optional<FlatDepthwise> matchFlatDepthwise(linalg::GenericOp op,
                                                int64_t vectorBits) {
  std::optional<aotc::ConvolutionLoops> conv = aotc::matchNchwConvolution(op);
  if (!conv || !aotc::isFlatImageConvolution(op, *conv) ||
      aotc::convolutionChannelRowLoop(op))
    return std::nullopt;
  for (Value v : op->getOperands())
    if (!getElementTypeOrSelf(v.getType()).isF32())
      return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (ranges[conv->channels] != 1)
    return std::nullopt;
  // One channel loop; every other loop but the image and window is unit.
  std::optional<unsigned> channel;
  for (unsigned i = 0, e = op.getNumLoops(); i < e; ++i) {
    if (ranges[i] == 1 || llvm::is_contained(conv->image, i) ||
        llvm::is_contained(conv->window, i))
      continue;
    if (channel || iterators[i] != utils::IteratorType::parallel)
      return std::nullopt;
    channel = i;
  }
  if (!channel)
    return std::nullopt;
  if (!aotc::isMultiplyAccumulate(op))
    return std::nullopt;
  FlatDepthwise d;
  d.channels = ranges[*channel];
  d.height = ranges[conv->image[0]];
  d.width = ranges[conv->image[1]];
  d.windowWidth = ranges[conv->window[1]];
  if (!aotc::flatDepthwisePays(d.channels, d.height, d.width, vectorBits))
    return std::nullopt;
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getIndexingMapsArray()[2];
  std::optional<unsigned> outChannel =
      oMap.getResultPosition(getAffineDimExpr(*channel, op.getContext()));
  std::optional<unsigned> filterChannel =
      wMap.getResultPosition(getAffineDimExpr(*channel, op.getContext()));
  if (!outChannel || !filterChannel ||
      *outChannel >= oMap.getNumResults() - 2)
    return std::nullopt;
  d.outputChannelDim = *outChannel;
  d.filterChannelDim = *filterChannel;
  for (int j = 0; j < 2; ++j)
    d.filterWindowDims[j] = *wMap.getResultPosition(
        getAffineDimExpr(conv->window[j], op.getContext()));
  // Tap offsets relative to the padded input; the padding's low sizes are
  // subtracted when rewriting (unpad).
  for (int64_t kh = 0; kh < ranges[conv->window[0]]; ++kh)
    for (int64_t kw = 0; kw < d.windowWidth; ++kw)
      d.taps.push_back({kh * conv->dilations[0], kw * conv->dilations[1]});
  if (!hasFlatPaddedInput(op, d))
    return std::nullopt;
  return d;
}

struct FlattenConvolutionImagesPass
    : aotc::impl::FlattenConvolutionImagesBase<FlattenConvolutionImagesPass> {
  using Base::Base;

  /// The vector register width: the option when set, else the module's
  /// CpuTarget's.
  int64_t vectorBits = 0;

  void runOnOperation() override {
    vectorBits = aotc::vectorBitsOf(getOperation(), vectorBitsOption);
    SmallVector<std::pair<linalg::GenericOp, aotc::ConvolutionLoops>, 4>
        candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::FlatImage))
        return;
      std::optional<aotc::ConvolutionLoops> conv =
          aotc::matchNchwConvolution(op);
      if (conv && aotc::isFlatImageConvolution(op, *conv) &&
          aotc::convolutionChannelRowLoop(op))
        candidates.push_back({op, *conv});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, conv] : candidates)
      flatten(rewriter, op, conv);

    SmallVector<std::pair<linalg::GenericOp, FlatDepthwise>, 4> depthwise;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::FlatDepthwise))
        return;
      if (std::optional<FlatDepthwise> d = matchFlatDepthwise(op, vectorBits))
        depthwise.push_back({op, *d});
    });
    for (auto &[op, d] : depthwise)
      if (!flattenDepthwise(rewriter, op, d))
        aotc::revertPath(op, aotc::ConvolutionPath::FlatDepthwise,
                         "no flat view of its padded input");
  }

  /// `op` (matchFlatDepthwise) on the flattened images of all its channels:
  /// channels 1..C-2 read the unpadded input in place through one flat view
  /// per window tap (the tap's shift of every channel's image), channels 0
  /// and C-1 a padded copy of their own image each (their taps would reach
  /// past the input).
  /// False when its input is not a padded image of its shape, or a tap's
  /// view would leave it (the op is then left as it is).
  bool flattenDepthwise(RewriterBase &rewriter, linalg::GenericOp op,
                        FlatDepthwise d) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    PaddedImage image = unpad(rewriter, op.getDpsInputs()[0]);
    if (!image.padValue)
      return false;
    for (auto &[dh, dw] : d.taps) {
      dh -= image.low.first;
      dw -= image.low.second;
    }
    auto sourceType = cast<RankedTensorType>(image.source.getType());
    int64_t rank = sourceType.getRank();
    if (sourceType.getDimSize(rank - 2) != d.height ||
        sourceType.getDimSize(rank - 1) != d.width ||
        sourceType.getNumElements() != d.channels * d.height * d.width)
      return false;
    rewriter.setInsertionPoint(op);
    Type f32 = rewriter.getF32Type();
    int64_t pixels = d.height * d.width;
    SmallVector<int64_t> shifts;
    int64_t margin = 0;
    for (auto [dh, dw] : d.taps) {
      shifts.push_back(dh * d.width + dw);
      margin = std::max(margin, std::abs(shifts.back()));
    }
    if (margin > pixels)
      return false; // A view of the inner channels would leave the input.
    Value flat = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get({sourceType.getNumElements()}, f32),
        image.source,
        SmallVector<ReassociationIndices>{
            llvm::to_vector(llvm::seq<int64_t>(0, rank))});
    Value init = op.getDpsInits()[0];
    auto outType = cast<RankedTensorType>(op.getResult(0).getType());
    // The parts are computed in their rows of one [C, H * W] tensor
    // (destination passing: no buffer of their own that an insert would
    // copy): the init's, or, when the init broadcasts a bias, a new one (the
    // bias is read per channel instead of written over the image first).
    Value bias = channelValues(init, d);
    SmallVector<ReassociationIndices> groups =
        channelImageGroups(outType.getRank(), d);
    Value result =
        bias ? tensor::EmptyOp::create(
                   rewriter, loc, ArrayRef<int64_t>{d.channels, pixels}, f32)
                   .getResult()
             : tensor::CollapseShapeOp::create(rewriter, loc, init, groups)
                   .getResult();
    auto part = [&](int64_t first, int64_t count, Value input, int64_t base) {
      Value partBias =
          bias ? channelSlice(rewriter, loc, bias, first, count) : Value();
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(first),
                                           rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(count),
                                         rewriter.getIndexAttr(pixels)};
      SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
      Value partInit = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({count, pixels}, f32), result,
          offsets, sizes, strides);
      Value values = flatTaps(rewriter, loc, op, d, input, base, shifts,
                              first, count, partInit, partBias,
                              image.padValue);
      result = tensor::InsertSliceOp::create(rewriter, loc, values, result,
                                             offsets, sizes, strides);
    };
    // The inner channels: every tap's view stays inside the input.
    part(1, d.channels - 2, flat, pixels);
    // The first and last channels: their image between margins.
    for (int64_t channel : {int64_t(0), d.channels - 1}) {
      Value own = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({pixels}, f32), flat,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(channel * pixels)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(pixels)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      Value padded = tensor::PadOp::create(
          rewriter, loc, RankedTensorType::get({pixels + 2 * margin}, f32),
          own, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(margin)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(margin)},
          image.padValue);
      part(channel, 1, padded, margin);
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, outType, result,
                                                       groups);
    return true;
  }

  /// The per-channel values that `init` broadcasts over each channel's
  /// image (a bias: an image broadcast of one input read through the channel
  /// loop alone, isImageBroadcast), as a [C] tensor; null for another init.
  /// Read by the flattened convolution directly, the broadcast is not
  /// written first (a pass over the whole output).
  static Value channelValues(Value init, const FlatDepthwise &d) {
    auto broadcast = init.getDefiningOp<linalg::GenericOp>();
    if (!broadcast || !isImageBroadcast(broadcast) ||
        broadcast.getNumDpsInputs() != 1)
      return {};
    auto yield = cast<linalg::YieldOp>(broadcast.getBody()->getTerminator());
    OpOperand *input = broadcast.getDpsInputOperand(0);
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (yield.getValues()[0] != broadcast.getBody()->getArgument(0) || !type ||
        type.getNumElements() != d.channels)
      return {};
    // The output's channel dim is the input's one non-unit dim.
    AffineMap map = broadcast.getMatchingIndexingMap(input);
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        return {};
      if (type.getDimSize(i) != 1 && dim.getPosition() != d.outputChannelDim)
        return {};
    }
    return input->get();
  }

  /// Channels [first, first + count) of `values` (channelValues) as
  /// [count].
  static Value channelSlice(RewriterBase &rewriter, Location loc, Value values,
                            int64_t first, int64_t count) {
    auto type = cast<RankedTensorType>(values.getType());
    SmallVector<OpFoldResult> offsets, sizes,
        strides(type.getRank(), rewriter.getIndexAttr(1));
    for (int64_t size : type.getShape()) {
      bool channel = size != 1;
      offsets.push_back(rewriter.getIndexAttr(channel ? first : 0));
      sizes.push_back(rewriter.getIndexAttr(channel ? count : 1));
    }
    return tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({count}, type.getElementType()),
        values, offsets, sizes, strides);
  }

  /// Reassociation of [C, H * W] into `op`'s output [..., C, ..., H, W]
  /// (unit dims before the channels with them, after them with the image).
  static SmallVector<ReassociationIndices>
  channelImageGroups(int64_t rank, const FlatDepthwise &d) {
    ReassociationIndices channels, image;
    for (int64_t i = 0; i < rank; ++i)
      (i <= d.outputChannelDim ? channels : image).push_back(i);
    return {channels, image};
  }

  /// out[j, p] = init[j, p] (or bias[j]) + sum over taps t of x_t[j, p] *
  /// w[first + j, t]
  /// for j < count, p < H * W, in the window's order, where x_t is `input`
  /// from `base` + shift_t in rows of H * W and an output whose tap leaves
  /// the image reads the padding value instead (its mask from the pixel's
  /// row and column: linalg.index, constants once vectorized).
  static Value flatTaps(RewriterBase &rewriter, Location loc,
                        linalg::GenericOp op, const FlatDepthwise &d,
                        Value input, int64_t base, ArrayRef<int64_t> shifts,
                        int64_t first, int64_t count, Value init, Value bias,
                        Value padValue) {
    MLIRContext *ctx = rewriter.getContext();
    Type f32 = rewriter.getF32Type();
    int64_t pixels = d.height * d.width;
    auto rowsType = RankedTensorType::get({count, pixels}, f32);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
    AffineMap perRow = AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    Value filter = op.getDpsInputs()[1];
    auto filterType = cast<RankedTensorType>(filter.getType());
    for (auto [t, shift] : llvm::enumerate(shifts)) {
      Value view = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({count * pixels}, f32), input,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(base + shift)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(count * pixels)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      inputs.push_back(tensor::ExpandShapeOp::create(
          rewriter, loc, rowsType, view,
          SmallVector<ReassociationIndices>{{0, 1}}));
      maps.push_back(identity);
      // The tap's filter values of channels [first, first + count).
      SmallVector<OpFoldResult> offsets, sizes,
          strides(filterType.getRank(), rewriter.getIndexAttr(1));
      for (int64_t i = 0; i < filterType.getRank(); ++i) {
        int64_t offset = 0, size = 1;
        if (i == d.filterChannelDim) {
          offset = first;
          size = count;
        } else if (i == d.filterWindowDims[0]) {
          offset = t / d.windowWidth;
        } else if (i == d.filterWindowDims[1]) {
          offset = t % d.windowWidth;
        }
        offsets.push_back(rewriter.getIndexAttr(offset));
        sizes.push_back(rewriter.getIndexAttr(size));
      }
      inputs.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({count}, f32), filter, offsets,
          sizes, strides));
      maps.push_back(perRow);
    }
    if (bias) {
      inputs.push_back(bias);
      maps.push_back(perRow);
    }
    maps.push_back(identity);
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rowsType}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value pixel = linalg::IndexOp::create(b, l, 1);
          Value widthValue = arith::ConstantIndexOp::create(b, l, d.width);
          Value row = arith::DivUIOp::create(b, l, pixel, widthValue);
          Value column = arith::RemUIOp::create(b, l, pixel, widthValue);
          // Whether `index` + `delta` lies in [0, extent).
          auto inside = [&](Value index, int64_t delta,
                            int64_t extent) -> Value {
            if (delta < 0)
              return arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::uge, index,
                  arith::ConstantIndexOp::create(b, l, -delta));
            return arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ult, index,
                arith::ConstantIndexOp::create(b, l, extent - delta));
          };
          Value acc = bias ? args[2 * shifts.size()] : args.back();
          for (auto [t, tap] : llvm::enumerate(d.taps)) {
            auto [dh, dw] = tap;
            Value x = args[2 * t];
            Value valid;
            if (dh != 0)
              valid = inside(row, dh, d.height);
            if (dw != 0) {
              Value in = inside(column, dw, d.width);
              valid = valid ? arith::AndIOp::create(b, l, valid, in) : in;
            }
            if (valid)
              x = arith::SelectOp::create(b, l, valid, x, padValue);
            Value product = arith::MulFOp::create(b, l, x, args[2 * t + 1]);
            acc = arith::AddFOp::create(b, l, acc, product);
          }
          linalg::YieldOp::create(b, l, acc);
        });
    return generic.getResult(0);
  }

  void flatten(RewriterBase &rewriter, linalg::GenericOp op,
               const aotc::ConvolutionLoops &conv) {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getResult(0).getType());
    Type elementType = outType.getElementType();
    int64_t lanes =
        aotc::registerLanes(vectorBits, elementType.getIntOrFloatBitWidth());
    int64_t outRank = outType.getRank();
    int64_t height = outType.getDimSize(outRank - 2);
    int64_t width = outType.getDimSize(outRank - 1);
    Value x = op.getDpsInputs()[0];
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t xRank = xType.getRank();
    int64_t padded = xType.getDimSize(xRank - 1); // Wp
    // The grid: register tiles of two to four grid rows, three preferred
    // (aotc::convolutionGridRows), or one register per output row when that
    // is smaller (row-aligned: grid rows `padded` apart in the input,
    // aotc::isRowAlignedGrid).
    int64_t used = height * padded;
    int64_t gridLength =
        aotc::convolutionGridLength(height, width, padded, lanes, vectorBits);
    bool rowAligned =
        aotc::isRowAlignedGrid(height, width, padded, lanes, vectorBits);
    // The input must hold the grid's last element's window; a row-aligned
    // grid's register tiles read whole rows of `padded`, all `used` of them
    // (the last one's columns past the lanes unused:
    // aotc-vectorize-convolutions).
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t reach = (ranges[conv.window[0]] - 1) * conv.dilations[0] * padded +
                    (ranges[conv.window[1]] - 1) * conv.dilations[1];
    int64_t inputLength =
        llvm::divideCeil(std::max(gridLength, used) + reach, lanes) * lanes;
    if (inputLength < xType.getDimSize(xRank - 2) * padded)
      return; // The input has rows the output does not reach.

    rewriter.setInsertionPoint(op);
    PaddedImage image = unpad(rewriter, x);
    rewriter.setInsertionPoint(op);
    Value fill = image.padValue;
    if (!fill)
      fill = arith::ConstantOp::create(rewriter, loc, elementType,
                                       rewriter.getZeroAttr(elementType));
    SmallVector<Operation *> dead(image.chain.begin(), image.chain.end());
    Value flatX = flattenImage(rewriter, loc, image.source, image.low, padded,
                               inputLength, fill, image.chain, dead);

    // The initial value on the grid [outer..., gridLength / lanes, lanes].
    auto gridType = RankedTensorType::get(
        replaceTrailing(outType.getShape(), 2, {gridLength / lanes, lanes}),
        elementType);
    Value init = op.getDpsInits()[0];
    Value gridInit;
    if (auto fillOp = init.getDefiningOp<linalg::FillOp>()) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, gridType.getShape(),
                                            elementType);
      gridInit = linalg::FillOp::create(rewriter, loc, fillOp.getInputs()[0],
                                        empty)
                     .getResult(0);
    } else if (auto broadcast = init.getDefiningOp<linalg::GenericOp>();
               broadcast && isImageBroadcast(broadcast)) {
      gridInit = cloneOnGrid(rewriter, broadcast, gridType).getResult(0);
      rewriter.setInsertionPoint(op);
    } else {
      Value zero = arith::ConstantOp::create(
          rewriter, loc, elementType, rewriter.getZeroAttr(elementType));
      Value flatInit =
          flattenImage(rewriter, loc, init, {0, 0}, rowAligned ? lanes : padded,
                       gridLength, zero, {}, dead);
      gridInit = tensor::ExpandShapeOp::create(
          rewriter, loc, gridType, flatInit, aotc::collapseTrailing(outRank, 2));
    }

    // x[..., c, oh + kh * d, ow + kw * d] -> flat[..., c, r * P + l +
    // kh * d * Wp + kw * d] with (r, l) the former (oh, ow) loops, P = lanes
    // (Wp when row-aligned).
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    AffineMap xMap = maps[0];
    AffineExpr row = getAffineDimExpr(conv.image[0], ctx);
    AffineExpr lane = getAffineDimExpr(conv.image[1], ctx);
    AffineExpr kh = getAffineDimExpr(conv.window[0], ctx);
    AffineExpr kw = getAffineDimExpr(conv.window[1], ctx);
    SmallVector<AffineExpr> xExprs(xMap.getResults().drop_back(2));
    xExprs.push_back(row * (rowAligned ? padded : lanes) + lane +
                     kh * (conv.dilations[0] * padded) +
                     kw * conv.dilations[1]);
    maps[0] = AffineMap::get(xMap.getNumDims(), 0, xExprs, ctx);
    auto flatConv = linalg::GenericOp::create(
        rewriter, loc, TypeRange{gridType},
        ValueRange{flatX, op.getDpsInputs()[1]}, ValueRange{gridInit}, maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), flatConv.getRegion(),
                                flatConv.getRegion().begin());
    Value grid = flatConv.getResult(0);
    Value result = rowAligned
                       ? aotc::leadingSlice(rewriter, loc, grid,
                                            outType.getShape())
                       : cropGrid(rewriter, loc, grid, outType, padded);
    rewriter.replaceOp(op, result);
    // The padding chain, then a producer that now writes the flat buffer.
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&deadOp : dead)
        if (deadOp && deadOp->use_empty()) {
          rewriter.eraseOp(deadOp);
          deadOp = nullptr;
          erased = true;
        }
    }

    // Linalg ops read the image through the view, but one that only
    // overwrites it (an in-place elementwise update) gets its own
    // contiguous destination; other users (reshapes, the function's
    // results) read a copy made here.
    rewriter.setInsertionPointAfter(result.getDefiningOp());
    Value empty = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                          elementType);
    auto overwrites = [](OpOperand &use) {
      auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
      return user && user.isDpsInit(&use) &&
             !user.payloadUsesValueFromOperand(&use);
    };
    auto needsCopy = [](OpOperand &use) {
      return !isa<linalg::LinalgOp>(use.getOwner());
    };
    rewriter.replaceUsesWithIf(result, empty, overwrites);
    if (llvm::any_of(result.getUses(), needsCopy)) {
      Value copy = copyInto(rewriter, loc, result, empty);
      rewriter.replaceUsesWithIf(result, copy, needsCopy);
    }
    if (empty.use_empty())
      rewriter.eraseOp(empty.getDefiningOp());
  }

  /// The image [outer..., H, W] in `grid` [outer..., rows, lanes]: the first
  /// H * Wp elements as H rows of Wp, their first W columns.
  Value cropGrid(RewriterBase &rewriter, Location loc, Value grid,
                 RankedTensorType imageType, int64_t padded) {
    auto gridType = cast<RankedTensorType>(grid.getType());
    int64_t rank = gridType.getRank();
    ArrayRef<int64_t> shape = imageType.getShape();
    int64_t height = shape[rank - 2];
    SmallVector<ReassociationIndices> groups = aotc::collapseTrailing(rank, 2);
    Value flat = tensor::CollapseShapeOp::create(rewriter, loc, grid, groups);
    Value used = aotc::leadingSlice(rewriter, loc, flat,
                              replaceTrailing(shape, 2, {height * padded}));
    Value rows = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(replaceTrailing(shape, 2, {height, padded}),
                              imageType.getElementType()),
        used, groups);
    return aotc::leadingSlice(rewriter, loc, rows, shape);
  }
};

} // namespace

bool aotc::canUseFlatImage(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return false;
  std::optional<aotc::ConvolutionLoops> conv =
      aotc::matchNchwConvolution(generic);
  return conv && aotc::isFlatImageConvolution(generic, *conv) &&
         aotc::convolutionChannelRowLoop(generic);
}

bool aotc::canUseFlatDepthwise(linalg::LinalgOp op, int64_t vectorBits) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  return generic && matchFlatDepthwise(generic, vectorBits).has_value();
}
