//===- PeelPaddedWindows.cpp - Windows read the input in place -*- C++ -*-===//
//
// This file implements two passes on windowed ops that read a padded
// input, which share the matching of the padding along the windows and the
// split into parts reading the unpadded input in place.
//
// aotc-peel-padded-windows: a windowed op without a reduction over input
// channels (a depthwise convolution, a pool) that reads a tensor.pad of its
// input makes the pad a copy of the whole input (with a border) for few
// arithmetic operations per element: for MobileNetV2's stride-2 depthwise
// convolutions, that copy took longer than the convolution. Most outputs'
// windows lie inside the unpadded input, though (all but the first row and
// column for a 3x3 stride-2 window with one element of padding on an even
// image): the op is computed in parts, the interior reading the unpadded
// input in place, each border strip reading a padded copy of the few rows
// or columns it needs (the pad's slices taken before padding), each part
// with its own init and elementwise consumer (aotc::splitIntoBoxes,
// aotc::splitElementwiseConsumer).
//
// aotc-clip-padded-taps: a windowed op (a convolution over input channels
// too) most of whose products read zero padding (an atrous convolution
// whose dilation is close to the image's size) is computed tap run by tap
// run, each part on the outputs its taps read the input for, adding to the
// parts before it.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_CLIPPADDEDTAPS
#define GEN_PASS_DEF_PEELPADDEDWINDOWS
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// A padded dimension of the windowed input: its output loop and the
/// outputs [begin, end) of that loop whose windows lie inside the unpadded
/// input.
struct PaddedDim {
  unsigned image;
  int64_t begin, end, extent;
  /// The window loop, its access (output o reads input o * stride - low +
  /// k * dilation) and the unpadded input's extent.
  unsigned window;
  int64_t stride, dilation, low, size;
};

/// A windowed op whose input 0 is a padded tensor, through `expand` when
/// not null, padded by `inputPadding` (low, high) per dimension of input 0.
struct Candidate {
  linalg::LinalgOp op;
  aotc::Padding padding;
  tensor::ExpandShapeOp expand;
  SmallVector<std::pair<int64_t, int64_t>> inputPadding;
  SmallVector<PaddedDim> dims;
  /// The padding value is an identity of the payload (paddingIsIdentity):
  /// the border outputs leave out the taps that would read it.
  bool clipsWindows = false;
  /// The window loops of input 0.
  llvm::SmallBitVector windows;
};

/// `v` through reshapes, as a constant.
DenseElementsAttr constantThroughReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  DenseElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) ? attr : DenseElementsAttr();
}

/// True when the taps of `op`'s windows that read the padding `value` leave
/// its result unchanged, so that they can be left out: a sum of products of
/// input 0 and a constant filter of finite values (0 * w adds a zero) with
/// zero padding, a max (max(acc, -inf) is acc) with -inf padding, a sum with
/// zero padding.
bool paddingIsIdentity(linalg::LinalgOp op, Value value) {
  FloatAttr pad;
  if (!matchPattern(value, m_Constant(&pad)) || op->getNumResults() != 1)
    return false;
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Value x = body->getArgument(0);
  Value acc = body->getArgument(op.getNumDpsInputs());
  Operation *combine = yield.getOperand(0).getDefiningOp();
  if (!combine || combine->getNumOperands() != 2 ||
      !llvm::is_contained(combine->getOperands(), acc))
    return false;
  Value tap = combine->getOperand(0) == acc ? combine->getOperand(1)
                                            : combine->getOperand(0);
  const APFloat &padValue = pad.getValue();
  if (isa<arith::MaxNumFOp, arith::MaximumFOp>(combine))
    return tap == x && padValue.isInfinity() && padValue.isNegative();
  if (!isa<arith::AddFOp>(combine) || !padValue.isZero())
    return false;
  if (tap == x)
    return true;
  auto mul = tap.getDefiningOp<arith::MulFOp>();
  if (!mul || op.getNumDpsInputs() != 2 ||
      !llvm::is_contained(mul->getOperands(), x))
    return false;
  Value w = mul.getLhs() == x ? mul.getRhs() : mul.getLhs();
  if (w != body->getArgument(1))
    return false;
  DenseElementsAttr filter = constantThroughReshapes(op.getDpsInputs()[1]);
  return filter && isa<FloatType>(filter.getElementType()) &&
         llvm::all_of(filter.getValues<APFloat>(),
                      [](const APFloat &f) { return f.isFinite(); });
}

/// `op` with its input 0 padded along its windows: a linalg op (a generic,
/// a named convolution or pool) of a function body on static tensors with
/// one init whose input 0 is a padded tensor (matchPadding; through an
/// expand_shape that splits no padded dimension) padded only along window
/// accesses (o * s + k * d), by at most the window's reach (k's extent - 1)
/// * d on either side, each image loop at most once. Each padded
/// dimension's [begin, end) is empty when every output reads the padding.
std::optional<Candidate> matchPaddedWindows(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumDpsInputs() == 0 ||
      !op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.hasIndexSemantics() || !isa<func::FuncOp>(op->getParentOp()))
    return std::nullopt;
  Value x = op.getDpsInputs()[0];
  auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
  std::optional<aotc::Padding> matched =
      aotc::matchPadding(expand ? expand.getSrc() : x);
  if (!matched)
    return std::nullopt;
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> padding =
      aotc::paddingOfInput(*matched, expand);
  if (!padding)
    return std::nullopt;
  Candidate c{op, *matched, expand, *padding, {}};
  c.windows.resize(op.getNumLoops());
  auto xType = cast<RankedTensorType>(x.getType());
  AffineMap xMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [dim, lowHigh] : llvm::enumerate(c.inputPadding)) {
    std::optional<aotc::WindowAccess> w =
        aotc::matchWindow(xMap.getResult(dim));
    if (w)
      c.windows.set(w->window);
    auto [low, high] = lowHigh;
    if (low == 0 && high == 0)
      continue;
    if (!w)
      return std::nullopt;
    int64_t reach = (ranges[w->window] - 1) * w->dilation;
    int64_t size = xType.getDimSize(dim) - low - high;
    if (low > reach || high > reach ||
        llvm::any_of(c.dims,
                     [&](const PaddedDim &d) { return d.image == w->image; }))
      return std::nullopt;
    // Output o reads input rows [o * s - low, o * s - low + reach].
    int64_t extent = ranges[w->image];
    int64_t begin = std::min<int64_t>(llvm::divideCeil(low, w->stride), extent);
    int64_t lastStart = size - 1 + low - reach;
    int64_t end =
        lastStart < 0 ? 0 : std::min(lastStart / w->stride + 1, extent);
    c.dims.push_back({w->image, begin, end, extent, w->window, w->stride,
                      w->dilation, low, size});
  }
  c.clipsWindows = paddingIsIdentity(op, c.padding.value);
  return c;
}

/// `op` as a candidate of aotc-peel-padded-windows: padded windows
/// (matchPaddedWindows) whose every reduction loop is a window loop of its
/// input 0 or has one iteration, with some outputs reading the padding and
/// some not, and few of them along its rows of lanes (aotc::peeledRowsPay;
/// `columnPhases`: `op` can take the column phases of its thread tiles).
std::optional<Candidate> matchCandidate(linalg::LinalgOp op,
                                        int64_t vectorBits,
                                        bool columnPhases = false) {
  std::optional<Candidate> c = matchPaddedWindows(op);
  if (!c || llvm::any_of(c->dims, [](const PaddedDim &d) {
        return d.begin >= d.end;
      }))
    return std::nullopt;
  if (llvm::none_of(c->dims, [](const PaddedDim &d) {
        return d.begin > 0 || d.end < d.extent;
      }))
    return std::nullopt;
  // Whole registers of lanes in the interior (the vectorizer's lanes divide
  // a tile's row: 55 outputs would take registers of 5): the outputs past
  // the last whole one join the strip after it, which reads them in place
  // when there is no padding there.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned laneLoop = outMap.getDimPosition(outMap.getNumResults() - 1);
  int64_t lanes = std::max<int64_t>(
      1, vectorBits / getElementTypeOrSelf(op->getResult(0).getType())
                          .getIntOrFloatBitWidth());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (PaddedDim &d : c->dims) {
    if (d.image == laneLoop &&
        !aotc::peeledRowsPay(d.begin + d.extent - d.end, d.extent,
                             ranges[d.window], columnPhases))
      return std::nullopt;
    int64_t excess = (d.end - d.begin) % lanes;
    if (d.image != laneLoop || d.end - d.begin < lanes || excess == 0)
      continue;
    d.end -= excess;
  }
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction && !c->windows.test(loop) &&
        ranges[loop] != 1)
      return std::nullopt;
  return c;
}

/// The static range [begin, end).
Range rangeOf(OpBuilder &b, int64_t begin, int64_t end) {
  return {b.getIndexAttr(begin), b.getIndexAttr(end - begin),
          b.getIndexAttr(1)};
}

/// Every loop of `op` whole.
SmallVector<Range> wholeRanges(OpBuilder &b, linalg::LinalgOp op) {
  return llvm::map_to_vector(op.getStaticLoopRanges(), [&](int64_t range) {
    return rangeOf(b, 0, range);
  });
}

/// The boxes of `op`'s loops that cover its iteration space: the interior
/// (every padded dimension's [begin, end)), then for each padded dimension
/// in turn the outputs before begin and from end on, the earlier padded
/// dimensions in their interior and the later ones whole.
SmallVector<SmallVector<Range>> boxesOf(OpBuilder &b, linalg::LinalgOp op,
                                        ArrayRef<PaddedDim> dims) {
  SmallVector<Range> whole = wholeRanges(b, op);
  auto withRange = [&](SmallVector<Range> box, unsigned loop, int64_t begin,
                       int64_t end) {
    box[loop] = rangeOf(b, begin, end);
    return box;
  };
  SmallVector<Range> interior = whole;
  for (const PaddedDim &d : dims)
    interior = withRange(interior, d.image, d.begin, d.end);
  SmallVector<SmallVector<Range>> boxes = {interior};
  SmallVector<Range> outer = whole;
  for (const PaddedDim &d : dims) {
    if (d.begin > 0)
      boxes.push_back(withRange(outer, d.image, 0, d.begin));
    if (d.end < d.extent)
      boxes.push_back(withRange(outer, d.image, d.end, d.extent));
    outer = withRange(outer, d.image, d.begin, d.end);
  }
  return boxes;
}

/// Outputs [begin, end) of a padded dimension whose windows all read the
/// input through taps [k0, k1) of the window loop.
struct Segment {
  int64_t begin, end, k0, k1;
};

/// Calls `f` with every combination of one segment per padded dimension
/// (an odometer, the first dimension turning fastest).
void forEachCombination(ArrayRef<SmallVector<Segment>> segments,
                        llvm::function_ref<void(ArrayRef<Segment>)> f) {
  SmallVector<size_t> at(segments.size(), 0);
  SmallVector<Segment> combination;
  while (true) {
    combination.clear();
    for (auto [d, index] : llvm::enumerate(at))
      combination.push_back(segments[d][index]);
    f(combination);
    size_t d = 0;
    while (d < at.size() && ++at[d] == segments[d].size())
      at[d++] = 0;
    if (d == at.size())
      return;
  }
}

/// The taps of padded dimension `d` (a window loop of `taps`) in runs of
/// consecutive taps that read the unpadded input for the same outputs
/// [begin, end); taps that read only padding are left out.
SmallVector<Segment> tapRunsOf(const PaddedDim &d, int64_t taps) {
  SmallVector<Segment> runs;
  for (int64_t k = 0; k < taps; ++k) {
    // 0 <= o * s - low + k * dil <= size - 1.
    int64_t first = k * d.dilation - d.low;
    int64_t begin = std::clamp<int64_t>(
        llvm::divideCeilSigned(-first, d.stride), 0, d.extent);
    int64_t end = std::clamp<int64_t>(
        llvm::divideFloorSigned(d.size - 1 - first, d.stride) + 1, 0,
        d.extent);
    if (begin >= end)
      continue;
    Segment *last = runs.empty() ? nullptr : &runs.back();
    if (last && last->k1 == k && last->begin == begin && last->end == end)
      last->k1 = k + 1;
    else
      runs.push_back({begin, end, k, k + 1});
  }
  return runs;
}

/// The outputs of padded dimension `d` in segments of the same valid taps
/// (those reading the unpadded input): its interior [begin, end) whole (all
/// taps), each border run apart.
SmallVector<Segment> segmentsOf(const PaddedDim &d, int64_t taps) {
  auto validTaps = [&](int64_t o) -> std::pair<int64_t, int64_t> {
    // 0 <= o * s - low + k * dil <= size - 1.
    int64_t first = o * d.stride - d.low;
    int64_t k0 = first >= 0 ? 0 : llvm::divideCeil(-first, d.dilation);
    int64_t k1 = std::min(
        taps, llvm::divideFloorSigned(d.size - 1 - first, d.dilation) + 1);
    return {k0, k1};
  };
  SmallVector<Segment> segments;
  auto border = [&](int64_t from, int64_t to) {
    for (int64_t o = from; o < to; ++o) {
      auto [k0, k1] = validTaps(o);
      if (!segments.empty() && segments.back().end == o &&
          segments.back().k0 == k0 && segments.back().k1 == k1 &&
          segments.back().begin >= from) {
        segments.back().end = o + 1;
        continue;
      }
      segments.push_back({o, o + 1, k0, k1});
    }
  };
  border(0, d.begin);
  segments.push_back({d.begin, d.end, 0, taps});
  border(d.end, d.extent);
  return segments;
}

/// The boxes of `op`'s loops, each with the window taps its outputs read
/// from the unpadded input: every combination of the padded dimensions'
/// segments (segmentsOf), the interior first. None when some output's
/// window lies in the padding alone, or when that makes more parts than
/// aotc::clipsWindowsInto allows.
std::optional<SmallVector<SmallVector<Range>>>
clippedBoxesOf(OpBuilder &b, linalg::LinalgOp op, ArrayRef<PaddedDim> dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<SmallVector<Segment>> segments;
  size_t count = 1;
  for (const PaddedDim &d : dims) {
    segments.push_back(segmentsOf(d, ranges[d.window]));
    count *= segments.back().size();
    if (llvm::any_of(segments.back(),
                     [](const Segment &s) { return s.k0 >= s.k1; }))
      return std::nullopt;
  }
  if (!aotc::clipsWindowsInto(count))
    return std::nullopt;
  SmallVector<Range> whole = wholeRanges(b, op);
  // The interior first (its place kept until the odometer reaches it).
  SmallVector<SmallVector<Range>> boxes(1);
  forEachCombination(segments, [&](ArrayRef<Segment> combination) {
    SmallVector<Range> box = whole;
    bool isInterior = true;
    for (auto [seg, dim] : llvm::zip_equal(combination, dims)) {
      box[dim.image] = rangeOf(b, seg.begin, seg.end);
      box[dim.window] = rangeOf(b, seg.k0, seg.k1);
      isInterior &= seg.begin == dim.begin && seg.end == dim.end;
    }
    if (isInterior)
      boxes.front() = std::move(box);
    else
      boxes.push_back(std::move(box));
  });
  return boxes;
}

/// `c`'s padded input as a tensor.pad of its (expanded) source, so that
/// the parts' slices of it are slices of a pad.
tensor::PadOp padOfInput(RewriterBase &rewriter, Candidate &c) {
  rewriter.setInsertionPoint(c.op);
  Value source = c.padding.source;
  SmallVector<OpFoldResult> low, high;
  auto xType = cast<RankedTensorType>(c.op.getDpsInputs()[0].getType());
  SmallVector<int64_t> shape(xType.getShape());
  for (auto [dim, lowHigh] : llvm::enumerate(c.inputPadding)) {
    low.push_back(rewriter.getIndexAttr(lowHigh.first));
    high.push_back(rewriter.getIndexAttr(lowHigh.second));
    shape[dim] -= lowHigh.first + lowHigh.second;
  }
  if (c.expand)
    source = tensor::ExpandShapeOp::create(
        rewriter, c.expand.getLoc(),
        RankedTensorType::get(shape, xType.getElementType()), source,
        c.expand.getReassociationIndices());
  auto pad = tensor::PadOp::create(rewriter, c.op.getLoc(), xType, source,
                                   low, high, c.padding.value);
  rewriter.modifyOpInPlace(
      c.op, [&] { c.op.getDpsInputOperand(0)->set(pad.getResult()); });
  return pad;
}

/// `c` computed in `boxes` (aotc::splitIntoBoxes, with `accumulate`), each
/// part reading its slice of the padded input as the slice of the unpadded
/// input, padded only where the part's windows leave it (not at all when
/// they stay inside). The padded input and what computed it go, unless
/// something else reads them. Returns the parts.
SmallVector<linalg::LinalgOp>
splitReadingInPlace(RewriterBase &rewriter, Candidate &c,
                    ArrayRef<SmallVector<Range>> boxes, bool accumulate) {
  Value padded = c.op.getDpsInputs()[0];
  tensor::PadOp pad = padOfInput(rewriter, c);
  SmallVector<linalg::LinalgOp> parts =
      aotc::splitIntoBoxes(rewriter, c.op, boxes, accumulate);
  for (linalg::LinalgOp part : parts) {
    auto slice =
        part.getDpsInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || slice.getSource() != pad.getResult())
      continue;
    rewriter.setInsertionPoint(slice);
    FailureOr<TilingResult> sliced = tensor::bubbleUpPadSlice(
        rewriter, pad, slice.getMixedOffsets(), slice.getMixedSizes(),
        /*generateZeroSliceGuard=*/false);
    if (failed(sliced))
      continue;
    Value value = sliced->tiledValues.front();
    if (auto inner = value.getDefiningOp<tensor::PadOp>();
        inner && inner.hasZeroLowPad() && inner.hasZeroHighPad()) {
      value = inner.getSource();
      rewriter.eraseOp(inner);
    }
    if (value.getType() != slice.getType())
      value = tensor::CastOp::create(rewriter, slice.getLoc(),
                                     slice.getType(), value);
    rewriter.replaceOp(slice, value);
  }
  SmallVector<Operation *> chain = {pad, padded.getDefiningOp()};
  if (c.expand)
    chain.push_back(c.expand.getSrc().getDefiningOp());
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(chain.back()))
    chain.push_back(insert.getDest().getDefiningOp());
  for (Operation *op : chain)
    if (op && op->use_empty())
      rewriter.eraseOp(op);
  return parts;
}

/// Computes `c` in boxes, each part marked as the `group`th op's
/// (aotc::kSiblingPartsAttrName).
void peel(RewriterBase &rewriter, Candidate &c, int64_t group) {
  std::optional<SmallVector<SmallVector<Range>>> clipped;
  if (c.clipsWindows)
    clipped = clippedBoxesOf(rewriter, c.op, c.dims);
  SmallVector<SmallVector<Range>> boxes =
      clipped ? *clipped : boxesOf(rewriter, c.op, c.dims);
  SmallVector<linalg::LinalgOp> parts =
      splitReadingInPlace(rewriter, c, boxes, /*accumulate=*/false);
  aotc::splitElementwiseConsumer(rewriter, parts);
  for (linalg::LinalgOp part : parts)
    part->setAttr(aotc::kSiblingPartsAttrName,
                  rewriter.getI64IntegerAttr(group));
}

struct PeelPaddedWindowsPass
    : aotc::impl::PeelPaddedWindowsBase<PeelPaddedWindowsPass> {
  using Base::Base;

  /// The vector register width: the option when set, else the module's
  /// CpuTarget's.
  int64_t vectorBits = 0;

  void runOnOperation() override {
    vectorBits = aotc::vectorBitsOf(getOperation(), vectorBitsOption);
    // 1. The candidates, producers first.
    SmallVector<Operation *> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (aotc::isSelectedFor(op, aotc::ConvolutionPath::PeeledWindows) &&
          matchCandidate(op, vectorBits))
        candidates.push_back(op);
    });
    // 2. Each one peeled, matched again on the IR as the peels before it
    // left it: a candidate can read another's result through its padding
    // (a pool after a pool), whose op that peel replaced; one a peel erased
    // is skipped.
    aotc::ErasedOps erased;
    IRRewriter rewriter(&getContext(), &erased);
    int64_t group = aotc::newSiblingGroup(getOperation());
    for (Operation *op : candidates) {
      if (erased.ops.contains(op))
        continue;
      std::optional<Candidate> c =
          matchCandidate(cast<linalg::LinalgOp>(op), vectorBits);
      if (c)
        peel(rewriter, *c, group++);
      else
        aotc::revertPath(op, aotc::ConvolutionPath::PeeledWindows,
                         "an earlier peel changed its padded input");
    }
    // 3. The border strips' pads, and those made after aotc-decompose-ops (the
    // whole-register padding of aotc-winograd-convolutions' tiles), as
    // aotc-decompose-ops makes every pad: a fill and the slice inserted into
    // it, which bufferizes in place (a tensor.pad would be a copy).
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposePadPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// aotc-clip-padded-taps
//===----------------------------------------------------------------------===//

/// The parts of `op` tap run by tap run (one box per combination of the
/// padded dimensions' tapRunsOf, the one with the most outputs first), if
/// aotc::clippedTapsPay.
std::optional<SmallVector<SmallVector<Range>>>
tapBoxesOf(OpBuilder &b, linalg::LinalgOp op, ArrayRef<PaddedDim> dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<SmallVector<Segment>> runs;
  size_t count = 1;
  int64_t products = 1;
  for (const PaddedDim &d : dims) {
    runs.push_back(tapRunsOf(d, ranges[d.window]));
    count *= runs.back().size();
    products *= d.extent * ranges[d.window];
  }
  if (count == 0)
    return std::nullopt;
  int64_t reading = 0, firstOutputs = -1;
  SmallVector<Range> whole = wholeRanges(b, op);
  SmallVector<SmallVector<Range>> boxes;
  forEachCombination(runs, [&](ArrayRef<Segment> combination) {
    SmallVector<Range> box = whole;
    int64_t outputs = 1, taps = 1;
    for (auto [run, dim] : llvm::zip_equal(combination, dims)) {
      box[dim.image] = rangeOf(b, run.begin, run.end);
      box[dim.window] = rangeOf(b, run.k0, run.k1);
      outputs *= run.end - run.begin;
      taps *= run.k1 - run.k0;
    }
    reading += outputs * taps;
    boxes.push_back(std::move(box));
    if (outputs > firstOutputs) {
      firstOutputs = outputs;
      std::rotate(boxes.begin(), boxes.end() - 1, boxes.end());
    }
  });
  if (!aotc::clippedTapsPay(products, reading, count))
    return std::nullopt;
  return boxes;
}

struct ClipPaddedTapsPass
    : aotc::impl::ClipPaddedTapsBase<ClipPaddedTapsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<Candidate> c = matchPaddedWindows(op);
      if (c && c->clipsWindows)
        candidates.push_back(op);
    });
    // Matched again as the splits before left the IR (two ops can share a
    // padded input, which the first one's split rebuilds).
    aotc::ErasedOps erased;
    IRRewriter rewriter(&getContext(), &erased);
    SmallVector<Operation *> filterSlices;
    for (Operation *op : candidates) {
      if (erased.ops.contains(op))
        continue;
      std::optional<Candidate> c =
          matchPaddedWindows(cast<linalg::LinalgOp>(op));
      if (!c || !c->clipsWindows)
        continue;
      std::optional<SmallVector<SmallVector<Range>>> boxes =
          tapBoxesOf(rewriter, c->op, c->dims);
      if (!boxes)
        continue;
      for (linalg::LinalgOp part :
           splitReadingInPlace(rewriter, *c, *boxes, /*accumulate=*/true))
        for (Value input : llvm::drop_begin(part.getDpsInputs()))
          if (auto slice = input.getDefiningOp<tensor::ExtractSliceOp>())
            filterSlices.push_back(slice);
    }
    // Each part's slice of the constant filter, a constant of its own (the
    // parts' taps do not overlap: together as large as the filter).
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldConstantExtractSlicePatterns(
        patterns, [](tensor::ExtractSliceOp) { return true; });
    if (failed(applyOpPatternsGreedily(filterSlices, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

bool aotc::canUsePeeledWindows(linalg::LinalgOp op, int64_t vectorBits,
                               bool columnPhases) {
  return matchCandidate(op, vectorBits, columnPhases).has_value();
}
