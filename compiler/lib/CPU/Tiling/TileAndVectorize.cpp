//===- TileAndVectorize.cpp - Register tiling + vectorization --*- C++ -*-===//
//
// This file implements the aotc-tile-and-vectorize pass: each linalg op is
// tiled with scf.for loops down to register-sized static tiles, and each tile
// is turned into vector ops by the upstream linalg vectorizer.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/CPU/Tiling/RegisterRemainders.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace aotc {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;

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

  /// Register tiles and cache blocks of `op` with `lanes` lanes: those
  /// aotc-select-register-tiles recorded for it, or for an op made after
  /// it ran (a part, a cache block, a fused producer) the strategy's now.
  std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
  tilesOf(linalg::LinalgOp op, int64_t lanes) const {
    if (std::optional<aotc::RegisterPlan> plan =
            aotc::recordedRegisterPlan(op);
        plan && !plan->split && plan->lanes == lanes)
      return {plan->registers, plan->cache};
    SmallVector<int64_t> sizes = aotc::registerTileSizes(op, lanes, registers);
    return {sizes, aotc::cacheTileSizes(op, sizes, registers.bits)};
  }

  /// The split of `op`'s row at its last whole register that its plan
  /// (recorded, else the strategy's now) asks for first, if any.
  std::optional<aotc::LoopSplit> rowSplitOf(linalg::LinalgOp op,
                                            int64_t lanes) const {
    if (std::optional<aotc::RegisterPlan> plan =
            aotc::recordedRegisterPlan(op);
        plan && plan->lanes == lanes)
      return plan->split;
    return aotc::planRegisters(op, lanes, registers).split;
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
    // Contractions: cache blocks first (column block, then reduction
    // block), register tiles within each block.
    auto [sizes, cacheSizes] = tilesOf(op, lanes);
    if (!cacheSizes.empty()) {
      bool columnBlocks = aotc::splitsOnlyParallelLoops(op, cacheSizes);
      FailureOr<Operation *> blocked = aotc::tileAndReplace(
          rewriter, op, cacheSizes, scf::SCFTilingOptions::LoopType::ForOp);
      if (failed(blocked))
        return failure();
      op = cast<linalg::LinalgOp>(*blocked);
      // An init producer of a contraction split along its reduction only
      // (runOnOperation): the first reduction block is peeled off and
      // starts its accumulators from the producer in its register tiles,
      // the other blocks from the tile the first one wrote (no pass of the
      // producer over the whole output, and one read of it less). A fill
      // of a contraction split into column blocks only is computed in the
      // register tiles of every block (below).
      if (initProducer && !columnBlocks) {
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

  /// The static ops on tensors of the function, in order.
  SmallVector<linalg::LinalgOp> staticTensorOps() {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape())
        ops.push_back(op);
    });
    return ops;
  }

  /// The vector register file: the option's width when set, else the
  /// module's CpuTarget's (aotc::vectorRegistersOf).
  aotc::VectorRegisters registers;

  void runOnOperation() override {
    registers = aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    IRRewriter rewriter(&getContext());
    // Contractions first split into parts of whole register tiles (done
    // already by aotc-split-register-remainders in the pipeline).
    aotc::splitRegisterRemainders(getOperation(), registers);

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
      int64_t lanes = aotc::vectorLanesOf(op, registers.bits);
      if (!lanes)
        continue;
      // Only where no cache block separates the register tile from the
      // accumulators' start (and end).
      linalg::LinalgOp producer;
      linalg::GenericOp consumer;
      if (aotc::contractionTileDims(op)) {
        SmallVector<int64_t> cacheSizes = tilesOf(op, lanes).second;
        if (cacheSizes.empty()) {
          producer = aotc::fusableInitProducer(op);
          consumer = aotc::registerTileConsumer(op, dominance);
        } else if (aotc::splitsOnlyReduction(op, cacheSizes)) {
          producer = aotc::fusableInitProducer(op);
        } else if (aotc::splitsOnlyParallelLoops(op, cacheSizes)) {
          // Column blocks: every register tile still starts its whole
          // reduction, from a fill (its value the same at every offset;
          // a broadcast would be tiled at offsets within the block).
          producer = aotc::fusableInitProducer(op);
          if (producer && !isa<linalg::FillOp>(producer))
            producer = {};
        }
      }
      if (producer && aotc::vectorLanesOf(producer, registers.bits))
        fused.insert(producer);
      else
        producer = {};
      if (consumer && aotc::vectorLanesOf(consumer, registers.bits))
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
      // A longer row that is not a whole number of registers is split at
      // its last whole register first, when the plan says so
      // (aotc::RegisterPlan::split).
      SmallVector<linalg::LinalgOp> parts = {op};
      if (std::optional<aotc::LoopSplit> split = rowSplitOf(op, lanes)) {
        rewriter.setInsertionPoint(op);
        auto [head, tail] = linalg::splitOp(
            rewriter, cast<TilingInterface>(op.getOperation()), split->dim,
            rewriter.getIndexAttr(split->at));
        parts = {cast<linalg::LinalgOp>(head.getOperation()),
                 cast<linalg::LinalgOp>(tail.getOperation())};
      }
      for (linalg::LinalgOp part : parts)
        if (failed(tileAndVectorize(rewriter, part, lanes, producer, consumer)))
          return signalPassFailure();
    }
    getOperation().walk([](linalg::LinalgOp op) {
      op->removeAttr(aotc::kRegisterTilesAttrName);
    });
  }
};

} // namespace
