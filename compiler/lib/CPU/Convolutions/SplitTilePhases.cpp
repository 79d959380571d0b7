//===- SplitTilePhases.cpp - Stride-2 windows of thread tiles on phases -===//
//
// This file implements the aotc-split-tile-phases pass. A windowed op on
// the direct path (a depthwise convolution or a pool) with stride 2 along
// the columns reads every other element of its tile buffer, the input
// that aotc-distribute-to-forall padded in the thread tile: each register
// of output lanes is gathered (two loads and a shuffle per tap,
// aotc-vectorize-convolutions). The buffer is written as its two column
// phases instead, x'[..., h, p, j] = x[..., h, 2 * j + p], each row of the
// source deinterleaved once per two registers, and the op becomes two with
// stride 1 along the columns, one per phase: window column kw = 2 * q + p
// reads phase p at column ow + q, one contiguous register. The odd phase
// accumulates into the even phase's result.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aotc {
#define GEN_PASS_DEF_SPLITTILEPHASES
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// An op this pass splits: its windowed input (operand 0) is a tile buffer,
/// `insert` of a part into a fill of `padding`, read at column ow * 2 + kw
/// with `taps` window columns.
struct Candidate {
  linalg::GenericOp op;
  tensor::InsertSliceOp insert;
  Value padding;
  unsigned ow, kw;
  int64_t taps;
};

/// True when the body of `op` folds each product into its output with one
/// associative and commutative combiner (a sum of products, a max, a min):
/// the window loop may then be split into parts, each accumulating into the
/// result of the one before.
bool accumulatesOutput(linalg::GenericOp op) {
  Block *body = op.getBody();
  BlockArgument out = body->getArguments().back();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 || !out.hasOneUse() ||
      !body->getOps<linalg::IndexOp>().empty())
    return false;
  Operation *combine = yield.getOperand(0).getDefiningOp();
  if (!combine || combine->getBlock() != body ||
      !isa<arith::AddFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MaxSIOp,
           arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(combine))
    return false;
  return llvm::is_contained(combine->getOperands(), Value(out));
}

/// The position of loop `dim` among the results of `map` when it is one of
/// them as a plain dimension and occurs in no other result.
std::optional<unsigned> plainResult(AffineMap map, unsigned dim) {
  std::optional<unsigned> position;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(dim))
      continue;
    if (position || !isa<AffineDimExpr>(expr))
      return std::nullopt;
    position = i;
  }
  return position;
}

/// The column window of a windowed op that this pass can split: input 0
/// read at column ow * stride + kw * dilation, ow the loop of the output's
/// lanes, kw a reduction loop of `taps` that every other operand reads as
/// one plain result or not at all; an op without channel rows or lanes
/// whose body accumulates its products (accumulatesOutput), on static
/// tensors of whole bytes.
struct ColumnWindow {
  unsigned ow, kw;
  int64_t stride, dilation, taps;
};

std::optional<ColumnWindow> matchColumnWindow(linalg::GenericOp op) {
  if (op.getNumDpsInputs() < 2)
    return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.hasDynamicShape() || aotc::convolutionChannelRowLoop(op) ||
      aotc::convolutionChannelLaneLoop(op) || !accumulatesOutput(op) ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  // Read at column ow * 2 + kw: ow the output's lanes, kw a reduction loop
  // that no other result of the input's map reads, and every other operand
  // reads kw (a filter, a window) as one plain result or not at all, and
  // ow not at all.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[0].getNumResults() < 2)
    return std::nullopt;
  std::optional<aotc::WindowAccess> column =
      aotc::matchWindow(maps[0].getResults().back());
  AffineMap outMap = maps.back();
  if (!column || !outMap.isProjectedPermutation() ||
      outMap.getNumResults() == 0 ||
      outMap.getDimPosition(outMap.getNumResults() - 1) != column->image ||
      op.getIteratorTypesArray()[column->window] !=
          utils::IteratorType::reduction)
    return std::nullopt;
  for (AffineExpr expr : maps[0].getResults().drop_back())
    if (expr.isFunctionOfDim(column->window) ||
        expr.isFunctionOfDim(column->image))
      return std::nullopt;
  std::optional<int64_t> taps;
  for (auto [i, map] : llvm::enumerate(maps)) {
    if (i == 0)
      continue;
    bool output = i + 1 == maps.size();
    if (!output && llvm::any_of(map.getResults(), [&](AffineExpr e) {
          return e.isFunctionOfDim(column->image);
        }))
      return std::nullopt;
    if (!map.isFunctionOfDim(column->window))
      continue;
    std::optional<unsigned> position = plainResult(map, column->window);
    if (output || !position)
      return std::nullopt;
    taps = cast<ShapedType>(op->getOperand(i).getType()).getDimSize(*position);
  }
  if (!taps)
    return std::nullopt;
  return ColumnWindow{column->image, column->window, column->stride,
                      column->dilation, *taps};
}

std::optional<Candidate> matchCandidate(linalg::GenericOp op) {
  std::optional<ColumnWindow> column = matchColumnWindow(op);
  if (!column || !op->getParentOfType<scf::ForallOp>() ||
      !aotc::tileColumnPhasesPay(column->stride, column->dilation,
                                 column->taps))
    return std::nullopt;
  // The tile buffer: a static part inserted with unit strides at a static
  // column into a fill of the pad value, read by this op alone.
  Value x = op.getDpsInputs()[0];
  auto insert = x.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !x.hasOneUse() || !insert.hasUnitStride() ||
      insert.getSourceType().getRank() != insert.getType().getRank() ||
      ShapedType::isDynamic(insert.getSourceType().getShape().back()) ||
      !getConstantIntValue(insert.getMixedOffsets().back()))
    return std::nullopt;
  // Whole along every dimension but its rows and columns.
  RankedTensorType partType = insert.getSourceType();
  int64_t rank = partType.getRank();
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (!isZeroInteger(insert.getMixedOffsets()[d]) ||
        partType.isDynamicDim(d) ||
        partType.getDimSize(d) != insert.getType().getDimSize(d))
      return std::nullopt;
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  return Candidate{op,         insert,     fill.getInputs()[0],
                   column->ow, column->kw, column->taps};
}

struct SplitTilePhasesPass
    : aotc::impl::SplitTilePhasesBase<SplitTilePhasesPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t vectorBits =
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption).bits;
    SmallVector<Candidate> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::ColumnPhases))
        return;
      if (std::optional<Candidate> candidate = matchCandidate(op))
        candidates.push_back(*candidate);
      else if (aotc::recordedPath(op) == aotc::ConvolutionPath::ColumnPhases)
        aotc::revertPath(op, aotc::ConvolutionPath::ColumnPhases,
                         "no thread tile pads its input");
    });
    IRRewriter rewriter(&getContext());
    for (Candidate candidate : candidates)
      split(rewriter, candidate, vectorBits);
  }

  /// The tile buffer [..., R, W] as its column phases [..., R, 2,
  /// ceil(W / 2)], every element written once (no fill): the rows above
  /// and below the part the pad value; each of the part's rows in vectors
  /// of two registers of buffer columns (the part's row shifted by its
  /// column offset, the pad value around it), deinterleaved, the even
  /// elements to phase 0 and the odd ones to phase 1.
  static Value writePhases(RewriterBase &rewriter, Candidate c,
                           int64_t vectorBits) {
    Location loc = c.insert.getLoc();
    RankedTensorType bufferType = c.insert.getType();
    Type element = bufferType.getElementType();
    int64_t rank = bufferType.getRank();
    int64_t half =
        llvm::divideCeil(bufferType.getShape().back(), aotc::kColumnPhases);
    SmallVector<int64_t> phaseShape(bufferType.getShape().drop_back());
    phaseShape.append({aotc::kColumnPhases, half});
    Value phases = tensor::EmptyOp::create(rewriter, loc, phaseShape, element);

    Value part = c.insert.getSource();
    int64_t columns = c.insert.getSourceType().getShape().back();
    int64_t offset = *getConstantIntValue(c.insert.getMixedOffsets().back());
    int64_t lanes =
        aotc::registerLanes(vectorBits, element.getIntOrFloatBitWidth());
    int64_t chunk = aotc::kColumnPhases * lanes;
    auto chunkType = VectorType::get({chunk}, element);
    Value padChunk =
        vector::BroadcastOp::create(rewriter, loc, chunkType, c.padding);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto index = [&](OpBuilder &b, int64_t i) -> Value {
      return arith::ConstantIndexOp::create(b, loc, i);
    };
    // Writes the vectors of `row` (ivs of the buffer's leading dims) from
    // `vectorAt(k)`, two registers of buffer columns [k * chunk, ...).
    auto writeRow = [&](OpBuilder &b, Value buffer, ValueRange row,
                        function_ref<Value(OpBuilder &, int64_t)> vectorAt) {
      for (int64_t k = 0; k * chunk < aotc::kColumnPhases * half; ++k) {
        auto halves = vector::DeinterleaveOp::create(b, loc, vectorAt(b, k));
        Value phaseLanes[] = {halves.getRes1(), halves.getRes2()};
        for (auto [p, value] : llvm::enumerate(phaseLanes)) {
          SmallVector<Value> to(row);
          to.append({index(b, p), index(b, k * lanes)});
          buffer = vector::TransferWriteOp::create(
                       b, loc, value, buffer, to,
                       ArrayRef<bool>{(k + 1) * lanes <= half})
                       .getResult();
        }
      }
      return buffer;
    };
    // The buffer's leading dims but its rows: whole in the part.
    int64_t rowDim = rank - 2;
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d = 0; d < rowDim; ++d) {
      lbs.push_back(zero);
      ubs.push_back(index(rewriter, bufferType.getDimSize(d)));
      steps.push_back(one);
    }
    Value firstRow = getValueOrCreateConstantIndexOp(
        rewriter, loc, c.insert.getMixedOffsets()[rowDim]);
    Value rows = tensor::DimOp::create(rewriter, loc, part, rowDim);
    Value endRow = arith::AddIOp::create(rewriter, loc, firstRow, rows);
    Value allRows = index(rewriter, bufferType.getDimSize(rowDim));
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{phases},
        [&](OpBuilder &b, Location loc, ValueRange ivs, ValueRange args) {
          // Rows [0, first) and [end, R): the pad value.
          Value buffer = args[0];
          for (auto [from, to] :
               {std::pair(zero, firstRow), std::pair(endRow, allRows)}) {
            auto loop = scf::ForOp::create(
                b, loc, from, to, one, ValueRange{buffer},
                [&](OpBuilder &b, Location loc, Value r, ValueRange args) {
                  SmallVector<Value> row(ivs);
                  row.push_back(r);
                  scf::YieldOp::create(
                      b, loc,
                      writeRow(b, args[0], row,
                               [&](OpBuilder &, int64_t) { return padChunk; }));
                });
            buffer = loop.getResult(0);
          }
          // The part's rows: buffer column j is part column j - offset.
          auto loop = scf::ForOp::create(
              b, loc, zero, rows, one, ValueRange{buffer},
              [&](OpBuilder &b, Location loc, Value r, ValueRange args) {
                SmallVector<Value> row(ivs);
                row.push_back(arith::AddIOp::create(b, loc, firstRow, r));
                auto vectorAt = [&](OpBuilder &b, int64_t k) -> Value {
                  int64_t start = k * chunk - offset;
                  if (start + chunk <= 0 || start >= columns)
                    return padChunk;
                  SmallVector<Value> from(ivs);
                  from.append({r, index(b, std::max<int64_t>(start, 0))});
                  Value read = vector::TransferReadOp::create(
                      b, loc, chunkType, part, from, c.padding,
                      ArrayRef<bool>{std::max<int64_t>(start, 0) + chunk <=
                                     columns});
                  if (start >= 0)
                    return read;
                  // Shifted right by -start lanes, the pad value before.
                  SmallVector<int64_t> mask;
                  for (int64_t i = 0; i < chunk; ++i)
                    mask.push_back(i < -start ? chunk + i : i + start);
                  return vector::ShuffleOp::create(b, loc, read, padChunk,
                                                   mask);
                };
                scf::YieldOp::create(b, loc,
                                     writeRow(b, args[0], row, vectorAt));
              });
          return SmallVector<Value>{loop.getResult(0)};
        });
    return nest.results[0];
  }

  static void split(RewriterBase &rewriter, Candidate c, int64_t vectorBits) {
    linalg::GenericOp op = c.op;
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value phases = writePhases(rewriter, c, vectorBits);
    auto phasesType = cast<RankedTensorType>(phases.getType());
    int64_t rank = phasesType.getRank();
    RankedTensorType bufferType = c.insert.getType();

    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<AffineExpr> xResults(maps[0].getResults());
    xResults.back() =
        rewriter.getAffineDimExpr(c.ow) + rewriter.getAffineDimExpr(c.kw);
    maps[0] = AffineMap::get(maps[0].getNumDims(), 0, xResults,
                             rewriter.getContext());
    Value accumulated = op.getDpsInits()[0];
    for (int64_t p = 0; p < aotc::kColumnPhases; ++p) {
      // Phase p of the buffer, [..., ceil(W / 2)].
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[rank - 2] = rewriter.getIndexAttr(p);
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(rewriter.getContext(), phasesType.getShape());
      sizes[rank - 2] = rewriter.getIndexAttr(1);
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      SmallVector<int64_t> phaseShape(bufferType.getShape().drop_back());
      phaseShape.push_back(phasesType.getShape().back());
      Value phase = tensor::ExtractSliceOp::create(
          rewriter, loc,
          RankedTensorType::get(phaseShape, bufferType.getElementType()),
          phases, offsets, sizes, strides);
      // The operands reading kw take its taps p, p + 2, ...
      int64_t taps = aotc::phaseTaps(c.taps, p);
      SmallVector<Value> inputs{phase};
      for (auto [i, input] : llvm::enumerate(op.getDpsInputs())) {
        if (i == 0)
          continue;
        std::optional<unsigned> position = plainResult(maps[i], c.kw);
        if (!position) {
          inputs.push_back(input);
          continue;
        }
        auto type = cast<RankedTensorType>(input.getType());
        SmallVector<OpFoldResult> at(type.getRank(), rewriter.getIndexAttr(0));
        SmallVector<OpFoldResult> size =
            getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
        SmallVector<OpFoldResult> step(type.getRank(),
                                       rewriter.getIndexAttr(1));
        at[*position] = rewriter.getIndexAttr(p);
        size[*position] = rewriter.getIndexAttr(taps);
        step[*position] = rewriter.getIndexAttr(aotc::kColumnPhases);
        inputs.push_back(tensor::ExtractSliceOp::create(rewriter, loc, input,
                                                        at, size, step));
      }
      auto part = linalg::GenericOp::create(rewriter, loc, op.getResultTypes(),
                                            inputs, accumulated, maps,
                                            op.getIteratorTypesArray());
      rewriter.cloneRegionBefore(op.getRegion(), part.getRegion(),
                                 part.getRegion().begin());
      part->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      accumulated = part.getResult(0);
    }
    rewriter.replaceOp(op, accumulated);
    Operation *fill = c.insert.getDest().getDefiningOp();
    Operation *empty = fill->getOperand(1).getDefiningOp();
    for (Operation *dead : {c.insert.getOperation(), fill, empty})
      if (dead->use_empty())
        rewriter.eraseOp(dead);
  }
};

} // namespace

bool aotc::canUseColumnPhases(linalg::LinalgOp op, const ThreadTiling &tiling) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  std::optional<ColumnWindow> column =
      generic ? matchColumnWindow(generic) : std::nullopt;
  if (!column || op.getNumDpsInputs() != 2 ||
      !tileColumnPhasesPay(column->stride, column->dilation, column->taps))
    return false;
  // A padded copy (of rows and columns only) that each thread tile pads
  // its window of in a buffer of its own (aotc-distribute-to-forall), the
  // tiles whole along the columns (the buffer's part at a static column).
  std::optional<PaddedCopy> copy = matchPaddedCopy(op);
  if (!copy || copy->lowHigh.size() < 2 ||
      llvm::any_of(ArrayRef(copy->lowHigh).drop_back(2),
                   [](std::pair<int64_t, int64_t> lh) {
                     return lh.first != 0 || lh.second != 0;
                   }))
    return false;
  ThreadPlan plan = tiling.plan(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (plan.kind != ThreadPlan::Kind::Tiles ||
      (plan.sizes[column->ow] != 0 &&
       plan.sizes[column->ow] < ranges[column->ow]))
    return false;
  std::optional<SmallVector<int64_t>> shape = tileSliceShape(op, 0, plan.sizes);
  auto type = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  return shape &&
         tilePadPays(ShapedType::getNumElements(*shape), elementBytes(type),
                     tileCount(op, plan.sizes), type.getNumElements());
}
