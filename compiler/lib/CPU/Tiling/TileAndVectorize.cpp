//===- TileAndVectorize.cpp - Register tiling + vectorization --*- C++ -*-===//
//
// This file implements the aotc-tile-and-vectorize pass: each linalg op is
// tiled with scf.for loops down to register-sized static tiles, and each tile
// is turned into vector ops by the upstream linalg vectorizer.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Tiles.h"
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
using aotc::kContractionRegistersPerRow;
using aotc::kWholeRowRegisters;
using aotc::partialRowLoop;
using aotc::rowPanelSpan;

namespace {

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
    SmallVector<int64_t> sizes = aotc::registerTileSizes(op, lanes, vectorBits);
    // Contractions: cache blocks first (column block, then reduction
    // block), register tiles within each block.
    SmallVector<int64_t> cacheSizes =
        aotc::cacheTileSizes(op, sizes, vectorBits);
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
        SmallVector<int64_t> cacheSizes = aotc::cacheTileSizes(
            op, aotc::registerTileSizes(op, lanes, vectorBits), vectorBits);
        if (cacheSizes.empty()) {
          producer = aotc::fusableInitProducer(op);
          consumer = aotc::registerTileConsumer(op, dominance);
        } else if (aotc::splitsOnlyReduction(op, cacheSizes)) {
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
