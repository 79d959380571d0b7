//===- VectorizeConvolutions.cpp - Direct convolution vectors -*- C++ -*-===//
//
// This file implements the aotc-vectorize-convolutions pass: linalg ops that
// read an operand through a sliding window (convolutions, depthwise
// convolutions, pooling; any map result `o * stride + k * dilation`) are
// tiled so that every window loop has one iteration per tile, the windowed
// operand of each tile is rewritten into a strided slice read through a
// projected permutation, and the tile is vectorized by the upstream linalg
// vectorizer. The register tile is rows x lanes over the two innermost
// dimensions of the output.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace aotc {
#define GEN_PASS_DEF_VECTORIZECONVOLUTIONS
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::largestDivisorAtMost;

namespace {

/// Accumulator rows of a register tile (each one vector register wide).
constexpr int64_t kRows = aotc::kConvolutionChannelRows;

/// Grid rows per register tile that a row-aligned grid's rows are split
/// into a multiple of (aotc::convolutionRegisterRows' first choice).
constexpr int64_t kAlignedTileRows = 3;

/// One map result `sum(coeff_i * d_i) + offset`.
struct LinearExpr {
  SmallVector<std::pair<unsigned, int64_t>> terms; // (dim, coefficient)
  int64_t offset = 0;
};

/// Decomposes `expr` into a sum of dims times positive constants plus a
/// constant; failure for anything else (mod, div, symbols, products of dims).
LogicalResult decompose(AffineExpr expr, int64_t scale, LinearExpr &out) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    out.terms.push_back({dim.getPosition(), scale});
    return success();
  }
  if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
    out.offset += scale * cst.getValue();
    return success();
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return failure();
  if (bin.getKind() == AffineExprKind::Add)
    return success(succeeded(decompose(bin.getLHS(), scale, out)) &&
                   succeeded(decompose(bin.getRHS(), scale, out)));
  if (bin.getKind() == AffineExprKind::Mul)
    if (auto cst = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      if (cst.getValue() > 0)
        return decompose(bin.getLHS(), scale * cst.getValue(), out);
  return failure();
}

/// True when some input of `op` is read through a window: a map result that
/// is not a single dimension. Every map result must be linear (see
/// `decompose`) and the output maps projected permutations.
bool isWindowed(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0))
           .isProjectedPermutation())
    return false;
  bool windowed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults()) {
      LinearExpr linear;
      if (failed(decompose(expr, 1, linear)))
        return false;
      if (!isa<AffineDimExpr>(expr))
        windowed = true;
    }
  }
  return windowed;
}

/// Register tile sizes: `lanes` along the loop of the output's innermost
/// dimension, up to kRows along the output channels of a convolution over
/// input channels (see above) or else along the nearest outer output
/// dimension that splits evenly, one iteration of every other loop (window and reduction
/// loops included, so each window loop is unit within a tile).
SmallVector<int64_t> computeTileSizes(linalg::LinalgOp op, int64_t lanes,
                                      aotc::VectorRegisters registers) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  ArrayRef<AffineExpr> results = outMap.getResults();
  if (results.empty())
    return sizes;
  unsigned laneDim = cast<AffineDimExpr>(results.back()).getPosition();
  sizes[laneDim] = largestDivisorAtMost(ranges[laneDim], lanes);
  // Output channels as lanes: a contraction's register tile, its rows the
  // pixels of one output row (each input element broadcast to one row).
  if (std::optional<unsigned> channel = aotc::convolutionChannelLaneLoop(op);
      channel && results.size() >= 2) {
    unsigned row = *aotc::convolutionChannelLanePixelLoop(op);
    sizes.assign(ranges.size(), 1);
    sizes[*channel] = largestDivisorAtMost(
        ranges[*channel], aotc::kContractionRegistersPerRow * lanes);
    sizes[row] = aotc::channelLaneRowTile(ranges[row], registers);
    return sizes;
  }
  // Convolutions over input channels: one register row per output channel,
  // each input vector reused by all rows, and one to four registers of
  // lanes along the next output dimension (the rows of a flattened image):
  // 8 channels x 3 rows, 4 x 4, 8 x 2 (aotc::convolutionRegisterRows).
  if (std::optional<unsigned> channel =
          aotc::convolutionChannelRowLoop(op)) {
    int64_t channels = kRows;
    if (results.size() >= 2) {
      unsigned dim =
          cast<AffineDimExpr>(results[results.size() - 2]).getPosition();
      if (dim != *channel) {
        sizes[dim] = aotc::convolutionRegisterRows(ranges[dim], registers);
        channels = aotc::convolutionRegisterChannels(sizes[dim], registers);
      }
    }
    sizes[*channel] = largestDivisorAtMost(ranges[*channel],
                                           std::min(channels, kRows));
    return sizes;
  }
  // Not a loop that a windowed input reads in one result with the lanes,
  // stepping less than they do (an im2col copy's window column kw of
  // x[ow * 2 + kw]): a register row per step of it would read no one
  // strided range. Rows further apart than the lanes (a flattened image's
  // x[r * 16 + l]) are read as pitched rows.
  auto readWithLanes = [&](unsigned dim) {
    for (OpOperand *input : op.getDpsInputOperands())
      for (AffineExpr e : op.getMatchingIndexingMap(input).getResults()) {
        LinearExpr linear;
        if (isa<AffineDimExpr>(e) || failed(decompose(e, 1, linear)))
          continue;
        auto coefficient = [&](unsigned d) {
          auto term = llvm::find_if(
              linear.terms, [&](auto term) { return term.first == d; });
          return term == linear.terms.end() ? 0 : term->second;
        };
        int64_t step = coefficient(dim), laneStep = coefficient(laneDim);
        if (step != 0 && laneStep != 0 && step < laneStep)
          return true;
      }
    return false;
  };
  for (AffineExpr expr : llvm::reverse(results.drop_back())) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    if (readWithLanes(dim))
      continue;
    int64_t rows = largestDivisorAtMost(ranges[dim], kRows);
    if (rows > 1) {
      sizes[dim] = rows;
      break;
    }
  }
  return sizes;
}

/// Replaces `value`, a tile's slice of a tensor (unit strides, same rank;
/// or a slice of a slice...), by the nearest source that holds a slice of
/// `value` at `offsets` with `shape` and `strides` (wherever the tile
/// loops place it: its largest offsets bounded through them), and
/// `offsets` by the same elements' offsets in that source. Failure when
/// none does.
LogicalResult sliceSource(RewriterBase &rewriter, Location loc, Value &value,
                          SmallVectorImpl<OpFoldResult> &offsets,
                          ArrayRef<int64_t> shape,
                          ArrayRef<OpFoldResult> strides) {
  AffineExpr d0, d1;
  bindDims(rewriter.getContext(), d0, d1);
  SmallVector<OpFoldResult> composed(offsets.begin(), offsets.end());
  Value source = value;
  while (auto outer = source.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!outer.hasUnitStride() ||
        outer.getSourceType().getRank() != outer.getResultType().getRank() ||
        !outer.getSourceType().hasStaticShape())
      return failure();
    bool fits = true;
    for (auto [dim, outerOffset] : llvm::enumerate(outer.getMixedOffsets())) {
      composed[dim] = affine::makeComposedFoldedAffineApply(
          rewriter, loc, d0 + d1, {outerOffset, composed[dim]});
      std::optional<int64_t> stride = getConstantIntValue(strides[dim]);
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, composed[dim],
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (!stride || failed(bound) ||
          *bound + (shape[dim] - 1) * *stride >=
              outer.getSourceType().getDimSize(dim))
        fits = false;
    }
    source = outer.getSource();
    if (fits) {
      value = source;
      offsets.assign(composed);
      return success();
    }
  }
  return failure();
}

/// Rewrites the tile `op` (every window loop of extent one) into a generic
/// whose windowed operands are strided slices read through projected
/// permutations: x[o * s + k] with k == 0 becomes slice(x, stride s)[o].
/// Several non-unit loops in one map result must step through one strided
/// range together (x[r * 16 + l] with l of extent 16 is an expanded slice
/// read at [r, l]). Returns the new op, or failure for other map results.
FailureOr<linalg::GenericOp> unitWindowToStridedSlices(RewriterBase &rewriter,
                                                       linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inputs;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  rewriter.setInsertionPoint(op);
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    Value value = input->get();
    if (llvm::all_of(map.getResults(),
                     [](AffineExpr e) { return isa<AffineDimExpr>(e); })) {
      inputs.push_back(value);
      continue;
    }
    auto type = cast<RankedTensorType>(value.getType());
    // Dims that already appear alone in a result keep their position.
    llvm::SmallDenseSet<unsigned> used;
    for (AffineExpr e : map.getResults())
      if (auto d = dyn_cast<AffineDimExpr>(e))
        used.insert(d.getPosition());
    SmallVector<AffineExpr> exprs;
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<int64_t> shape, expandedShape;
    SmallVector<ReassociationIndices> groups;
    // The part of the expanded slice read (the lanes of pitched rows), and
    // whether a pitched slice reaches past `value`.
    SmallVector<int64_t> readShape;
    bool overrun = false;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      if (isa<AffineDimExpr>(e)) {
        exprs.push_back(e);
        groups.push_back({static_cast<int64_t>(expandedShape.size())});
        expandedShape.push_back(type.getDimSize(i));
        readShape.push_back(type.getDimSize(i));
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(i)));
        strides.push_back(rewriter.getIndexAttr(1));
        shape.push_back(type.getDimSize(i));
        continue;
      }
      LinearExpr linear;
      if (failed(decompose(e, 1, linear)))
        return failure();
      // The loops that move within the tile (unit loops contribute 0),
      // innermost (smallest coefficient) first.
      SmallVector<std::pair<unsigned, int64_t>> moving;
      for (auto term : linear.terms)
        if (ranges[term.first] != 1)
          moving.push_back(term);
      llvm::sort(moving, [](auto a, auto b) { return a.second < b.second; });
      if (moving.empty()) {
        // Constant within the tile: index one of its (unit) loops so the
        // map stays a projected permutation.
        auto free = llvm::find_if(linear.terms, [&](auto term) {
          return !used.contains(term.first);
        });
        if (free == linear.terms.end())
          return failure();
        moving.push_back({free->first, 1});
      }
      // Several moving loops must tile one strided range (a flattened
      // image, aotc-flatten-convolution-images): each coefficient is the
      // previous one times its loop's extent. The slice is expanded into
      // one dim per loop, outermost first. Or two unit-stride loops step
      // through rows of a pitch wider than the inner one's extent (a
      // row-aligned grid: x[r * 9 + l], l < 8): the slice holds whole rows
      // and is expanded to [rows, pitch], of which [rows, extent] is read.
      std::optional<int64_t> pitch;
      if (moving.size() == 2 && moving[0].second == 1 &&
          moving[1].second > ranges[moving[0].first])
        pitch = moving[1].second;
      else
        for (size_t j = 1; j < moving.size(); ++j)
          if (moving[j].second !=
              moving[j - 1].second * ranges[moving[j - 1].first])
            return failure();
      int64_t extent = 1;
      ReassociationIndices group;
      for (auto [dim, coefficient] : llvm::reverse(moving)) {
        if (!used.insert(dim).second)
          return failure();
        exprs.push_back(getAffineDimExpr(dim, ctx));
        group.push_back(expandedShape.size());
        expandedShape.push_back(ranges[dim]);
        readShape.push_back(ranges[dim]);
        extent *= ranges[dim];
      }
      if (pitch) {
        extent = ranges[moving[1].first] * *pitch;
        expandedShape.back() = *pitch;
        if (linear.offset + extent > type.getDimSize(i))
          overrun = true;
      }
      groups.push_back(group);
      offsets.push_back(rewriter.getIndexAttr(linear.offset));
      sizes.push_back(rewriter.getIndexAttr(extent));
      strides.push_back(rewriter.getIndexAttr(moving.front().second));
      shape.push_back(extent);
    }
    // Whole rows may reach past a tile's slice of the input (it ends at
    // the last row's last lane): they are sliced from its source instead,
    // when that holds them wherever the slice starts.
    if (overrun &&
        failed(sliceSource(rewriter, loc, value, offsets, shape, strides)))
      return failure();
    auto sliceType = RankedTensorType::get(shape, type.getElementType());
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, sliceType,
                                                 value, offsets, sizes,
                                                 strides);
    if (expandedShape.size() != shape.size())
      slice = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get(expandedShape, type.getElementType()), slice,
          groups);
    if (readShape != expandedShape) {
      SmallVector<OpFoldResult> zeros(readShape.size(),
                                      rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> ones(readShape.size(),
                                     rewriter.getIndexAttr(1));
      slice = tensor::ExtractSliceOp::create(
          rewriter, loc, slice, zeros, getAsIndexOpFoldResult(ctx, readShape),
          ones);
    }
    inputs.push_back(slice);
    maps[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, exprs, ctx);
  }
  auto generic = linalg::GenericOp::create(
      rewriter, loc, op->getResultTypes(), inputs, op.getDpsInits(), maps,
      op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op->getRegion(0), generic.getRegion(),
                              generic.getRegion().begin());
  rewriter.replaceOp(op, generic->getResults());
  return generic;
}

/// The window loop of at most kMaxUnrolledWindow iterations (the kw of a
/// 3x3 filter) around the vectorized tile in `body` is unrolled (`count`
/// loops from the innermost, see `unrolledWindowLoops`): a loop of three
/// short iterations costs a branch and an index update per few FMAs.
constexpr int64_t kMaxUnrolledWindow = 3;

/// Register tiles of at least this many rows of a windowed op without a
/// reduction outside its window (a depthwise convolution, a pool) unroll
/// every window loop, kh too: the rows each kh step reads overlap those of
/// the next (a 6-row tile of a 3x3 window reads 8 input rows, not 18), and
/// once the loops are unrolled LLVM loads each row once for all of them.
constexpr int64_t kMinRowsSharingWindow = 3;

/// True when every reduction loop of `op` with more than one iteration
/// slides a window: an input reads it in a sum with an output loop (`oh +
/// kh`), unlike a convolution's input channels, which no map adds to
/// anything. A depthwise convolution, a pool.
bool reducesOnlyWindows(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0, n = ranges.size(); d < n; ++d) {
    if (ranges[d] == 1 || iterators[d] != utils::IteratorType::reduction)
      continue;
    bool slides = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
      return llvm::any_of(
          op.getMatchingIndexingMap(in).getResults(), [&](AffineExpr e) {
            return !isa<AffineDimExpr>(e) && e.isFunctionOfDim(d);
          });
    });
    if (!slides)
      return false;
  }
  return true;
}

/// How many loops around a register tile of `op` (tile sizes `sizes`) to
/// unroll: its innermost reduction loop (in loop order, the order of the
/// tile loops) when it has 2 to kMaxUnrolledWindow iterations; every such
/// reduction loop when all of them slide a window (`reducesOnlyWindows`)
/// and the tile has kMinRowsSharingWindow rows or more. Unit loops have no
/// loop to skip.
int64_t unrolledWindowLoops(linalg::LinalgOp op, ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t count = 0;
  for (int64_t d = static_cast<int64_t>(ranges.size()) - 1; d >= 0; --d) {
    if (ranges[d] == 1)
      continue;
    if (iterators[d] != utils::IteratorType::reduction ||
        ranges[d] > kMaxUnrolledWindow)
      break;
    ++count;
  }
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  int64_t rows = 1;
  if (outMap.getNumResults() >= 2)
    rows = sizes[outMap.getDimPosition(outMap.getNumResults() - 2)];
  if (rows >= kMinRowsSharingWindow && reducesOnlyWindows(op))
    return count;
  // The innermost only: unrolling kh too multiplied the time resnet18
  // spends in the LLVM dialect stage.
  return std::min<int64_t>(count, 1);
}

void unrollWindowLoops(Block *body, int64_t count) {
  for (; count > 0; --count) {
    auto loop = dyn_cast<scf::ForOp>(body->getParentOp());
    if (!loop)
      return;
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->getZExtValue() > kMaxUnrolledWindow)
      return;
    body = loop->getBlock();
    if (failed(loopUnrollFull(loop)))
      return;
  }
}

struct VectorizeConvolutionsPass
    : aotc::impl::VectorizeConvolutionsBase<VectorizeConvolutionsPass> {
  using Base::Base;

  /// The vector register file: the option's width when set, else the
  /// module's CpuTarget's (aotc::vectorRegistersOf).
  aotc::VectorRegisters registers;

  void runOnOperation() override {
    registers = aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> aligned;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          isWindowed(op) && aotc::isRowAlignedConvolution(op))
        aligned.push_back(op);
    });
    for (linalg::LinalgOp op : aligned)
      splitAlignedRows(rewriter, op);

    // Partial rows of ops whose activation or init is fused into their
    // register tiles: split with an activation and an init per part.
    SmallVector<linalg::LinalgOp> partial;
    {
      DominanceInfo dominance(getOperation());
      getOperation().walk([&](linalg::LinalgOp op) {
        if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
            isWindowed(op) && fusedOps(op, dominance).ownedByParts() &&
            partialRowSplit(op, /*ownInits=*/true))
          partial.push_back(op);
      });
    }
    for (linalg::LinalgOp op : partial) {
      aotc::LoopSplit split = *partialRowSplit(op, /*ownInits=*/true);
      auto [head, tail] =
          aotc::splitWithOwnInits(rewriter, op, split.dim, split.at);
      aotc::splitElementwiseConsumer(rewriter, {head, tail});
    }

    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          isWindowed(op))
        candidates.push_back(op);
    });

    DominanceInfo dominance(getOperation());
    for (linalg::LinalgOp op : candidates) {
      unsigned bits = aotc::widestElementBits(op);
      if (bits == 0)
        continue;
      FusedOps fused = fusedOps(op, dominance);
      linalg::LinalgOp producer = fused.producer;
      linalg::GenericOp consumer = fused.consumer;
      // Named convolutions and pools carry the same maps as generics.
      if (!isa<linalg::GenericOp>(op)) {
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generic))
          continue;
        op = *generic;
      }
      int64_t lanes = aotc::registerLanes(registers.bits, bits);
      SmallVector<linalg::LinalgOp> parts =
          splitPartialRow(rewriter, op, fused);
      for (linalg::LinalgOp part : parts) {
        linalg::LinalgOp partProducer = producer;
        if (parts.size() > 1)
          partProducer = refill(
              rewriter, part,
              llvm::cast_if_present<linalg::FillOp>(producer.getOperation()));
        if (failed(vectorizeWindowed(rewriter, part, lanes, partProducer,
                                     consumer)))
          return signalPassFailure();
      }
      // The parts fill their own inits: the whole fill is left only as the
      // destination the parts are inserted into, which they cover.
      if (parts.size() > 1 && producer) {
        rewriter.replaceAllUsesWith(producer->getResult(0),
                                    producer.getDpsInits()[0]);
        rewriter.eraseOp(producer);
      }
    }
  }

  /// The ops computed in a windowed op's register tiles besides its
  /// window loops, each when it has the op's element width and the
  /// vectorizer takes it (null otherwise).
  struct FusedOps {
    /// The init (bias broadcast or fill, computed in the thread tile by
    /// aotc-distribute-to-forall): the accumulators start from it in
    /// registers instead of reading a tile of output it wrote in a pass of
    /// its own.
    linalg::LinalgOp producer;
    /// An elementwise consumer (the activation fused into the thread tile
    /// by aotc-distribute-to-forall), computed right after the window loops
    /// on the accumulators.
    linalg::GenericOp consumer;

    /// True when each part of a split op computes them too: an activation,
    /// or an init other than a fill (a fill is made again for each part).
    bool ownedByParts() const {
      return consumer || (producer && !isa<linalg::FillOp>(producer));
    }
  };
  FusedOps fusedOps(linalg::LinalgOp op, DominanceInfo &dominance) {
    unsigned bits = aotc::widestElementBits(op);
    auto takes = [&](auto fused) {
      return fused &&
             aotc::widestElementBits(
                 cast<linalg::LinalgOp>(fused.getOperation())) ==
                 bits &&
             succeeded(linalg::vectorizeOpPrecondition(fused));
    };
    FusedOps fused;
    if (linalg::GenericOp consumer = aotc::registerTileConsumer(op, dominance);
        takes(consumer))
      fused.consumer = consumer;
    if (linalg::LinalgOp producer = aotc::fusableInitProducer(op);
        takes(producer))
      fused.producer = producer;
    return fused;
  }

  /// A convolution on a row-aligned grid (aotc::isRowAlignedConvolution:
  /// 7 rows of one register each for a 7 x 7 image on AVX2) is split at
  /// its last multiple of kAlignedTileRows rows, each part with its own
  /// init producer and elementwise consumer (aotc::splitWithOwnInits,
  /// aotc::splitElementwiseConsumer), so that most of it is computed in
  /// register tiles of three rows (7 = 6 + 1: two 3 x 4 tiles and a 1 x 8
  /// one, where one 7-row tile of 2 channels needs 17 registers and one of
  /// 1 channel loads an input vector per FMA).
  void splitAlignedRows(RewriterBase &rewriter, linalg::LinalgOp op) {
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    unsigned row = outMap.getDimPosition(outMap.getNumResults() - 2);
    int64_t rows = op.getStaticLoopRanges()[row];
    if (rows <= kAlignedTileRows || rows % kAlignedTileRows == 0)
      return;
    auto [head, tail] = aotc::splitWithOwnInits(
        rewriter, op, row, rows / kAlignedTileRows * kAlignedTileRows);
    aotc::splitElementwiseConsumer(rewriter, {head, tail});
  }

  /// A fill of `part`'s init of its own, when `fill` (null: none) was the
  /// init of the op split into parts: each part then starts from the fill
  /// in its register tiles, not from the slice of a filled tensor. The part
  /// fills its slice of the whole fill's destination (which replaces the
  /// whole fill): in a thread tile, a slice of the tile, not a new tensor
  /// (loop-invariant, it would be hoisted out of the thread loop and then
  /// written in every tile).
  linalg::LinalgOp refill(RewriterBase &rewriter, linalg::LinalgOp part,
                          linalg::FillOp fill) {
    if (!fill)
      return {};
    OpOperand &init = part.getDpsInitsMutable()[0];
    rewriter.setInsertionPoint(part);
    auto partFill = linalg::FillOp::create(rewriter, part.getLoc(),
                                           fill.getInputs()[0], init.get());
    rewriter.modifyOpInPlace(part, [&] { init.set(partFill.getResult(0)); });
    return partFill;
  }

  /// Where `op`, a windowed op without channel rows (a pool, an im2col),
  /// splits its output rows: along the loop of the output's innermost
  /// dimension (the lanes), at the last whole register, when
  /// aotc::partialRowSplitPays (`ownInits`: its activation or init is fused
  /// into its register tiles). A convolution with output channels as lanes
  /// splits its pixel loop instead.
  std::optional<aotc::LoopSplit> partialRowSplit(linalg::LinalgOp op,
                                                 bool ownInits) {
    // Output channels as lanes: the pixels of a row that register tiles do
    // not divide well split after the tiles' bulk (aotc::channelLaneRowBulk).
    if (aotc::convolutionChannelLaneLoop(op)) {
      std::optional<unsigned> row = aotc::convolutionChannelLanePixelLoop(op);
      if (!row)
        return std::nullopt;
      int64_t width = op.getStaticLoopRanges()[*row];
      int64_t bulk = aotc::channelLaneRowBulk(width, registers);
      if (bulk == width)
        return std::nullopt;
      return aotc::LoopSplit{*row, bulk};
    }
    unsigned bits = aotc::widestElementBits(op);
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (bits == 0 || aotc::convolutionChannelRowLoop(op) ||
        outMap.getNumResults() == 0)
      return std::nullopt;
    unsigned laneDim = outMap.getDimPosition(outMap.getNumResults() - 1);
    int64_t range = op.getStaticLoopRanges()[laneDim];
    int64_t lanes = aotc::registerLanes(registers.bits, bits);
    if (!aotc::partialRowSplitPays(range, lanes, ownInits))
      return std::nullopt;
    return aotc::LoopSplit{laneDim, range / lanes * lanes};
  }

  /// A windowed op with a partial row (partialRowSplit) is split at the last
  /// whole register (a 111-wide im2col: 96 + 15 lanes, instead of 37
  /// vectors of 3, its largest divisor up to 16). Ops with an elementwise
  /// consumer or an init producer other than a fill, both fused into their
  /// register tiles, were split before (each part with its own).
  SmallVector<linalg::LinalgOp> splitPartialRow(RewriterBase &rewriter,
                                                linalg::LinalgOp op,
                                                const FusedOps &fused) {
    if (fused.ownedByParts())
      return {op};
    std::optional<aotc::LoopSplit> split =
        partialRowSplit(op, /*ownInits=*/false);
    if (!split)
      return {op};
    rewriter.setInsertionPoint(op);
    auto [head, tail] = linalg::splitOp(
        rewriter, cast<TilingInterface>(op.getOperation()), split->dim,
        rewriter.getIndexAttr(split->at));
    return {cast<linalg::LinalgOp>(head.getOperation()),
            cast<linalg::LinalgOp>(tail.getOperation())};
  }

  /// Tiles the windowed generic `op` to register tiles, with its init
  /// producer and elementwise consumer (either may be null) computed on
  /// each tile, and vectorizes the tiles; an op the vectorizer rejects stays
  /// a linalg op (lowered to loops later).
  LogicalResult vectorizeWindowed(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t lanes, linalg::LinalgOp producer,
                                  linalg::GenericOp consumer) {
    SmallVector<int64_t> sizes = computeTileSizes(op, lanes, registers);
    int64_t unrolled = unrolledWindowLoops(op, sizes);
    linalg::LinalgOp producerTile, consumerTile;
    if (consumer || producer) {
      // Output tiles first (the window loops whole), the init before each
      // and the consumer after it.
      unsigned operand = 0;
      if (consumer)
        operand = llvm::find(consumer->getOperands(), op->getResult(0)) -
                  consumer->operand_begin();
      FailureOr<Operation *> outputTile =
          aotc::tileOutputLoops(rewriter, op, sizes);
      if (failed(outputTile))
        return failure();
      if (*outputTile != op.getOperation()) {
        op = cast<linalg::LinalgOp>(*outputTile);
        if (producer) {
          // Left to aotc-tile-and-vectorize when it cannot be fused.
          FailureOr<linalg::LinalgOp> fused =
              aotc::fuseInitProducer(rewriter, op, producer);
          if (succeeded(fused))
            producerTile = *fused;
        }
        if (consumer)
          consumerTile = aotc::fuseConsumerIntoLoopTile(
              rewriter, op, consumer->getOperand(operand), consumer);
      }
    }
    FailureOr<Operation *> tiled =
        aotc::tileToRegisterSizes(rewriter, op, sizes);
    if (failed(tiled))
      return failure();
    Operation *tile = *tiled;
    if (producerTile)
      aotc::vectorizeTile(rewriter, producerTile);
    FailureOr<linalg::GenericOp> rewritten =
        unitWindowToStridedSlices(rewriter, cast<linalg::LinalgOp>(tile));
    if (failed(rewritten) ||
        failed(linalg::vectorizeOpPrecondition(*rewritten)))
      return success(); // Stays a linalg op: lowered to loops later.
    Block *body = (*rewritten)->getBlock();
    if (aotc::vectorizeTile(rewriter, *rewritten))
      unrollWindowLoops(body, unrolled);
    if (consumerTile)
      aotc::vectorizeTile(rewriter, consumerTile);
    return success();
  }
};

} // namespace

bool aotc::isWindowedOp(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
         isWindowed(op);
}
