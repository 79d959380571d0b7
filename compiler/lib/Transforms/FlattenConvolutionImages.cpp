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
// Convolutions without input channels (depthwise) stay direct at every
// width: aotc-peel-padded-windows reads their input in place, where the
// flat buffer costs a fill and a copy of the input and a copy of the output
// back to the image for 9 multiply-adds per element. Measured on AVX-512
// (mobilenet_v2's stride-1 depthwise layers alone, 1 / 2 threads, vs the
// flat grid): 56 x 56 0.33x / 0.56x the time, 28 x 28 0.44x / 0.69x,
// 14 x 14 0.68x / 0.70x, 7 x 7 0.95x / 0.67x; the whole model 0.93x / 0.92x.
//
// The padded input becomes one flat buffer (filled with the padding value,
// the unpadded input inserted: this replaces the pad's copy; a linalg op
// that produces the input for the convolution alone writes it in place);
// the output's initial value (bias broadcast or fill) is recomputed on the
// grid. Linalg consumers read the image through the strided view; any other
// user (a reshape, the function's result) reads a copy.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/ConvolutionUtils.h"
#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_FLATTENCONVOLUTIONIMAGES
#include "aotc/Transforms/Passes.h.inc"
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

/// extract_slice of `source` from 0 with `sizes` and unit strides.
Value leadingSlice(RewriterBase &rewriter, Location loc, Value source,
                   ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> offsets(sizes.size(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(rewriter, loc, source, offsets,
                                        getAsIndexOpFoldResult(
                                            rewriter.getContext(), sizes),
                                        strides);
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
  Value part = leadingSlice(rewriter, loc, flat, partShape);
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
    SmallVector<ReassociationIndices> groups =
        expand.getReassociationIndices();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t xRank = xType.getRank();
    if (groups.size() < 2 ||
        groups[groups.size() - 1] != ReassociationIndices{xRank - 1} ||
        groups[groups.size() - 2] != ReassociationIndices{xRank - 2})
      return result;
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

struct FlattenConvolutionImagesPass
    : aotc::impl::FlattenConvolutionImagesBase<FlattenConvolutionImagesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, aotc::ConvolutionLoops>, 4>
        candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      std::optional<aotc::ConvolutionLoops> conv =
          aotc::matchNchwConvolution(op);
      if (conv && aotc::isFlatImageConvolution(op, *conv) &&
          aotc::convolutionChannelRowLoop(op))
        candidates.push_back({op, *conv});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, conv] : candidates)
      flatten(rewriter, op, conv);
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
                       ? leadingSlice(rewriter, loc, grid, outType.getShape())
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
    Value used = leadingSlice(rewriter, loc, flat,
                              replaceTrailing(shape, 2, {height * padded}));
    Value rows = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(replaceTrailing(shape, 2, {height, padded}),
                              imageType.getElementType()),
        used, groups);
    return leadingSlice(rewriter, loc, rows, shape);
  }
};

} // namespace
