//===- TilingUtils.cpp - Helpers shared by the tiling passes -*- C++ -*-===//
//
// This file implements tiling a linalg op and replacing it by the loop nest,
// and the choice of a contraction's register tile loops.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/TilingUtils.h"
#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/TilingInterface.h"

#include <numeric>

using namespace mlir;

namespace {

/// Where each dim of a value ends up through `reshape` (a collapse_shape,
/// expand_shape or linalg.transpose applied to it): `positions[d]` lists the
/// dims that dim d became, outermost first. A dim split by an expand_shape
/// becomes its group; a dim merged with others by a collapse_shape is lost
/// (empty list), unless the collapse merges exactly the dims it was split
/// into; a transpose moves each dim where its permutation puts it.
void followReshape(Operation *reshape,
                   SmallVectorImpl<SmallVector<int64_t>> &positions) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(reshape)) {
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    for (SmallVector<int64_t> &dims : positions)
      for (int64_t &dim : dims)
        dim = llvm::find(permutation, dim) - permutation.begin();
    return;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape)) {
    SmallVector<ReassociationIndices> groups =
        expand.getReassociationIndices();
    for (SmallVector<int64_t> &dims : positions) {
      SmallVector<int64_t> next;
      for (int64_t dim : dims)
        llvm::append_range(next, groups[dim]);
      dims = next;
    }
    return;
  }
  SmallVector<ReassociationIndices> groups =
      cast<tensor::CollapseShapeOp>(reshape).getReassociationIndices();
  for (SmallVector<int64_t> &dims : positions) {
    if (dims.empty())
      continue;
    auto group = llvm::find_if(
        groups, [&](const ReassociationIndices &g) {
          return llvm::is_contained(g, dims.front());
        });
    bool whole = ArrayRef<int64_t>(*group) == ArrayRef<int64_t>(dims);
    dims.clear();
    if (whole)
      dims.push_back(group - groups.begin());
  }
}

} // namespace

namespace aotc {

std::optional<SmallVector<StaticLoopDim>>
staticLoopDims(scf::ForallOp loop) {
  std::optional<SmallVector<int64_t>> lbs =
      getConstantIntValues(loop.getMixedLowerBound());
  std::optional<SmallVector<int64_t>> ubs =
      getConstantIntValues(loop.getMixedUpperBound());
  std::optional<SmallVector<int64_t>> steps =
      getConstantIntValues(loop.getMixedStep());
  if (!lbs || !ubs || !steps)
    return std::nullopt;
  SmallVector<StaticLoopDim> dims;
  for (auto [lb, ub, step] : llvm::zip_equal(*lbs, *ubs, *steps))
    dims.push_back(
        {lb, step, static_cast<int64_t>(llvm::divideCeil(ub - lb, step))});
  return dims;
}

std::optional<int64_t> staticTripCount(scf::ForallOp loop) {
  std::optional<SmallVector<StaticLoopDim>> dims = staticLoopDims(loop);
  if (!dims)
    return std::nullopt;
  int64_t count = 1;
  for (const StaticLoopDim &dim : *dims)
    count *= dim.trips;
  return count;
}

FailureOr<Operation *> tileAndReplace(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      ArrayRef<int64_t> tileSizes,
                                      scf::SCFTilingOptions::LoopType loopType,
                                      ArrayRef<int64_t> interchange) {
  scf::SCFTilingOptions options;
  options.setLoopType(loopType);
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tileSizes));
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return op.emitError("failed to tile");
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

SmallVector<bool> nonMonotonicLoops(linalg::LinalgOp op) {
  SmallVector<bool> loops(op.getNumLoops(), false);
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr e) {
        if (e.getKind() != AffineExprKind::Mod &&
            e.getKind() != AffineExprKind::FloorDiv &&
            e.getKind() != AffineExprKind::CeilDiv)
          return;
        e.walk([&](AffineExpr inner) {
          if (auto dim = dyn_cast<AffineDimExpr>(inner))
            loops[dim.getPosition()] = true;
        });
      });
  return loops;
}

namespace {

/// Bytes of the block of `op`'s input indexed by loop `dim` (its panels for
/// the panel loop, its rows for the row loop): the product of the ranges of
/// the loops it is indexed by.
int64_t inputBlockBytes(linalg::LinalgOp op, unsigned dim) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    Type element = getElementTypeOrSelf(input->get());
    if (!map.isFunctionOfDim(dim) || !element.isIntOrFloat())
      continue;
    int64_t elements = 1;
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      if (map.isFunctionOfDim(d))
        elements *= ranges[d];
    return elements * element.getIntOrFloatBitWidth() / 8;
  }
  return 0;
}

/// Bytes between consecutive output rows of `op` (`row` its row loop) in
/// the tensor its output is a tile of: the init traced up through
/// extract_slice ops, destinations (a fill's), loops' results and
/// loop-carried values (thread and cache blocks) to a tensor of the same
/// rank; 0 when the row loop does not index the output
/// directly or a shape on the way is dynamic.
int64_t outputRowBytes(linalg::LinalgOp op, unsigned row) {
  OpOperand *init = op.getDpsInitOperand(0);
  std::optional<unsigned> position =
      op.getMatchingIndexingMap(init).getResultPosition(
          getAffineDimExpr(row, op.getContext()));
  Value value = init->get();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return 0;
  while (true) {
    OpOperand *source = nullptr;
    if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>())
      source = &slice.getSourceMutable();
    else if (auto producer = value.getDefiningOp<DestinationStyleOpInterface>())
      source = producer.getTiedOpOperand(cast<OpResult>(value));
    else if (auto loop = value.getDefiningOp<LoopLikeOpInterface>())
      source = loop.getTiedLoopInit(cast<OpResult>(value));
    else if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (auto loop = dyn_cast_or_null<LoopLikeOpInterface>(
              arg.getOwner()->getParentOp()))
        source = loop.getTiedLoopInit(arg);
    }
    auto sourceType =
        source ? dyn_cast<RankedTensorType>(source->get().getType()) : nullptr;
    if (!sourceType || sourceType.getRank() != type.getRank())
      break;
    value = source->get();
    type = sourceType;
  }
  if (!position || !type.hasStaticShape())
    return 0;
  int64_t elements = 1;
  for (int64_t size : type.getShape().drop_front(*position + 1))
    elements *= size;
  return elements * elementBytes(type);
}

/// True when `rows` rows `rowBytes` apart (0: unknown) fall into L1 sets
/// more than the L1's ways to a set: rows that far apart start at
/// stride / gcd(rowBytes, stride) places within a way (stride: the L1 set
/// stride), one set each at most. Going down the output rows of a column of
/// panels (tileToRegisterSizes) rather than across the columns then loses:
/// the rows evict each other (GEMM 1024^3, rows 4 KiB apart in one set);
/// rows spread over the sets (SqueezeNet's classifier, 676 B apart) gain.
bool rowsCrowdL1Sets(const CpuTarget &target, int64_t rowBytes,
                     int64_t rows) {
  if (rowBytes <= 0)
    return true;
  int64_t stride = target.l1SetStride();
  int64_t sets = std::min(stride / target.lineBytes,
                          stride / std::gcd(rowBytes, stride));
  return rows > sets * target.l1Ways;
}

/// The loop order of `op`'s register tiles (see tileToRegisterSizes);
/// empty for the op's own (always for dynamic shapes, whose block sizes are
/// unknown).
SmallVector<int64_t> registerTileInterchange(linalg::LinalgOp op) {
  std::optional<std::pair<unsigned, unsigned>> dims = contractionTileDims(op);
  if (!dims || op.hasDynamicShape())
    return {};
  auto [row, lane] = *dims;
  std::optional<unsigned> panel = contractionPanelLoop(op, lane);
  if (!panel || *panel < row)
    return {};
  int64_t panels = inputBlockBytes(op, *panel);
  // Panels that fit the L1 data cache stay there while the row tiles sweep
  // past them, in either order.
  CpuTarget target = CpuTarget::of(op);
  if (panels <= target.l1Bytes || panels <= inputBlockBytes(op, row))
    return {};
  // The panel loop goes outside every loop over rows: a left-hand side in
  // row panels has a loop over them outside the row loop (the rows of the
  // loops of the row's kind, M or N: linalg's kinds follow the operand
  // order, see contractionPanelLoop), and a panel left inside it would be
  // read again from L2 for each row panel. Not when the output's rows then
  // swept down one column of panels crowd into too few L1 sets.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  FailureOr<linalg::ContractionDimensions> contraction =
      linalg::inferContractionDims(op);
  ArrayRef<unsigned> rowKind = llvm::is_contained(contraction->m, row)
                                   ? ArrayRef<unsigned>(contraction->m)
                                   : ArrayRef<unsigned>(contraction->n);
  unsigned outerRow = row;
  int64_t rows = 1;
  for (unsigned d : rowKind) {
    rows *= ranges[d];
    if (ranges[d] != 1 && d < outerRow)
      outerRow = d;
  }
  if (rowsCrowdL1Sets(target, outputRowBytes(op, row), rows))
    outerRow = row;
  SmallVector<int64_t> order;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (d == *panel)
      continue;
    if (d == outerRow)
      order.push_back(*panel);
    order.push_back(d);
  }
  return order;
}

} // namespace

int64_t rereadRowBytesPerStep(linalg::LinalgOp op) {
  if (registerTileInterchange(op).empty())
    return 0;
  unsigned row = contractionTileDims(op)->first;
  unsigned depth = linalg::inferContractionDims(op)->k.back();
  return inputBlockBytes(op, row) / op.getStaticLoopRanges()[depth];
}

FailureOr<Operation *> tileToRegisterSizes(RewriterBase &rewriter,
                                           linalg::LinalgOp op,
                                           ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> tileSizes;
  for (auto [size, range] : llvm::zip_equal(sizes, op.getStaticLoopRanges()))
    tileSizes.push_back(size >= range ? 0 : size);
  if (llvm::all_of(tileSizes, [](int64_t s) { return s == 0; }))
    return op.getOperation();
  return tileAndReplace(rewriter, op, tileSizes,
                        scf::SCFTilingOptions::LoopType::ForOp,
                        registerTileInterchange(op));
}

std::optional<std::pair<unsigned, unsigned>>
contractionTileDims(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  // The innermost M and N loops that do more than one iteration: a unit
  // batch-like loop (the 1 of a [seq, 1, features] activation) would give
  // one-row register tiles.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto innermostNonUnit = [&](ArrayRef<unsigned> loops) {
    for (unsigned d : llvm::reverse(loops))
      if (ranges[d] != 1)
        return d;
    return loops.back();
  };
  unsigned m = innermostNonUnit(dims->m), n = innermostNonUnit(dims->n);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0)
    return std::nullopt;
  auto inner = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (inner && inner.getPosition() == m)
    std::swap(m, n);
  return std::make_pair(m, n);
}

std::optional<unsigned> contractionPanelLoop(linalg::LinalgOp op,
                                             unsigned inner) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  // Both M or both N loops: linalg's kinds follow the operand order, so a
  // convolution's output channels (rows, read from its weights, the second
  // operand) are N loops and its pixels (lanes) M loops.
  auto sameKind = [&](ArrayRef<unsigned> loops) {
    return llvm::is_contained(loops, inner) &&
           llvm::is_contained(loops, inner - 1);
  };
  if (failed(dims) || inner == 0 || (!sameKind(dims->m) && !sameKind(dims->n)))
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    unsigned n = map.getNumResults();
    if (n >= 3 && map.isProjectedPermutation() &&
        map.getDimPosition(n - 1) == inner &&
        map.getDimPosition(n - 3) == inner - 1 &&
        llvm::is_contained(dims->k, map.getDimPosition(n - 2)))
      return inner - 1;
  }
  return std::nullopt;
}

std::optional<ContractionLoops>
classifyStaticContractionLoops(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      op.hasDynamicShape() || op->getNumRegions() != 1)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape() || type.getRank() == 0)
      return std::nullopt;
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  ContractionLoops loops;
  for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d) {
    bool inA = maps[0].isFunctionOfDim(d), inB = maps[1].isFunctionOfDim(d),
         inC = maps[2].isFunctionOfDim(d);
    bool parallel = iterators[d] == utils::IteratorType::parallel;
    if (inA && inB && inC && parallel)
      loops.batch.push_back(d);
    else if (inA && !inB && inC && parallel)
      loops.m.push_back(d);
    else if (!inA && inB && inC && parallel)
      loops.n.push_back(d);
    else if (inA && inB && !inC && !parallel)
      loops.k.push_back(d);
    else
      return std::nullopt;
  }
  return loops;
}

bool vectorizeTile(RewriterBase &rewriter, Operation *tile) {
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, tile);
  if (failed(vectorized))
    return false;
  if (!vectorized->replacements.empty())
    rewriter.replaceOp(tile, vectorized->replacements);
  else
    rewriter.eraseOp(tile);
  return true;
}

bool isTileableInitProducer(linalg::LinalgOp producer) {
  return producer->getNumResults() == 1 && producer.getNumDpsInits() == 1 &&
         producer.hasPureTensorSemantics() &&
         producer.getNumParallelLoops() == producer.getNumLoops() &&
         producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
             .isIdentity() &&
         !producer.payloadUsesValueFromOperand(producer.getDpsInitOperand(0));
}

SmallVector<unsigned> transposedInputLoops(linalg::LinalgOp op) {
  SmallVector<unsigned> loops;
  unsigned count = op.getNumLoops();
  if (count == 0)
    return loops;
  unsigned inner = count - 1;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || !map.isProjectedPermutation() ||
        !map.isFunctionOfDim(inner))
      continue;
    unsigned minor = map.getDimPosition(map.getNumResults() - 1);
    if (minor != inner && iterators[minor] == utils::IteratorType::parallel)
      loops.push_back(minor);
  }
  return loops;
}

linalg::LinalgOp fusableInitProducer(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return {};
  Value init = op.getDpsInits()[0];
  auto producer = init.getDefiningOp<linalg::LinalgOp>();
  if (!producer || producer->getBlock() != op->getBlock() ||
      !init.hasOneUse() || !isTileableInitProducer(producer))
    return {};
  return producer;
}

FailureOr<linalg::LinalgOp> fuseInitProducer(RewriterBase &rewriter,
                                            linalg::LinalgOp tiled,
                                            linalg::LinalgOp producer) {
  auto slice = tiled.getDpsInits()[0].getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.hasUnitStride() ||
      slice.getSourceType().getRank() != slice.getResultType().getRank())
    return failure();
  rewriter.setInsertionPoint(tiled);
  FailureOr<TilingResult> tile =
      cast<TilingInterface>(producer.getOperation())
          .getTiledImplementation(rewriter, slice.getMixedOffsets(),
                                  slice.getMixedSizes());
  if (failed(tile) || tile->tiledOps.size() != 1 ||
      tile->tiledValues.size() != 1)
    return failure();
  auto producerTile = cast<linalg::LinalgOp>(tile->tiledOps.front());
  rewriter.modifyOpInPlace(producerTile, [&] {
    producerTile.getDpsInitsMutable()[0].set(slice.getResult());
  });
  rewriter.modifyOpInPlace(tiled, [&] {
    tiled.getDpsInitsMutable()[0].set(producerTile->getResult(0));
  });
  rewriter.replaceOp(producer, producer.getDpsInits()[0]);
  return producerTile;
}

SmallVector<Operation *> singleUseReshapeChain(Value value, Value &end) {
  SmallVector<Operation *> chain;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp>(user) ||
        user->getOperand(0) != value)
      break;
    chain.push_back(user);
    value = user->getResult(0);
  }
  end = value;
  return chain;
}

tensor::EmptyOp computedInto(Value value,
                             SmallVectorImpl<Operation *> &reshapes) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      reshapes.push_back(def);
      value = def->getOperand(0);
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
      value = insert.getDest();
    } else if (auto forall = dyn_cast<scf::ForallOp>(def)) {
      value = forall.getTiedOpOperand(cast<OpResult>(value))->get();
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      if (!dps.hasPureTensorSemantics())
        return {};
      value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
    } else {
      return dyn_cast<tensor::EmptyOp>(def);
    }
  }
  return {};
}

/// True when the static slice `insert` writes is one contiguous range of
/// its destination: unit sizes, then at most one partial dimension, then
/// whole ones.
static bool isContiguousSlice(tensor::InsertSliceOp insert) {
  ArrayRef<int64_t> sizes = insert.getStaticSizes();
  ArrayRef<int64_t> shape = insert.getDestType().getShape();
  unsigned d = 0;
  while (d < sizes.size() && sizes[d] == 1)
    ++d;
  for (unsigned i = d + 1; i < sizes.size(); ++i)
    if (sizes[i] != shape[i])
      return false;
  return true;
}

tensor::EmptyOp
emptyComputedIntoSlice(tensor::InsertSliceOp insert,
                       SmallVectorImpl<Operation *> &reshapes) {
  tensor::EmptyOp empty = computedInto(insert.getSource(), reshapes);
  if (!empty)
    return {};
  // The slice, reshaped back, has the empty tensor's type (the ops in
  // between keep their destinations' types).
  Type computedType = reshapes.empty()
                          ? insert.getSourceType()
                          : reshapes.back()->getOperand(0).getType();
  if (computedType != empty.getType())
    return {};
  // Undoing a collapse expands the slice, which any slice allows; undoing
  // an expansion collapses it, which only a contiguous one does.
  if (!isContiguousSlice(insert) &&
      !llvm::all_of(reshapes, llvm::IsaPred<tensor::CollapseShapeOp>))
    return {};
  return empty;
}

SmallVector<ReassociationIndices> splitDimGroups(int64_t rank, int64_t dim) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0, next = 0; d < rank; ++d) {
    if (d == dim) {
      groups.push_back({next, next + 1});
      next += 2;
    } else {
      groups.push_back({next++});
    }
  }
  return groups;
}

RankedTensorType splitDimensionType(RankedTensorType type, int64_t dim,
                                    int64_t size) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= size;
  shape.insert(shape.begin() + dim + 1, size);
  return RankedTensorType::get(shape, type.getElementType());
}

Value splitDimension(OpBuilder &b, Location loc, Value v, int64_t dim,
                     int64_t size) {
  auto type = cast<RankedTensorType>(v.getType());
  return tensor::ExpandShapeOp::create(b, loc,
                                       splitDimensionType(type, dim, size), v,
                                       splitDimGroups(type.getRank(), dim));
}

Value undoReshapes(RewriterBase &rewriter, Location loc, Value value,
                   ArrayRef<Operation *> chain) {
  for (Operation *reshape : llvm::reverse(chain)) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape))
      value = tensor::CollapseShapeOp::create(
          rewriter, loc, value, expand.getReassociationIndices());
    else
      value = tensor::ExpandShapeOp::create(
          rewriter, loc, cast<tensor::CollapseShapeOp>(reshape).getSrcType(),
          value,
          cast<tensor::CollapseShapeOp>(reshape).getReassociationIndices());
  }
  return value;
}

/// The elementwise consumer (`isElementwiseConsumer` in `block`, of `v`'s
/// type) that is the only user of `v`, which it may use twice: as an input
/// and as the init it writes in place. Null otherwise.
static linalg::GenericOp soleElementwiseConsumer(Value v, Block *block) {
  if (v.use_empty())
    return {};
  auto consumer = dyn_cast<linalg::GenericOp>(*v.getUsers().begin());
  if (!llvm::all_equal(v.getUsers()) ||
      !isElementwiseConsumer(consumer, block, v.getType()))
    return {};
  return consumer;
}

bool splitElementwiseConsumer(RewriterBase &rewriter,
                              ArrayRef<linalg::LinalgOp> parts) {
  if (parts.empty())
    return false;
  Operation *first = parts.front();
  Block *block = first->getBlock();
  auto isStatic = [](ArrayRef<OpFoldResult> values) {
    return llvm::all_of(values, llvm::IsaPred<Attribute>);
  };
  // Each part inserted into the result of the previous part's insert.
  SmallVector<tensor::InsertSliceOp> inserts;
  for (linalg::LinalgOp part : parts) {
    if (part->getBlock() != block || part->getNumResults() != 1 ||
        !part->getResult(0).hasOneUse())
      return false;
    auto insert =
        dyn_cast<tensor::InsertSliceOp>(*part->getResult(0).getUsers().begin());
    if (!insert || insert.getSource() != part->getResult(0) ||
        insert->getBlock() != block ||
        (!inserts.empty() && insert.getDest() != inserts.back().getResult()) ||
        !isStatic(insert.getMixedOffsets()) ||
        !isStatic(insert.getMixedSizes()) ||
        !isStatic(insert.getMixedStrides()))
      return false;
    inserts.push_back(insert);
  }
  Value end;
  SmallVector<Operation *> chain =
      singleUseReshapeChain(inserts.back().getResult(), end);
  if (llvm::any_of(chain, llvm::IsaPred<tensor::ExtractSliceOp>))
    return false;
  linalg::GenericOp consumer = soleElementwiseConsumer(end, block);
  if (!consumer)
    return false;
  OpOperand *init = consumer.getDpsInitOperand(0);
  // Its init is the result it reads (in place) or one it does not read.
  if (!consumer.getMatchingIndexingMap(init).isIdentity() ||
      (init->get() != end && consumer.payloadUsesValueFromOperand(init)))
    return false;
  auto definedBeforeParts = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || (def->getBlock() == block && def->isBeforeInBlock(first)) ||
           !block->getParentOp()->isAncestor(def);
  };
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(input);
    Value v = input->get();
    if (v == end && map.isIdentity())
      continue;
    if ((map.getNumResults() != 0 &&
         (!map.isIdentity() || v.getType() != end.getType())) ||
        !definedBeforeParts(v))
      return false;
  }

  // The other operands in the shape of the whole result, before the parts,
  // then sliced like each part's insert.
  Location loc = consumer.getLoc();
  MLIRContext *ctx = consumer.getContext();
  rewriter.setInsertionPoint(first);
  llvm::SmallDenseMap<Value, Value> whole;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (Value v = input->get();
        v != end && consumer.getMatchingIndexingMap(input).getNumResults() &&
        !whole.count(v))
      whole[v] = undoReshapes(rewriter, loc, v, chain);
  Block *body = consumer.getBody();
  for (auto [i, part] : llvm::enumerate(parts)) {
    tensor::InsertSliceOp insert = inserts[i];
    Value result = part->getResult(0);
    auto type = cast<RankedTensorType>(result.getType());
    unsigned rank = type.getRank();
    // Reads of the result become reads of the init, which is the part's
    // result (in place, one use: it can join the part's tiles).
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<std::optional<unsigned>> inputPositions;
    for (OpOperand *input : consumer.getDpsInputOperands()) {
      Value v = input->get();
      bool scalar = consumer.getMatchingIndexingMap(input).getNumResults() == 0;
      if (v == end && !scalar) {
        inputPositions.push_back(std::nullopt);
        continue;
      }
      inputPositions.push_back(inputs.size());
      if (scalar) {
        inputs.push_back(v);
        maps.push_back(AffineMap::get(rank, 0, {}, ctx));
        continue;
      }
      rewriter.setInsertionPoint(first);
      inputs.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, type, whole.lookup(v), insert.getMixedOffsets(),
          insert.getMixedSizes(), insert.getMixedStrides()));
      maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
    // Right before the part's insert.
    rewriter.setInsertionPoint(insert);
    auto partConsumer = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs, ValueRange{result}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location, ValueRange args) {
          IRMapping mapping;
          for (auto [arg, position] :
               llvm::zip(body->getArguments(), inputPositions))
            mapping.map(arg, position ? args[*position] : args.back());
          mapping.map(body->getArguments().back(), args.back());
          for (Operation &op : *body)
            b.clone(op, mapping);
        });
    rewriter.modifyOpInPlace(insert, [&] {
      insert.getSourceMutable().set(partConsumer.getResult(0));
    });
  }
  rewriter.replaceOp(consumer, end);
  return true;
}

bool isElementwiseConsumer(linalg::GenericOp consumer, Block *block,
                           Type resultType) {
  return consumer && consumer->getBlock() == block &&
         consumer.getNumResults() == 1 && consumer.getNumDpsInits() == 1 &&
         consumer.hasPureTensorSemantics() && !consumer.hasIndexSemantics() &&
         consumer.getNumParallelLoops() == consumer.getNumLoops() &&
         consumer.getResult(0).getType() == resultType;
}

FailureOr<Operation *> tileOutputLoops(RewriterBase &rewriter,
                                       linalg::LinalgOp op,
                                       ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> outputSizes(sizes);
  for (auto [size, iterator] :
       llvm::zip_equal(outputSizes, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      size = 0;
  return tileToRegisterSizes(rewriter, op, outputSizes);
}

linalg::GenericOp registerTileConsumer(linalg::LinalgOp op,
                                       DominanceInfo &dominance) {
  if (op->getNumResults() != 1)
    return {};
  Value result = op->getResult(0);
  // It may write the result in place (as aotc-distribute-to-forall leaves a
  // thread tile's consumer).
  linalg::GenericOp consumer =
      soleElementwiseConsumer(result, op->getBlock());
  if (!consumer)
    return {};
  for (OpOperand &operand : consumer->getOpOperands()) {
    Value v = operand.get();
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    if (map.getNumResults() == 0 && !consumer.isDpsInit(&operand) &&
        dominance.properlyDominates(v, op))
      continue;
    if (!map.isIdentity() || v.getType() != result.getType())
      return {};
    if (v != result && !dominance.properlyDominates(v, op))
      return {};
  }
  return consumer;
}

LogicalResult fuseElementwiseConsumer(RewriterBase &rewriter, Operation *tiled,
                                      Operation *insert, Value loopResult,
                                      linalg::LinalgOp consumer) {
  auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(insert);
  if (!slice || insert->getOperand(0) != tiled->getResult(0) ||
      !llvm::is_contained(consumer->getOperands(), loopResult))
    return failure();
  // The tile takes the init's place: an init other than the loops' result
  // must be one whose values the payload does not read.
  for (OpOperand &init : consumer.getDpsInitsMutable())
    if (init.get() != loopResult && consumer.payloadUsesValueFromOperand(&init))
      return failure();
  // The consumer's other operands are sliced before the tile is computed
  // (they are defined outside the loops); the consumer's tile follows it.
  rewriter.setInsertionPoint(tiled);
  FailureOr<TilingResult> tile =
      cast<TilingInterface>(consumer.getOperation())
          .getTiledImplementation(rewriter, slice.getMixedOffsets(),
                                  slice.getMixedSizes());
  if (failed(tile) || tile->tiledOps.size() != 1)
    return failure();
  auto consumerTile = cast<linalg::LinalgOp>(tile->tiledOps.front());
  rewriter.moveOpAfter(consumerTile, tiled);
  Value tileValue = tiled->getResult(0);
  llvm::SetVector<Operation *> replacedSlices;
  rewriter.modifyOpInPlace(consumerTile, [&] {
    for (auto [operand, original] : llvm::zip_equal(
             consumerTile->getOpOperands(), consumer->getOperands())) {
      if (original != loopResult && !consumerTile.isDpsInit(&operand))
        continue;
      if (Operation *def = operand.get().getDefiningOp())
        replacedSlices.insert(def);
      operand.set(tileValue);
    }
  });
  // The slices the tiling took of the loops' own result (and of the
  // consumer's init) are dead: the tile itself takes their place.
  for (Operation *def : replacedSlices)
    if (def->use_empty())
      rewriter.eraseOp(def);
  rewriter.modifyOpInPlace(insert, [&] {
    insert->setOperand(0, consumerTile->getResult(0));
  });
  rewriter.replaceOp(consumer, loopResult);
  return success();
}

linalg::LinalgOp fuseConsumerIntoLoopTile(RewriterBase &rewriter,
                                          linalg::LinalgOp tile,
                                          Value loopResult,
                                          linalg::GenericOp consumer) {
  Value result = tile->getResult(0);
  Operation *insert = result.hasOneUse() ? *result.getUsers().begin() : nullptr;
  if (!insert || !isa<tensor::InsertSliceOp>(insert) ||
      failed(fuseElementwiseConsumer(rewriter, tile, insert, loopResult,
                                     consumer)))
    return {};
  return cast<linalg::LinalgOp>(insert->getOperand(0).getDefiningOp());
}

void rebuildReshapedInit(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return;
  Value value = op.getDpsInits()[0];
  auto initType = dyn_cast<RankedTensorType>(value.getType());
  if (!initType || !initType.hasStaticShape())
    return;
  SmallVector<Operation *> chain;
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             linalg::TransposeOp>(def) ||
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
  SmallVector<SmallVector<int64_t>> positions;
  for (int64_t d = 0, e = producer.getNumLoops(); d < e; ++d)
    positions.push_back({d});
  for (Operation *reshape : llvm::reverse(chain))
    followReshape(reshape, positions);
  MLIRContext *ctx = op.getContext();
  unsigned rank = initType.getRank();
  // Each input reads the dims its own dims became; an input dim whose loop
  // was split (a bias along channels split into panels) is expanded the
  // same way (a constant bias folds into a reshaped constant).
  SmallVector<AffineMap> maps;
  SmallVector<SmallVector<ReassociationIndices>> inputGroups;
  SmallVector<SmallVector<int64_t>> inputShapes;
  for (OpOperand *input : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    SmallVector<AffineExpr> exprs;
    SmallVector<ReassociationIndices> &groups = inputGroups.emplace_back();
    SmallVector<int64_t> &shape = inputShapes.emplace_back();
    for (AffineExpr e : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || positions[dim.getPosition()].empty())
        return;
      groups.emplace_back();
      for (int64_t p : positions[dim.getPosition()]) {
        groups.back().push_back(static_cast<int64_t>(exprs.size()));
        exprs.push_back(getAffineDimExpr(p, ctx));
        shape.push_back(initType.getDimSize(p));
      }
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs;
  for (auto [input, groups, shape] : llvm::zip_equal(
           producer.getDpsInputOperands(), inputGroups, inputShapes)) {
    Value value = input->get();
    if (shape.size() != groups.size())
      value = tensor::ExpandShapeOp::create(
          rewriter, producer.getLoc(),
          RankedTensorType::get(shape, getElementTypeOrSelf(value.getType())),
          value, groups);
    inputs.push_back(value);
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Location loc = producer.getLoc();
  // A producer writing into part of a larger buffer (a slice of it, as a
  // split op's part computes its own init) keeps writing there, through the
  // same reshapes: the op's result then still lands in that buffer in place.
  Value producerInit = producer.getDpsInits()[0];
  Value empty;
  if (value.hasOneUse() && !producerInit.getDefiningOp<tensor::EmptyOp>() &&
      llvm::none_of(chain, llvm::IsaPred<linalg::TransposeOp>)) {
    empty = producerInit;
    for (Operation *reshape : llvm::reverse(chain)) {
      IRMapping mapping;
      mapping.map(reshape->getOperand(0), empty);
      empty = rewriter.clone(*reshape, mapping)->getResult(0);
    }
  } else {
    empty = tensor::EmptyOp::create(rewriter, loc, initType.getShape(),
                                    initType.getElementType());
  }
  Value rebuilt;
  if (auto fill = dyn_cast<linalg::FillOp>(producer.getOperation())) {
    rebuilt = linalg::FillOp::create(rewriter, loc, fill.getInputs(), empty)
                  .getResult(0);
  } else {
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{initType}, inputs, ValueRange{empty}, maps,
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

/// The init producer of `op` (after rebuildReshapedInit) that parts of `op`
/// can each compute on their own slice (splitWithOwnInits): a tileable init
/// producer in `op`'s block whose result only `op` uses. Null otherwise.
static linalg::LinalgOp partitionableInitProducer(RewriterBase &rewriter,
                                                  linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return {};
  rebuildReshapedInit(rewriter, op);
  Value whole = op.getDpsInits()[0];
  auto producer = whole.getDefiningOp<linalg::LinalgOp>();
  if (producer && whole.hasOneUse() && producer->getBlock() == op->getBlock() &&
      isTileableInitProducer(producer) && !producer.hasIndexSemantics() &&
      isa<TilingInterface>(producer.getOperation()))
    return producer;
  return {};
}

/// The parts of an op whose init `producer` computed (its result `whole`),
/// each with an init that is a slice of `whole` or of an earlier part's
/// insert into it (which does not overlap the slice), start from
/// `producer` computed on that slice alone instead; when the parts' inserts
/// overwrite all of `whole`, the buffer `producer` wrote into takes its
/// place.
static void computeOwnInits(RewriterBase &rewriter, linalg::LinalgOp producer,
                            ArrayRef<linalg::LinalgOp> parts) {
  Value whole = producer->getResult(0);
  llvm::SmallPtrSet<Operation *, 4> slices;
  for (linalg::LinalgOp part : parts) {
    OpOperand &init = part.getDpsInitsMutable()[0];
    auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice)
      return;
    slices.insert(slice);
    rewriter.setInsertionPoint(part);
    auto ownSlice = tensor::ExtractSliceOp::create(
        rewriter, slice.getLoc(), whole, slice.getMixedOffsets(),
        slice.getMixedSizes(), slice.getMixedStrides());
    FailureOr<TilingResult> tiled = tensor::replaceExtractSliceWithTiledProducer(
        rewriter, ownSlice, cast<OpResult>(whole));
    rewriter.eraseOp(ownSlice);
    auto tiledOp = failed(tiled) || tiled->tiledOps.size() != 1
                       ? linalg::LinalgOp()
                       : dyn_cast<linalg::LinalgOp>(tiled->tiledOps.front());
    if (!tiledOp || tiledOp.getNumDpsInits() != 1)
      return;
    // It writes where the part's init was (after the earlier parts'
    // inserts), so that the parts' inserts stay in place in one buffer.
    Value ownInit = tiledOp.getDpsInits()[0];
    rewriter.modifyOpInPlace(
        tiledOp, [&] { tiledOp.getDpsInitsMutable()[0].set(slice); });
    if (Operation *def = ownInit.getDefiningOp(); def && def->use_empty())
      rewriter.eraseOp(def);
    rewriter.modifyOpInPlace(part, [&] { init.set(tiledOp->getResult(0)); });
  }
  // What is left of the producer's result is the destination the parts are
  // inserted into; together they overwrite all of it: the buffer the
  // producer wrote into (each part's own producer writes its slice of it)
  // takes its place.
  if (llvm::all_of(whole.getUses(), [&](OpOperand &use) {
        auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
        return (insert && use.get() == insert.getDest()) ||
               slices.contains(use.getOwner());
      })) {
    rewriter.replaceAllUsesWith(whole, producer.getDpsInits()[0]);
    rewriter.eraseOp(producer);
  }
}

std::pair<linalg::LinalgOp, linalg::LinalgOp>
splitWithOwnInits(RewriterBase &rewriter, linalg::LinalgOp op, unsigned dim,
                  int64_t point) {
  linalg::LinalgOp producer = partitionableInitProducer(rewriter, op);
  rewriter.setInsertionPoint(op);
  auto [head, tail] =
      linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), dim,
                      rewriter.getIndexAttr(point));
  linalg::LinalgOp parts[] = {cast<linalg::LinalgOp>(head.getOperation()),
                              cast<linalg::LinalgOp>(tail.getOperation())};
  if (producer)
    computeOwnInits(rewriter, producer, parts);
  return {parts[0], parts[1]};
}

SmallVector<linalg::LinalgOp>
splitIntoBoxes(RewriterBase &rewriter, linalg::LinalgOp op,
               ArrayRef<SmallVector<Range>> boxes, bool accumulate) {
  linalg::LinalgOp producer =
      accumulate ? linalg::LinalgOp() : partitionableInitProducer(rewriter, op);
  auto tiling = cast<TilingInterface>(op.getOperation());
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value dest = op.getDpsInits()[0];
  SmallVector<linalg::LinalgOp> parts;
  for (ArrayRef<Range> box : boxes) {
    SmallVector<OpFoldResult> offsets, sizes;
    for (const Range &range : box) {
      offsets.push_back(range.offset);
      sizes.push_back(range.size);
    }
    FailureOr<TilingResult> tiled =
        tiling.getTiledImplementation(rewriter, offsets, sizes);
    SmallVector<OpFoldResult> resultOffsets, resultSizes;
    if (failed(tiled) || tiled->tiledOps.size() != 1 ||
        failed(tiling.getResultTilePosition(rewriter, 0, offsets, sizes,
                                            resultOffsets, resultSizes)))
      llvm::report_fatal_error("aotc: a linalg op without its tile");
    auto part = cast<linalg::LinalgOp>(tiled->tiledOps.front());
    // The part's init is its slice of the previous part's insert.
    SmallVector<OpFoldResult> strides(resultOffsets.size(),
                                      rewriter.getIndexAttr(1));
    rewriter.setInsertionPoint(part);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, dest, resultOffsets, resultSizes, strides);
    Value ownInit = part.getDpsInits()[0];
    rewriter.modifyOpInPlace(part,
                             [&] { part.getDpsInitsMutable()[0].set(slice); });
    if (Operation *def = ownInit.getDefiningOp(); def && def->use_empty())
      rewriter.eraseOp(def);
    rewriter.setInsertionPointAfter(part);
    dest =
        tensor::InsertSliceOp::create(rewriter, loc, part->getResult(0), dest,
                                      resultOffsets, resultSizes, strides);
    parts.push_back(part);
  }
  rewriter.replaceOp(op, dest);
  if (producer)
    computeOwnInits(rewriter, producer, parts);
  return parts;
}

int64_t newSiblingGroup(Operation *scope) {
  int64_t group = 0;
  scope->walk([&](Operation *op) {
    if (auto attr = op->getAttrOfType<IntegerAttr>(kSiblingPartsAttrName))
      group = std::max(group, attr.getInt() + 1);
  });
  return group;
}

unsigned widestElementBits(linalg::LinalgOp op) {
  unsigned bits = 8;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = getElementTypeOrSelf(operand.get().getType());
    if (t.isInteger(1) || !t.isIntOrFloat())
      return 0;
    bits = std::max(bits, t.getIntOrFloatBitWidth());
  }
  return bits;
}

} // namespace aotc
