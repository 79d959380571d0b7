//===- LowerVectorOps.cpp - Progressive vector lowering -------*- C++ -*-===//
//
// This file implements the aotc-lower-vector-ops pass: n-D vector ops
// produced by the vectorizer are lowered, in stages, to the 1-D vector
// arithmetic, loads and stores that map onto machine registers. Reads with a
// constant innermost stride (strided convolution windows) become contiguous
// reads plus a shuffle instead of one scalar load per element. A register
// tile's reduction loop with rows in whole registers and lanes in part of
// one carries its accumulator transposed.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_LOWERVECTOROPS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The memref `read` reads from when it is unmasked, fixed-size and in
/// bounds (the reads the patterns below rewrite into plain loads); null
/// otherwise.
MemRefType plainReadSource(vector::TransferReadOp read) {
  auto memrefType = dyn_cast<MemRefType>(read.getBase().getType());
  if (!memrefType || read.getMask() || read.getVectorType().isScalable() ||
      llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
    return {};
  return memrefType;
}

/// For a read of the source's element along vector dim `dim` of `read`'s
/// permutation map: the source dim it reads, if any.
std::optional<unsigned> sourceDimOf(vector::TransferReadOp read, unsigned dim) {
  if (auto d = dyn_cast<AffineDimExpr>(read.getPermutationMap().getResult(dim)))
    return d.getPosition();
  return std::nullopt;
}

/// True when vector dim `dim` of `read` is a broadcast (its map result is 0).
bool broadcastAlong(vector::TransferReadOp read, unsigned dim) {
  auto c = dyn_cast<AffineConstantExpr>(read.getPermutationMap().getResult(dim));
  return c && c.getValue() == 0;
}

/// Most elements read as one vector and each broadcast across the lanes:
/// larger counts are loaded whole.
constexpr int64_t kMaxSplatReadElements = 8;

/// A transfer_read of a few contiguous elements (along the source's
/// innermost dim), each broadcast along a later vector dim (the broadcast
/// operand of a register tile's FMAs, read where the tile's rows are
/// contiguous: im2col'd pixels) becomes one read per element. LLVM turns
/// each into a broadcasting load (vbroadcastss); one vector load of the 6
/// elements plus 6 splat shuffles held the loaded vector in a register next
/// to the 6 x 2 accumulators, two loaded rows and a broadcast, and one
/// accumulator spilled on every step (ResNet-18's im2col'd 256 -> 512
/// stride-2 convolution on AVX2).
///
///   %v = vector.transfer_read %m[%k, %p]
///          {permutation_map = (d0, d1) -> (d1, 0)}
///          : memref<1x6xf32>, vector<6x16xf32>
/// becomes, for i in [0, 6),
///   %e_i = vector.transfer_read %m[%k, %p + i] {same map} : vector<1x16xf32>
///   inserted at [i, 0]
struct SplatReadElements : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    MemRefType memrefType = plainReadSource(read);
    VectorType vectorType = read.getVectorType();
    AffineMap map = read.getPermutationMap();
    if (!memrefType)
      return failure();
    // The vector dim that reads the source's innermost dim.
    int64_t innermost = memrefType.getRank() - 1;
    std::optional<unsigned> along;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      if (sourceDimOf(read, r) == innermost)
        along = r;
    if (!along)
      return failure();
    int64_t count = vectorType.getDimSize(*along);
    if (count < 2 || count > kMaxSplatReadElements)
      return failure();
    // Each element is broadcast along a later vector dim of several lanes.
    bool splat = false;
    for (unsigned r = *along + 1; r < map.getNumResults(); ++r) {
      if (broadcastAlong(read, r) && vectorType.getDimSize(r) > 1)
        splat = true;
      else if (vectorType.getDimSize(r) > 1)
        return failure();
    }
    if (!splat)
      return failure();

    Location loc = read.getLoc();
    SmallVector<int64_t> pieceShape(vectorType.getShape());
    pieceShape[*along] = 1;
    auto pieceType = VectorType::get(pieceShape, vectorType.getElementType());
    Value result = ub::PoisonOp::create(rewriter, loc, vectorType);
    SmallVector<int64_t> offsets(vectorType.getRank(), 0);
    SmallVector<int64_t> unitStrides(vectorType.getRank(), 1);
    for (int64_t i = 0; i < count; ++i) {
      SmallVector<Value> indices(read.getIndices());
      indices[innermost] = arith::AddIOp::create(
          rewriter, loc, indices[innermost],
          arith::ConstantIndexOp::create(rewriter, loc, i));
      Value piece = vector::TransferReadOp::create(
          rewriter, loc, pieceType, read.getBase(), indices,
          AffineMapAttr::get(map), read.getPadding(), /*mask=*/Value(),
          read.getInBoundsAttr());
      offsets[*along] = i;
      result = vector::InsertStridedSliceOp::create(
          rewriter, loc, piece, result, offsets, unitStrides);
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};

/// Fewest reduction steps for which a register tile is accumulated
/// transposed (transposeNarrowAccumulator): each saves a few FMAs, the
/// transposes in and out cost a few hundred shuffles once, which a long
/// reduction repays (SqueezeNet's 13 x 13 classifier, 512 steps) and a
/// short one does not (its 1x1 layers over 48 and 64 channels).
constexpr int64_t kMinTransposedSteps = 256;

/// A register tile's reduction loop whose accumulator holds few lanes per
/// row and many rows (the 9 pixels of a 13 x 13 image past its last whole
/// register, times 2 x 8 output channels from two row panels of a packed
/// left-hand side): each step takes one FMA per row, each on a part
/// register (16 FMAs for 144 products), where the transposed tile takes
/// one per lane on whole registers of rows (9 FMAs). The loop is rewritten
/// to carry the accumulator transposed: one vector of all the rows per
/// lane, updated with that lane's element broadcast (a broadcasting load)
/// times the rows' elements (the row panels' contiguous runs, concatenated);
/// the accumulator is transposed in before the loop and back after it.
/// Matches the loop-carried form that aotc-tile-and-vectorize's register
/// tiles take once their accumulator is hoisted:
///
///   %r = scf.for %k ... iter_args(%acc = %init) -> (vector<1x2x8x9xf32>) {
///     %x = vector.transfer_read ... : vector<1x2x8x9x1xf32>  (broadcast
///                                                  along 2 x 8: the lanes)
///     %w = vector.transfer_read ... : vector<1x2x8x9x1xf32>  (broadcast
///                                                  along 9: the rows)
///     %p = arith.mulf %x, %w
///     %s = vector.shape_cast %p : ... to vector<1x2x8x9xf32>
///     %a = arith.addf %acc, %s
///     scf.yield %a
///   }
///
/// The products and sums are the same (each output's terms in the same
/// order), so is the result.
LogicalResult transposeNarrowAccumulator(RewriterBase &rewriter,
                                         scf::ForOp loop, int64_t vectorBits) {
  if (loop.getNumRegionIterArgs() != 1)
    return failure();
  BlockArgument acc = loop.getRegionIterArgs()[0];
  auto type = dyn_cast<VectorType>(acc.getType());
  if (!type || type.isScalable() || !type.getElementType().isF32() ||
      type.getRank() < 2)
    return failure();
  int64_t rank = type.getRank();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t lanes = shape.back();
  int64_t rows = type.getNumElements() / lanes;
  int64_t wholeRegister = aotc::registerLanes(vectorBits, 32);
  // Fewer FMAs per step transposed: rows in whole registers, lanes fewer
  // than one register and fewer than the rows.
  if (lanes >= wholeRegister || rows % wholeRegister != 0 || lanes >= rows ||
      lanes < 2)
    return failure();
  // Enough steps to repay the transposes in and out.
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->getSExtValue() < kMinTransposedSteps)
    return failure();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || !add->hasOneUse())
    return failure();
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() != acc && add.getRhs() != acc) || !acc.hasOneUse())
    return failure();
  auto reshape = product.getDefiningOp<vector::ShapeCastOp>();
  if (reshape) {
    if (!reshape->hasOneUse())
      return failure();
    product = reshape.getSource();
  }
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || !mul->hasOneUse())
    return failure();
  auto productType = cast<VectorType>(mul.getType());
  // The product's shape: the accumulator's, then unit dims (the reduction).
  if (productType.getRank() < rank ||
      productType.getShape().take_front(rank) != shape ||
      llvm::any_of(productType.getShape().drop_front(rank),
                   [](int64_t d) { return d != 1; }))
    return failure();
  // One read broadcast along every row dim (the lanes' operand), the other
  // along the lanes (the rows').
  vector::TransferReadOp laneRead, rowRead;
  for (Value v : {mul.getLhs(), mul.getRhs()}) {
    auto read = v.getDefiningOp<vector::TransferReadOp>();
    if (!read || read.getMask() || !read->hasOneUse() ||
        read->getParentOp() != loop.getOperation() ||
        !isa<MemRefType>(read.getBase().getType()) ||
        llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
      return failure();
    bool rowsBroadcast = true;
    for (int64_t d = 0; d + 1 < rank; ++d)
      if (shape[d] > 1 && !broadcastAlong(read, d))
        rowsBroadcast = false;
    if (rowsBroadcast && sourceDimOf(read, rank - 1))
      laneRead = read;
    else if (broadcastAlong(read, rank - 1))
      rowRead = read;
  }
  if (!laneRead || !rowRead)
    return failure();
  // The lanes' elements: contiguous along the source's innermost dim.
  auto laneSource = cast<MemRefType>(laneRead.getBase().getType());
  unsigned laneDim = *sourceDimOf(laneRead, rank - 1);
  int64_t offset;
  SmallVector<int64_t> strides;
  if (laneDim != laneSource.getRank() - 1 ||
      failed(laneSource.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return failure();
  // The rows' elements: a read of the row dims only, in their order.
  SmallVector<AffineExpr> rowExprs;
  SmallVector<int64_t> rowShape;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    if (shape[d] == 1)
      continue;
    std::optional<unsigned> source = sourceDimOf(rowRead, d);
    if (!source)
      return failure();
    rowExprs.push_back(rewriter.getAffineDimExpr(*source));
    rowShape.push_back(shape[d]);
  }
  auto rowsMemref = cast<MemRefType>(rowRead.getBase().getType());
  AffineMap rowMap = AffineMap::get(rowsMemref.getRank(), 0, rowExprs,
                                    rewriter.getContext());
  if (!rowMap.isProjectedPermutation())
    return failure();

  Location loc = loop.getLoc();
  Type f32 = type.getElementType();
  auto rowVector = VectorType::get({rows}, f32);
  // Accumulator in: lane-major rows (transpose the lanes to the front).
  SmallVector<int64_t> toFront = {rank - 1};
  for (int64_t d = 0; d + 1 < rank; ++d)
    toFront.push_back(d);
  rewriter.setInsertionPoint(loop);
  Value init = vector::TransposeOp::create(rewriter, loc, loop.getInitArgs()[0],
                                           toFront);
  init = vector::ShapeCastOp::create(
      rewriter, loc, VectorType::get({lanes, rows}, f32), init);
  SmallVector<Value> inits;
  for (int64_t l = 0; l < lanes; ++l)
    inits.push_back(vector::ExtractOp::create(rewriter, loc, init, l));
  auto transposed = scf::ForOp::create(
      rewriter, loc, loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), inits);
  rewriter.setInsertionPointToStart(transposed.getBody());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), transposed.getInductionVar());
  // The loop's other ops (the reads' indices and views), then the new reads.
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != add && &op != mul && &op != reshape && &op != laneRead &&
        &op != rowRead)
      rewriter.clone(op, mapping);
  auto mapped = [&](ValueRange values) {
    return llvm::map_to_vector(
        values, [&](Value v) { return mapping.lookupOrDefault(v); });
  };
  Value rowValues = vector::TransferReadOp::create(
      rewriter, loc, VectorType::get(rowShape, f32),
      mapping.lookupOrDefault(rowRead.getBase()), mapped(rowRead.getIndices()),
      AffineMapAttr::get(rowMap), rowRead.getPadding(), /*mask=*/Value(),
      rewriter.getBoolArrayAttr(SmallVector<bool>(rowShape.size(), true)));
  rowValues = vector::ShapeCastOp::create(rewriter, loc, rowVector, rowValues);
  AffineMap splat = AffineMap::get(
      laneSource.getRank(), 0, {rewriter.getAffineConstantExpr(0)},
      rewriter.getContext());
  SmallVector<Value> results;
  for (int64_t l = 0; l < lanes; ++l) {
    SmallVector<Value> indices = mapped(laneRead.getIndices());
    indices[laneDim] = arith::AddIOp::create(
        rewriter, loc, indices[laneDim],
        arith::ConstantIndexOp::create(rewriter, loc, l));
    Value element = vector::TransferReadOp::create(
        rewriter, loc, rowVector, mapping.lookupOrDefault(laneRead.getBase()),
        indices, AffineMapAttr::get(splat), laneRead.getPadding(),
        /*mask=*/Value(), rewriter.getBoolArrayAttr({true}));
    Value prod = arith::MulFOp::create(rewriter, loc, element, rowValues,
                                       mul.getFastmathAttr());
    results.push_back(arith::AddFOp::create(
        rewriter, loc, transposed.getRegionIterArgs()[l], prod,
        add.getFastmathAttr()));
  }
  scf::YieldOp::create(rewriter, loc, results);
  // Accumulator out: back to rows of lanes.
  rewriter.setInsertionPointAfter(transposed);
  Value out = ub::PoisonOp::create(rewriter, loc,
                                   VectorType::get({lanes, rows}, f32));
  for (int64_t l = 0; l < lanes; ++l)
    out = vector::InsertOp::create(rewriter, loc, transposed.getResult(l), out,
                                   l);
  SmallVector<int64_t> frontShape = {lanes};
  frontShape.append(shape.begin(), shape.end() - 1);
  out = vector::ShapeCastOp::create(rewriter, loc,
                                    VectorType::get(frontShape, f32), out);
  SmallVector<int64_t> toBack;
  for (int64_t d = 1; d < rank; ++d)
    toBack.push_back(d);
  toBack.push_back(0);
  out = vector::TransposeOp::create(rewriter, loc, out, toBack);
  rewriter.replaceOp(loop, out);
  return success();
}

/// The parity of `value` when it is known: a constant, or an affine.apply
/// whose terms of odd coefficient have known parities.
std::optional<int64_t> knownParity(Value value);

std::optional<int64_t> exprParity(AffineExpr expr, ValueRange dims,
                                  ValueRange symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return llvm::mod(constant.getValue(), 2);
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return knownParity(dims[dim.getPosition()]);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return knownParity(symbols[symbol.getPosition()]);
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (binary.getKind() == AffineExprKind::Mul)
    if (auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return factor.getValue() % 2 == 0
                 ? std::optional<int64_t>(0)
                 : exprParity(binary.getLHS(), dims, symbols);
  if (binary.getKind() != AffineExprKind::Add)
    return std::nullopt;
  std::optional<int64_t> lhs = exprParity(binary.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = exprParity(binary.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  return (*lhs + *rhs) % 2;
}

std::optional<int64_t> knownParity(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return llvm::mod(*constant, 2);
  auto apply = value.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return std::nullopt;
  return exprParity(apply.getAffineMap().getResult(0), apply.getDimOperands(),
                    apply.getSymbolOperands());
}

/// The elements of a contiguous innermost row around `count` consecutive
/// elements of `memref` from index `index` of its innermost dimension (a
/// stride-2 window of a convolution or pool, `count` its lanes) that reads
/// of `width` lanes may touch: how many elements of the row lie before them
/// and after them. They are found through the chain of memref.subview ops
/// that `memref` is a view of (each window's tap of a register tile is a
/// view of the same tile of input, the input's row around it), up to a
/// memref whose innermost dimension is static and contiguous. With static
/// offsets, all of the row; with dynamic ones (a tile loop's column,
/// folded into the taps' views by fold-memref-alias-ops), the one element
/// before the span when the span starts at an odd element, and up to 2W
/// elements from the even element at or before the span when that stays in
/// the row for every value the offsets take (their upper bounds). None when
/// neither is known.
struct RowSlack {
  int64_t before = 0, after = 0;
};

std::optional<RowSlack> rowSlack(Value memref, int64_t index, int64_t count,
                                 int64_t width) {
  // The span's first element: `first` plus each dynamic offset times its
  // coefficient.
  int64_t first = index, span = count;
  SmallVector<std::pair<Value, int64_t>> terms;
  while (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    int64_t rank = subview.getSourceType().getRank();
    std::optional<int64_t> step =
        getConstantIntValue(subview.getMixedStrides().back());
    if (subview.getDroppedDims().test(rank - 1) || !step || *step <= 0)
      break;
    first *= *step;
    for (auto &term : terms)
      term.second *= *step;
    OpFoldResult offset = subview.getMixedOffsets().back();
    if (std::optional<int64_t> constant = getConstantIntValue(offset))
      first += *constant;
    else
      terms.push_back({cast<Value>(offset), 1});
    span = *step * (span - 1) + 1;
    memref = subview.getSource();
  }
  auto type = dyn_cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || type.getRank() == 0 || type.isDynamicDim(type.getRank() - 1) ||
      failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return std::nullopt;
  int64_t extent = type.getShape().back();
  if (terms.empty()) {
    int64_t after = extent - first - span;
    if (first < 0 || after < 0)
      return std::nullopt;
    return RowSlack{first, after};
  }
  int64_t parity = first, last = first;
  for (auto [value, coefficient] : terms) {
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, value, /*stopCondition=*/nullptr,
        /*closedUB=*/true);
    if (failed(bound))
      return std::nullopt;
    last += coefficient * *bound;
    if (coefficient % 2 != 0) {
      std::optional<int64_t> valueParity = knownParity(value);
      if (!valueParity)
        return std::nullopt;
      parity += *valueParity;
    }
  }
  parity = llvm::mod(parity, 2);
  if (last - parity + 2 * width > extent || 2 * width < parity + span)
    return std::nullopt;
  return RowSlack{parity, 2 * width - parity - span};
}

/// A transfer_read whose source has a static innermost stride of 2 (the
/// window of a stride-2 convolution or pool) reads every other element of a
/// span of 2L - 1: each row becomes two loads of W = powerOf2Ceil(L) lanes
/// (whole registers: a row of 14 lanes, 28-wide stride-2 outputs, loaded as
/// vector<14> was assembled from three loads and two inserts) through a
/// stride-1 view of the same buffer and one two-source shuffle picking the
/// elements. The loads may reach past the span into the rest of the row
/// (`rowSlack`): the first starts at the even element at or before the
/// span (counted from the row's start), the second ends 2W elements after
/// it or at the row's end. A 3-wide window's taps kw = 1 and 2 then load the
/// same two registers (kw = 0 one element earlier shares them when the
/// row starts there), where each read loaded its own pair from its own
/// start: MobileNetV2's stride-2 depthwise tiles loaded six registers per
/// input row for three shuffles. Without a row around it, the span alone:
///
///   %v = vector.transfer_read %m[%i, %j] : memref<8x14xf32, strided<[66, 2]>>,
///                                          vector<8x14xf32>
/// becomes, per row r,
///   %lo = vector.load %view[%i + r, %j * 2]      : vector<16xf32>
///   %hi = vector.load %view[%i + r, %j * 2 + 11] : vector<16xf32>
///   %row = vector.shuffle %lo, %hi [0, 2, ..., 14, 21, 23, ..., 31]
/// An integer abs of a vector of rank 2 or more as max(x, 0 - x) (the same
/// wrap-around for the minimum value): the LLVM lowering of math.absi takes
/// only 1-D vectors, arith's takes any rank.
struct MultiDimIntegerAbs : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::AbsIOp abs,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(abs.getType());
    if (!type || type.getRank() < 2)
      return failure();
    Location loc = abs.getLoc();
    Value zero = arith::ConstantOp::create(rewriter, loc, type,
                                           rewriter.getZeroAttr(type));
    Value negated =
        arith::SubIOp::create(rewriter, loc, zero, abs.getOperand());
    rewriter.replaceOpWithNewOp<arith::MaxSIOp>(abs, abs.getOperand(),
                                                negated);
    return success();
  }
};

/// A math op or division on an n-D vector that fits in one register and
/// whose rows are 2 to a quarter of a register wide (a 7 x 2 tile of a
/// Winograd output transform), and the elementwise ops taking its flat
/// result, on the vector's 1-D form: LLVM holds an n-D vector as one
/// register per row, so each step of an exp polynomial would run once per
/// row on a part of a register. Loop-carried values and lone cheap ops
/// stay per row (the reshapes would cost more).
struct FlattenNarrowElementwise : RewritePattern {
  FlattenNarrowElementwise(MLIRContext *ctx, int64_t vectorBits)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        vectorBits(vectorBits) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!OpTrait::hasElementwiseMappableTraits(op) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();
    auto type = dyn_cast<VectorType>(op->getResult(0).getType());
    if (!type || type.getRank() < 2 || type.isScalable() ||
        !type.getElementType().isIntOrFloat())
      return failure();
    int64_t lanes =
        vectorBits / std::max<int64_t>(
                         8, type.getElementType().getIntOrFloatBitWidth());
    int64_t rowLanes = type.getShape().back();
    if (rowLanes < 2 || rowLanes * 4 > lanes || type.getNumElements() > lanes)
      return failure();
    for (Value operand : op->getOperands()) {
      auto operandType = dyn_cast<VectorType>(operand.getType());
      if (!operandType || operandType.getShape() != type.getShape())
        return failure();
      // A loop-carried value stays n-D: reshaping it every iteration costs
      // more than the rows' ops.
      if (isa<BlockArgument>(operand))
        return failure();
    }
    for (Operation *user : op->getUsers())
      if (isa<scf::YieldOp>(user))
        return failure();
    // Seeds: ops that expand into many (polynomials, divisions); others
    // only to extend a chain already flat.
    bool seed = isa<math::MathDialect>(op->getDialect()) ||
                isa<arith::DivFOp>(op);
    bool chained = llvm::any_of(op->getOperands(), [](Value v) {
      auto cast = v.getDefiningOp<vector::ShapeCastOp>();
      return cast && cast.getSourceVectorType().getRank() == 1;
    });
    if (!seed && !chained)
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> flat;
    for (Value operand : op->getOperands()) {
      auto operandType = cast<VectorType>(operand.getType());
      flat.push_back(vector::ShapeCastOp::create(
          rewriter, loc,
          VectorType::get({type.getNumElements()},
                          operandType.getElementType()),
          operand));
    }
    OperationState state(loc, op->getName(), flat,
                         TypeRange{VectorType::get({type.getNumElements()},
                                                   type.getElementType())},
                         op->getAttrs());
    Operation *flatOp = rewriter.create(state);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, type,
                                                     flatOp->getResult(0));
    return success();
  }

  int64_t vectorBits;
};

/// A 0-d transfer_read (one element, always in bounds) as a scalar load and
/// a broadcast to the 0-d vector.
struct ScalarRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (read.getVectorType().getRank() != 0 || read.getMask() ||
        !isa<MemRefType>(read.getShapedType()))
      return failure();
    Value element = memref::LoadOp::create(rewriter, read.getLoc(),
                                           read.getBase(), read.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     element);
    return success();
  }
};

struct ContiguousStridedRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    MemRefType memrefType = plainReadSource(read);
    VectorType vectorType = read.getVectorType();
    // A 0-d read has no lanes to gather.
    if (!memrefType || vectorType.getRank() == 0 ||
        !read.getPermutationMap().isMinorIdentity())
      return failure();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(memrefType.getStridesAndOffset(strides, offset)) ||
        strides.empty() || ShapedType::isDynamic(strides.back()) ||
        strides.back() <= 1 || memrefType.isDynamicDim(memrefType.getRank() - 1))
      return failure();
    int64_t stride = strides.back();
    int64_t lanes = vectorType.getShape().back();
    int64_t span = (lanes - 1) * stride + 1;
    if (stride != 2 || lanes < 2)
      return failure();
    int64_t rank = memrefType.getRank();
    Location loc = read.getLoc();

    // The row around the span (in elements of the stride-1 view): `first`
    // is the span's start, the view covers [0, extent). A read at a
    // dynamic column has only its span.
    int64_t width = llvm::PowerOf2Ceil(lanes);
    RowSlack slack;
    std::optional<int64_t> column = getConstantIntValue(read.getIndices().back());
    if (column)
      if (std::optional<RowSlack> row =
              rowSlack(read.getBase(), *column, lanes, width))
        slack = *row;
    int64_t first = slack.before, extent = slack.before + span + slack.after;
    int64_t low = first - first % 2;
    int64_t highEnd = std::min(low + 2 * width, extent);
    if (low + width > extent) {
      low = first;
      highEnd = first + span;
    }
    int64_t highStart = highEnd - width;

    // A stride-1 view of the row: from the span's start less the slack
    // before it, innermost dimension `extent` elements (at a static column).
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, read.getBase());
    SmallVector<OpFoldResult> sizes, viewStrides;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(memrefType.isDynamicDim(d)
                          ? OpFoldResult(metadata.getSizes()[d])
                          : OpFoldResult(rewriter.getIndexAttr(
                                memrefType.getDimSize(d))));
      viewStrides.push_back(
          ShapedType::isDynamic(strides[d])
              ? OpFoldResult(metadata.getStrides()[d])
              : OpFoldResult(rewriter.getIndexAttr(strides[d])));
    }
    // A read at a dynamic column keeps the whole strided row in view.
    int64_t viewExtent =
        column ? extent : (memrefType.getDimSize(rank - 1) - 1) * stride + 1;
    sizes.back() = rewriter.getIndexAttr(viewExtent);
    viewStrides.back() = rewriter.getIndexAttr(1);
    // The view starts `shift` elements before the source's first element.
    int64_t shift = slack.before - (column ? *column * stride : 0);
    OpFoldResult viewOffset;
    if (ShapedType::isDynamic(offset))
      viewOffset = arith::SubIOp::create(
                       rewriter, loc, metadata.getOffset(),
                       arith::ConstantIndexOp::create(rewriter, loc, shift))
                       .getResult();
    else
      viewOffset = rewriter.getIndexAttr(offset - shift);
    SmallVector<int64_t> viewShape(memrefType.getShape());
    viewShape.back() = viewExtent;
    SmallVector<int64_t> layoutStrides(strides);
    layoutStrides.back() = 1;
    auto viewType = MemRefType::get(
        viewShape, memrefType.getElementType(),
        StridedLayoutAttr::get(rewriter.getContext(),
                               ShapedType::isDynamic(offset)
                                   ? ShapedType::kDynamic
                                   : offset - shift,
                               layoutStrides),
        memrefType.getMemorySpace());
    Value view = memref::ReinterpretCastOp::create(
        rewriter, loc, viewType, metadata.getBaseBuffer(), viewOffset, sizes,
        viewStrides);

    // Element i of a row is view element first + 2i: from the first load
    // below low + W, else from the second.
    auto rowType = VectorType::get({width}, vectorType.getElementType());
    SmallVector<int64_t> picks;
    for (int64_t i = 0; i < lanes; ++i) {
      int64_t element = first + stride * i;
      picks.push_back(element < low + width
                          ? element - low
                          : width + element - highStart);
    }
    ArrayRef<int64_t> leading = vectorType.getShape().drop_back();
    int64_t firstLeadingDim = rank - vectorType.getRank();
    // A dynamic column moves the span within the view (its slack is none).
    Value spanStart =
        column ? Value(arith::ConstantIndexOp::create(rewriter, loc, 0))
               : Value(arith::MulIOp::create(
                     rewriter, loc, read.getIndices().back(),
                     arith::ConstantIndexOp::create(rewriter, loc, stride)));
    auto at = [&](int64_t element) -> Value {
      return arith::AddIOp::create(
          rewriter, loc, spanStart,
          arith::ConstantIndexOp::create(rewriter, loc, element));
    };
    Value result = ub::PoisonOp::create(rewriter, loc, vectorType);
    for (int64_t linear = 0, e = computeProduct(leading); linear < e;
         ++linear) {
      SmallVector<int64_t> position =
          leading.empty() ? SmallVector<int64_t>()
                          : delinearize(linear, computeSuffixProduct(leading));
      SmallVector<Value> indices(read.getIndices());
      for (auto [i, p] : llvm::enumerate(position))
        if (p != 0)
          indices[firstLeadingDim + i] = arith::AddIOp::create(
              rewriter, loc, indices[firstLeadingDim + i],
              arith::ConstantIndexOp::create(rewriter, loc, p));
      indices.back() = at(low);
      Value lowRow =
          vector::LoadOp::create(rewriter, loc, rowType, view, indices);
      indices.back() = at(highStart);
      Value highRow =
          vector::LoadOp::create(rewriter, loc, rowType, view, indices);
      Value picked =
          vector::ShuffleOp::create(rewriter, loc, lowRow, highRow, picks);
      if (leading.empty()) {
        rewriter.replaceOp(read, picked);
        return success();
      }
      result = vector::InsertOp::create(rewriter, loc, picked, result,
                                        position);
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};

/// A reduction of one row (every dimension but the innermost is a unit, and
/// the innermost is reduced) becomes a tree: the row is folded in halves
/// with elementwise ops down to one lane (log2(n) dependent steps, which
/// LLVM lowers to shuffles), then combined with the accumulator once. The
/// upstream lowerings would reduce it one lane after the other (n dependent
/// scalar ops) or as an ordered `llvm.vector.reduce.fadd`, which is as slow.
///
///   %r = vector.multi_reduction <add>, %v, %acc [1] : vector<1x16xf32> to vector<1xf32>
/// becomes
///   %row = vector.shape_cast %v : vector<1x16xf32> to vector<16xf32>
///   %lo = vector.shuffle %row, %row [0, 1, ..., 7] : vector<16xf32>, vector<16xf32>
///   %hi = vector.shuffle %row, %row [8, 9, ..., 15] : vector<16xf32>, vector<16xf32>
///   %h8 = arith.addf %lo, %hi : vector<8xf32>
///   ... (8 -> 4 -> 2 -> 1)
///   %s = vector.extract %h1[0] : f32 from vector<1xf32>
///   %r = arith.addf %s, (%acc[0]) ; broadcast back to vector<1xf32>
struct TreeReduceRow : OpRewritePattern<vector::MultiDimReductionOp> {
  TreeReduceRow(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    VectorType sourceType = op.getSourceVectorType();
    if (sourceType.isScalable() || sourceType.getRank() == 0 ||
        cast<vector::MaskableOpInterface>(op.getOperation()).isMasked())
      return failure();
    ArrayRef<int64_t> shape = sourceType.getShape();
    int64_t rank = sourceType.getRank();
    int64_t width = shape.back();
    if (width < 2 || !llvm::isPowerOf2_64(width) ||
        !op.isReducedDim(rank - 1) ||
        llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
      return failure();
    Location loc = op.getLoc();
    vector::CombiningKind kind = op.getKind();
    Value row = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({width}, sourceType.getElementType()),
        op.getSource());
    for (int64_t half = width / 2; half >= 1; half /= 2) {
      SmallVector<int64_t> low = llvm::to_vector(llvm::seq<int64_t>(0, half));
      SmallVector<int64_t> high =
          llvm::to_vector(llvm::seq<int64_t>(half, 2 * half));
      Value lo = vector::ShuffleOp::create(rewriter, loc, row, row, low);
      Value hi = vector::ShuffleOp::create(rewriter, loc, row, row, high);
      row = vector::makeArithReduction(rewriter, loc, kind, lo, hi);
    }
    Value lane = vector::ExtractOp::create(rewriter, loc, row,
                                           ArrayRef<int64_t>{0});
    Value acc = op.getAcc();
    auto accType = dyn_cast<VectorType>(acc.getType());
    if (!accType) {
      rewriter.replaceOp(op,
                         vector::makeArithReduction(rewriter, loc, kind, lane,
                                                    acc));
      return success();
    }
    // The result keeps the kept unit dimensions: vector<1x...x1>.
    SmallVector<int64_t> zeros(accType.getRank(), 0);
    Value accLane = vector::ExtractOp::create(rewriter, loc, acc, zeros);
    Value combined =
        vector::makeArithReduction(rewriter, loc, kind, lane, accLane);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, accType, combined);
    return success();
  }
};

/// Most values `neverNaN` looks at for one proof before it gives up (a
/// bound on its work however the values are shared).
constexpr int kMaxNaNProofSteps = 256;

/// True when `value` is provably never NaN: a constant without NaN, poison
/// (which may be taken to be any number), the max or min of values of which
/// one is never NaN, a select whose picks are never NaN or are an operand of
/// its ordered comparison (true only when that operand is a number), pieces
/// and assemblies of such vectors, and a loop-carried value whose initial
/// and yielded values are never NaN (by induction: the value being proved is
/// assumed on the way around the loop).
bool neverNaN(Value value, SmallPtrSetImpl<Value> &assumed, int &steps) {
  if (assumed.contains(value))
    return true;
  if (--steps < 0)
    return false;
  auto recurse = [&](Value v) { return neverNaN(v, assumed, steps); };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return false;
    unsigned index = arg.getArgNumber() - 1;
    if (!recurse(loop.getInitArgs()[index]))
      return false;
    assumed.insert(value);
    bool yielded = recurse(loop.getYieldedValues()[index]);
    assumed.erase(value);
    return yielded;
  }
  Operation *op = value.getDefiningOp();
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant))) {
    if (auto number = dyn_cast<FloatAttr>(constant))
      return !number.getValue().isNaN();
    if (auto elements = dyn_cast<DenseFPElementsAttr>(constant))
      return llvm::none_of(elements.getValues<APFloat>(),
                           [](const APFloat &e) { return e.isNaN(); });
    return false;
  }
  if (isa<ub::PoisonOp>(op))
    return true;
  if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
    return recurse(op->getOperand(0)) || recurse(op->getOperand(1));
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
    bool ordered = compare &&
                   arith::CmpFPredicate::OEQ <= compare.getPredicate() &&
                   compare.getPredicate() <= arith::CmpFPredicate::ORD;
    Value picked = select.getTrueValue();
    bool pickedCompared =
        ordered && llvm::is_contained(compare->getOperands(), picked);
    return (pickedCompared || recurse(picked)) &&
           recurse(select.getFalseValue());
  }
  if (isa<vector::ExtractOp, vector::ExtractStridedSliceOp, vector::BroadcastOp,
          vector::ShapeCastOp>(op))
    return recurse(op->getOperand(0));
  if (isa<vector::InsertOp, vector::InsertStridedSliceOp,
          vector::FromElementsOp>(op))
    return llvm::all_of(op->getOperands(), recurse);
  return false;
}

/// The max (min) of a value that is never NaN and any other:
///
///   %m = arith.maxnumf %acc, %x : vector<16xf32>
/// becomes
///   %gt = arith.cmpf ogt, %x, %acc : vector<16xf32>
///   %m = arith.select %gt, %x, %acc : vector<16xi1>, vector<16xf32>
///
/// The same value (NaN %x: %acc), and the form x86's max instruction
/// computes in one step (its result is its second operand when either is
/// NaN), where the general maxnumf takes four (two compares, a mask or, a
/// blend): a max pool's window, whose accumulator starts at -inf and only
/// ever takes numbers.
template <typename MaxMinOp, arith::CmpFPredicate predicate>
struct MaxMinOfNumber : OpRewritePattern<MaxMinOp> {
  using OpRewritePattern<MaxMinOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxMinOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [number, other] : {std::pair(op.getLhs(), op.getRhs()),
                                 std::pair(op.getRhs(), op.getLhs())}) {
      SmallPtrSet<Value, 4> assumed;
      int steps = kMaxNaNProofSteps;
      if (!neverNaN(number, assumed, steps))
        continue;
      Value wins = arith::CmpFOp::create(rewriter, op.getLoc(), predicate,
                                         other, number);
      rewriter.replaceOpWithNewOp<arith::SelectOp>(op, wins, other, number);
      return success();
    }
    return failure();
  }
};

/// Side of the square transposes lowered as shuffles of whole rows
/// (vector::VectorTransposeLowering::Shuffle16x16, 32-bit elements).
constexpr int64_t kShuffleSquare = 16;

/// The two non-unit dimensions of the 2-D transpose that `op` is when all
/// its other dimensions are units (a register tile of R pixels x C channel
/// lanes stored into an NCHW output), as (R, C); none otherwise.
std::optional<std::pair<int64_t, int64_t>>
planeTranspose(vector::TransposeOp op) {
  VectorType type = op.getSourceVectorType();
  SmallVector<int64_t> dims;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    if (size != 1)
      dims.push_back(i);
  if (dims.size() != 2 || type.isScalable())
    return std::nullopt;
  ArrayRef<int64_t> perm = op.getPermutation();
  // The two non-unit dimensions swap their order.
  auto position = [&](int64_t d) {
    return llvm::find(perm, d) - perm.begin();
  };
  if (position(dims[0]) < position(dims[1]))
    return std::nullopt;
  return std::pair(type.getDimSize(dims[0]), type.getDimSize(dims[1]));
}

/// Rows of each column block in the square of kShuffleSquare that
/// BlockTranspose makes of a transpose with `columns` lanes.
int64_t blockRows(int64_t columns) {
  return kShuffleSquare * kShuffleSquare / columns;
}

/// True when `op` transposes R x C 32-bit elements that fit one square of
/// kShuffleSquare as C / kShuffleSquare blocks of up to blockRows(C) rows
/// each (rows of C = k * kShuffleSquare lanes, R <= kShuffleSquare / k),
/// which BlockTranspose lowers through it.
bool isBlockTranspose(vector::TransposeOp op) {
  std::optional<std::pair<int64_t, int64_t>> plane = planeTranspose(op);
  if (!plane || op.getSourceVectorType().getElementTypeBitWidth() != 32)
    return false;
  auto [rows, columns] = *plane;
  return columns % kShuffleSquare == 0 && columns > kShuffleSquare &&
         columns <= kShuffleSquare * kShuffleSquare / 2 && rows > 1 &&
         rows <= blockRows(columns);
}

/// An R x C transpose (isBlockTranspose; 8 pixels x 32 channels, or a
/// remainder of 5 pixels) as one 16 x 16 transpose of its C / 16 column
/// blocks stacked as rows, blockRows(C) rows apart (the rows in between
/// zero): row j of that square holds column j of every block, R elements
/// each, which are rows j, 16 + j, ... of the result. The default lowering
/// (one element at a time) made LLVM assemble each row through the stack.
struct BlockTranspose : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isBlockTranspose(op))
      return failure();
    auto [rows, columns] = *planeTranspose(op);
    Location loc = op.getLoc();
    Type element = op.getSourceVectorType().getElementType();
    auto type = [&](ArrayRef<int64_t> shape) {
      return VectorType::get(shape, element);
    };
    Value plane = vector::ShapeCastOp::create(
        rewriter, loc, type({rows, columns}), op.getVector());
    int64_t blocks = columns / kShuffleSquare;
    int64_t pitch = blockRows(columns);
    // Each of the `count` rows of `from` cut into `blocks` pieces of
    // `width`, `step` elements apart: piece b of row r becomes row b *
    // stride + r of a `shape` vector.
    auto regroup = [&](Value from, int64_t count, int64_t width, int64_t step,
                       int64_t stride, ArrayRef<int64_t> shape) {
      Value to = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(type(shape)));
      for (int64_t r = 0; r < count; ++r) {
        Value row = vector::ExtractOp::create(rewriter, loc, from, r);
        for (int64_t b = 0; b < blocks; ++b) {
          Value part = vector::ExtractStridedSliceOp::create(
              rewriter, loc, row, b * step, width, 1);
          to = vector::InsertOp::create(rewriter, loc, part, to,
                                        b * stride + r);
        }
      }
      return to;
    };
    Value square =
        regroup(plane, rows, kShuffleSquare, kShuffleSquare, pitch,
                {kShuffleSquare, kShuffleSquare});
    Value transposed = vector::TransposeOp::create(
        rewriter, loc, square, ArrayRef<int64_t>{1, 0});
    Value result = regroup(transposed, kShuffleSquare, rows, pitch,
                           kShuffleSquare, {columns, rows});
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, op.getResultVectorType(),
                                                     result);
    return success();
  }
};

struct LowerVectorOpsPass
    : aotc::impl::LowerVectorOpsBase<LowerVectorOpsPass> {
  using Base::Base;

  /// The vector register width: the option when set, else the module's
  /// CpuTarget's.
  int64_t vectorBits = 0;

  void runOnOperation() override {
    vectorBits = aotc::vectorBitsOf(getOperation(), vectorBitsOption);
    MLIRContext *ctx = &getContext();
    func::FuncOp func = getOperation();

    // Register tiles of few lanes and many rows: accumulated transposed.
    {
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      IRRewriter rewriter(ctx);
      for (scf::ForOp loop : loops)
        (void)transposeNarrowAccumulator(rewriter, loop, vectorBits);
    }
    // Stage 1: contractions become outer products (one FMA per row of the
    // accumulator), reductions become elementwise ops + 1-D reductions (a
    // single row: a halving tree), and unit dimensions disappear (leading
    // ones everywhere, any of elementwise ops through shape_casts).
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      patterns.add<ContiguousStridedRead, TreeReduceRow>(ctx);
      patterns.add<SplatReadElements>(ctx, /*benefit=*/2);
      patterns.add<FlattenNarrowElementwise>(ctx, vectorBits);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    // 16 x 16 transposes of 32-bit elements (aotc-tile-and-vectorize's
    // transpose tiles, and those BlockTranspose makes of other shapes with
    // as many elements) as shuffles of 16-element rows. Only those: the
    // same option lowers every other transpose to one shuffle of the
    // flattened vector (256 elements for an 8 x 32 tile), slow for LLVM to
    // compile.
    {
      SmallVector<Operation *> blocks;
      func.walk([&](vector::TransposeOp op) {
        if (isBlockTranspose(op))
          blocks.push_back(op);
      });
      RewritePatternSet blockPatterns(ctx);
      blockPatterns.add<BlockTranspose>(ctx);
      if (!blocks.empty() &&
          failed(applyOpPatternsGreedily(blocks, std::move(blockPatterns))))
        return signalPassFailure();
      SmallVector<Operation *> squares;
      func.walk([&](vector::TransposeOp op) {
        VectorType type = op.getSourceVectorType();
        if (type.getShape() ==
                ArrayRef<int64_t>{kShuffleSquare, kShuffleSquare} &&
            type.getElementType().getIntOrFloatBitWidth() == 32)
          squares.push_back(op);
      });
      RewritePatternSet patterns(ctx);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::Shuffle16x16);
      if (!squares.empty() &&
          failed(applyOpPatternsGreedily(squares, std::move(patterns))))
        return signalPassFailure();
    }
    // A 0-d transfer of a buffer whose rows are strided (a slice of every
    // other element) has no vector load to become, and upstream's transfer
    // lowering takes only unit-stride rows: a scalar load or store.
    {
      SmallVector<Operation *> scalars;
      func.walk([&](VectorTransferOpInterface op) {
        auto memref = dyn_cast<MemRefType>(op.getShapedType());
        if (op.getVectorType().getRank() == 0 && memref &&
            memref.getRank() > 0 && !memref.isLastDimUnitStride())
          scalars.push_back(op);
      });
      RewritePatternSet patterns(ctx);
      vector::populateScalarVectorTransferLoweringPatterns(
          patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
      patterns.add<ScalarRead>(ctx);
      if (!scalars.empty() &&
          failed(applyOpPatternsGreedily(scalars, std::move(patterns))))
        return signalPassFailure();
    }
    // Stage 2: what remains n-D becomes 1-D operations.
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      vector::populateVectorInterleaveLoweringPatterns(patterns);
      vector::populateVectorGatherLoweringPatterns(patterns);
      vector::populateVectorStepLoweringPatterns(patterns);
      patterns.add<MultiDimIntegerAbs>(ctx);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    // Stage 3: the max and min of a number in the form of one compare and
    // select (lowered after the n-D ops, which see the plain max).
    {
      RewritePatternSet patterns(ctx);
      patterns.add<MaxMinOfNumber<arith::MaxNumFOp, arith::CmpFPredicate::OGT>,
                   MaxMinOfNumber<arith::MinNumFOp, arith::CmpFPredicate::OLT>>(
          ctx);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
