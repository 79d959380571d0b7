//===- ConvolutionUtils.cpp - Matching the importer's convolutions -*- C++ -*-===//
//
// This file implements the matcher of convolution generics in the importer's
// NCHW form, the choices that depend on its loops and the reassociation
// that collapses an image.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace aotc {

namespace {

/// `e` as a loop times a positive constant (1 without the product).
std::optional<std::pair<unsigned, int64_t>> scaledLoop(AffineExpr e) {
  int64_t scale = 1;
  if (auto mul = dyn_cast<AffineBinaryOpExpr>(e))
    if (mul.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
          c && c.getValue() > 0) {
        e = mul.getLHS();
        scale = c.getValue();
      }
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return std::make_pair(d.getPosition(), scale);
  return std::nullopt;
}

} // namespace

std::optional<WindowAccess> matchWindow(AffineExpr expr) {
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return std::nullopt;
  std::optional<std::pair<unsigned, int64_t>> image = scaledLoop(sum.getLHS());
  std::optional<std::pair<unsigned, int64_t>> window =
      scaledLoop(sum.getRHS());
  if (!image || !window)
    return std::nullopt;
  return WindowAccess{image->first, window->first, image->second,
                      window->second};
}

std::optional<ConvolutionLoops> matchNchwConvolution(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getIndexingMapsArray()[2];
  if (!wMap.isProjectedPermutation() || !oMap.isProjectedPermutation())
    return std::nullopt;
  ConvolutionLoops conv;
  int64_t rank = xMap.getNumResults();
  int64_t first = rank;
  while (first > 0) {
    std::optional<WindowAccess> w = matchWindow(xMap.getResult(first - 1));
    if (!w)
      break;
    conv.image.insert(conv.image.begin(), w->image);
    conv.window.insert(conv.window.begin(), w->window);
    conv.strides.insert(conv.strides.begin(), w->stride);
    conv.dilations.insert(conv.dilations.begin(), w->dilation);
    --first;
  }
  int64_t n = conv.image.size();
  if (n == 0 || first == 0 || wMap.getNumResults() < n + 1 ||
      oMap.getNumResults() < n)
    return std::nullopt;
  auto xChannels = dyn_cast<AffineDimExpr>(xMap.getResult(first - 1));
  if (!xChannels)
    return std::nullopt;
  conv.channels = xChannels.getPosition();
  // Filter (..., c, k...), output (..., o...); every other input result is
  // a plain loop.
  if (wMap.getDimPosition(wMap.getNumResults() - n - 1) != conv.channels)
    return std::nullopt;
  for (int64_t j = 0; j < n; ++j)
    if (wMap.getDimPosition(wMap.getNumResults() - n + j) != conv.window[j] ||
        oMap.getDimPosition(oMap.getNumResults() - n + j) != conv.image[j])
      return std::nullopt;
  for (AffineExpr e : xMap.getResults().take_front(first))
    if (!isa<AffineDimExpr>(e))
      return std::nullopt;
  // The loops are (..., o..., c, k...), so that (o...) and (c, k...) are
  // contiguous loop groups.
  for (int64_t j = 1; j < n; ++j)
    if (conv.image[j] != conv.image[j - 1] + 1 ||
        conv.window[j] != conv.window[j - 1] + 1)
      return std::nullopt;
  if (conv.window.front() != conv.channels + 1)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[conv.channels] != utils::IteratorType::reduction)
    return std::nullopt;
  for (int64_t j = 0; j < n; ++j)
    if (iterators[conv.window[j]] != utils::IteratorType::reduction ||
        iterators[conv.image[j]] != utils::IteratorType::parallel)
      return std::nullopt;
  return conv;
}

SmallVector<ReassociationIndices> collapseTrailing(int64_t rank,
                                                   int64_t count) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank - count; ++i)
    groups.push_back({i});
  ReassociationIndices last;
  for (int64_t i = rank - count; i < rank; ++i)
    last.push_back(i);
  groups.push_back(last);
  return groups;
}

std::optional<unsigned> convolutionChannelRowLoop(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> row;
  bool channels = false;
  for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d) {
    if (ranges[d] <= 1 || !wMap.isFunctionOfDim(d))
      continue;
    if (iterators[d] == utils::IteratorType::parallel &&
        oMap.isFunctionOfDim(d) && !xMap.isFunctionOfDim(d))
      row = d;
    if (iterators[d] == utils::IteratorType::reduction &&
        llvm::is_contained(xMap.getResults(),
                           getAffineDimExpr(d, op.getContext())))
      channels = true;
  }
  if (!channels || (row && row == convolutionChannelLaneLoop(op)))
    return std::nullopt;
  return row;
}

std::optional<unsigned> convolutionChannelLaneLoop(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (oMap.getNumResults() == 0 || wMap.getNumResults() == 0)
    return std::nullopt;
  // The filter's innermost loop, which the output reads last (a blocked
  // layout) or right after its channel blocks, a loop the filter reads too
  // (NCHW, channels split).
  auto lane = dyn_cast<AffineDimExpr>(wMap.getResults().back());
  ArrayRef<AffineExpr> outs = oMap.getResults();
  auto at = llvm::find(outs, AffineExpr(lane));
  if (!lane || at == outs.end() ||
      (at != outs.end() - 1 &&
       (at == outs.begin() || !isa<AffineDimExpr>(*(at - 1)) ||
        !wMap.isFunctionOfDim(cast<AffineDimExpr>(*(at - 1)).getPosition()))) ||
      xMap.isFunctionOfDim(lane.getPosition()) ||
      op.getIteratorTypesArray()[lane.getPosition()] !=
          utils::IteratorType::parallel)
    return std::nullopt;
  // Some reduction loop (input channels) indexes the input directly.
  for (AffineExpr e : xMap.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      if (op.getIteratorTypesArray()[d.getPosition()] ==
              utils::IteratorType::reduction &&
          wMap.isFunctionOfDim(d.getPosition()))
        return lane.getPosition();
  return std::nullopt;
}

std::optional<unsigned> convolutionChannelLanePixelLoop(linalg::LinalgOp op) {
  std::optional<unsigned> lane = convolutionChannelLaneLoop(op);
  if (!lane)
    return std::nullopt;
  AffineMap oMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (AffineExpr e : llvm::reverse(oMap.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() != *lane)
      return d.getPosition();
  return std::nullopt;
}

int64_t convolutionRegisterRows(int64_t rows, VectorRegisters registers) {
  for (int64_t count : {3, 4, 2})
    if (rows % count == 0 && (count != 4 || registers.count >= 32))
      return count;
  return 1;
}

int64_t convolutionGridRows(int64_t rows, int64_t vectorBits) {
  int64_t byThree = llvm::alignTo(rows, 3), byTwo = llvm::alignTo(rows, 2);
  return byThree * 8 <= byTwo * 9 ? byThree : byTwo;
}

namespace {

int64_t flatGridLength(int64_t height, int64_t paddedWidth, int64_t lanes,
                       int64_t vectorBits) {
  return convolutionGridRows(llvm::divideCeil(height * paddedWidth, lanes),
                             vectorBits) *
         lanes;
}

/// The coefficient of loop `dim` in the linear expression `expr`.
std::optional<int64_t> coefficient(AffineExpr expr, unsigned dim,
                                   unsigned numDims) {
  MLIRContext *ctx = expr.getContext();
  auto at = [&](int64_t value) -> std::optional<int64_t> {
    SmallVector<AffineExpr> dims(numDims, getAffineConstantExpr(0, ctx));
    dims[dim] = getAffineConstantExpr(value, ctx);
    auto c = dyn_cast<AffineConstantExpr>(expr.replaceDims(dims));
    if (!c)
      return std::nullopt;
    return c.getValue();
  };
  std::optional<int64_t> zero = at(0), one = at(1);
  if (!zero || !one)
    return std::nullopt;
  return *one - *zero;
}

} // namespace

bool isRowAlignedGrid(int64_t height, int64_t width, int64_t paddedWidth,
                      int64_t lanes, int64_t vectorBits) {
  return width <= lanes && paddedWidth > lanes &&
         height * lanes <
             flatGridLength(height, paddedWidth, lanes, vectorBits);
}

int64_t convolutionGridLength(int64_t height, int64_t width,
                              int64_t paddedWidth, int64_t lanes,
                              int64_t vectorBits) {
  if (isRowAlignedGrid(height, width, paddedWidth, lanes, vectorBits))
    return height * lanes;
  return flatGridLength(height, paddedWidth, lanes, vectorBits);
}

bool isRowAlignedConvolution(linalg::LinalgOp op) {
  if (!convolutionChannelRowLoop(op))
    return false;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() < 2)
    return false;
  auto row =
      dyn_cast<AffineDimExpr>(outMap.getResult(outMap.getNumResults() - 2));
  auto lane =
      dyn_cast<AffineDimExpr>(outMap.getResult(outMap.getNumResults() - 1));
  if (!row || !lane)
    return false;
  int64_t lanes = op.getStaticLoopRanges()[lane.getPosition()];
  unsigned numDims = op.getNumLoops();
  for (AffineExpr e : op.getIndexingMapsArray()[0].getResults()) {
    std::optional<int64_t> rowStep = coefficient(e, row.getPosition(), numDims);
    std::optional<int64_t> laneStep =
        coefficient(e, lane.getPosition(), numDims);
    if (rowStep && laneStep && *laneStep > 0 && *rowStep > *laneStep * lanes)
      return true;
  }
  return false;
}

int64_t convolutionRegisterChannels(int64_t registerRows,
                                    VectorRegisters registers) {
  if (registers.count < 32)
    return registerRows > 1 ? 4 : 8;
  return registerRows == 4 ? 4 : 8;
}

int64_t convolutionThreadRowMultiple(int64_t rows) {
  for (int64_t multiple : {3, 4, 2})
    if (rows % multiple == 0)
      return multiple;
  return 1;
}

bool isMultiplyAccumulate(linalg::GenericOp op) {
  Block *body = op.getBody();
  if (body->getOperations().size() != 3)
    return false;
  auto mul = dyn_cast<arith::MulFOp>(&body->front());
  auto add = dyn_cast<arith::AddFOp>(mul ? mul->getNextNode() : nullptr);
  if (!mul || !add || !mul.getType().isF32())
    return false;
  Value in0 = body->getArgument(0), in1 = body->getArgument(1),
        out = body->getArgument(2);
  bool inputs = (mul.getLhs() == in0 && mul.getRhs() == in1) ||
                (mul.getLhs() == in1 && mul.getRhs() == in0);
  bool accumulate = (add.getLhs() == out && add.getRhs() == mul) ||
                    (add.getLhs() == mul && add.getRhs() == out);
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return inputs && accumulate && yield.getValues().size() == 1 &&
         yield.getValues().front() == add.getResult();
}

bool isFlatImageConvolution(linalg::GenericOp op,
                            const ConvolutionLoops &conv) {
  return conv.image.size() == 2 && isa<func::FuncOp>(op->getParentOp()) &&
         llvm::all_of(conv.strides, [](int64_t s) { return s == 1; }) &&
         getElementTypeOrSelf(op.getResult(0).getType()).isIntOrFloat();
}

std::optional<Padding> matchPadding(Value padded) {
  if (auto pad = padded.getDefiningOp<tensor::PadOp>()) {
    if (pad.getNofold() || !pad.getConstantPaddingValue() ||
        !pad.getSourceType().hasStaticShape() ||
        ShapedType::isDynamicShape(pad.getStaticLow()) ||
        ShapedType::isDynamicShape(pad.getStaticHigh()))
      return std::nullopt;
    return Padding{pad.getSource(), pad.getConstantPaddingValue(),
                   llvm::to_vector(pad.getStaticLow()),
                   llvm::to_vector(pad.getStaticHigh())};
  }
  auto insert = padded.getDefiningOp<tensor::InsertSliceOp>();
  auto fill = insert ? insert.getDest().getDefiningOp<linalg::FillOp>()
                     : linalg::FillOp();
  if (!fill || insert.getSourceType().getRank() != insert.getType().getRank() ||
      !insert.getSourceType().hasStaticShape() ||
      !insert.getType().hasStaticShape() || !insert.hasUnitStride() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()))
    return std::nullopt;
  Padding padding{insert.getSource(), fill.getInputs()[0], {}, {}};
  for (auto [offset, size, whole] : llvm::zip_equal(
           insert.getStaticOffsets(), insert.getSourceType().getShape(),
           insert.getType().getShape())) {
    padding.low.push_back(offset);
    padding.high.push_back(whole - offset - size);
  }
  return padding;
}

std::optional<PaddedCopy> matchPaddedCopy(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() < 1)
    return std::nullopt;
  Value x = op.getDpsInputs()[0];
  auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
  Value padded = expand ? expand.getSrc() : x;
  auto insert = padded.getDefiningOp<tensor::InsertSliceOp>();
  if (!x.hasOneUse() || (expand && !padded.hasOneUse()) || !insert)
    return std::nullopt;
  std::optional<Padding> padding = matchPadding(padded);
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> lowHigh =
      padding ? paddingOfInput(*padding, expand) : std::nullopt;
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!lowHigh || !fill || !fill.getResult(0).hasOneUse() ||
      !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  return PaddedCopy{*padding, expand, insert, fill, std::move(*lowHigh)};
}

std::optional<SmallVector<std::pair<int64_t, int64_t>>>
paddingOfInput(const Padding &padding, tensor::ExpandShapeOp expand) {
  SmallVector<std::pair<int64_t, int64_t>> result;
  ArrayRef<int64_t> low = padding.low, high = padding.high;
  if (!expand) {
    for (auto [l, h] : llvm::zip_equal(low, high))
      result.push_back({l, h});
    return result;
  }
  for (auto [dim, group] : llvm::enumerate(expand.getReassociationIndices())) {
    if (group.size() != 1 && (low[dim] != 0 || high[dim] != 0))
      return std::nullopt;
    for (size_t i = 0; i < group.size(); ++i)
      result.push_back({low[dim], high[dim]});
  }
  return result;
}

Value unpaddedSource(OpBuilder &b, Location loc, const Padding &padding,
                     tensor::ExpandShapeOp expand, RankedTensorType paddedType,
                     ArrayRef<std::pair<int64_t, int64_t>> lowHigh,
                     SmallVectorImpl<OpFoldResult> &low,
                     SmallVectorImpl<OpFoldResult> &high) {
  SmallVector<int64_t> shape(paddedType.getShape());
  for (auto [size, lh] : llvm::zip_equal(shape, lowHigh)) {
    size -= lh.first + lh.second;
    low.push_back(b.getIndexAttr(lh.first));
    high.push_back(b.getIndexAttr(lh.second));
  }
  if (!expand)
    return padding.source;
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, paddedType.getElementType()),
      padding.source, expand.getReassociationIndices());
}

Value leadingSlice(OpBuilder &b, Location loc, Value value,
                   ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(shape.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, type.clone(shape), value, offsets,
      getAsIndexOpFoldResult(b.getContext(), shape), strides);
}

} // namespace aotc
