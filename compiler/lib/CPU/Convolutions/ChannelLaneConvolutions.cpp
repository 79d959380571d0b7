//===- ChannelLaneConvolutions.cpp - Output channels as lanes -*- C++ -*-===//
//
// This file implements the aotc-channel-lane-convolutions pass: a
// convolution over enough input channels that aotc-winograd-convolutions
// left (ResNet's 3x3 stride-2 layers, its 7 x 7 stride-1 ones) is computed
// directly, with its output channels as the vector lanes. Its
// output channels are split into blocks of one contraction register tile's
// lanes (NCHWc: [..., C / b, oh, ow, b]) and its constant filter is packed
// at compile time into the same blocks, [..., C / b, c, kh, kw, b], so that
// a register tile of one output row's pixels x b channels takes, for each
// input channel and window tap, one contiguous row of b filter values and
// one broadcast input element per pixel, read in place through the window
// (a stride-2 row of pixels is one cache line). The im2col copy of the
// input is gone, and so is the copy that packed its columns; the result is
// transposed back to NCHW once. Every lane computes an output, whatever the
// image's width: a stride-1 convolution on a flattened image
// (aotc-flatten-convolution-images) also computes the padded columns, 30%
// more lanes than outputs for a 7 x 7 image (4 registers of 16 lanes for
// 7 rows of 9 columns).
//
// A shallow reduction over an image's few channels (an RGB stem: 27 or 147
// elements) does not repay the transpose back; it is computed straight into
// the NCHW output, its channels split in place ([..., C / b, b, oh, ow]),
// each register tile of pixels x b lanes stored transposed (8 x 32 as one
// 16 x 16 shuffle transpose, aotc-lower-vector-ops), which saves the
// column copy of the im2col path; the results are bit-identical to it.
//
// A depthwise convolution with a wide window on narrow rows (5x5 on a
// 14 x 14 image: 10- or 14-lane vectors along its NCHW rows) has its input
// transposed into blocks of one register of channels as well, then padded;
// each window tap is then one contiguous vector of input and of filter.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_CHANNELLANECONVOLUTIONS
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// A convolution this pass rewrites: its loops, its output-channel loop,
/// the filter's f32 values and the lanes of a channel block.
struct Candidate {
  linalg::GenericOp op;
  aotc::ConvolutionLoops conv;
  unsigned channel;
  DenseElementsAttr filter;
  int64_t block;
  /// Computed into the NCHW output (its channels split in blocks of lanes)
  /// instead of a blocked one transposed back.
  bool direct;
  /// A depthwise convolution: the input's channels are blocked as well.
  bool depthwise;
};

/// `op` as a candidate for output-channel blocks on `registers`: an NCHW
/// convolution on f32 whose constant filter reads one output-channel loop
/// that the output holds just before its image, in a form that pays. Over
/// input channels (aotc::channelLaneForm), blocks of one contraction
/// register tile's lanes, or one register's for groups that fill only one
/// (aotc::channelLaneBlock); depthwise (one input channel per group, the
/// group loop read by the input too; aotc::depthwiseLanesPay), of one
/// register's.
std::optional<Candidate> matchCandidate(linalg::GenericOp op,
                                        aotc::VectorRegisters registers) {
  std::optional<aotc::ConvolutionLoops> conv = aotc::matchNchwConvolution(op);
  if (!conv || conv->image.empty())
    return std::nullopt;
  for (Value v : op->getOperands())
    if (!getElementTypeOrSelf(v.getType()).isF32())
      return std::nullopt;
  DenseElementsAttr filter;
  if (!matchPattern(op.getDpsInputs()[1], m_Constant(&filter)))
    return std::nullopt;
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getIndexingMapsArray()[2];
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // The output-channel loop: of the filter and the output, not of the
  // input; else, with one input channel per group, the group loop.
  auto channelLoop = [&](bool readByInput) -> std::optional<unsigned> {
    std::optional<unsigned> channel;
    for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d) {
      if (iterators[d] != utils::IteratorType::parallel ||
          !wMap.isFunctionOfDim(d) || !oMap.isFunctionOfDim(d) ||
          xMap.isFunctionOfDim(d) != readByInput || ranges[d] == 1)
        continue;
      if (channel)
        return std::nullopt;
      channel = d;
    }
    return channel;
  };
  std::optional<unsigned> channel = channelLoop(/*readByInput=*/false);
  bool depthwise = false;
  if (!channel && ranges[conv->channels] == 1) {
    channel = channelLoop(/*readByInput=*/true);
    depthwise = channel.has_value();
  }
  // The output holds the channels before its image, with unit dimensions
  // between them only (a depthwise convolution's [n, g, 1, oh, ow]).
  unsigned n = conv->image.size();
  if (!channel || oMap.getNumResults() < n + 1)
    return std::nullopt;
  for (unsigned r = oMap.getNumResults() - n - 1;
       oMap.getDimPosition(r) != *channel; --r)
    if (r == 0 || ranges[oMap.getDimPosition(r)] != 1)
      return std::nullopt;
  int64_t lanes = aotc::registerLanes(registers.bits, 32);
  if (depthwise) {
    SmallVector<int64_t> window;
    for (unsigned k : conv->window)
      window.push_back(ranges[k]);
    // The input holds the group loop as one dimension of its own (split
    // into blocks there too).
    if (ranges[*channel] % lanes != 0 ||
        !xMap.getResultPosition(getAffineDimExpr(*channel, op.getContext())) ||
        !aotc::depthwiseLanesPay(window, conv->strides,
                                 ranges[conv->image.back()], registers.bits))
      return std::nullopt;
    return Candidate{op, *conv, *channel, filter, lanes, /*direct=*/false,
                     /*depthwise=*/true};
  }
  // Groups: a loop that the input, the filter and the output all read.
  bool grouped = llvm::any_of(llvm::seq(op.getNumLoops()), [&](unsigned d) {
    return ranges[d] > 1 && xMap.isFunctionOfDim(d) &&
           wMap.isFunctionOfDim(d) && oMap.isFunctionOfDim(d);
  });
  int64_t block = aotc::channelLaneBlock(ranges[*channel], grouped, registers);
  if (block == 0)
    return std::nullopt;
  int64_t reduction = ranges[conv->channels];
  for (unsigned k : conv->window)
    reduction *= ranges[k];
  std::optional<aotc::ChannelLaneForm> form = aotc::channelLaneForm(
      ranges[conv->channels], reduction, ranges[conv->image.back()], grouped,
      registers);
  if (!form)
    return std::nullopt;
  // Straight into NCHW, tiles are stored transposed as squares of one
  // contraction row's lanes: blocks of one register are blocked.
  bool direct = *form == aotc::ChannelLaneForm::Direct &&
                block == aotc::kContractionRegistersPerRow * lanes;
  return Candidate{op, *conv, *channel, filter, block, direct,
                   /*depthwise=*/false};
}

/// `filter` with its output-channel dimension `dim` split into
/// [C / block, block] and the block moved last (at compile time).
DenseElementsAttr packFilter(DenseElementsAttr filter, unsigned dim,
                             int64_t block) {
  ArrayRef<int64_t> shape = filter.getType().getShape();
  SmallVector<int64_t> packedShape(shape);
  packedShape[dim] /= block;
  packedShape.push_back(block);
  // Elements after the channel dimension in the original layout.
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t channels = shape[dim];
  SmallVector<float> packed(filter.getNumElements());
  int64_t i = 0;
  for (float value : filter.getValues<float>()) {
    int64_t outer = i / (channels * inner);
    int64_t c = i / inner % channels;
    int64_t rest = i % inner;
    packed[((outer * (channels / block) + c / block) * inner + rest) * block +
           c % block] = value;
    ++i;
  }
  return DenseElementsAttr::get(
      RankedTensorType::get(packedShape, filter.getElementType()),
      ArrayRef<float>(packed));
}

/// `type` with dimension `dim` of size C split into [C / block, block] and
/// the block moved last.
RankedTensorType toBlockedType(RankedTensorType type, int64_t dim,
                               int64_t block) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= block;
  shape.push_back(block);
  return RankedTensorType::get(shape, type.getElementType());
}

/// `v` with dimension `dim` of size C split into [C / block, block] and the
/// block moved last (a free reshape, then a transpose).
Value toBlocked(OpBuilder &b, Location loc, Value v, int64_t dim,
                int64_t block) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d <= type.getRank(); ++d)
    if (d != dim + 1)
      permutation.push_back(d);
  permutation.push_back(dim + 1);
  RankedTensorType blockedType = toBlockedType(type, dim, block);
  Value init = tensor::EmptyOp::create(b, loc, blockedType.getShape(),
                                       type.getElementType());
  return linalg::TransposeOp::create(
             b, loc, aotc::splitDimension(b, loc, v, dim, block), init,
             permutation)
      ->getResult(0);
}

/// A depthwise convolution's padded input `x` with dimension `dim` (its
/// channels) in blocks (toBlocked): when `x` is a padding of the image
/// alone, its source is transposed and the result padded (a tensor.pad,
/// which aotc-peel-padded-windows then reads in place but for the border
/// strips); else `x` is transposed as it is.
Value toBlockedInput(OpBuilder &b, Location loc, Value x, int64_t dim,
                     int64_t block) {
  auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
  std::optional<aotc::Padding> padding =
      aotc::matchPadding(expand ? expand.getSrc() : x);
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> lowHigh =
      padding ? aotc::paddingOfInput(*padding, expand) : std::nullopt;
  if (!lowHigh || (*lowHigh)[dim] != std::pair<int64_t, int64_t>(0, 0))
    return toBlocked(b, loc, x, dim, block);
  auto xType = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> low, high;
  Value source = aotc::unpaddedSource(b, loc, *padding, expand, xType,
                                      *lowHigh, low, high);
  // The lanes, last, are not padded.
  low.push_back(b.getIndexAttr(0));
  high.push_back(b.getIndexAttr(0));
  Value blocked = toBlocked(b, loc, source, dim, block);
  return tensor::PadOp::create(b, loc, toBlockedType(xType, dim, block),
                               blocked, low, high, padding->value,
                               /*nofold=*/false);
}

/// A 2-D convolution's padded input `x` ([..., C, H, W], possibly through an
/// expand_shape) padded once more with planeSlackRows rows below its
/// image, so that its channel planes fall into more cache sets; `x` when
/// the rule asks for none or `x` is not a padded copy. The op's windows
/// never reach the extra rows.
Value spreadPlanes(OpBuilder &b, Location loc, Value x,
                   const aotc::CpuTarget &target) {
  auto xType = cast<RankedTensorType>(x.getType());
  if (xType.getRank() < 3 || !xType.hasStaticShape())
    return x;
  int64_t rank = xType.getRank();
  int64_t planeBytes = xType.getDimSize(rank - 2) * xType.getDimSize(rank - 1) *
                       xType.getElementTypeBitWidth() / 8;
  int64_t slack =
      aotc::planeSlackRows(xType.getDimSize(rank - 3), planeBytes, target);
  if (slack == 0)
    return x;
  auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
  std::optional<aotc::Padding> padding =
      aotc::matchPadding(expand ? expand.getSrc() : x);
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> lowHigh =
      padding ? aotc::paddingOfInput(*padding, expand) : std::nullopt;
  if (!lowHigh)
    return x;
  SmallVector<OpFoldResult> low, high;
  Value source = aotc::unpaddedSource(b, loc, *padding, expand, xType, *lowHigh,
                                      low, high);
  high[rank - 2] = b.getIndexAttr((*lowHigh)[rank - 2].second + slack);
  SmallVector<int64_t> shape(xType.getShape());
  shape[rank - 2] += slack;
  return tensor::PadOp::create(b, loc, xType.clone(shape), source, low, high,
                               padding->value, /*nofold=*/false);
}

/// The inverse of toBlocked: [..., C / block, ..., block] back to `type`.
Value fromBlocked(OpBuilder &b, Location loc, Value v, int64_t dim,
                  RankedTensorType type) {
  auto blockedType = cast<RankedTensorType>(v.getType());
  int64_t rank = blockedType.getRank();
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < rank - 1; ++d) {
    permutation.push_back(d);
    if (d == dim)
      permutation.push_back(rank - 1);
  }
  SmallVector<int64_t> shape;
  for (int64_t d : permutation)
    shape.push_back(blockedType.getDimSize(d));
  Value init =
      tensor::EmptyOp::create(b, loc, shape, blockedType.getElementType());
  Value transposed =
      linalg::TransposeOp::create(b, loc, v, init, permutation)->getResult(0);
  return tensor::CollapseShapeOp::create(
      b, loc, type, transposed, aotc::splitDimGroups(type.getRank(), dim));
}

/// Whether `op` computes in place on `replaced`: its one init.
bool computesInPlaceOn(linalg::GenericOp op, Value replaced) {
  return replaced && op.getNumDpsInits() == 1 &&
         op.getDpsInits()[0] == replaced;
}

/// True when `op` is an elementwise generic over a whole output (all loops
/// parallel, identity output map, the output's value unused, or that
/// output is `replaced`: an activation computed in place on it) whose
/// inputs, but `replaced` read at the identity map, are read through plain
/// loops other than the innermost one (a bias per channel, not a tensor
/// the blocked layout would read transposed).
bool isRelayoutable(linalg::GenericOp op, Value replaced = {}) {
  bool wholeOutput =
      computesInPlaceOn(op, replaced)
          ? op->getNumResults() == 1 &&
                op.getNumParallelLoops() == op.getNumLoops() &&
                op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity()
          : aotc::isTileableInitProducer(op);
  if (!wholeOutput || !op.getBody()->getOps<linalg::IndexOp>().empty())
    return false;
  unsigned inner = op.getNumLoops() - 1;
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (replaced && input->get() == replaced)
      return map.isIdentity();
    return map.isProjectedPermutation() && !map.isFunctionOfDim(inner);
  });
}

/// `op` (isRelayoutable) computed in the blocked layout of its output,
/// dimension `dim` split into [C / block, block] with the block last (or,
/// with `inPlace`, right after `dim`: the NCHW layout, split): the inputs
/// read the same elements (those indexed by `dim` through
/// aotc::splitDimension), but `replaced`, read at the identity map, which
/// becomes `blocked` (already in that layout).
Value relayout(RewriterBase &rewriter, linalg::GenericOp op, int64_t dim,
               int64_t block, bool inPlace, Value replaced = {},
               Value blocked = {}) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  unsigned rank = op.getNumLoops();
  // The loops are the result's dimensions (its map is the identity): the
  // lane loop last, or right after `dim`.
  unsigned lanePos = inPlace ? dim + 1 : rank;
  auto loop = [&](unsigned d) {
    return getAffineDimExpr(d >= lanePos ? d + 1 : d, ctx);
  };
  AffineExpr lane = getAffineDimExpr(lanePos, ctx);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (replaced && input->get() == replaced && map.isIdentity()) {
      inputs.push_back(blocked);
      maps.push_back(identity);
      continue;
    }
    Value v = input->get();
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : map.getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      exprs.push_back(loop(d));
      if (d == static_cast<unsigned>(dim)) {
        v = aotc::splitDimension(rewriter, loc, v, exprs.size() - 1, block);
        exprs.push_back(lane);
      }
    }
    inputs.push_back(v);
    maps.push_back(AffineMap::get(rank + 1, 0, exprs, ctx));
  }
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  RankedTensorType type =
      inPlace ? aotc::splitDimensionType(resultType, dim, block)
              : toBlockedType(resultType, dim, block);
  // An activation computed in place on `replaced` stays in place, on
  // `blocked`.
  Value init = computesInPlaceOn(op, replaced)
                   ? blocked
                   : tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                             type.getElementType())
                         .getResult();
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  auto relaid = linalg::GenericOp::create(rewriter, loc, init.getType(), inputs,
                                          ValueRange{init}, maps, iterators);
  IRMapping mapping;
  op.getRegion().cloneInto(&relaid.getRegion(), mapping);
  return relaid.getResult(0);
}

} // namespace

bool aotc::canUseChannelLanes(linalg::LinalgOp op, VectorRegisters registers) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  return generic && matchCandidate(generic, registers).has_value();
}

namespace {

struct ChannelLaneConvolutionsPass
    : aotc::impl::ChannelLaneConvolutionsBase<ChannelLaneConvolutionsPass> {
  using Base::Base;

  void runOnOperation() override {
    aotc::VectorRegisters registers =
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    SmallVector<Candidate, 2> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::ChannelLanes))
        return;
      if (std::optional<Candidate> c = matchCandidate(op, registers))
        candidates.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    for (Candidate &c : candidates)
      rewrite(rewriter, c);
  }

  /// Loops (..., C, ..., o..., c, k...) -> (..., C / b, ..., o..., b, c,
  /// k...): the output channel loop strides over blocks, the lanes within
  /// one block come right after the image; filter and output read
  /// (..., C / b, ..., b). The init is made in that layout, and so is the
  /// result's sole elementwise consumer when it reads nothing else along
  /// the image (an activation computed in place on the result stays in
  /// place); the result (or the consumer's) is transposed back.
  void rewrite(RewriterBase &rewriter, Candidate &c) {
    linalg::GenericOp op = c.op;
    int64_t block = c.block;
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    unsigned numLoops = op.getNumLoops();
    unsigned lane = c.conv.image.back() + 1;
    auto remap = [&](unsigned d) {
      return getAffineDimExpr(d < lane ? d : d + 1, ctx);
    };
    AffineExpr laneExpr = getAffineDimExpr(lane, ctx);
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0; d < numLoops; ++d)
      dims.push_back(remap(d));
    bool direct = c.direct;
    AffineExpr channelExpr = remap(c.channel);
    SmallVector<AffineMap> maps;
    for (auto [i, map] : llvm::enumerate(op.getIndexingMapsArray())) {
      SmallVector<AffineExpr> exprs;
      for (AffineExpr e : map.getResults()) {
        exprs.push_back(e.replaceDims(dims));
        // Direct: the output reads the lanes right after the channel
        // blocks ([..., C / b, b, oh, ow], NCHW split).
        if (direct && i == 2 && exprs.back() == channelExpr)
          exprs.push_back(laneExpr);
      }
      // The filter (and the blocked output, and a depthwise convolution's
      // blocked input) read the lanes last.
      if (i == 1 || (i == 2 && !direct) || (i == 0 && c.depthwise))
        exprs.push_back(laneExpr);
      maps.push_back(AffineMap::get(numLoops + 1, 0, exprs, ctx));
    }
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    iterators.insert(iterators.begin() + lane, utils::IteratorType::parallel);

    rewriter.setInsertionPoint(op);
    AffineMap wMap = op.getIndexingMapsArray()[1];
    AffineMap oMap = op.getIndexingMapsArray()[2];
    unsigned wDim = *wMap.getResultPosition(getAffineDimExpr(c.channel, ctx));
    unsigned oDim = *oMap.getResultPosition(getAffineDimExpr(c.channel, ctx));
    Value filter = arith::ConstantOp::create(rewriter, loc,
                                             packFilter(c.filter, wDim, block));
    // The init (a bias broadcast, a fill; other ops may share it) computed
    // in the op's layout, else transposed (or, direct, reshaped) into it.
    Value init = op.getDpsInits()[0];
    auto initType = cast<RankedTensorType>(init.getType());
    auto initProducer = init.getDefiningOp<linalg::GenericOp>();
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      RankedTensorType type =
          direct ? aotc::splitDimensionType(initType, oDim, block)
                 : toBlockedType(initType, oDim, block);
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      init = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
                 .getResult(0);
    } else if (initProducer && isRelayoutable(initProducer)) {
      init = relayout(rewriter, initProducer, oDim, block, direct);
    } else if (direct) {
      init = aotc::splitDimension(rewriter, loc, init, oDim, block);
    } else {
      init = toBlocked(rewriter, loc, init, oDim, block);
    }
    if (direct) {
      // The result stays NCHW (its channels split in two, merged back).
      auto split = linalg::GenericOp::create(
          rewriter, loc, init.getType(),
          ValueRange{op.getDpsInputs()[0], filter}, ValueRange{init}, maps,
          iterators);
      rewriter.inlineRegionBefore(op.getRegion(), split.getRegion(),
                                  split.getRegion().begin());
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
          op, op.getResult(0).getType(), split.getResult(0),
          aotc::splitDimGroups(initType.getRank(), oDim));
      return;
    }
    Value input = op.getDpsInputs()[0];
    if (c.depthwise) {
      AffineMap xMap = op.getIndexingMapsArray()[0];
      input = toBlockedInput(
          rewriter, loc, input,
          *xMap.getResultPosition(getAffineDimExpr(c.channel, ctx)), block);
    } else if (c.conv.image.size() == 2) {
      input = spreadPlanes(rewriter, loc, input, aotc::CpuTarget::of(op));
    }
    auto blocked = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{input, filter},
        ValueRange{init}, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), blocked.getRegion(),
                                blocked.getRegion().begin());
    // Its sole elementwise consumer (an activation) computed in the blocked
    // layout too, on the register tiles of the result.
    Value result = blocked.getResult(0);
    Operation *replacedOp = op;
    Value original = op.getResult(0);
    if (!original.use_empty() && llvm::all_equal(original.getUsers())) {
      auto consumer = dyn_cast<linalg::GenericOp>(*original.getUsers().begin());
      if (consumer && isRelayoutable(consumer, original)) {
        rewriter.setInsertionPoint(consumer);
        result = relayout(rewriter, consumer, oDim, block, /*inPlace=*/false,
                          original, result);
        replacedOp = consumer;
      }
    }
    rewriter.replaceOp(replacedOp,
                       fromBlocked(rewriter, loc, result, oDim,
                                   cast<RankedTensorType>(
                                       replacedOp->getResult(0).getType())));
    if (replacedOp != op.getOperation())
      rewriter.eraseOp(op);
  }
};

} // namespace
