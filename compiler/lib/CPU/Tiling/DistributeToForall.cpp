//===- DistributeToForall.cpp - Thread-level tiling ------------*- C++ -*-===//
//
// This file implements the aotc-distribute-to-forall pass: the outer parallel
// loops of each linalg op become an scf.forall, the unit of multithreading
// (one OpenMP parallel region per op after lowering). A reducing op's init
// producer (its fill or bias) and elementwise consumer (its activation or
// residual add) are computed in its thread tiles, not in loops of their own.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

namespace aotc {
#define GEN_PASS_DEF_DISTRIBUTETOFORALL
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::largestDivisorAtMost;
using aotc::workOf;

namespace {

/// `op` split along `split` into its two parts (linalg::splitOp).
std::pair<linalg::LinalgOp, linalg::LinalgOp>
splitAt(RewriterBase &rewriter, linalg::LinalgOp op, aotc::LoopSplit split) {
  rewriter.setInsertionPoint(op);
  auto [head, tail] = linalg::splitOp(
      rewriter, cast<TilingInterface>(op.getOperation()), split.dim,
      rewriter.getIndexAttr(split.at));
  return {cast<linalg::LinalgOp>(head.getOperation()),
          cast<linalg::LinalgOp>(tail.getOperation())};
}

/// True when `consumer`'s payload may run on elements nobody reads (the
/// padding columns of a convolution's grid): floating-point arithmetic,
/// never an integer division that could trap on them.
bool mayComputeExtraElements(linalg::GenericOp consumer) {
  if (!isa<FloatType>(getElementTypeOrSelf(consumer.getResult(0).getType())))
    return false;
  return !consumer.getBody()
              ->walk([](Operation *op) {
                return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
                           arith::RemUIOp, arith::CeilDivSIOp,
                           arith::CeilDivUIOp, arith::FloorDivSIOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}

/// Elementwise consumers (an activation, a residual add) of a reducing op
/// (a contraction, a convolution), reached through reshapes: rebuilt right
/// after the op in the shape of its result, so that they can be computed
/// on each of its thread tiles (`fuseElementwiseConsumer`) instead of in a
/// pass of their own over the whole result. The consumer must be the only
/// user of the chain, all-parallel with identity maps for its output and
/// every shaped operand (others are scalars), and its other operands must be
/// defined before the op. Through a crop (a flattened convolution's image
/// inside its grid), only a consumer of that result and scalars, writing in
/// place or into a new tensor, is moved: it then also computes the grid's
/// padding columns, which nobody reads. Returns the rebuilt consumer, or
/// null.
linalg::GenericOp moveElementwiseConsumer(RewriterBase &rewriter,
                                          linalg::LinalgOp op,
                                          Operation *&erased) {
  if (op->getNumResults() != 1 || op.getNumReductionLoops() == 0)
    return {};
  Value result = op->getResult(0);
  Value end;
  SmallVector<Operation *> chain = aotc::singleUseReshapeChain(result, end);
  if (!end.hasOneUse())
    return {};
  auto consumer = dyn_cast<linalg::GenericOp>(*end.getUsers().begin());
  if (!aotc::isElementwiseConsumer(consumer, op->getBlock(), end.getType()))
    return {};
  bool cropped = llvm::any_of(chain, [](Operation *link) {
    return isa<tensor::ExtractSliceOp>(link);
  });
  if (cropped && !mayComputeExtraElements(consumer))
    return {};
  for (OpOperand &operand : consumer->getOpOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    Value v = operand.get();
    if (map.getNumResults() == 0 && !consumer.isDpsInit(&operand))
      continue;
    if (!map.isIdentity() || v.getType() != end.getType())
      return {};
    if (v == end || v.getDefiningOp<tensor::EmptyOp>())
      continue;
    if (cropped)
      return {};
    Operation *def = v.getDefiningOp();
    if (def && (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op)))
      return {};
  }
  for (Value v : consumer.getDpsInputs())
    if (Operation *def = v.getDefiningOp();
        def && def->getBlock() == op->getBlock() && !def->isBeforeInBlock(op) &&
        v != end)
      return {};

  Location loc = consumer.getLoc();
  // Other operands are reshaped before the op (they dominate its thread
  // loop, which the consumer joins); the consumer itself follows the op.
  rewriter.setInsertionPoint(op);
  auto shapedType = cast<RankedTensorType>(result.getType());
  auto empty = [&]() -> Value {
    return tensor::EmptyOp::create(rewriter, loc, shapedType.getShape(),
                                   shapedType.getElementType());
  };
  auto carry = [&](Value v) -> Value {
    if (v == end)
      return result;
    if (v.getDefiningOp<tensor::EmptyOp>())
      return empty();
    return aotc::undoReshapes(rewriter, loc, v, chain);
  };
  unsigned rank = shapedType.getRank();
  MLIRContext *ctx = op.getContext();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(input);
    inputs.push_back(map.getNumResults() == 0 ? input->get()
                                              : carry(input->get()));
    maps.push_back(map.getNumResults() == 0
                       ? AffineMap::get(rank, 0, {}, ctx)
                       : AffineMap::getMultiDimIdentityMap(rank, ctx));
  }
  // An init whose values the payload reads (a residual added in place) is
  // read as one more input instead: the thread tiles write the consumer's
  // result over the op's own tile (aotc::fuseElementwiseConsumer).
  Value consumerInit = consumer.getDpsInits()[0];
  bool initRead = consumerInit != end &&
                  !consumerInit.getDefiningOp<tensor::EmptyOp>() &&
                  consumer.payloadUsesValueFromOperand(
                      consumer.getDpsInitOperand(0));
  if (initRead) {
    inputs.push_back(carry(consumerInit));
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init = initRead ? empty() : carry(consumerInit);
  rewriter.setInsertionPointAfter(op);
  auto moved = linalg::GenericOp::create(
      rewriter, loc, TypeRange{shapedType}, inputs, ValueRange{init}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
  IRMapping mapping;
  consumer.getRegion().cloneInto(&moved.getRegion(), mapping);
  if (initRead) {
    Block &body = moved.getRegion().front();
    BlockArgument out = body.getArguments().back();
    out.replaceAllUsesWith(
        body.insertArgument(inputs.size() - 1, out.getType(), loc));
  }
  // The consumer's users see the moved result through the same reshapes.
  rewriter.setInsertionPoint(consumer);
  Value replacement = moved.getResult(0);
  for (Operation *reshape : chain) {
    IRMapping carried;
    carried.map(reshape->getOperand(0), replacement);
    replacement = rewriter.clone(*reshape, carried)->getResult(0);
  }
  erased = consumer;
  rewriter.replaceOp(consumer, replacement);
  for (Operation *reshape : llvm::reverse(chain))
    rewriter.eraseOp(reshape);
  return moved;
}

/// `consumer` (from `moveElementwiseConsumer`) computed on each thread tile
/// of the op tiled into `tiled` (`aotc::fuseElementwiseConsumer`).
LogicalResult fuseConsumerIntoThreadTiles(RewriterBase &rewriter,
                                          Operation *tiled,
                                          linalg::GenericOp consumer) {
  auto forall = tiled->getParentOfType<scf::ForallOp>();
  if (!forall || forall->getNumResults() != 1 ||
      tiled->getParentOp() != forall.getOperation())
    return failure();
  auto inserts = llvm::to_vector(
      forall.getTerminator().getOps<tensor::ParallelInsertSliceOp>());
  if (inserts.size() != 1)
    return failure();
  return aotc::fuseElementwiseConsumer(rewriter, tiled, inserts.front(),
                                       forall->getResult(0), consumer);
}

/// A copy generic (every loop parallel, its one input yielded into a
/// tensor.empty: aotc-im2col-convolutions' column tensor) whose result only
/// a collapse_shape reads, and that collapse_shape only one op.
linalg::GenericOp collapsedCopy(tensor::CollapseShapeOp collapse) {
  auto copy = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  if (!copy || !collapse.getSrc().hasOneUse() ||
      !collapse.getResult().hasOneUse() || copy.getNumDpsInputs() != 1 ||
      copy.getNumDpsInits() != 1 || copy.getNumReductionLoops() != 0 ||
      !copy.hasPureTensorSemantics() || copy.hasDynamicShape() ||
      !copy.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return {};
  auto yield = cast<linalg::YieldOp>(copy.getBody()->getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues()[0] != copy.getBody()->getArgument(0))
    return {};
  return copy;
}

/// The box of the expanded dimensions `dims` (static sizes) that the range
/// [offset, offset + size) of their collapsed dimension covers, when it is
/// one: whole inner dimensions, a part of one dimension, single indices of
/// the outer ones. `offset` is a constant or an induction variable of
/// `forall` starting at 0 with a step that is a multiple of `size` (a thread
/// tile's offset), so the range is aligned to its size.
LogicalResult expandedBox(RewriterBase &rewriter, scf::ForallOp forall,
                          OpFoldResult offset, int64_t size,
                          ArrayRef<int64_t> dims,
                          SmallVectorImpl<OpFoldResult> &offsets,
                          SmallVectorImpl<OpFoldResult> &sizes) {
  std::optional<int64_t> constant = getConstantIntValue(offset);
  if (!constant) {
    auto iv = dyn_cast<BlockArgument>(cast<Value>(offset));
    std::optional<SmallVector<Value>> ivs = forall.getLoopInductionVars();
    if (!iv || !ivs || !llvm::is_contained(*ivs, iv))
      return failure();
    unsigned d = iv.getArgNumber();
    std::optional<int64_t> lower =
        getConstantIntValue(forall.getMixedLowerBound()[d]);
    std::optional<int64_t> step = getConstantIntValue(forall.getMixedStep()[d]);
    if (lower != 0 || !step || *step % size != 0)
      return failure();
  } else if (*constant % size != 0) {
    return failure();
  }
  // The innermost dimension j whose whole inner dimensions the range spans
  // a number k of times, k dividing dims[j] (so aligned ranges never cross
  // it).
  int64_t inner = 1;
  int64_t j = static_cast<int64_t>(dims.size()) - 1;
  for (; j >= 0; inner *= dims[j--])
    if (size % inner == 0 && dims[j] % (size / inner) == 0)
      break;
  if (j < 0)
    return failure();
  Location loc = forall.getLoc();
  AffineExpr d0 = rewriter.getAffineDimExpr(0);
  int64_t stride = 1;
  SmallVector<OpFoldResult> groupOffsets, groupSizes;
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    if (i > j) {
      groupOffsets.push_back(rewriter.getIndexAttr(0));
      groupSizes.push_back(rewriter.getIndexAttr(dims[i]));
    } else {
      groupOffsets.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, d0.floorDiv(stride) % dims[i], {offset}));
      groupSizes.push_back(rewriter.getIndexAttr(i == j ? size / inner : 1));
    }
    stride *= dims[i];
  }
  offsets.append(groupOffsets.rbegin(), groupOffsets.rend());
  sizes.append(groupSizes.rbegin(), groupSizes.rend());
  return success();
}

/// A copy (collapsedCopy: an im2col column tensor) read through a
/// collapse_shape by the thread tiles of `tiled` (a contraction reading it
/// in place) is computed in those tiles: each tile copies the part it reads
/// (the windows of its own output rows) into a tensor of its own, which
/// aotc-plan-memory puts on the thread's stack, and reads it while it is in
/// cache, instead of a thread loop of its own writing the whole tensor that
/// the contraction then reads back from memory (27 x 12321 elements, 1.3 MB,
/// for SqueezeNet's stem). Only when each tile's part is a box of the
/// copy's dimensions (tiles of whole output rows) of at most
/// aotc::kMaxTileScratchBytes.
LogicalResult fuseCollapsedCopy(RewriterBase &rewriter, linalg::LinalgOp tiled,
                                linalg::GenericOp copy) {
  auto forall = dyn_cast<scf::ForallOp>(tiled->getParentOp());
  if (!forall)
    return failure();
  for (OpOperand *operand : tiled.getDpsInputOperands()) {
    auto slice = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride() ||
        !slice.getResultType().hasStaticShape() ||
        slice.getResultType().getRank() != slice.getSourceType().getRank() ||
        slice->getParentOp() != forall.getOperation())
      continue;
    auto collapse = slice.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || collapsedCopy(collapse) != copy)
      continue;
    // The tile's copy (as many elements as the slice) lives on the thread's
    // stack, or beyond its bound in a pool slot of the thread
    // (aotc-plan-memory): then only where the tiles copy no more than the
    // whole copy between them (the column tiles of a GEMM, each copying its
    // own panels of a run-time right-hand side, not row tiles each copying
    // the same panels).
    RankedTensorType sliceType = slice.getResultType();
    int64_t tileBytes =
        sliceType.getNumElements() * aotc::elementBytes(sliceType);
    std::optional<int64_t> tiles = aotc::staticTripCount(forall);
    if (tileBytes > aotc::maxThreadSlotBytes(aotc::CpuTarget::of(forall)) ||
        (tileBytes > aotc::kMaxTileScratchBytes &&
         (!tiles || *tiles * sliceType.getNumElements() >
                        cast<ShapedType>(copy.getDpsInits()[0].getType())
                            .getNumElements())))
      continue;
    Location loc = slice.getLoc();
    ArrayRef<int64_t> expanded = collapse.getSrcType().getShape();
    rewriter.setInsertionPoint(slice);
    SmallVector<OpFoldResult> offsets, sizes;
    bool boxed = true;
    for (auto [group, offset, size] :
         llvm::zip_equal(collapse.getReassociationIndices(),
                         slice.getMixedOffsets(), slice.getStaticSizes())) {
      SmallVector<int64_t> dims =
          llvm::map_to_vector(group, [&](int64_t d) { return expanded[d]; });
      if (failed(expandedBox(rewriter, forall, offset, size, dims, offsets,
                             sizes))) {
        boxed = false;
        break;
      }
    }
    if (!boxed)
      continue;
    // The box is one of the copy's result, whose dimensions its loops may
    // visit in another order (a right-hand side copied into panels a block
    // of rows at a time).
    FailureOr<TilingResult> tile =
        cast<TilingInterface>(copy.getOperation())
            .generateResultTileValue(rewriter, 0, offsets, sizes);
    if (failed(tile) || tile->tiledOps.size() != 1)
      return failure();
    Value columns = tensor::CollapseShapeOp::create(
        rewriter, loc, sliceType, tile->tiledValues.front(),
        collapse.getReassociationIndices());
    rewriter.replaceOp(slice, columns);
    rewriter.eraseOp(collapse);
    rewriter.eraseOp(copy);
    return success();
  }
  return failure();
}

/// A padding (aotc-decompose-ops: a source inserted into a filled tensor)
/// whose fill was split into thread tiles along dimensions the source spans
/// whole (the channels of a padded image): each tile fills only its border
/// and copies its part of the source, one pass over the tile, instead of a
/// parallel fill of the whole padded tensor, then a copy of the source over
/// most of it (MobileNetV2's 96 x 114 x 114 padding of a depthwise
/// convolution's input wrote 5 MB of zeros, of which 3% stayed). A source
/// computed in the padded tensor's slice itself
/// (aotc::emptyComputedIntoSlice: a layer's output written into the next
/// layer's padded input) is not copied: the tiles fill only the border
/// around it.
LogicalResult fusePaddedSource(RewriterBase &rewriter,
                               tensor::InsertSliceOp insert) {
  auto forall = insert.getDest().getDefiningOp<scf::ForallOp>();
  RankedTensorType sourceType = insert.getSourceType();
  if (!forall || forall->getNumResults() != 1 ||
      !insert.getDest().hasOneUse() || !insert.hasUnitStride() ||
      !sourceType.hasStaticShape() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()))
    return failure();
  // A source that can be computed in the padded tensor's slice
  // (aotc-eliminate-reshaped-empty-tensors: ResNet's stem writes into its
  // max pool's padded input) needs no copy at all.
  SmallVector<Operation *> reshapes;
  if (forall->getBlock() != insert->getBlock())
    return failure();
  bool computedInPlace = aotc::emptyComputedIntoSlice(insert, reshapes);
  auto inserts = llvm::to_vector(
      forall.getTerminator().getOps<tensor::ParallelInsertSliceOp>());
  if (inserts.size() != 1)
    return failure();
  tensor::ParallelInsertSliceOp tileInsert = inserts.front();
  auto fill = tileInsert.getSource().getDefiningOp<linalg::FillOp>();
  if (!fill || fill->getParentOp() != forall.getOperation() ||
      !fill->getResult(0).hasOneUse() ||
      ShapedType::isDynamicShape(tileInsert.getStaticSizes()))
    return failure();
  auto tileSlice =
      fill.getDpsInits()[0].getDefiningOp<tensor::ExtractSliceOp>();
  if (!tileSlice || tileSlice.getSource() != forall.getRegionIterArgs().front())
    return failure();
  // Dims the tiles split must be ones the source spans whole.
  ArrayRef<int64_t> full = insert.getDestType().getShape();
  ArrayRef<int64_t> tileShape = tileInsert.getStaticSizes();
  ArrayRef<int64_t> at = insert.getStaticOffsets();
  int64_t rank = full.size();
  SmallVector<bool> split(rank);
  for (int64_t d = 0; d < rank; ++d) {
    split[d] = tileShape[d] != full[d];
    if (split[d] && (at[d] != 0 || sourceType.getDimSize(d) != full[d]))
      return failure();
  }

  // Within a tile, the source occupies [offset, offset + size) per dim.
  MLIRContext *ctx = rewriter.getContext();
  Location loc = insert.getLoc();
  SmallVector<int64_t> offset(rank), size(rank);
  for (int64_t d = 0; d < rank; ++d) {
    offset[d] = split[d] ? 0 : at[d];
    size[d] = split[d] ? tileShape[d] : sourceType.getDimSize(d);
  }
  // The tiles read the source: the loop moves to the insert (its only
  // user; its operands, the empty tensor and the fill value, are defined
  // before it).
  if (!computedInPlace)
    rewriter.moveOpBefore(forall, insert);
  rewriter.setInsertionPoint(fill);
  Value tile = tileSlice.getResult();
  Value padValue = fill.getInputs()[0];
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  // The border: per dim, the parts before and after the source, within the
  // source's range along the dims before it and whole along those after.
  for (int64_t d = 0; d < rank; ++d) {
    for (auto [begin, end] :
         {std::pair<int64_t, int64_t>{0, offset[d]},
          std::pair<int64_t, int64_t>{offset[d] + size[d], tileShape[d]}}) {
      if (begin >= end)
        continue;
      SmallVector<int64_t> stripOffsets(rank), stripSizes(rank);
      for (int64_t e = 0; e < rank; ++e) {
        stripOffsets[e] = e < d ? offset[e] : 0;
        stripSizes[e] = e < d ? size[e] : tileShape[e];
      }
      stripOffsets[d] = begin;
      stripSizes[d] = end - begin;
      SmallVector<OpFoldResult> offsets =
          getAsIndexOpFoldResult(ctx, stripOffsets);
      SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(ctx, stripSizes);
      Value strip = tensor::ExtractSliceOp::create(rewriter, loc, tile, offsets,
                                                   sizes, ones);
      Value zeros =
          linalg::FillOp::create(rewriter, loc, padValue, strip).getResult(0);
      tile = tensor::InsertSliceOp::create(rewriter, loc, zeros, tile, offsets,
                                           sizes, ones);
    }
  }
  // The interior is the source's, written there by its producer.
  if (computedInPlace) {
    rewriter.replaceOp(fill, tile);
    return success();
  }
  // The tile's part of the source.
  SmallVector<OpFoldResult> sourceOffsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> tileOffsets = tileInsert.getMixedOffsets();
  for (int64_t d = 0; d < rank; ++d)
    if (split[d])
      sourceOffsets[d] = tileOffsets[d];
  SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(ctx, size);
  Value part = tensor::ExtractSliceOp::create(rewriter, loc, insert.getSource(),
                                              sourceOffsets, sizes, ones);
  tile = tensor::InsertSliceOp::create(rewriter, loc, part, tile,
                                       getAsIndexOpFoldResult(ctx, offset),
                                       sizes, ones);
  rewriter.replaceOp(fill, tile);
  rewriter.replaceOp(insert, forall->getResult(0));
  return success();
}

/// Erases the ops of `loop`'s body whose results nobody uses.
void eraseUnusedOps(RewriterBase &rewriter, scf::ForallOp loop) {
  SmallVector<Operation *> body = llvm::map_to_vector(
      loop.getBody()->without_terminator(), [](Operation &op) { return &op; });
  for (Operation *op : llvm::reverse(body))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
}

/// True when offset or size `a` of a tile of `loopA` and `b` of `loopB`
/// are the same function of the loops' induction variables: equal
/// constants, the same value or induction variable, or equivalent pure ops
/// of those.
bool sameIndex(OpFoldResult a, scf::ForallOp loopA, OpFoldResult b,
               scf::ForallOp loopB) {
  auto va = dyn_cast<Value>(a), vb = dyn_cast<Value>(b);
  if (!va || !vb)
    return isEqualConstantIntOrValue(a, b);
  auto same = [&](Value x, Value y) {
    auto ix = dyn_cast<BlockArgument>(x), iy = dyn_cast<BlockArgument>(y);
    return success(x == y || (ix && iy && ix.getOwner() == loopA.getBody() &&
                              iy.getOwner() == loopB.getBody() &&
                              ix.getArgNumber() == iy.getArgNumber() &&
                              ix.getArgNumber() < loopA.getRank()));
  };
  if (succeeded(same(va, vb)))
    return true;
  Operation *da = va.getDefiningOp(), *db = vb.getDefiningOp();
  return da && db && isPure(da) &&
         OperationEquivalence::isEquivalentTo(
             da, db, same, /*markEquivalent=*/nullptr,
             OperationEquivalence::IgnoreLocations);
}

/// The thread loops `loops` (block order) of the parts of one op computed
/// in boxes (aotc::splitIntoBoxes), each result inserted at its box into the
/// previous part's, merged into one thread loop over the whole result. Its
/// tiles take each part's tile, which along the boxes' cut dimensions is
/// the whole box (the parts were tiled along the others only,
/// partTileSizes): a tile of the whole result (the cut dimensions whole)
/// into which each part inserts its tile at its box, one after the other,
/// as the parts did into the whole (bufferization then writes each part in
/// place). Each loop must run over the same tiles, start from its box of
/// the previous part's result (sliced once per tile, as the part's own init
/// is) and be read only by its insert (unused slices the fusion of init
/// producers left in them would read the boxes: eraseUnusedOps first).
/// Fails otherwise, leaving the loops as they were.
LogicalResult fuseBoxedParts(RewriterBase &rewriter,
                             ArrayRef<scf::ForallOp> loops) {
  struct Part {
    scf::ForallOp loop;
    tensor::ExtractSliceOp box;
    tensor::InsertSliceOp insert;
    tensor::ExtractSliceOp tileSlice;
    tensor::ParallelInsertSliceOp tileInsert;
  };
  SmallVector<Part> parts;
  scf::ForallOp first = loops.front();
  for (scf::ForallOp loop : loops) {
    if (loop->getNumResults() != 1 || !loop->getResult(0).hasOneUse() ||
        loop.getMixedLowerBound() != first.getMixedLowerBound() ||
        loop.getMixedUpperBound() != first.getMixedUpperBound() ||
        loop.getMixedStep() != first.getMixedStep() ||
        loop.getMapping() != first.getMapping())
      return failure();
    auto insert =
        dyn_cast<tensor::InsertSliceOp>(*loop->getResult(0).getUsers().begin());
    auto box = loop.getOutputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
    if (!insert || !box || !box->hasOneUse() ||
        box.getSource() != insert.getDest() || !insert.hasUnitStride() ||
        insert.getSourceType().getRank() != insert.getDestType().getRank() ||
        box.getMixedOffsets() != insert.getMixedOffsets() ||
        box.getMixedSizes() != insert.getMixedSizes() ||
        box.getMixedStrides() != insert.getMixedStrides() ||
        !llvm::all_of(insert.getMixedOffsets(), llvm::IsaPred<Attribute>) ||
        !insert.getSourceType().hasStaticShape())
      return failure();
    // The previous part's result is read by this part's box and insert only.
    if (!parts.empty() &&
        (insert.getDest() != parts.back().insert.getResult() ||
         llvm::any_of(insert.getDest().getUsers(), [&](Operation *user) {
           return user != insert && user != box;
         })))
      return failure();
    // The tiles slice the box once and insert there, nothing else.
    BlockArgument arg = loop.getRegionIterArgs()[0];
    tensor::ExtractSliceOp tileSlice;
    tensor::ParallelInsertSliceOp tileInsert;
    for (Operation *user : arg.getUsers()) {
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
          slice && !tileSlice && slice->getParentOp() == loop.getOperation())
        tileSlice = slice;
      else if (auto parallel = dyn_cast<tensor::ParallelInsertSliceOp>(user);
               parallel && !tileInsert && parallel.getDest() == arg &&
               parallel.getSource() != arg)
        tileInsert = parallel;
      else
        return failure();
    }
    if (!tileSlice || !tileInsert || !tileInsert.hasUnitStride() ||
        tileSlice.getMixedOffsets() != tileInsert.getMixedOffsets() ||
        tileSlice.getMixedSizes() != tileInsert.getMixedSizes() ||
        tileSlice.getMixedStrides() != tileInsert.getMixedStrides() ||
        tileSlice.getType() != tileInsert.getSourceType() ||
        tileSlice.getType().getRank() != insert.getSourceType().getRank() ||
        !tileSlice.getType().hasStaticShape())
      return failure();
    // Tile offsets computed in the body from the induction variables and
    // values defined outside only (the lead's are computed again).
    for (OpFoldResult offset : tileInsert.getMixedOffsets()) {
      auto value = dyn_cast<Value>(offset);
      Operation *def = value ? value.getDefiningOp() : nullptr;
      if (def && def->getParentOp() == loop.getOperation() &&
          (!isPure(def) || llvm::any_of(def->getOperands(), [&](Value v) {
            Operation *operandDef = v.getDefiningOp();
            return operandDef && loop->isAncestor(operandDef);
          })))
        return failure();
    }
    parts.push_back({loop, box, insert, tileSlice, tileInsert});
  }

  // Per dimension of the result: cut by the boxes (some box does not span
  // it whole), or tiled alike in every part.
  ArrayRef<int64_t> shape = parts.front().insert.getDestType().getShape();
  int64_t rank = shape.size();
  SmallVector<bool> cut(rank, false);
  for (Part &part : parts)
    for (int64_t d = 0; d < rank; ++d)
      cut[d] = cut[d] || part.insert.getStaticOffsets()[d] != 0 ||
               part.insert.getSourceType().getDimSize(d) != shape[d];
  Part &lead = parts.front();
  for (Part &part : parts)
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult offset = part.tileInsert.getMixedOffsets()[d];
      OpFoldResult size = part.tileInsert.getMixedSizes()[d];
      if (cut[d]
              ? !isConstantIntValue(offset, 0) ||
                    !isConstantIntValue(
                        size, part.insert.getSourceType().getDimSize(d))
              : !sameIndex(offset, part.loop,
                           lead.tileInsert.getMixedOffsets()[d], lead.loop) ||
                    !sameIndex(size, part.loop,
                               lead.tileInsert.getMixedSizes()[d], lead.loop))
        return failure();
    }

  Location loc = first.getLoc();
  rewriter.setInsertionPoint(parts.back().insert);
  auto fused = scf::ForallOp::create(
      rewriter, loc, first.getMixedLowerBound(), first.getMixedUpperBound(),
      first.getMixedStep(), ValueRange{lead.insert.getDest()},
      first.getMapping());
  BlockArgument whole = fused.getRegionIterArgs()[0];
  scf::InParallelOp terminator = fused.getTerminator();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(terminator);
  // The tile of the whole result: the lead part's tile, the cut dimensions
  // whole.
  IRMapping leadMapping;
  leadMapping.map(first.getInductionVars(), fused.getInductionVars());
  SmallVector<OpFoldResult> tileOffsets, tileSizes;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult offset = lead.tileInsert.getMixedOffsets()[d];
    OpFoldResult size = lead.tileInsert.getMixedSizes()[d];
    if (cut[d]) {
      tileOffsets.push_back(rewriter.getIndexAttr(0));
      tileSizes.push_back(rewriter.getIndexAttr(shape[d]));
      continue;
    }
    // A tile offset computed in the loop body: computed again here.
    if (auto value = dyn_cast<Value>(offset)) {
      if (Operation *def = value.getDefiningOp();
          def && def->getParentOp() == first.getOperation())
        offset = rewriter.clone(*def, leadMapping)
                     ->getResult(cast<OpResult>(value).getResultNumber());
      else
        offset = leadMapping.lookupOrDefault(value);
    }
    tileOffsets.push_back(offset);
    tileSizes.push_back(size);
  }
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  Value tile = tensor::ExtractSliceOp::create(rewriter, loc, whole, tileOffsets,
                                              tileSizes, ones);
  for (Part &part : parts) {
    IRMapping mapping;
    mapping.map(part.loop.getInductionVars(), fused.getInductionVars());
    // The part's tile within the tile of the whole: its box's offsets along
    // the cut dimensions.
    SmallVector<OpFoldResult> offsets;
    for (int64_t d = 0; d < rank; ++d)
      offsets.push_back(cut[d] ? part.insert.getMixedOffsets()[d]
                               : rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(ctx, part.tileSlice.getType().getShape());
    for (Operation &op : part.loop.getBody()->without_terminator()) {
      if (&op == part.tileSlice.getOperation()) {
        mapping.map(part.tileSlice.getResult(),
                    tensor::ExtractSliceOp::create(rewriter, loc, tile, offsets,
                                                   sizes, ones)
                        .getResult());
        continue;
      }
      rewriter.clone(op, mapping);
    }
    tile = tensor::InsertSliceOp::create(
        rewriter, loc, mapping.lookup(part.tileInsert.getSource()), tile,
        offsets, sizes, ones);
  }
  rewriter.setInsertionPointToEnd(terminator.getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, tile, whole, tileOffsets,
                                        tileSizes, ones);
  rewriter.replaceOp(parts.back().insert, fused->getResults());
  for (auto [i, part] : llvm::enumerate(llvm::reverse(parts))) {
    if (i != 0)
      rewriter.eraseOp(part.insert);
    rewriter.eraseOp(part.loop);
    rewriter.eraseOp(part.box);
  }
  return success();
}

/// The input of a convolution with output channels as lanes, or of a
/// windowed op on the direct or column-phases path (a depthwise convolution
/// or a pool the strategy left unpeeled), that aotc-decompose-ops made a
/// padded copy of (a constant fill of an empty tensor with the source
/// inserted at static offsets, unit strides; read through an expand_shape
/// that splits no padded dimension, or directly, by the op alone) becomes
/// one tensor.pad of the (expanded) source, for padInThreadTiles.
/// Otherwise the copy of the whole padded input is a pass of its own, a
/// good part of a stem's time (MobileNetV2's: 612 KB).
void recomposeTilePad(RewriterBase &rewriter, linalg::LinalgOp op) {
  std::optional<aotc::ConvolutionPath> path = aotc::recordedPath(op);
  if ((!aotc::convolutionChannelLaneLoop(op) &&
       path != aotc::ConvolutionPath::Direct &&
       path != aotc::ConvolutionPath::ColumnPhases) ||
      op.getNumDpsInputs() != 2)
    return;
  std::optional<aotc::PaddedCopy> copy = aotc::matchPaddedCopy(op);
  if (!copy)
    return;
  OpOperand &operand = op->getOpOperand(0);
  Value x = operand.get();
  auto [padding, expand, insert, fill, lowHigh] = *copy;
  // The (expanded) source: x's shape without the padding.
  auto xType = cast<RankedTensorType>(x.getType());
  rewriter.setInsertionPoint(op);
  Location loc = insert.getLoc();
  SmallVector<OpFoldResult> low, high;
  Value src = aotc::unpaddedSource(rewriter, loc, padding, expand, xType,
                                   lowHigh, low, high);
  auto pad = tensor::PadOp::create(rewriter, loc, xType, src, low, high,
                                   padding.value, /*nofold=*/false);
  rewriter.modifyOpInPlace(op, [&] { operand.set(pad.getResult()); });
  // The copy it replaces, now unused.
  Operation *empty = fill.getOutputs()[0].getDefiningOp();
  for (Operation *dead : {expand.getOperation(), insert.getOperation(),
                          fill.getOperation(), empty})
    if (dead && dead->use_empty())
      rewriter.eraseOp(dead);
}

/// Each slice that a thread tile takes of a tensor.pad made outside its
/// thread loop (recomposeTilePad) becomes a padded copy of the source's
/// part that the window covers, in a buffer of the tile's own (static,
/// when aotc::tilePadPays: aotc-plan-memory puts it on the thread's
/// stack): the pad value filled, the part (clamped to the source;
/// empty where the window lies in the padding) inserted. The pads left are
/// then decomposed as aotc-decompose-ops does (fill and insert_slice).
LogicalResult padInThreadTiles(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<tensor::ExtractSliceOp> slices;
  func.walk([&](tensor::ExtractSliceOp slice) {
    auto pad = slice.getSource().getDefiningOp<tensor::PadOp>();
    auto loop = slice->getParentOfType<scf::ForallOp>();
    RankedTensorType type = slice.getResultType();
    if (!pad || !loop || loop->isAncestor(pad) || !slice.hasUnitStride() ||
        !type.hasStaticShape() || !pad.getConstantPaddingValue() ||
        !pad.getResultType().hasStaticShape() ||
        type.getRank() != pad.getResultType().getRank())
      return;
    std::optional<int64_t> tiles = aotc::staticTripCount(loop);
    if (tiles && aotc::tilePadPays(type.getNumElements(),
                                   aotc::elementBytes(type), *tiles,
                                   pad.getResultType().getNumElements()))
      slices.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : slices) {
    auto pad = slice.getSource().getDefiningOp<tensor::PadOp>();
    std::optional<SmallVector<int64_t>> low =
        getConstantIntValues(pad.getMixedLowPad());
    if (!low)
      continue;
    Location loc = slice.getLoc();
    rewriter.setInsertionPoint(slice);
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr o, l;
    bindSymbols(ctx, o, l);
    SmallVector<OpFoldResult> srcOffsets, sizes, dstOffsets, ones;
    for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
      int64_t n = slice.getResultType().getDimSize(d);
      int64_t size = pad.getSourceType().getDimSize(d);
      int64_t lo = (*low)[d];
      ones.push_back(rewriter.getIndexAttr(1));
      // A dimension the pad leaves alone: the slice of the pad is one of
      // the source (a depthwise tile's channels), whole and static.
      if (size == pad.getResultType().getDimSize(d)) {
        srcOffsets.push_back(offset);
        sizes.push_back(rewriter.getIndexAttr(n));
        dstOffsets.push_back(rewriter.getIndexAttr(0));
        continue;
      }
      // The window [offset - lo, offset - lo + n) of the source, clamped
      // to [0, size), and where it lands in the tile's buffer.
      AffineExpr start = o - lo;
      auto map = [&](ArrayRef<AffineExpr> exprs) {
        return AffineMap::get(0, 1, exprs, ctx);
      };
      AffineExpr zero = getAffineConstantExpr(0, ctx);
      AffineExpr end = getAffineConstantExpr(size, ctx);
      OpFoldResult first = affine::makeComposedFoldedAffineMin(
          rewriter, loc, map({o, end}),
          {affine::makeComposedFoldedAffineMax(rewriter, loc,
                                               map({start, zero}), {offset})});
      OpFoldResult last = affine::makeComposedFoldedAffineMax(
          rewriter, loc, map({o, zero}),
          {affine::makeComposedFoldedAffineMin(rewriter, loc,
                                               map({start + n, end}),
                                               {offset})});
      sizes.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, AffineMap::get(0, 2, o - l, ctx), {last, first}));
      srcOffsets.push_back(first);
      dstOffsets.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, AffineMap::get(0, 2, o - l + lo, ctx),
          {first, offset}));
    }
    RankedTensorType type = slice.getResultType();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value filled = linalg::FillOp::create(rewriter, loc,
                                          pad.getConstantPaddingValue(), empty)
                       .getResult(0);
    Value part = tensor::ExtractSliceOp::create(
        rewriter, loc, pad.getSource(), srcOffsets, sizes, ones);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        slice, part, filled, dstOffsets, sizes, ones);
    if (pad->use_empty())
      rewriter.eraseOp(pad);
  }
  SmallVector<Operation *> pads;
  func.walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  if (pads.empty())
    return success();
  RewritePatternSet patterns(func.getContext());
  linalg::populateDecomposePadPatterns(patterns);
  return applyOpPatternsGreedily(pads, std::move(patterns));
}

struct DistributeToForallPass
    : aotc::impl::DistributeToForallBase<DistributeToForallPass> {
  using Base::Base;

  /// The thread-tile decisions (aotc/CPU/Strategy/Tiles.h), from this
  /// pass's options and the function's ops.
  aotc::ThreadTiling tiling{0, 0, 0};

  /// The plan for `op`: the one aotc-select-cpu-tiles recorded for it, or
  /// for an op made after the selection ran (a part of a split op, a
  /// rebuilt consumer) the strategy's decision now, without an even split
  /// unless `allowEvenSplit`.
  aotc::ThreadPlan planOf(linalg::LinalgOp op, bool allowEvenSplit) const {
    if (std::optional<aotc::ThreadPlan> plan = aotc::recordedThreadPlan(op))
      if (allowEvenSplit || plan->kind != aotc::ThreadPlan::Kind::SplitEven)
        return *plan;
    return tiling.plan(op, allowEvenSplit);
  }

  /// Splits a contraction whose plan is an even split (its bulk then tiles
  /// evenly). Each part computes its own init and activation
  /// (aotc::splitWithOwnInits, aotc::splitElementwiseConsumer) and is
  /// distributed on its own.
  void splitForEvenTiles(RewriterBase &rewriter, linalg::LinalgOp op) const {
    aotc::ThreadPlan plan = planOf(op, /*allowEvenSplit=*/true);
    if (plan.kind != aotc::ThreadPlan::Kind::SplitEven)
      return;
    auto [head, tail] =
        aotc::splitWithOwnInits(rewriter, op, plan.split.dim, plan.split.at);
    aotc::splitElementwiseConsumer(rewriter, {head, tail});
  }

  /// Splits `whole` into thread tiles (an scf.forall) as its plan says;
  /// the tiled op, null when nothing was tiled or `whole` was first split
  /// into parts.
  FailureOr<Operation *> distribute(RewriterBase &rewriter,
                                    linalg::LinalgOp whole) {
    using Kind = aotc::ThreadPlan::Kind;
    aotc::ThreadPlan plan = planOf(whole, /*allowEvenSplit=*/false);
    SmallVector<std::pair<linalg::LinalgOp, aotc::ThreadPlan>> parts;
    if (plan.kind == Kind::SplitRemainder) {
      auto [head, tail] = splitAt(rewriter, whole, plan.split);
      parts = {{head, tiling.tilePlan(head)}, {tail, tiling.tilePlan(tail)}};
    } else {
      parts = {{whole, plan}};
    }
    Operation *tiledWhole = nullptr;
    for (auto [op, partPlan] : parts) {
      SmallVector<int64_t> sizes;
      switch (partPlan.kind) {
      case Kind::Tiles:
      case Kind::Parts:
        sizes = partPlan.sizes;
        break;
      case Kind::SplitRows:
        // Tiles of register-tile rows once the rows beyond the last whole
        // register tile are split off; the remainder keeps the init
        // producer out of the tiles.
        op = splitAt(rewriter, op, partPlan.split).first;
        sizes = tiling.rowTileSizes(op, partPlan.targetTiles,
                                    partPlan.minColumns);
        break;
      case Kind::Sequential:
      case Kind::SplitEven:
      case Kind::SplitRemainder:
        continue;
      }
      if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
        continue;
      FailureOr<Operation *> tiled = aotc::tileAndReplace(
          rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
      if (failed(tiled))
        return failure();
      if (parts.size() == 1 && partPlan.kind != Kind::SplitRows)
        tiledWhole = *tiled;
    }
    return tiledWhole;
  }

  /// Thread tiles shared by the parts of one op: the plan recorded on the
  /// first part when there is one (Parts, or distributed one by one),
  /// else the strategy's decision now.
  std::optional<SmallVector<int64_t>>
  partTileSizes(ArrayRef<linalg::LinalgOp> parts) const {
    if (std::optional<aotc::ThreadPlan> plan =
            aotc::recordedThreadPlan(parts.front())) {
      if (plan->kind != aotc::ThreadPlan::Kind::Parts)
        return std::nullopt;
      return plan->sizes;
    }
    return tiling.partTileSizes(parts);
  }

  /// `parts` tiled by `sizes` (aotc::ThreadTiling::partTileSizes); the
  /// tiled parts.
  FailureOr<SmallVector<Operation *>>
  distributeParts(RewriterBase &rewriter, ArrayRef<linalg::LinalgOp> parts,
                  ArrayRef<int64_t> sizes) {
    SmallVector<Operation *> tiled;
    for (linalg::LinalgOp part : parts) {
      FailureOr<Operation *> tile = aotc::tileAndReplace(
          rewriter, part, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
      if (failed(tile))
        return failure();
      tiled.push_back(*tile);
    }
    return tiled;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    // Only ops directly in the function body: one level of parallelism.
    auto topLevelOps = [&] { return aotc::distributableOps(func); };
    tiling = aotc::ThreadTiling::forOps(
        topLevelOps(), minWork, maxTiles,
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption));
    // Padded inputs of convolutions with channel lanes and of windowed ops
    // on the direct path: padded per tile.
    for (linalg::LinalgOp op : topLevelOps())
      recomposeTilePad(rewriter, op);
    // Contractions that would have a few thread tiles in an odd count are
    // split first (their parts then tile evenly). A split erases the op's
    // elementwise consumer, which may come later in the list: ops the
    // splits erased are skipped.
    {
      aotc::ErasedOps erased;
      IRRewriter splitter(&getContext(), &erased);
      for (linalg::LinalgOp op : topLevelOps())
        if (!erased.ops.contains(op))
          splitForEvenTiles(splitter, op);
    }
    // Parts of one op (aotc::kSiblingPartsAttrName), in order: distributed
    // together when the interior has the work for it.
    llvm::MapVector<int64_t, SmallVector<linalg::LinalgOp>> groups =
        aotc::siblingGroups(topLevelOps());
    llvm::SmallDenseMap<int64_t, SmallVector<int64_t>> groupSizes;
    llvm::SmallDenseMap<Operation *, int64_t> groupOf;
    for (auto &[group, parts] : groups) {
      std::optional<SmallVector<int64_t>> sizes = partTileSizes(parts);
      if (!sizes)
        continue;
      groupSizes[group] = std::move(*sizes);
      for (linalg::LinalgOp part : parts)
        groupOf[part] = group;
    }
    auto threaded = [&](linalg::LinalgOp op) {
      return workOf(op) >= tiling.minWorkOf(op) || groupOf.contains(op);
    };
    // The fill or bias broadcast init of a contraction (or of any op that
    // reduces: convolutions, pooling) is computed in the op's thread tiles,
    // not in a pass of its own over the whole output whose tiles would then
    // be read back.
    for (linalg::LinalgOp op : topLevelOps())
      if (aotc::contractionTileDims(op) && workOf(op) >= minWork)
        aotc::rebuildReshapedInit(rewriter, op);
    // Elementwise consumers of reducing ops in the ops' result shapes, to be
    // computed on the ops' thread tiles.
    llvm::SmallDenseMap<Operation *, linalg::GenericOp> consumers;
    llvm::SmallPtrSet<Operation *, 8> moved;
    for (linalg::LinalgOp op : topLevelOps()) {
      Operation *erased = nullptr;
      if (!moved.contains(op) && threaded(op))
        if (linalg::GenericOp consumer =
                moveElementwiseConsumer(rewriter, op, erased)) {
          consumers[op] = consumer;
          moved.insert(erased);
        }
    }
    SmallVector<linalg::LinalgOp> candidates = topLevelOps();
    // Reducing op -> its init producer, and the producers themselves.
    llvm::SmallDenseMap<Operation *, linalg::LinalgOp> initProducers;
    llvm::SmallPtrSet<Operation *, 8> producers;
    for (linalg::LinalgOp op : candidates)
      if (op.getNumReductionLoops() > 0 && threaded(op))
        if (linalg::LinalgOp producer = aotc::fusableInitProducer(op)) {
          initProducers[op] = producer;
          producers.insert(producer);
        }
    // A moved consumer that is also another op's init producer is left to
    // that op (fusing it into both would erase it twice).
    SmallVector<Operation *> producerConsumers;
    for (auto [op, consumer] : consumers)
      if (producers.contains(consumer))
        producerConsumers.push_back(op);
    for (Operation *op : producerConsumers)
      consumers.erase(op);

    // Copies read in place by contractions (im2col column tensors; each read
    // by its contraction alone), left to the contractions' thread tiles
    // (fuseCollapsedCopy).
    llvm::SmallDenseMap<Operation *, linalg::GenericOp> copies;
    llvm::SmallPtrSet<Operation *, 4> copyOps;
    for (linalg::LinalgOp op : candidates)
      if (aotc::contractionTileDims(op) && threaded(op))
        for (Value input : op.getDpsInputs())
          if (auto collapse = input.getDefiningOp<tensor::CollapseShapeOp>())
            if (linalg::GenericOp copy = collapsedCopy(collapse))
              if (!groupOf.contains(copy)) {
                copies[op] = copy;
                copyOps.insert(copy);
              }

    SmallVector<linalg::LinalgOp> unfused;
    llvm::SmallPtrSet<Operation *, 8> fusedConsumers;
    // Tiles of the parts of one op, made when the loop reaches the first.
    llvm::SmallDenseMap<Operation *, Operation *> tiledParts;
    for (linalg::LinalgOp op : candidates) {
      if (producers.contains(op) || fusedConsumers.contains(op) ||
          copyOps.contains(op))
        continue; // With its contraction, below; fused into its producer.
                  // Copies: in their contraction's tiles, below.
      linalg::LinalgOp producer = initProducers.lookup(op);
      linalg::GenericOp consumer = consumers.lookup(op);
      FailureOr<Operation *> tiled = nullptr;
      if (auto group = groupOf.find(op); group != groupOf.end()) {
        ArrayRef<linalg::LinalgOp> parts = groups[group->second];
        if (op == parts.front()) {
          FailureOr<SmallVector<Operation *>> tiles =
              distributeParts(rewriter, parts, groupSizes[group->second]);
          if (failed(tiles))
            return signalPassFailure();
          for (auto [part, tile] : llvm::zip(parts, *tiles))
            tiledParts[part] = tile;
        }
        tiled = tiledParts.lookup(op);
      } else {
        tiled = distribute(rewriter, op);
      }
      if (failed(tiled))
        return signalPassFailure();
      if (producer &&
          (!*tiled || failed(aotc::fuseInitProducer(
                          rewriter, cast<linalg::LinalgOp>(*tiled), producer))))
        unfused.push_back(producer);
      if (consumer && *tiled &&
          succeeded(fuseConsumerIntoThreadTiles(rewriter, *tiled, consumer)))
        fusedConsumers.insert(consumer);
      if (linalg::GenericOp copy = copies.lookup(op))
        if (!*tiled || failed(fuseCollapsedCopy(
                           rewriter, cast<linalg::LinalgOp>(*tiled), copy)))
          unfused.push_back(copy);
    }
    // Producers whose contraction stayed whole: thread tiles of their own.
    for (linalg::LinalgOp producer : unfused)
      if (failed(distribute(rewriter, producer)))
        return signalPassFailure();
    // The parts of one op in one thread loop.
    for (auto &[group, parts] : groups) {
      SmallVector<scf::ForallOp> loops;
      for (linalg::LinalgOp part : parts)
        if (Operation *tile = tiledParts.lookup(part))
          if (auto loop = dyn_cast<scf::ForallOp>(tile->getParentOp()))
            loops.push_back(loop);
      if (loops.size() > 1 && loops.size() == parts.size()) {
        for (scf::ForallOp loop : loops)
          eraseUnusedOps(rewriter, loop);
        (void)fuseBoxedParts(rewriter, loops);
      }
    }
    func.walk([](Operation *op) {
      op->removeAttr(aotc::kSiblingPartsAttrName);
      op->removeAttr(aotc::kTilesAttrName);
    });
    // Paddings whose fill was split: each tile fills its border only, and
    // copies its part of the source unless that is computed in place.
    for (auto insert :
         llvm::to_vector(func.getBody().getOps<tensor::InsertSliceOp>()))
      (void)fusePaddedSource(rewriter, insert);
    if (failed(padInThreadTiles(rewriter, func)))
      return signalPassFailure();
  }
};

} // namespace
