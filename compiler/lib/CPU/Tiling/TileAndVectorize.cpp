//===- TileAndVectorize.cpp - Register tiling + vectorization --*- C++ -*-===//
//
// This file implements the aotc-tile-and-vectorize pass: each linalg op is
// tiled with scf.for loops down to register-sized static tiles, and each tile
// is turned into vector ops by the upstream linalg vectorizer.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::largestDivisorAtMost;

namespace {

using aotc::kContractionRegistersPerRow;
/// Cache block of a contraction: at most cacheDepth reduction steps and
/// kCacheLanes columns, or as many more columns as a shallower reduction
/// leaves room for, so the right-hand block stays in L2 while every row of
/// the left-hand side streams past it.
constexpr int64_t kCacheLanes = 256;
/// Reduction steps of that block: 256 (256 x 256 f32 = 256 KiB, within the
/// 256 KiB to 512 KiB L2 of AVX2 cores), 512 with 512-bit registers (512
/// KiB, within the 1 MiB or more L2 of AVX-512 server cores and Zen 4 / 5):
/// a deeper block halves the passes over the output per reduction, and the
/// models' contractions of 257 to 512 reduced elements are no longer split,
/// so their bias and activation join the register tiles.
inline int64_t cacheDepth(int64_t vectorBits) {
  return vectorBits >= 512 ? 512 : 256;
}
/// Bytes of the rows' block that register tiles read again for each panel
/// (aotc::rereadRowBytesPerStep) at most: three quarters of the L1 data
/// cache, the rest for a panel next to it (24 KiB of 32 KiB); and the
/// fewest reduction steps that bound may allow for a block to be cut to it.
int64_t l1RowBlockBytes(const aotc::CpuTarget &target) {
  return target.l1Bytes * 3 / 4;
}
constexpr int64_t kMinRowBlockDepth = 128;

/// The largest divisor of `size` that is a multiple of `step` and at most
/// `limit`; `size` when there is none.
int64_t largestMultipleDivisorAtMost(int64_t size, int64_t step,
                                     int64_t limit) {
  for (int64_t d = limit / step * step; d >= step; d -= step)
    if (size % d == 0)
      return d;
  return size;
}

/// A row of at most this many registers that is not a whole number of them
/// (a 55-wide image row: 3 registers and 7 lanes) is one vector: whole
/// registers and one part register (which LLVM moves as 4 + 2 + 1 lanes),
/// not a divisor of the row (5 vectors of 11 lanes, each moved as 8 + 2 +
/// 1). Masked AVX-512 moves for the part register were slower: a masked
/// store does not forward to a load of the same cache line (an in-place
/// update of the next row).
constexpr int64_t kWholeRowRegisters = 4;

/// The innermost loop of `op` when it is a parallel loop along which a
/// vector reads and writes contiguous elements (not a contraction or a
/// transpose), with a range that is not a whole number of `lanes`.
std::optional<unsigned> partialRowLoop(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || aotc::contractionTileDims(op) ||
      !aotc::transposedInputLoops(op).empty())
    return std::nullopt;
  unsigned inner = ranges.size() - 1;
  if (!linalg::isParallelIterator(op.getIteratorTypesArray()[inner]) ||
      ShapedType::isDynamic(ranges[inner]) || ranges[inner] % lanes == 0)
    return std::nullopt;
  return inner;
}

/// Row panels a register tile of the contraction `op` spans (before
/// dividing the panels): more than one when its lanes are one register or
/// less on rows in row panels (the columns past the last whole panel of a
/// 13 x 13 image: 169 = 10 x 16 + 9), whose one-panel tile would leave too
/// few accumulators, too few FMA chains to hide the FMAs' latency: as many
/// panels as the accumulators of a full tile allow (2 x 5 rows with 256-bit
/// registers, 2 x 8 with 512-bit ones). 1 otherwise, or without row panels.
int64_t rowPanelSpan(linalg::LinalgOp op, int64_t lanes, int64_t vectorBits) {
  auto [row, lane] = *aotc::contractionTileDims(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!aotc::contractionPanelLoop(op, row) ||
      largestDivisorAtMost(ranges[lane], kContractionRegistersPerRow *
                                             lanes) > lanes)
    return 1;
  int64_t rows = largestDivisorAtMost(
      ranges[row], aotc::contractionRowTile(ranges[row], vectorBits));
  int64_t accumulators =
      aotc::contractionRows(vectorBits) * kContractionRegistersPerRow;
  return std::max<int64_t>(1, accumulators / rows);
}

/// Register tile sizes for `op`: one vector register along the innermost
/// loop (a whole row of up to kWholeRowRegisters registers when it is not a
/// number of registers), a register accumulator block of
/// aotc::contractionRowTile rows x kContractionRegistersPerRow registers
/// for contractions (`vectorBits`-wide registers), a square lanes x lanes
/// block for transposes, 1 elsewhere.
SmallVector<int64_t> computeVectorTileSizes(linalg::LinalgOp op, int64_t lanes,
                                            int64_t vectorBits) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  if (ranges.empty())
    return sizes;
  if (auto dims = aotc::contractionTileDims(op)) {
    auto [row, lane] = *dims;
    sizes[row] = largestDivisorAtMost(
        ranges[row], aotc::contractionRowTile(ranges[row], vectorBits));
    sizes[lane] = largestDivisorAtMost(ranges[lane],
                                       kContractionRegistersPerRow * lanes);
    int64_t accumulators =
        aotc::contractionRows(vectorBits) * kContractionRegistersPerRow;
    // Lanes of one register or less on rows in row panels: the register
    // tile spans several row panels (rowPanelSpan).
    if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, row))
      sizes[*panel] = largestDivisorAtMost(ranges[*panel],
                                           rowPanelSpan(op, lanes, vectorBits));
    // One row whose lanes are one column panel (the row past the last whole
    // register tile of 49 = 8 x 6 + 1 rows) would leave as few accumulators,
    // each FMA waiting on the one before: the register tile spans as many
    // column panels as the accumulators of a full one allow.
    if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane);
        panel && sizes[row] == 1 && sizes[lane] == ranges[lane]) {
      int64_t registers = llvm::divideCeil(sizes[lane], lanes);
      sizes[*panel] = largestDivisorAtMost(
          ranges[*panel], std::max<int64_t>(1, accumulators / registers));
    }
    return sizes;
  }
  unsigned inner = ranges.size() - 1;
  sizes[inner] = largestDivisorAtMost(ranges[inner], lanes);
  if (partialRowLoop(op, lanes) && ranges[inner] <= kWholeRowRegisters * lanes)
    sizes[inner] = ranges[inner];
  // Transposes: an input read along the lanes with a stride (its innermost
  // dimension is another parallel loop) would be gathered element by
  // element; a square tile reads whole rows of it instead and transposes
  // them in registers.
  for (unsigned minor : aotc::transposedInputLoops(op))
    sizes[minor] = largestDivisorAtMost(ranges[minor], lanes);
  return sizes;
}

/// Makes a generic that reads its init through an input as well (the same
/// value at the same indexing map: a residual add written in place on a
/// contraction's result) read the init's block argument instead, and drops
/// the input. Tiled on its own, the input's slices would be read from the
/// value before the tile loop's writes into the init, which bufferizes as a
/// copy of the whole init.
void readInitInPlace(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return;
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap initMap = op.getMatchingIndexingMap(init);
  Block *body = op.getBody();
  BlockArgument initArg = op.getMatchingBlockArgument(init);
  for (int64_t i = op.getNumDpsInputs() - 1; i >= 0; --i) {
    OpOperand *input = op.getDpsInputOperand(i);
    if (input->get() != init->get() ||
        op.getMatchingIndexingMap(input) != initMap)
      continue;
    rewriter.modifyOpInPlace(op, [&] {
      BlockArgument arg = op.getMatchingBlockArgument(input);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps.erase(maps.begin() + i);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      op.getInputsMutable().erase(i);
      rewriter.replaceAllUsesWith(arg, initArg);
      body->eraseArgument(arg.getArgNumber());
    });
  }
}

/// Cache tile sizes of a contraction (0: loop not tiled): column blocks of
/// whole register tiles and reduction blocks; empty when the op fits.
SmallVector<int64_t> computeCacheTileSizes(linalg::LinalgOp op,
                                           ArrayRef<int64_t> registerSizes,
                                           int64_t vectorBits) {
  auto dims = aotc::contractionTileDims(op);
  if (!dims)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned lane = dims->second;
  unsigned depth = linalg::inferContractionDims(op)->k.back();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t blockDepth = cacheDepth(vectorBits);
  int64_t steps = largestDivisorAtMost(ranges[depth], blockDepth);
  // Register tiles that loop over the panels outside the rows read the
  // rows' block again for each panel: a block of fewer steps keeps it in L1
  // (MobileNetV2's 960 -> 320 projection on 7 x 7 pixels: 240 steps x 48
  // rows = 45 KiB, 120 steps = 22.5 KiB). Only for a reduction split
  // anyway (a whole one keeps its init in the register tiles, see below),
  // and only to a divisor at least half the bound (1048 = 8 x 131 steps
  // would go to 8).
  if (int64_t perStep = aotc::rereadRowBytesPerStep(op);
      perStep && steps < ranges[depth]) {
    int64_t limit = l1RowBlockBytes(aotc::CpuTarget::of(op)) / perStep;
    if (steps > limit && limit >= kMinRowBlockDepth) {
      int64_t cut = largestDivisorAtMost(ranges[depth], limit);
      if (2 * cut >= limit)
        steps = cut;
    }
  }
  // A shallow reduction (64 channels) fits wider blocks: fewer of them, and
  // none at all keeps the accumulators' fill or bias in their register
  // tiles (see runOnOperation) instead of a pass over the output before.
  int64_t columns = largestMultipleDivisorAtMost(
      ranges[lane], registerSizes[lane], kCacheLanes * blockDepth / steps);
  if (columns < ranges[lane])
    sizes[lane] = columns;
  // Panels (aotc-pack-contraction-operands): the lanes are one panel, the
  // column block is a number of panels along the panel loop just outside.
  std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane);
  if (panel && ranges[lane] <= registerSizes[lane]) {
    int64_t panels = std::max<int64_t>(1, kCacheLanes / ranges[lane]);
    int64_t block = largestMultipleDivisorAtMost(ranges[*panel],
                                                 registerSizes[*panel], panels);
    if (block < ranges[*panel])
      sizes[*panel] = block;
  }
  if (steps < ranges[depth] && steps > 1)
    sizes[depth] = steps;
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return {};
  return sizes;
}

/// True when a contraction's cache blocks (computeCacheTileSizes) split its
/// reduction and nothing else: one loop of reduction blocks around the
/// whole thread tile, whose first block can start its accumulators from
/// the init producer in registers (TileAndVectorizePass::tileAndVectorize).
bool splitsOnlyReduction(linalg::LinalgOp op, ArrayRef<int64_t> cacheSizes) {
  unsigned depth = linalg::inferContractionDims(op)->k.back();
  for (auto [dim, size] : llvm::enumerate(cacheSizes))
    if (size != 0 && dim != depth)
      return false;
  return !cacheSizes.empty() && cacheSizes[depth] != 0;
}


struct TileAndVectorizePass
    : aotc::impl::TileAndVectorizeBase<TileAndVectorizePass> {
  using Base::Base;

  /// Splits a contraction whose row or lane loop is not a multiple of the
  /// register tile into a multiple part and a remainder (each static), so
  /// that e.g. 197 rows become 192 rows of 8-row tiles and one 5-row tile
  /// (with 512-bit registers) instead of 197 one-row tiles (49 rows are not
  /// split: seven 7-row tiles, aotc::contractionRowTile). A lane remainder
  /// wider than one vector register is split again at a whole register (49
  /// columns: 32 + 16 + 1), since a vector a little wider than a register
  /// (17 lanes) is lowered element by element. Each part computes its own
  /// init producer and elementwise consumer (aotc::splitWithOwnInits,
  /// aotc::splitElementwiseConsumer), which it can then take into its
  /// register tiles. Last, a part whose register tiles span several row
  /// panels (rowPanelSpan) is split at the last multiple of that span when
  /// it does not divide the panels: SqueezeNet's classifier has thread
  /// tiles of 31 row panels (1000 = 125 x 8 rows), prime, so its 9-column
  /// remainder had one-panel tiles of 8 accumulators of 9 lanes; 30 + 1
  /// panels give most of it 16.
  void splitRemainders(RewriterBase &rewriter, linalg::LinalgOp op,
                       int64_t lanes) {
    SmallVector<linalg::LinalgOp> parts = {op};
    auto [row, lane] = *aotc::contractionTileDims(op);
    for (auto [dim, step] :
         {std::make_pair(row,
                         aotc::contractionRowTile(
                             op.getStaticLoopRanges()[row], vectorBits)),
          std::make_pair(lane, kContractionRegistersPerRow * lanes),
          std::make_pair(lane, lanes)}) {
      SmallVector<linalg::LinalgOp> next;
      for (linalg::LinalgOp part : parts) {
        int64_t range = part.getStaticLoopRanges()[dim];
        if (range <= step || range % step == 0) {
          next.push_back(part);
          continue;
        }
        auto [head, tail] = aotc::splitWithOwnInits(rewriter, part, dim,
                                                    range / step * step);
        aotc::splitElementwiseConsumer(rewriter, {head, tail});
        next.push_back(head);
        next.push_back(tail);
      }
      parts = std::move(next);
    }
    for (linalg::LinalgOp part : parts) {
      std::optional<unsigned> panel = aotc::contractionPanelLoop(part, row);
      int64_t span = rowPanelSpan(part, lanes, vectorBits);
      if (!panel || span <= 1)
        continue;
      int64_t panels = part.getStaticLoopRanges()[*panel];
      if (panels <= span || largestDivisorAtMost(panels, span) > 1)
        continue;
      auto [head, tail] = aotc::splitWithOwnInits(rewriter, part, *panel,
                                                  panels / span * span);
      aotc::splitElementwiseConsumer(rewriter, {head, tail});
    }
  }

  /// Tiles one op to register tiles (after cache blocks for contractions)
  /// and vectorizes the tile. `initProducer` (a contraction's fill or bias
  /// broadcast, `aotc::fusableInitProducer`) is computed in each register
  /// tile, so the accumulators start from it in registers instead of
  /// loading a tile it wrote to memory.
  LogicalResult tileAndVectorize(RewriterBase &rewriter, linalg::LinalgOp op,
                                 int64_t lanes,
                                 linalg::LinalgOp initProducer = {},
                                 linalg::GenericOp consumer = {}) {
    SmallVector<int64_t> sizes = computeVectorTileSizes(op, lanes, vectorBits);
    // Contractions: cache blocks first (column block, then reduction
    // block), register tiles within each block.
    SmallVector<int64_t> cacheSizes =
        computeCacheTileSizes(op, sizes, vectorBits);
    if (!cacheSizes.empty()) {
      FailureOr<Operation *> blocked = aotc::tileAndReplace(
          rewriter, op, cacheSizes, scf::SCFTilingOptions::LoopType::ForOp);
      if (failed(blocked))
        return failure();
      op = cast<linalg::LinalgOp>(*blocked);
      // An init producer of a contraction split along its reduction only
      // (runOnOperation): the first reduction block is peeled off and
      // starts its accumulators from the producer in its register tiles,
      // the other blocks from the tile the first one wrote (no pass of the
      // producer over the whole output, and one read of it less).
      if (initProducer) {
        if (failed(peelFirstBlock(rewriter, op, lanes, initProducer)))
          return failure();
        initProducer = {};
      }
    }
    linalg::LinalgOp producerTile, consumerTile;
    // Where the consumer reads the op's result (it reads the loops' result
    // once the op is tiled).
    unsigned consumerOperand = 0;
    if (consumer)
      consumerOperand = llvm::find(consumer->getOperands(), op->getResult(0)) -
                        consumer->operand_begin();
    if (initProducer || consumer) {
      // Parallel loops first (the producer's tile is computed once per
      // register tile), then the reduction loops inside.
      FailureOr<Operation *> tiled = aotc::tileOutputLoops(rewriter, op, sizes);
      if (failed(tiled))
        return failure();
      op = cast<linalg::LinalgOp>(*tiled);
      if (initProducer) {
        FailureOr<linalg::LinalgOp> fused =
            aotc::fuseInitProducer(rewriter, op, initProducer);
        if (succeeded(fused))
          producerTile = *fused;
        else // The producer is tiled and vectorized on its own.
          if (failed(tileAndVectorize(rewriter, initProducer, lanes)))
            return failure();
      }
      if (consumer) {
        // The consumer runs on each register tile of accumulators, right
        // after the reduction loop: in registers once vectorized.
        consumerTile = aotc::fuseConsumerIntoLoopTile(
            rewriter, op, consumer->getOperand(consumerOperand), consumer);
        if (!consumerTile) { // Tiled and vectorized on its own.
          readInitInPlace(rewriter, consumer);
          if (failed(tileAndVectorize(rewriter, consumer, lanes)))
            return failure();
        }
      }
    }
    FailureOr<Operation *> tiled =
        aotc::tileToRegisterSizes(rewriter, op, sizes);
    if (failed(tiled))
      return failure();
    if (producerTile)
      aotc::vectorizeTile(rewriter, producerTile);
    aotc::vectorizeTile(rewriter, *tiled);
    if (consumerTile)
      aotc::vectorizeTile(rewriter, consumerTile);
    return success();
  }

  /// Peels the first iteration of the reduction block loop around
  /// `blocked` (a cache block of a contraction split along its reduction
  /// only) and tiles and vectorizes it with `initProducer` fused into its
  /// register tiles; the producer is vectorized on its own where that
  /// fails.
  LogicalResult peelFirstBlock(RewriterBase &rewriter,
                               linalg::LinalgOp blocked, int64_t lanes,
                               linalg::LinalgOp initProducer) {
    auto loop = dyn_cast<scf::ForOp>(blocked->getParentOp());
    scf::ForOp first;
    std::optional<APInt> trips =
        loop ? loop.getStaticTripCount() : std::nullopt;
    if (!trips || trips->ult(2) ||
        failed(scf::peelForLoopFirstIteration(rewriter, loop, first)))
      return tileAndVectorize(rewriter, initProducer, lanes);
    linalg::LinalgOp firstBlock;
    first.getBody()->walk([&](linalg::LinalgOp op) { firstBlock = op; });
    if (failed(first.promoteIfSingleIteration(rewriter)))
      return failure();
    return tileAndVectorize(rewriter, firstBlock, lanes, initProducer);
  }

  /// Vector lanes of `op` when this pass vectorizes it, 0 otherwise:
  /// convolutions and pooling are aotc-vectorize-convolutions' (those left
  /// are lowered to loops), as is anything the vectorizer rejects.
  int64_t vectorLanes(linalg::LinalgOp op) {
    unsigned bits = aotc::widestElementBits(op);
    if (bits == 0 || linalg::isaConvolutionOpInterface(op) ||
        failed(linalg::vectorizeOpPrecondition(op)))
      return 0;
    return aotc::registerLanes(vectorBits, bits);
  }

  /// The static ops on tensors of the function, in order.
  SmallVector<linalg::LinalgOp> staticTensorOps() {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape())
        ops.push_back(op);
    });
    return ops;
  }

  /// The vector register width: the option when set, else the module's
  /// CpuTarget's.
  int64_t vectorBits = 0;

  void runOnOperation() override {
    vectorBits = aotc::vectorBitsOf(getOperation(), vectorBitsOption);
    IRRewriter rewriter(&getContext());
    // Contractions first split into parts of whole register tiles.
    SmallVector<std::pair<linalg::LinalgOp, int64_t>> contractions;
    for (linalg::LinalgOp op : staticTensorOps())
      if (aotc::contractionTileDims(op))
        if (int64_t lanes = vectorLanes(op))
          contractions.push_back({op, lanes});
    for (auto [op, lanes] : contractions)
      splitRemainders(rewriter, op, lanes);

    // (op, its fused init producer and consumer, its lanes) in order; the
    // producers and consumers themselves are handled with their
    // contractions.
    struct Work {
      linalg::LinalgOp op, producer;
      linalg::GenericOp consumer;
      int64_t lanes;
    };
    SmallVector<Work> work;
    llvm::SmallPtrSet<Operation *, 8> fused;
    DominanceInfo dominance(getOperation());
    for (linalg::LinalgOp op : staticTensorOps()) {
      int64_t lanes = vectorLanes(op);
      if (!lanes)
        continue;
      // Only where no cache block separates the register tile from the
      // accumulators' start (and end).
      linalg::LinalgOp producer;
      linalg::GenericOp consumer;
      if (aotc::contractionTileDims(op)) {
        SmallVector<int64_t> cacheSizes = computeCacheTileSizes(
            op, computeVectorTileSizes(op, lanes, vectorBits), vectorBits);
        if (cacheSizes.empty()) {
          producer = aotc::fusableInitProducer(op);
          consumer = aotc::registerTileConsumer(op, dominance);
        } else if (splitsOnlyReduction(op, cacheSizes)) {
          producer = aotc::fusableInitProducer(op);
        }
      }
      if (producer && vectorLanes(producer))
        fused.insert(producer);
      else
        producer = {};
      if (consumer && vectorLanes(consumer))
        fused.insert(consumer);
      else
        consumer = {};
      work.push_back({op, producer, consumer, lanes});
    }
    for (auto [op, producer, consumer, lanes] : work) {
      if (fused.contains(op))
        continue;
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
        readInitInPlace(rewriter, generic);
      // A longer row that is not a whole number of registers (a 12321-wide
      // flattened image) is split at the last whole register: register
      // tiles, then one part-register tile (instead of 4107 vectors of 3
      // lanes, 3 being its largest divisor up to 16).
      SmallVector<linalg::LinalgOp> parts = {op};
      if (std::optional<unsigned> inner = partialRowLoop(op, lanes)) {
        int64_t range = op.getStaticLoopRanges()[*inner];
        if (range > kWholeRowRegisters * lanes) {
          rewriter.setInsertionPoint(op);
          auto [head, tail] = linalg::splitOp(
              rewriter, cast<TilingInterface>(op.getOperation()), *inner,
              rewriter.getIndexAttr(range / lanes * lanes));
          parts = {cast<linalg::LinalgOp>(head.getOperation()),
                   cast<linalg::LinalgOp>(tail.getOperation())};
        }
      }
      for (linalg::LinalgOp part : parts)
        if (failed(tileAndVectorize(rewriter, part, lanes, producer, consumer)))
          return signalPassFailure();
    }
  }
};

} // namespace
