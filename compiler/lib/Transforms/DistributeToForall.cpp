//===- DistributeToForall.cpp - Thread-level tiling ------------*- C++ -*-===//
//
// This file implements the aotc-distribute-to-forall pass: the outer parallel
// loops of each linalg op become an scf.forall, the unit of multithreading
// (one OpenMP parallel region per op after lowering).
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/ConvolutionUtils.h"
#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_DISTRIBUTETOFORALL
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::largestDivisorAtMost;

namespace {

/// Smallest thread tile of a contraction along its register-tile row and
/// lane loops: 64 rows share each cache block of the right-hand side, and
/// 256 columns are one whole cache block (see aotc-tile-and-vectorize).
/// A contraction these would leave in one piece (64 x 256 outputs, as in a
/// transformer's projections) takes half-blocks of 128 columns instead.
constexpr int64_t kMinContractionRows = 64;
constexpr int64_t kMinContractionColumns = 256;
constexpr int64_t kMinContractionHalfColumns = 128;
/// Smallest thread tile along the innermost loop of any other op: four
/// 512-bit registers of f32.
constexpr int64_t kMinInnermost = 64;
/// Smallest thread tile along the loop of a transposed input's innermost
/// dimension: one square register tile of f32 (aotc-tile-and-vectorize).
constexpr int64_t kMinTransposed = 16;

/// Tile sizes that split the parallel loops of `op` into about `targetTiles`
/// static tiles, outermost loops first; 0 leaves a loop untiled. For a
/// contraction the register-tile row loop is split first, then the lane
/// loop, each into tiles no smaller than the minimums above.
SmallVector<int64_t> computeForallTileSizes(linalg::LinalgOp op,
                                            int64_t targetTiles,
                                            int64_t minColumns =
                                                kMinContractionColumns) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  SmallVector<int64_t> minSizes(ranges.size(), 1);
  // Tiles along loop i hold a whole number of multiples[i] iterations.
  SmallVector<int64_t> multiples(ranges.size(), 1);
  SmallVector<unsigned> order = llvm::to_vector(
      llvm::seq<unsigned>(0, static_cast<unsigned>(ranges.size())));
  // The innermost loop is the vector dimension: no thread tile narrower
  // than kMinInnermost elements (the lanes of a split row reduction stay
  // whole, and a 1 x N op is not cut into scalar strips).
  if (!ranges.empty())
    minSizes.back() = kMinInnermost;
  if (auto dims = aotc::contractionTileDims(op)) {
    auto [row, lane] = *dims;
    minSizes[row] = kMinContractionRows;
    // Columns in panels: whole panels, as many as make the minimum columns.
    unsigned columns = lane;
    if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane)) {
      minSizes[lane] = ranges[lane];
      llvm::erase(order, lane);
      columns = *panel;
      minSizes[columns] = std::max<int64_t>(1, minColumns / ranges[lane]);
    } else {
      minSizes[lane] = minColumns;
    }
    // Batch loops (outer) first, then rows, then columns.
    llvm::erase(order, row);
    llvm::erase(order, columns);
    order.push_back(row);
    order.push_back(columns);
  } else if (std::optional<unsigned> channel =
                 aotc::convolutionChannelRowLoop(op)) {
    // Whole register tiles (aotc-vectorize-convolutions): rows of output
    // channels, registers of grid rows, lanes never split.
    minSizes[*channel] = aotc::kContractionRows;
    if (ranges[*channel] % aotc::kContractionRows == 0)
      multiples[*channel] = aotc::kContractionRows;
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    ArrayRef<AffineExpr> results = outMap.getResults();
    unsigned lane = cast<AffineDimExpr>(results.back()).getPosition();
    multiples[lane] = ranges[lane];
    if (results.size() >= 2) {
      unsigned gridRow =
          cast<AffineDimExpr>(results[results.size() - 2]).getPosition();
      if (gridRow != *channel)
        multiples[gridRow] =
            aotc::convolutionThreadRowMultiple(ranges[gridRow]);
    }
  } else {
    // Transposes: read in square register tiles along both loops.
    for (unsigned minor : aotc::transposedInputLoops(op))
      minSizes[minor] = std::max(minSizes[minor], kMinTransposed);
  }
  int64_t tiles = 1;
  for (unsigned i : order) {
    int64_t range = ranges[i];
    if (tiles >= targetTiles)
      break;
    if (iterators[i] != utils::IteratorType::parallel || range <= 1)
      continue;
    // Never more than the target: tiles stay static (divisors) and the
    // count stays bounded even for prime dimensions.
    int64_t limit = std::min(targetTiles / tiles,
                             std::max<int64_t>(1, range / minSizes[i]));
    int64_t count = largestDivisorAtMost(range / multiples[i], limit);
    if (count <= 1)
      continue;
    sizes[i] = range / count;
    tiles *= count;
  }
  return sizes;
}

/// Splits an op other than a contraction whose outermost parallel loop has
/// no divisor near `targetTiles` (197 rows, a prime) into a bulk that
/// divides evenly and a remainder (196 + 1 rows), so the bulk still gets
/// static thread tiles; returns the parts, or the op alone. Contractions
/// keep their own rules (tiles of at least 64 rows).
SmallVector<linalg::LinalgOp> splitRemainder(RewriterBase &rewriter,
                                             linalg::LinalgOp op,
                                             int64_t targetTiles) {
  if (targetTiles < 2 || aotc::contractionTileDims(op))
    return {op};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    if (iterators[dim] != utils::IteratorType::parallel || range <= 1)
      continue;
    int64_t count = std::min(targetTiles, range);
    if (largestDivisorAtMost(range, count) * 2 > count)
      return {op};
    int64_t bulk = range / count * count;
    rewriter.setInsertionPoint(op);
    auto [head, tail] = linalg::splitOp(
        rewriter, cast<TilingInterface>(op.getOperation()),
        static_cast<unsigned>(dim), rewriter.getIndexAttr(bulk));
    return {cast<linalg::LinalgOp>(head.getOperation()),
            cast<linalg::LinalgOp>(tail.getOperation())};
  }
  return {op};
}

/// Iterations of `op`'s loop nest.
int64_t workOf(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t r : op.getStaticLoopRanges())
    work *= r;
  return work;
}

/// Where each dim of `type` ends up through `reshape` (a collapse_shape or
/// expand_shape applied to it): its new position when it is alone in its
/// reassociation group, -1 when it is merged or split.
void followReshape(Operation *reshape, SmallVectorImpl<int64_t> &positions) {
  SmallVector<ReassociationIndices> groups;
  bool collapse = isa<tensor::CollapseShapeOp>(reshape);
  if (auto c = dyn_cast<tensor::CollapseShapeOp>(reshape))
    groups = c.getReassociationIndices();
  else
    groups = cast<tensor::ExpandShapeOp>(reshape).getReassociationIndices();
  for (int64_t &position : positions) {
    if (position < 0)
      continue;
    int64_t next = -1;
    for (auto [g, group] : llvm::enumerate(groups)) {
      if (collapse && llvm::is_contained(group, position))
        next = group.size() == 1 ? static_cast<int64_t>(g) : -1;
      if (!collapse && static_cast<int64_t>(g) == position)
        next = group.size() == 1 ? group.front() : -1;
    }
    position = next;
  }
}

/// A contraction whose init is a fill or a broadcast reached through
/// reshapes (a convolution's bias, collapsed with the image and split into
/// panels) or shared with other ops: the producer is rebuilt in the init's
/// shape for this contraction alone when its inputs index only dims the
/// reshapes keep whole, so it can be fused into the contraction's tiles
/// (`aotc::fuseInitProducer`).
void rebuildReshapedInit(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return;
  Value value = op.getDpsInits()[0];
  auto initType = dyn_cast<RankedTensorType>(value.getType());
  if (!initType || !initType.hasStaticShape())
    return;
  SmallVector<Operation *> chain;
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def) ||
        !value.hasOneUse())
      break;
    chain.push_back(def);
    value = def->getOperand(0);
  }
  auto producer = value.getDefiningOp<linalg::LinalgOp>();
  // Shared producers (CSE merges identical fills of equal-shaped outputs)
  // are rebuilt for this op alone.
  if ((chain.empty() && value.hasOneUse()) || !producer ||
      !aotc::isTileableInitProducer(producer) ||
      producer.hasIndexSemantics() ||
      !isa<linalg::FillOp, linalg::GenericOp>(producer))
    return;
  SmallVector<int64_t> positions =
      llvm::to_vector(llvm::seq<int64_t>(0, producer.getNumLoops()));
  for (Operation *reshape : llvm::reverse(chain))
    followReshape(reshape, positions);
  MLIRContext *ctx = op.getContext();
  unsigned rank = initType.getRank();
  SmallVector<AffineMap> maps;
  for (OpOperand *input : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || positions[dim.getPosition()] < 0)
        return;
      exprs.push_back(getAffineDimExpr(positions[dim.getPosition()], ctx));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  rewriter.setInsertionPoint(op);
  Location loc = producer.getLoc();
  Value empty = tensor::EmptyOp::create(rewriter, loc, initType.getShape(),
                                        initType.getElementType());
  Value rebuilt;
  if (auto fill = dyn_cast<linalg::FillOp>(producer.getOperation())) {
    rebuilt = linalg::FillOp::create(rewriter, loc, fill.getInputs(), empty)
                  .getResult(0);
  } else {
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{initType}, producer.getDpsInputs(),
        ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
    IRMapping mapping;
    producer->getRegion(0).cloneInto(&generic.getRegion(), mapping);
    rebuilt = generic.getResult(0);
  }
  rewriter.modifyOpInPlace(
      op, [&] { op.getDpsInitsMutable()[0].set(rebuilt); });
  for (Operation *reshape : chain)
    rewriter.eraseOp(reshape);
  if (producer->use_empty())
    rewriter.eraseOp(producer);
}

struct DistributeToForallPass
    : aotc::impl::DistributeToForallBase<DistributeToForallPass> {
  using Base::Base;

  /// Splits `whole` into thread tiles (an scf.forall); the tiled op, null
  /// when nothing was tiled or `whole` was first split into parts.
  FailureOr<Operation *> distribute(RewriterBase &rewriter,
                                    linalg::LinalgOp whole) {
    Operation *tiledWhole = nullptr;
    if (workOf(whole) < minWork)
      return tiledWhole;
    SmallVector<linalg::LinalgOp> parts = splitRemainder(
        rewriter, whole, std::min<int64_t>(maxTiles, workOf(whole) / minWork));
    for (linalg::LinalgOp op : parts) {
      int64_t work = workOf(op);
      if (work < minWork)
        continue;
      int64_t targetTiles = std::min<int64_t>(maxTiles, work / minWork);
      SmallVector<int64_t> sizes = computeForallTileSizes(op, targetTiles);
      bool contraction = aotc::contractionTileDims(op).has_value();
      if (contraction && llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
        sizes = computeForallTileSizes(op, targetTiles,
                                       kMinContractionHalfColumns);
      if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
        continue;
      FailureOr<Operation *> tiled = aotc::tileAndReplace(
          rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
      if (failed(tiled))
        return failure();
      if (parts.size() == 1)
        tiledWhole = *tiled;
    }
    return tiledWhole;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    // Only ops directly in the function body: one level of parallelism.
    auto topLevelOps = [&] {
      SmallVector<linalg::LinalgOp> ops;
      for (Operation &op : func.getBody().getOps())
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
          if (linalgOp.hasPureTensorSemantics() &&
              !linalgOp.hasDynamicShape())
            ops.push_back(linalgOp);
      return ops;
    };
    // The fill or bias broadcast init of a contraction (or of any op that
    // reduces: convolutions, pooling) is computed in the op's thread tiles,
    // not in a pass of its own over the whole output whose tiles would then
    // be read back.
    for (linalg::LinalgOp op : topLevelOps())
      if (aotc::contractionTileDims(op) && workOf(op) >= minWork)
        rebuildReshapedInit(rewriter, op);
    SmallVector<linalg::LinalgOp> candidates = topLevelOps();
    // Reducing op -> its init producer, and the producers themselves.
    llvm::SmallDenseMap<Operation *, linalg::LinalgOp> initProducers;
    llvm::SmallPtrSet<Operation *, 8> producers;
    for (linalg::LinalgOp op : candidates)
      if (op.getNumReductionLoops() > 0 && workOf(op) >= minWork)
        if (linalg::LinalgOp producer = aotc::fusableInitProducer(op)) {
          initProducers[op] = producer;
          producers.insert(producer);
        }

    SmallVector<linalg::LinalgOp> unfused;
    for (linalg::LinalgOp op : candidates) {
      if (producers.contains(op))
        continue; // With its contraction, below.
      linalg::LinalgOp producer = initProducers.lookup(op);
      FailureOr<Operation *> tiled = distribute(rewriter, op);
      if (failed(tiled))
        return signalPassFailure();
      if (!producer)
        continue;
      if (!*tiled || failed(aotc::fuseInitProducer(
                         rewriter, cast<linalg::LinalgOp>(*tiled), producer)))
        unfused.push_back(producer);
    }
    // Producers whose contraction stayed whole: thread tiles of their own.
    for (linalg::LinalgOp producer : unfused)
      if (failed(distribute(rewriter, producer)))
        return signalPassFailure();
  }
};

} // namespace
