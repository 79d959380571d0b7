//===- PackContractionOperands.cpp - Panel layout for matmuls -*- C++ -*-===//
//
// This file implements the aotc-pack-contraction-operands pass: the
// right-hand side of a contraction, read row by row across the whole matrix
// ([K, N], one register tile of lanes per row), is copied into panels
// [N / P, K, P] of P = one register tile's lanes, so that a register tile
// walks one contiguous panel down the reduction instead of touching a new
// cache line and page for every reduction step. Constant right-hand sides
// (weights) are packed at compile time; others by a transpose before the
// contraction, which then reads the panels. A left-hand side computed at run
// time is copied into row panels [M / t, K, t] the same way when its rows are
// 4 KiB apart or a whole number of register tiles of t rows.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/CPU/Tiling/Packing.h"
#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_PACKCONTRACTIONOPERANDS
#include "aotc/CPU/Tiling/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::kPackRowBlock;

namespace {

/// The constant `v` holds, when it is one or the leading part of one along
/// dimension `dim` (an extract_slice at offset 0 of that dimension only, as
/// linalg::splitOp makes); `extent` is then the slice's size along `dim`.
DenseElementsAttr constantPrefix(Value v, unsigned dim, int64_t &extent) {
  auto type = cast<RankedTensorType>(v.getType());
  extent = type.getDimSize(dim);
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr;
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !matchPattern(slice.getSource(), m_Constant(&attr)) ||
      !slice.hasUnitStride() || !slice.hasZeroOffset() ||
      slice.getSourceType().getRank() != type.getRank())
    return {};
  for (unsigned d = 0, e = type.getRank(); d < e; ++d)
    if (d != dim && slice.getSourceType().getDimSize(d) != type.getDimSize(d))
      return {};
  return attr;
}

/// `constantPrefix` along the last dimension: the leading columns.
DenseElementsAttr constantColumns(Value v, int64_t &columns) {
  return constantPrefix(v, cast<RankedTensorType>(v.getType()).getRank() - 1,
                        columns);
}


/// The register tile's row and lane loops and the reduction loop of a
/// contraction this pass can rewrite: static, on f32 tensors, with two
/// inputs, one init and one reduction loop; none for any other op.
struct PackableLoops {
  unsigned row, lane, depth;
};

std::optional<PackableLoops> packableContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || op.hasDynamicShape())
    return std::nullopt;
  for (Value v : op->getOperands())
    if (!getElementTypeOrSelf(v.getType()).isF32())
      return std::nullopt;
  auto tileDims = aotc::contractionTileDims(op);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (!tileDims || failed(dims) || dims->k.size() != 1)
    return std::nullopt;
  return PackableLoops{tileDims->first, tileDims->second, dims->k.front()};
}

/// A contraction whose right-hand side `rhs` (input operand number) is read
/// through (batch..., k, lane) and whose output ends with the lane loop: the
/// layout aotc::planPacking can put in panels.
struct Candidate {
  linalg::LinalgOp op;
  unsigned rhs, lane, depth;
  /// The right-hand side is a whole constant read as (batch..., lane, k).
  bool transposed = false;
  /// The right-hand side is computed at run time (neither a constant nor the
  /// leading columns of one).
  bool runtime = false;
};

std::optional<Candidate> matchCandidate(linalg::LinalgOp op, int64_t panel) {
  std::optional<PackableLoops> loops = packableContraction(op);
  if (!loops)
    return std::nullopt;
  unsigned lane = loops->lane, depth = loops->depth;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[lane] < 2 * panel || ranges[depth] < 2)
    return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getDimPosition(outMap.getNumResults() - 1) != lane)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(i));
    unsigned n = map.getNumResults();
    if (!map.isFunctionOfDim(lane))
      continue;
    if (!map.isProjectedPermutation() || n < 2)
      return std::nullopt;
    // (..., lane, k): only a constant, packed at compile time (lanes beyond
    // the last whole panel are split off below and read it as it is).
    if (map.getDimPosition(n - 1) == depth &&
        map.getDimPosition(n - 2) == lane &&
        op.getDpsInputs()[i].getDefiningOp<arith::ConstantOp>())
      return Candidate{op, i, lane, depth, /*transposed=*/true};
    if (map.getDimPosition(n - 1) != lane || map.getDimPosition(n - 2) != depth)
      return std::nullopt;
    int64_t columns;
    bool runtime = !constantColumns(op.getDpsInputs()[i], columns);
    return Candidate{op, i, lane, depth, /*transposed=*/false, runtime};
  }
  return std::nullopt;
}

/// The first `columns` columns of constant [..., K, N] (or of [..., N, K]
/// when `transposed`) as [..., columns / panel, K, panel], at compile time.
DenseElementsAttr packConstant(DenseElementsAttr attr, int64_t columns,
                               bool transposed, RankedTensorType type,
                               int64_t panel) {
  if (attr.isSplat())
    return attr.resizeSplat(type);
  ArrayRef<int64_t> shape = attr.getType().getShape();
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  int64_t k = transposed ? cols : rows, n = transposed ? rows : cols;
  int64_t batch = attr.getNumElements() / (k * n);
  SmallVector<float> packed(type.getNumElements());
  auto values = attr.getValues<float>();
  auto in = values.begin();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j, ++in) {
        int64_t r = transposed ? j : i, c = transposed ? i : j;
        if (c < columns)
          packed[((b * (columns / panel) + c / panel) * k + r) * panel +
                 c % panel] = *in;
      }
  return DenseElementsAttr::get(type, ArrayRef<float>(packed));
}

/// The activation that reads `value` (a contraction's result) alone,
/// directly or through reshapes used only on that path
/// (aotc::singleUseReshapeChain without crops, collected in `reshapes`,
/// first to last): an elementwise consumer in the contraction's block
/// (aotc::isElementwiseConsumer, with the reshaped value's type) whose every
/// operand is that value (identity map) or a scalar (no map results), and
/// whose init is that value or one its payload does not read (a ReLU6, not
/// a residual add), its scalars defined before the contraction. Null
/// otherwise.
linalg::GenericOp layoutFreeActivation(Value value,
                                       SmallVectorImpl<Operation *> &reshapes) {
  Operation *contraction = value.getDefiningOp();
  Value end;
  llvm::append_range(reshapes, aotc::singleUseReshapeChain(value, end));
  if (llvm::any_of(reshapes, llvm::IsaPred<tensor::ExtractSliceOp>))
    return {};
  value = end;
  if (value.use_empty())
    return {};
  auto consumer = dyn_cast<linalg::GenericOp>(*value.getUsers().begin());
  if (!aotc::isElementwiseConsumer(consumer, contraction->getBlock(),
                                   value.getType()) ||
      llvm::any_of(value.getUsers(),
                   [&](Operation *user) { return user != consumer; }))
    return {};
  for (OpOperand &operand : consumer->getOpOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    bool isValue = operand.get() == value && map.isIdentity();
    bool scalar = map.getNumResults() == 0;
    bool unreadInit = consumer.isDpsInit(&operand) &&
                      !consumer.payloadUsesValueFromOperand(&operand);
    if (!isValue && !scalar && !unreadInit)
      return {};
    // Scalars are read before the contraction, where the activation moves.
    Operation *def = operand.get().getDefiningOp();
    if (scalar && def &&
        (def->getBlock() == contraction->getBlock()
             ? !def->isBeforeInBlock(contraction)
             : !def->getBlock()->getParentOp()->isProperAncestor(contraction)))
      return {};
  }
  return consumer;
}

/// `activation` (layoutFreeActivation of `value`) computed on `result`, the
/// same values in another layout (the contraction's own, before its
/// transpose): each operand that was `value` is `result`, scalars stay, the
/// init is `result` when it was `value` and a fresh tensor otherwise.
Value activationOnLayout(RewriterBase &rewriter, linalg::GenericOp activation,
                         Value value, Value result) {
  auto type = cast<RankedTensorType>(result.getType());
  MLIRContext *ctx = activation.getContext();
  Location loc = activation.getLoc();
  rewriter.setInsertionPointAfterValue(result);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(type.getRank(), ctx);
  AffineMap scalar = AffineMap::get(type.getRank(), 0, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : activation.getDpsInputOperands()) {
    bool isValue = input->get() == value;
    inputs.push_back(isValue ? result : input->get());
    maps.push_back(isValue ? identity : scalar);
  }
  Value init = activation.getDpsInits()[0] == value
                   ? result
                   : tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                             type.getElementType())
                         .getResult();
  maps.push_back(identity);
  auto moved = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel));
  IRMapping mapping;
  activation.getRegion().cloneInto(&moved.getRegion(), mapping);
  return moved.getResult(0);
}

/// Whether the output of contraction `op` is computed transposed: its rows
/// are many (512 output channels), read from a constant as (..., row, k), and
/// the strategy says it pays (aotc::transposesLanes: few lanes, as a 7x7
/// image's 49 columns, lanes short of four panels by a remainder, or a
/// run-time right-hand side that would cost more to pack than the output to
/// transpose, as the im2col columns of a 3x3 convolution). Then the rows
/// become lanes read from compile-time panels.
bool transposesOutput(linalg::LinalgOp op, aotc::VectorRegisters registers) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  std::optional<PackableLoops> loops = packableContraction(op);
  if (!generic || !loops)
    return false;
  auto [row, lane, depth] = *loops;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  AffineMap outMap = maps.back();
  unsigned n = outMap.getNumResults();
  std::optional<bool> fewLanes = aotc::transposesLanes(
      ranges[row], ranges[lane], ranges[depth], registers);
  if (!fewLanes || n < 2 || outMap.getDimPosition(n - 1) != lane ||
      outMap.getDimPosition(n - 2) != row)
    return false;
  bool constantRows = false, constantLanes = false;
  for (unsigned i = 0; i < 2; ++i) {
    AffineMap map = maps[i];
    unsigned r = map.getNumResults();
    bool constant =
        generic.getDpsInputs()[i].getDefiningOp<arith::ConstantOp>();
    if (map.isFunctionOfDim(row) && map.isProjectedPermutation() && r >= 2 &&
        map.getDimPosition(r - 1) == depth &&
        map.getDimPosition(r - 2) == row && constant)
      constantRows = true;
    if (map.isFunctionOfDim(lane) && constant)
      constantLanes = true;
  }
  return constantRows && (*fewLanes || !constantLanes);
}

/// The contraction `op` (transposesOutput) with its output computed
/// transposed, [..., lane, row]: transposes copy the initial value in and
/// the result out, an activation of the result (layoutFreeActivation)
/// computed before the transpose out. Returns the new contraction, or `op`
/// when it is not a contraction this pass can rewrite.
linalg::LinalgOp transposeOutput(RewriterBase &rewriter, linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  std::optional<PackableLoops> loops = packableContraction(op);
  if (!generic || !loops)
    return op;
  unsigned row = loops->row, lane = loops->lane;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  AffineMap &outMap = maps.back();
  unsigned n = outMap.getNumResults();
  if (n < 2)
    return op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, n));
  std::swap(permutation[n - 2], permutation[n - 1]);
  auto transpose = [&](Value v) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    std::swap(shape[n - 2], shape[n - 1]);
    Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                         type.getElementType());
    return linalg::TransposeOp::create(rewriter, loc, v, init, permutation)
        ->getResult(0);
  };
  Value init = transpose(generic.getDpsInits()[0]);
  SmallVector<AffineExpr> exprs(outMap.getResults());
  std::swap(exprs[n - 2], exprs[n - 1]);
  outMap = AffineMap::get(outMap.getNumDims(), 0, exprs, op.getContext());
  auto swapped = linalg::GenericOp::create(
      rewriter, loc, init.getType(), generic.getDpsInputs(), ValueRange{init},
      maps, generic.getIteratorTypesArray());
  rewriter.inlineRegionBefore(generic.getRegion(), swapped.getRegion(),
                              swapped.getRegion().begin());
  // An activation of the result is computed before the transpose, on the
  // contraction's layout: it then joins the register tiles instead of a
  // pass of its own over the transposed result (MobileNetV2's ReLU6 after
  // its 7 x 7 expansions).
  Value result = swapped.getResult(0);
  SmallVector<Operation *> reshapes;
  linalg::GenericOp activation =
      layoutFreeActivation(generic.getResult(0), reshapes);
  if (activation)
    result = activationOnLayout(
        rewriter, activation,
        reshapes.empty() ? generic.getResult(0) : reshapes.back()->getResult(0),
        result);
  Value transposed = transpose(result);
  rewriter.replaceOp(generic, transposed);
  // The transposed activation, through the reshapes that led to the
  // activation, replaces the activation's result.
  if (activation)
    rewriter.replaceOp(activation, reshapes.empty()
                                       ? transposed
                                       : reshapes.back()->getResult(0));
  // The row loop before the lane loop again (the vectorizer's vector shape
  // follows the loop order: rows x lanes).
  SmallVector<unsigned> interchange =
      llvm::to_vector(llvm::seq<unsigned>(0, swapped.getNumLoops()));
  std::swap(interchange[row], interchange[lane]);
  FailureOr<linalg::GenericOp> ordered =
      linalg::interchangeGenericOp(rewriter, swapped, interchange);
  return failed(ordered) ? swapped : *ordered;
}

/// `operand`, an extract_slice of rows [offset, offset + size) of dimension
/// rank - 2 of an f32 constant (all of every other dimension), replaced by
/// a constant holding just those rows.
void foldConstantSlice(RewriterBase &rewriter, OpOperand *operand) {
  auto slice = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
  DenseElementsAttr attr;
  if (!slice || !matchPattern(slice.getSource(), m_Constant(&attr)) ||
      !slice.hasUnitStride() || !attr.getElementType().isF32())
    return;
  RankedTensorType type = slice.getResultType();
  ArrayRef<int64_t> shape = attr.getType().getShape();
  int64_t rank = static_cast<int64_t>(shape.size());
  if (rank < 2 || type.getRank() != rank)
    return;
  for (int64_t d = 0; d < rank; ++d)
    if (d != rank - 2 && (slice.getStaticOffsets()[d] != 0 ||
                          type.getDimSize(d) != shape[d]))
      return;
  int64_t offset = slice.getStaticOffsets()[rank - 2];
  if (ShapedType::isDynamic(offset))
    return;
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  int64_t count = type.getDimSize(rank - 2);
  SmallVector<float> values;
  values.reserve(type.getNumElements());
  auto all = attr.getValues<float>();
  for (int64_t b = 0, e = attr.getNumElements() / (rows * cols); b < e; ++b)
    for (int64_t r = offset; r < offset + count; ++r)
      for (int64_t j = 0; j < cols; ++j)
        values.push_back(all[(b * rows + r) * cols + j]);
  rewriter.setInsertionPoint(operand->getOwner());
  Value folded = arith::ConstantOp::create(
      rewriter, slice.getLoc(),
      DenseElementsAttr::get(type, ArrayRef<float>(values)));
  rewriter.modifyOpInPlace(operand->getOwner(),
                           [&] { operand->set(folded); });
  if (slice->use_empty())
    rewriter.eraseOp(slice);
}

/// `op` as a linalg.generic (a named op is generalized in its place).
FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter,
                                       linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return op.emitError("cannot pack a contraction that is not a generic");
  return generic;
}

/// Replaces `generic` by one with its body, one loop more (`maps`,
/// `iterators`) and `inputs`, that writes `outInit` (a tensor.expand_shape
/// of `generic`'s init), and the collapse of its result back to the init's
/// shape. Returns the new contraction.
linalg::GenericOp replaceWithSplitLoop(RewriterBase &rewriter,
                                       linalg::GenericOp generic,
                                       ValueRange inputs, Value outInit,
                                       ArrayRef<AffineMap> maps,
                                       ArrayRef<utils::IteratorType> iterators) {
  Location loc = generic.getLoc();
  auto packed =
      linalg::GenericOp::create(rewriter, loc, outInit.getType(), inputs,
                                ValueRange{outInit}, maps, iterators);
  rewriter.inlineRegionBefore(generic.getRegion(), packed.getRegion(),
                              packed.getRegion().begin());
  Value result = tensor::CollapseShapeOp::create(
      rewriter, loc, generic.getDpsInits()[0].getType(), packed.getResult(0),
      cast<tensor::ExpandShapeOp>(outInit.getDefiningOp())
          .getReassociationIndices());
  rewriter.replaceOp(generic, result);
  return packed;
}

/// A contraction whose left-hand side (input number `lhs`) is read as
/// (batch..., row, k), the layout aotc::planPacking can put in row panels of
/// `tile` rows along loop `row`, for `columns` output columns (all panels'
/// of a right-hand side already in panels).
struct LhsCandidate {
  linalg::LinalgOp op;
  unsigned lhs, row;
  int64_t tile, rows, depth, columns;
  /// The left-hand side is a constant (the weights of a convolution) or
  /// the leading rows of one, packed at compile time.
  bool constant;
};

std::optional<LhsCandidate> matchLhsCandidate(linalg::LinalgOp op,
                                              aotc::VectorRegisters registers) {
  std::optional<PackableLoops> loops = packableContraction(op);
  if (!loops)
    return std::nullopt;
  auto [row, lane, depth] = *loops;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t tile = aotc::contractionRowTile(ranges[row], registers);
  int64_t columns = ranges[lane];
  if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane))
    columns *= ranges[*panel];
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (llvm::count(outMap.getResults(),
                  getAffineDimExpr(row, op.getContext())) != 1)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(i));
    unsigned n = map.getNumResults();
    if (!map.isFunctionOfDim(row))
      continue;
    if (!map.isProjectedPermutation() || n < 2 ||
        map.getDimPosition(n - 1) != depth ||
        map.getDimPosition(n - 2) != row || map.isFunctionOfDim(lane))
      return std::nullopt;
    int64_t unused;
    bool constant = constantPrefix(op.getDpsInputs()[i], n - 2, unused) !=
                    DenseElementsAttr();
    return LhsCandidate{op,          i,           row,     tile,
                        ranges[row], ranges[depth], columns, constant};
  }
  return std::nullopt;
}

/// Panel lanes of a right-hand side: one register tile's.
int64_t panelLanes(int64_t vectorBits) {
  return aotc::kContractionRegistersPerRow *
         aotc::registerLanes(vectorBits, 32);
}

struct PackContractionOperandsPass
    : aotc::impl::PackContractionOperandsBase<PackContractionOperandsPass> {
  using Base::Base;

  /// The vector register file: the option's width when set, else the
  /// module's CpuTarget's (aotc::vectorRegistersOf).
  aotc::VectorRegisters registers;

  void runOnOperation() override {
    using Layout = aotc::PackingPlan::Layout;
    registers = aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    int64_t panel = panelLanes(registers.bits);
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (aotc::contractionTileDims(op))
        contractions.push_back(op);
    });
    // 1. Each contraction's plan, as recorded (else made here); outputs
    // computed transposed, their new contractions planned anew.
    SmallVector<std::pair<Candidate, aotc::PackingPlan>> candidates;
    for (linalg::LinalgOp op : contractions) {
      std::optional<aotc::PackingPlan> recorded =
          aotc::recordedPackingPlan(op);
      aotc::PackingPlan plan =
          recorded ? *recorded : aotc::planPacking(op, registers);
      if (plan.transpose) {
        op = transposeOutput(rewriter, op);
        plan = aotc::planPacking(op, registers, /*allowTranspose=*/false);
      }
      std::optional<Candidate> c =
          plan.rhs == Layout::None ? std::nullopt : matchCandidate(op, panel);
      if (c) {
        candidates.push_back({*c, plan});
        continue;
      }
      plan.rhs = Layout::None;
      aotc::recordPackingPlan(op, plan);
    }
    // 2. Right-hand sides in panels; the left-hand side's part of the plan
    // recorded on the contractions that result.
    for (auto &[c, plan] : candidates) {
      // Columns beyond the last whole panel stay an unpacked remainder op.
      int64_t range = c.op.getStaticLoopRanges()[c.lane];
      if (range % panel != 0) {
        // Each part computes its own fill or bias (in its tiles, later).
        auto [head, tail] = aotc::splitWithOwnInits(rewriter, c.op, c.lane,
                                                    range / panel * panel);
        // And its own activation, which can then join its tiles.
        aotc::splitElementwiseConsumer(rewriter, {head, tail});
        c.op = head;
        // A (lane, k) constant's remaining rows get a constant of their own:
        // the whole one, packed for the head, is not kept as well.
        if (c.transposed)
          foldConstantSlice(rewriter,
                            tail.getDpsInputOperand(c.rhs));
        aotc::PackingPlan remainder;
        remainder.lhs = plan.remainderLhs;
        aotc::recordPackingPlan(tail, remainder);
      }
      FailureOr<linalg::GenericOp> packed = rewrite(rewriter, c, panel);
      if (failed(packed))
        return signalPassFailure();
      aotc::PackingPlan whole;
      whole.lhs = plan.lhs;
      aotc::recordPackingPlan(*packed, whole);
    }
    // 3. Left-hand sides in row panels, on the contractions as they are now
    // (after their right-hand sides were packed).
    contractions.clear();
    getOperation().walk([&](linalg::LinalgOp op) {
      if (aotc::contractionTileDims(op))
        contractions.push_back(op);
    });
    for (linalg::LinalgOp op : contractions) {
      std::optional<aotc::PackingPlan> plan = aotc::recordedPackingPlan(op);
      // The record is carried out: the layouts show in the IR from here on.
      op->removeAttr(aotc::kPackingAttrName);
      Layout lhs = plan ? plan->lhs
                        : aotc::planPacking(op, registers,
                                            /*allowTranspose=*/false)
                              .lhs;
      if (lhs == Layout::None)
        continue;
      if (std::optional<LhsCandidate> c = matchLhsCandidate(op, registers))
        if (failed(packLhs(rewriter, *c)))
          return signalPassFailure();
    }
  }

  /// Loops (..., row, ...) -> (..., row panel, row in panel, ...): the
  /// left-hand side copied into row panels [..., M / t, K, t] (a transpose
  /// of its free reshape [..., M / t, t, K]; a constant is packed at compile
  /// time), so that a register tile's t rows are read as one contiguous
  /// stream; the output read as [..., M / t, t, ...] (a free reshape). Rows
  /// beyond the last whole panel are split off first and stay unpacked, each
  /// part with its own init and consumer.
  LogicalResult packLhs(RewriterBase &rewriter, LhsCandidate c) {
    linalg::LinalgOp op = c.op;
    int64_t rows = op.getStaticLoopRanges()[c.row];
    if (rows % c.tile != 0) {
      auto [head, tail] =
          aotc::splitWithOwnInits(rewriter, op, c.row, rows / c.tile * c.tile);
      aotc::splitElementwiseConsumer(rewriter, {head, tail});
      op = head;
    }
    FailureOr<linalg::GenericOp> asGenericOp = asGeneric(rewriter, op);
    if (failed(asGenericOp))
      return failure();
    linalg::GenericOp generic = *asGenericOp;
    MLIRContext *ctx = generic.getContext();
    Location loc = generic.getLoc();
    rewriter.setInsertionPoint(generic);
    unsigned numLoops = generic.getNumLoops();
    auto remap = [&](unsigned d) {
      return getAffineDimExpr(d <= c.row ? d : d + 1, ctx);
    };
    AffineExpr panelIndex = getAffineDimExpr(c.row, ctx);
    AffineExpr inPanel = getAffineDimExpr(c.row + 1, ctx);
    SmallVector<AffineMap> maps;
    for (auto [i, map] : llvm::enumerate(generic.getIndexingMapsArray())) {
      SmallVector<AffineExpr> exprs;
      for (AffineExpr e : map.getResults()) {
        unsigned d = cast<AffineDimExpr>(e).getPosition();
        if (d == c.row && i != c.lhs)
          exprs.append({panelIndex, inPanel});
        else
          exprs.push_back(remap(d));
      }
      if (i == c.lhs) {
        // (..., row, k) -> (..., row panel, k, row in panel)
        AffineExpr depth = exprs.back();
        exprs.pop_back_n(2);
        exprs.append({panelIndex, depth, inPanel});
      }
      maps.push_back(AffineMap::get(numLoops + 1, 0, exprs, ctx));
    }
    SmallVector<utils::IteratorType> iterators =
        generic.getIteratorTypesArray();
    iterators.insert(iterators.begin() + c.row, utils::IteratorType::parallel);

    SmallVector<Value> inputs = generic.getDpsInputs();
    Value lhs = inputs[c.lhs];
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    int64_t rank = lhsType.getRank();
    SmallVector<int64_t> shape(lhsType.getShape());
    shape[rank - 2] /= c.tile;
    shape.push_back(c.tile);
    auto packedType = RankedTensorType::get(shape, lhsType.getElementType());
    int64_t extent;
    if (DenseElementsAttr attr = constantPrefix(lhs, rank - 2, extent)) {
      // [..., M, K] is packConstant's transposed form, its rows the panels'.
      inputs[c.lhs] = arith::ConstantOp::create(
          rewriter, loc, packedType,
          packConstant(attr, extent, /*transposed=*/true, packedType, c.tile));
    } else {
      Value expanded =
          aotc::splitDimension(rewriter, loc, lhs, rank - 2, c.tile);
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, rank + 1));
      std::swap(permutation[rank - 1], permutation[rank]);
      Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                           lhsType.getElementType());
      inputs[c.lhs] = linalg::TransposeOp::create(rewriter, loc, expanded, init,
                                                  permutation)
                          ->getResult(0);
    }

    Value out = generic.getDpsInits()[0];
    AffineMap outMap =
        generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
    unsigned outDim = *outMap.getResultPosition(getAffineDimExpr(c.row, ctx));
    Value outInit = aotc::splitDimension(rewriter, loc, out, outDim, c.tile);
    replaceWithSplitLoop(rewriter, generic, inputs, outInit, maps, iterators);
    return success();
  }

  /// `expanded` ([..., K, N / panel, panel]) copied into panels `shape`
  /// ([..., N / panel, K, panel]) kPackRowBlock rows at a time: a generic
  /// over (..., K / block, N / panel, block, panel), the result viewed as
  /// [..., N / panel, K, panel] (a free collapse).
  Value packRowBlocks(RewriterBase &rewriter, Location loc, Value expanded,
                      ArrayRef<int64_t> shape) {
    auto type = cast<RankedTensorType>(expanded.getType());
    int64_t batch = type.getRank() - 3;
    Value blocked =
        aotc::splitDimension(rewriter, loc, expanded, batch, kPackRowBlock);
    // Loops (..., rows / block, panel index, row in block, lane in panel):
    // the panel index runs inside the rows. `blocked` is read at (...,
    // rows / block, row in block, panel index, lane), the panels written at
    // (..., panel index, rows / block, row in block, lane).
    unsigned loops = batch + 4;
    SmallVector<unsigned> in = llvm::to_vector(llvm::seq<unsigned>(0, loops));
    SmallVector<unsigned> out(in);
    std::swap(in[batch + 1], in[batch + 2]);
    std::swap(out[batch], out[batch + 1]);
    SmallVector<int64_t> blockedShape(shape.drop_back(2));
    blockedShape.append(
        {shape[batch + 1] / kPackRowBlock, kPackRowBlock, shape.back()});
    Value init = tensor::EmptyOp::create(rewriter, loc, blockedShape,
                                         type.getElementType());
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps = {AffineMap::getPermutationMap(in, ctx),
                                   AffineMap::getPermutationMap(out, ctx)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    auto copy = linalg::GenericOp::create(
        rewriter, loc, init.getType(), blocked, init, maps, iterators,
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    return tensor::CollapseShapeOp::create(
        rewriter, loc, copy.getResult(0),
        aotc::splitDimGroups(batch + 3, batch + 1));
  }

  /// The right-hand side in panels: [..., N / panel, K, panel].
  Value packRhs(RewriterBase &rewriter, Location loc, Value rhs,
                bool transposed, int64_t panel) {
    auto type = cast<RankedTensorType>(rhs.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> shape(type.getShape().drop_back(2));
    int64_t k = type.getDimSize(rank - 2), n = type.getDimSize(rank - 1);
    if (transposed)
      std::swap(k, n);
    shape.append({n / panel, k, panel});
    auto packedType = RankedTensorType::get(shape, type.getElementType());
    int64_t columns;
    if (DenseElementsAttr attr = constantPrefix(
            rhs, transposed ? rank - 2 : rank - 1, columns))
      return arith::ConstantOp::create(
          rewriter, loc,
          packConstant(attr, columns, transposed, packedType, panel));
    assert(!transposed && "only constants are packed from (lane, k)");
    // [..., K, N] -> [..., K, N / panel, panel] (free), then copied into
    // panels a block of rows at a time, or transposed when K has no whole
    // number of blocks.
    Value expanded = aotc::splitDimension(rewriter, loc, rhs, rank - 1, panel);
    if (k % kPackRowBlock == 0 && k > kPackRowBlock)
      return packRowBlocks(rewriter, loc, expanded, shape);
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank + 1));
    std::swap(permutation[rank - 2], permutation[rank - 1]);
    Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                         type.getElementType());
    return linalg::TransposeOp::create(rewriter, loc, expanded, init,
                                       permutation)
        ->getResult(0);
  }

  /// Loops (..., lane, ...) -> (..., panel index, lane in panel, ...): the
  /// right-hand side read as [..., N / panel, K, panel], the output as
  /// [..., N / panel, panel] (a free reshape of [..., N]). Returns the new
  /// contraction.
  FailureOr<linalg::GenericOp> rewrite(RewriterBase &rewriter, Candidate &c,
                                       int64_t panel) {
    FailureOr<linalg::GenericOp> asGenericOp = asGeneric(rewriter, c.op);
    if (failed(asGenericOp))
      return failure();
    linalg::GenericOp generic = *asGenericOp;
    MLIRContext *ctx = generic.getContext();
    Location loc = generic.getLoc();
    rewriter.setInsertionPoint(generic);
    unsigned numLoops = generic.getNumLoops();
    auto remap = [&](unsigned d) {
      return getAffineDimExpr(d < c.lane ? d : d + 1, ctx);
    };
    AffineExpr panelIndex = getAffineDimExpr(c.lane, ctx);
    AffineExpr inPanel = getAffineDimExpr(c.lane + 1, ctx);
    SmallVector<AffineMap> maps;
    for (auto [i, map] : llvm::enumerate(generic.getIndexingMapsArray())) {
      SmallVector<AffineExpr> exprs;
      for (AffineExpr e : map.getResults())
        exprs.push_back(remap(cast<AffineDimExpr>(e).getPosition()));
      if (i == c.rhs) {
        // (..., k, lane) or (..., lane, k) -> (..., panel index, k, lane in
        // panel)
        exprs.pop_back_n(2);
        exprs.append({panelIndex, remap(c.depth), inPanel});
      } else if (map.isFunctionOfDim(c.lane)) {
        // The output: (..., lane) -> (..., panel index, lane in panel).
        exprs.back() = panelIndex;
        exprs.push_back(inPanel);
      }
      maps.push_back(AffineMap::get(numLoops + 1, 0, exprs, ctx));
    }
    SmallVector<utils::IteratorType> iterators =
        generic.getIteratorTypesArray();
    iterators.insert(iterators.begin() + c.lane, utils::IteratorType::parallel);

    SmallVector<Value> inputs = generic.getDpsInputs();
    inputs[c.rhs] =
        packRhs(rewriter, loc, inputs[c.rhs], c.transposed, panel);
    Value init = generic.getDpsInits()[0];
    Value outInit = aotc::splitDimension(
        rewriter, loc, init,
        cast<RankedTensorType>(init.getType()).getRank() - 1, panel);
    return replaceWithSplitLoop(rewriter, generic, inputs, outInit, maps,
                                iterators);
  }
};

} // namespace

aotc::PackingPlan aotc::planPacking(linalg::LinalgOp op,
                                    VectorRegisters registers,
                                    bool allowTranspose) {
  using Layout = PackingPlan::Layout;
  PackingPlan plan;
  if (allowTranspose && transposesOutput(op, registers)) {
    plan.transpose = true;
    return plan;
  }
  int64_t panel = panelLanes(registers.bits);
  CpuTarget target = CpuTarget::of(op);
  // The right-hand side: a constant is packed at compile time; one computed
  // at run time is copied once when the strategy says it pays.
  if (std::optional<Candidate> c = matchCandidate(op, panel)) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto rhsType = cast<RankedTensorType>(op.getDpsInputs()[c->rhs].getType());
    if (!c->runtime)
      plan.rhs = Layout::CompileTime;
    else if (packsRuntimeRhs(
                 ranges[packableContraction(op)->row], ranges[c->depth],
                 rhsType.getShape().back() * elementBytes(rhsType), target))
      plan.rhs = Layout::RunTime;
  }
  // The left-hand side, of the whole panels of columns and of the columns
  // past them when a packed right-hand side splits them off.
  std::optional<LhsCandidate> lhs = matchLhsCandidate(op, registers);
  if (!lhs)
    return plan;
  auto layoutFor = [&](int64_t columns) {
    if (!packsLhs(lhs->rows, lhs->depth, columns, lhs->tile, lhs->constant,
                  target))
      return Layout::None;
    return lhs->constant ? Layout::CompileTime : Layout::RunTime;
  };
  if (plan.rhs != Layout::None && lhs->columns % panel != 0) {
    plan.lhs = layoutFor(lhs->columns / panel * panel);
    plan.remainderLhs = layoutFor(lhs->columns % panel);
  } else {
    plan.lhs = layoutFor(lhs->columns);
  }
  return plan;
}
