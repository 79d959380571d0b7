//===- WinogradConvolutions.cpp - Winograd F(4x4 or 2x2, 3x3) -*- C++ -*-===//
//
// This file implements the aotc-winograd-convolutions pass: a 3 x 3,
// stride-1 convolution over input channels with a constant filter and
// enough output tiles is computed with Winograd's minimal filtering
// F(m x m, 3 x 3), m = 4 or 2 (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016): each m x m output tile is
//
//   Y = A^T [ (G g G^T) . (B^T d B) ] A
//
// with d the tile's (m + 2) x (m + 2) input window and g a 3 x 3 filter.
// G g G^T is computed here, at compile time, for every (output, input)
// channel pair; the input transform B^T d B, the (m + 2)^2 contractions
// over input channels (one per element of the transformed tile: 36
// multiplications per 4 x 4 tile where the direct convolution needs 144,
// 16 per 2 x 2 tile for 36) and the output transform are plain linalg ops
// that the rest of the pipeline tiles, threads and vectorizes like any
// other. The strategy rule aotc::winogradOutputTile picks m. A dilated
// window is computed on the phase images of the input and output, each an
// undilated convolution with the same filter, as a batch (splitPhases).
//
// The results differ from the direct sum by rounding (more with 4 x 4
// tiles, whose matrices hold 4, 5 and 8). With non-finite
// inputs they can differ more: the transforms add and subtract the elements
// of each input tile (and the last stage multiplies by zero
// coefficients too), so every output of a tile whose input tile holds
// an infinity or a NaN can be NaN, also where the direct sum is finite;
// `aotc --winograd=0` keeps the direct summation.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace aotc {
#define GEN_PASS_DEF_WINOGRADCONVOLUTIONS
#include "aotc/CPU/Convolutions/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

constexpr int64_t kWindow = 3;

/// F(2 x 2, 3 x 3)'s matrices (Lavin and Gray, section 4.1), row-major:
/// B^T 4 x 4, G 4 x 3, A^T 2 x 4.
constexpr double kBT2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
constexpr double kG2[] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
constexpr double kAT2[] = {1, 1, 1, 0, 0, 1, -1, -1};

/// F(4 x 4, 3 x 3)'s (Lavin and Gray, section 4.2, interpolation points 0,
/// 1, -1, 2, -2 and infinity): B^T 6 x 6, G 6 x 3, A^T 4 x 6.
constexpr double kBT4[] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1,  1, 0,
                           0, 4, -4, -1, 1, 0, 0, -2, -1, 2,  1, 0,
                           0, 2, -1, -2, 1, 0, 0, 4,  0,  -5, 0, 1};
constexpr double kG4[] = {1.0 / 4,  0,         0,        -1.0 / 6, -1.0 / 6,
                          -1.0 / 6, -1.0 / 6,  1.0 / 6,  -1.0 / 6, 1.0 / 24,
                          1.0 / 12, 1.0 / 6,   1.0 / 24, -1.0 / 12, 1.0 / 6,
                          0,        0,         1};
constexpr double kAT4[] = {1, 1, 1,  1, 1,  0, 0, 1, -1, 2, -2, 0,
                           0, 1, 1,  4, 4,  0, 0, 1, -1, 8, -8, 1};

/// Winograd's F(tile x tile, 3 x 3): output tiles of `tile` x `tile` from
/// input tiles of alpha() x alpha(), with its matrices B^T (alpha x alpha),
/// G (alpha x 3) and A^T (tile x alpha), row-major.
struct Transform {
  int64_t tile;
  ArrayRef<double> bt, g, at;
  /// The input tile's side: the output tile's plus the window's, less one.
  int64_t alpha() const { return tile + kWindow - 1; }
};

/// F(`tile` x `tile`, 3 x 3), tile 2 or 4.
Transform transformOf(int64_t tile) {
  if (tile == 4)
    return {4, kBT4, kG4, kAT4};
  assert(tile == 2 && "Winograd tiles are 2 x 2 or 4 x 4");
  return {2, kBT2, kG2, kAT2};
}

/// The shape of a convolution this pass rewrites, in the importer's NCHW
/// form with one group: loops (n, g, k, oh, ow, c, kh, kw), input (n, g, c,
/// oh + kh, ow + kw), filter (g, k, c, kh, kw), output (n, g, k, oh, ow).
/// The tiles of all `batch` images are the columns (or rows) of the same
/// alpha^2 contractions.
struct Shape {
  int64_t batch, outputChannels, inputChannels, height, width;
  DenseFPElementsAttr filter;
  /// The output tile (aotc::winogradOutputTile): 2 or 4.
  int64_t tile = 2;
  /// The window's dilation along the rows and columns.
  int64_t dilationH = 1, dilationW = 1;
  /// The images each image of the batch is computed as: a dilated
  /// convolution's phase images (splitPhases), else one.
  int64_t phases = 1;
};

/// The indexing maps of the form above, the window dilated by (`dilationH`,
/// `dilationW`): input (n, g, c, oh + kh * dh, ow + kw * dw), filter (g, k,
/// c, kh, kw), output (n, g, k, oh, ow).
SmallVector<AffineMap> convolutionMaps(MLIRContext *ctx, int64_t dilationH,
                                       int64_t dilationW) {
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto map = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(8, 0, exprs, ctx);
  };
  return {map({d(0), d(1), d(5), d(3) + d(6) * dilationH,
               d(4) + d(7) * dilationW}),
          map({d(1), d(2), d(5), d(6), d(7)}),
          map({d(0), d(1), d(2), d(3), d(4)})};
}

/// `op`'s shape when this pass rewrites it: the form above, a constant f32
/// filter, and enough channels (at least `minChannels`) and output tiles
/// of at most `maxTile` x `maxTile` to pay (aotc::winogradOutputTile).
std::optional<Shape> matchConvolution(linalg::GenericOp op,
                                      int64_t minChannels, int64_t maxTile) {
  std::optional<aotc::ConvolutionLoops> conv = aotc::matchNchwConvolution(op);
  if (!conv || op.getNumLoops() != 8 ||
      !aotc::isFlatImageConvolution(op, *conv) ||
      !aotc::isMultiplyAccumulate(op))
    return std::nullopt;
  int64_t dilationH = conv->dilations[0], dilationW = conv->dilations[1];
  if (op.getIndexingMapsArray() !=
      convolutionMaps(op.getContext(), dilationH, dilationW))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto filter = op.getDpsInputs()[1].getDefiningOp<arith::ConstantOp>();
  auto attr =
      filter ? dyn_cast<DenseFPElementsAttr>(filter.getValue()) : nullptr;
  Shape shape{ranges[0], ranges[2], ranges[5], ranges[3], ranges[4], attr};
  shape.dilationH = dilationH;
  shape.dilationW = dilationW;
  shape.phases = dilationH * dilationW;
  if (ShapedType::isDynamic(ranges[0]) || ranges[0] < 1 || ranges[1] != 1 ||
      ranges[6] != kWindow || ranges[7] != kWindow || !attr ||
      !attr.getElementType().isF32() ||
      !aotc::winogradPhasesPay(shape.height, shape.width, dilationH,
                               dilationW))
    return std::nullopt;
  // Per image, as the filter's layout below: the path and the transformed
  // filter do not depend on the batch, so that the variants of one model at
  // several batch sizes (aotc --variant) share their constants. A dilated
  // convolution is computed on its phase images (splitPhases).
  shape.tile = aotc::winogradOutputTile(
      shape.inputChannels, shape.outputChannels,
      llvm::divideCeil(shape.height, dilationH),
      llvm::divideCeil(shape.width, dilationW), minChannels, maxTile,
      shape.phases);
  if (shape.tile == 0)
    return std::nullopt;
  return shape;
}

/// The transformed filter U[xi * alpha + nu, k, c] = (G g[k, c] G^T)[xi, nu]
/// (laid out [alpha^2, C, K] when `channelsLast`), computed in double
/// precision from the filter g[0, k, c, kh, kw].
DenseElementsAttr transformFilter(const Shape &shape, const Transform &t,
                                  bool channelsLast) {
  SmallVector<float> g(shape.filter.getValues<float>());
  int64_t channels = shape.inputChannels;
  int64_t pairs = shape.outputChannels * channels;
  int64_t alpha = t.alpha();
  SmallVector<float> u(alpha * alpha * pairs);
  SmallVector<double> gw(alpha * kWindow);
  for (int64_t pair = 0; pair < pairs; ++pair) {
    const float *w = &g[pair * kWindow * kWindow];
    // Gw = G g (alpha x 3), then (G g) G^T (alpha x alpha).
    llvm::fill(gw, 0.0);
    for (int64_t i = 0; i < alpha; ++i)
      for (int64_t j = 0; j < kWindow; ++j)
        for (int64_t a = 0; a < kWindow; ++a)
          gw[i * kWindow + j] += t.g[i * kWindow + a] * w[a * kWindow + j];
    for (int64_t xi = 0; xi < alpha; ++xi)
      for (int64_t nu = 0; nu < alpha; ++nu) {
        double sum = 0;
        for (int64_t b = 0; b < kWindow; ++b)
          sum += gw[xi * kWindow + b] * t.g[nu * kWindow + b];
        int64_t at = channelsLast ? (pair % channels) * shape.outputChannels +
                                        pair / channels
                                  : pair;
        u[(xi * alpha + nu) * pairs + at] = static_cast<float>(sum);
      }
  }
  SmallVector<int64_t> dims = {alpha * alpha, shape.outputChannels, channels};
  if (channelsLast)
    std::swap(dims[1], dims[2]);
  auto type =
      RankedTensorType::get(dims, Float32Type::get(shape.filter.getContext()));
  return DenseElementsAttr::get(type, ArrayRef<float>(u));
}

/// `value` padded with zeros at the end of each dim to `shape` (itself
/// when it has that shape already).
Value padHigh(OpBuilder &b, Location loc, Value value,
              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return tensor::createPadHighOp(type.clone(shape), value, zero,
                                 /*nofold=*/false, loc, b);
}

/// The convolution's input image `input` ([n, 1, c, h, w]) as [c, h, w]
/// (batch 1) or [n, c, h, w], padded with zeros at the end to `shape` (of
/// that rank). When the image is itself a zero padding of one
/// (aotc-decompose-ops: [n, c, h, w] inserted into zeros,
/// expanded to the convolution's group dims) too small for whole tiles,
/// that image is inserted into zeros of `shape` directly, both paddings in
/// one: one fill and one copy after bufferization, not two of each
/// (SqueezeNet's 13 x 13 images: 15 x 15 for the window, then 16 x 16 for
/// whole tiles).
Value padImage(OpBuilder &b, Location loc, Value input,
               ArrayRef<int64_t> shape) {
  auto collapse = [&](Value value, SmallVector<ReassociationIndices> groups) {
    return tensor::CollapseShapeOp::create(b, loc, value, groups).getResult();
  };
  ArrayRef<int64_t> inputShape =
      cast<RankedTensorType>(input.getType()).getShape();
  auto expand = input.getDefiningOp<tensor::ExpandShapeOp>();
  auto insert =
      expand ? expand.getSrc().getDefiningOp<tensor::InsertSliceOp>() : nullptr;
  auto fill =
      insert ? insert.getDest().getDefiningOp<linalg::FillOp>() : nullptr;
  SmallVector<ReassociationIndices> groupDims = {{0}, {1, 2}, {3}, {4}};
  bool batched = shape.size() == 4;
  bool whole =
      inputShape[3] == shape[shape.size() - 2] && inputShape[4] == shape.back();
  if (whole || !fill || expand.getReassociationIndices() != groupDims ||
      !matchPattern(fill.value(), m_AnyZeroFloat()) ||
      !insert.hasUnitStride() ||
      insert.getSourceType().getShape() != insert.getStaticSizes() ||
      llvm::is_contained(insert.getStaticOffsets(), ShapedType::kDynamic) ||
      insert.getStaticOffsets()[0] != 0 || insert.getStaticOffsets()[1] != 0)
    return padHigh(
        b, loc,
        collapse(input,
                 batched
                     ? groupDims
                     : SmallVector<ReassociationIndices>{{0, 1, 2}, {3}, {4}}),
        shape);
  Value image = batched ? insert.getSource()
                        : collapse(insert.getSource(), {{0, 1}, {2}, {3}});
  Value zeros =
      linalg::FillOp::create(
          b, loc, fill.value(),
          tensor::EmptyOp::create(b, loc, shape, b.getF32Type()).getResult())
          .getResult(0);
  ArrayRef<int64_t> offsets = insert.getStaticOffsets();
  SmallVector<OpFoldResult> imageOffsets(shape.size() - 2, b.getIndexAttr(0));
  imageOffsets.push_back(b.getIndexAttr(offsets[2]));
  imageOffsets.push_back(b.getIndexAttr(offsets[3]));
  return tensor::InsertSliceOp::create(
      b, loc, image, zeros, imageOffsets,
      getAsIndexOpFoldResult(
          b.getContext(), cast<RankedTensorType>(image.getType()).getShape()),
      SmallVector<OpFoldResult>(shape.size(), b.getIndexAttr(1)));
}

/// `init` ([n, 1, k, h, w], a convolution's init) computed anew on
/// `shape` when a fill or broadcast (isTileableInitProducer) computes it
/// from inputs that vary along none of `invariantDims` of its loops; none
/// otherwise.
std::optional<Value> recomputeInit(OpBuilder &b, Location loc, Value init,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<unsigned> invariantDims) {
  auto producer = init.getDefiningOp<linalg::LinalgOp>();
  if (!producer || !aotc::isTileableInitProducer(producer) ||
      producer.hasIndexSemantics() ||
      llvm::any_of(producer.getDpsInputOperands(), [&](OpOperand *input) {
        AffineMap map = producer.getMatchingIndexingMap(input);
        return llvm::any_of(invariantDims, [&](unsigned dim) {
          return map.isFunctionOfDim(dim);
        });
      }))
    return std::nullopt;
  Value empty = tensor::EmptyOp::create(
      b, loc, shape, getElementTypeOrSelf(init.getType()));
  SmallVector<Value> operands = producer.getDpsInputs();
  operands.push_back(empty);
  return clone(b, producer, TypeRange{empty.getType()}, operands)->getResult(0);
}

/// The convolution's init `init` ([n, 1, k, h, w]) padded at the end to
/// `shape` (whole tiles). What the padding holds is sliced off with the
/// result: an init a fill or broadcast computes (isTileableInitProducer)
/// from inputs that do not vary along the image is computed on `shape`
/// directly, not copied into zeros (SqueezeNet's 13 x 13 biases: no copy of
/// 256 x 13 x 13 and no fill of the 14 x 14 border).
Value padInit(OpBuilder &b, Location loc, Value init, ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(init.getType()).getShape() == shape)
    return init;
  if (std::optional<Value> recomputed =
          recomputeInit(b, loc, init, shape, /*invariantDims=*/{3, 4}))
    return *recomputed;
  return padHigh(b, loc, init, shape);
}

/// A constant f32 matrix of `rows` from `values` (row-major).
Value matrixConstant(OpBuilder &b, Location loc, ArrayRef<double> values,
                     int64_t rows) {
  SmallVector<float> flat;
  for (double v : values)
    flat.push_back(static_cast<float>(v));
  auto type = RankedTensorType::get(
      {rows, static_cast<int64_t>(values.size()) / rows}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<float>(flat)));
}

/// A zero-filled f32 tensor of `shape`.
Value zeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// out[...] += lhs[...] * rhs[...] over loops whose last one is the
/// reduction.
Value multiplyAccumulate(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         Value init, ArrayRef<AffineMap> maps) {
  SmallVector<utils::IteratorType> iterators(maps.front().getNumDims(),
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  auto op = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{lhs, rhs}, ValueRange{init}, maps,
      iterators, [](OpBuilder &nested, Location l, ValueRange args) {
        Value product = arith::MulFOp::create(nested, l, args[0], args[1]);
        Value sum = arith::AddFOp::create(nested, l, args[2], product);
        linalg::YieldOp::create(nested, l, sum);
      });
  return op.getResult(0);
}

/// sum_a coefficients[a] * taps[a] elementwise (zero coefficients have no
/// tap; +1 and -1 an add or subtract, others a multiply-add with the
/// coefficient), written into `init` (of the taps' shape after leading unit
/// dims, permuted by `permutation` when it is not empty: dim j after the
/// leading ones is the taps' dim permutation[j]).
Value weightedSum(OpBuilder &b, Location loc, ArrayRef<Value> taps,
                  ArrayRef<double> coefficients, Value init,
                  ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  int64_t tapRank = cast<RankedTensorType>(taps.front().getType()).getRank();
  int64_t lead = rank - tapRank;
  MLIRContext *ctx = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  // Tap dim t is the init's dim `lead + inverse[t]`.
  SmallVector<int64_t> inverse =
      permutation.empty() ? llvm::to_vector(llvm::seq<int64_t>(0, tapRank))
                          : invertPermutationVector(permutation);
  SmallVector<AffineExpr> tapExprs;
  for (int64_t t = 0; t < tapRank; ++t)
    tapExprs.push_back(getAffineDimExpr(lead + inverse[t], ctx));
  SmallVector<AffineMap> maps(taps.size(),
                              AffineMap::get(rank, 0, tapExprs, ctx));
  maps.push_back(identity);
  auto op = linalg::GenericOp::create(
      b, loc, type, taps, ValueRange{init}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location l, ValueRange args) {
        auto factor = [&](double c) -> Value {
          return arith::ConstantOp::create(nested, l,
                                           nested.getF32FloatAttr(c));
        };
        // From a tap with coefficient +1 when there is one (x2 - x1, not
        // -x1 + x2).
        size_t first =
            llvm::find(coefficients, 1.0) - coefficients.begin();
        if (first == coefficients.size())
          first = 0;
        Value sum = args[first];
        if (coefficients[first] == -1)
          sum = arith::NegFOp::create(nested, l, sum);
        else if (coefficients[first] != 1)
          sum = arith::MulFOp::create(
              nested, l, factor(coefficients[first]), args[first]);
        for (size_t a = 0; a < coefficients.size(); ++a) {
          if (a == first)
            continue;
          double c = coefficients[a];
          if (c == 1 || c == -1) {
            sum = c > 0
                      ? arith::AddFOp::create(nested, l, sum, args[a])
                            .getResult()
                      : arith::SubFOp::create(nested, l, sum, args[a])
                            .getResult();
            continue;
          }
          sum = math::FmaOp::create(nested, l, factor(c), args[a], sum);
        }
        linalg::YieldOp::create(nested, l, sum);
      });
  return op.getResult(0);
}

/// `matrix` (`rows` rows, row-major) times the `taps` (one per column of
/// `matrix`): row r is the weighted sum of the taps with nonzero
/// coefficients in row r, all rows
/// stacked along a new leading dimension (each row the taps' shape, its
/// dims permuted by `permutation` when it is not empty, see weightedSum). Each
/// row is computed in its slice of the result (extract_slice, compute,
/// insert_slice: in place once bufferized), one box of it along that dimension:
/// the rows are the parts of one op, marked as the `group`th
/// (aotc::kSiblingPartsAttrName), to be computed in one thread loop.
Value transformRows(OpBuilder &b, Location loc, ArrayRef<double> matrix,
                    int64_t rows, ArrayRef<Value> taps, int64_t group,
                    ArrayRef<int64_t> permutation = {}) {
  auto type = cast<RankedTensorType>(taps.front().getType());
  int64_t columns = static_cast<int64_t>(matrix.size()) / rows;
  SmallVector<int64_t> shape = {rows};
  llvm::append_range(shape, permutation.empty()
                                ? llvm::to_vector(type.getShape())
                                : applyPermutation(type.getShape(),
                                                   permutation));
  int64_t rank = static_cast<int64_t>(shape.size());
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(b.getContext(), shape);
  sizes[0] = b.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  Value result = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  for (int64_t r = 0; r < rows; ++r) {
    SmallVector<Value> used;
    SmallVector<double> coefficients;
    for (int64_t a = 0; a < columns; ++a)
      if (double c = matrix[r * columns + a]; c != 0) {
        used.push_back(taps[a]);
        coefficients.push_back(c);
      }
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[0] = b.getIndexAttr(r);
    SmallVector<int64_t> rowShape = shape;
    rowShape[0] = 1;
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, type.clone(rowShape), result, offsets, sizes, strides);
    Value row = weightedSum(b, loc, used, coefficients, slice, permutation);
    row.getDefiningOp()->setAttr(aotc::kSiblingPartsAttrName,
                                 b.getI64IntegerAttr(group));
    result = tensor::InsertSliceOp::create(b, loc, row, result, offsets, sizes,
                                           strides);
  }
  return result;
}

/// Element `index` of `value`'s leading dimension (a rank-reduced slice).
Value leadingIndex(OpBuilder &b, Location loc, Value value, int64_t index) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = b.getIndexAttr(index);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(b.getContext(), type.getShape());
  sizes[0] = b.getIndexAttr(1);
  return tensor::ExtractSliceOp::create(
      b, loc,
      RankedTensorType::get(type.getShape().drop_front(),
                            type.getElementType()),
      value, offsets, sizes,
      SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
}

/// Every `stride`th element of `value` along `dim` from `offset`, `count`
/// of them (a strided view).
Value strided(OpBuilder &b, Location loc, Value value, int64_t dim,
              int64_t offset, int64_t count, int64_t stride) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  SmallVector<int64_t> shape(type.getShape());
  offsets[dim] = b.getIndexAttr(offset);
  strides[dim] = b.getIndexAttr(stride);
  shape[dim] = count;
  return tensor::ExtractSliceOp::create(
      b, loc, type.clone(shape), value, offsets,
      getAsIndexOpFoldResult(b.getContext(), shape), strides);
}

/// `value` ([n, 1, ch, h * dh, w * dw], a convolution's input, init or
/// result) as its phase images, [n * dh * dw, 1, ch, h, w]: image (a, b) of
/// image i holds the rows a + dh * y and columns b + dw * x of i, padded with
/// zeros at the end to [rows, columns] when those are larger than h and w
/// (tensor.empty's undefined values when `padded` is false).
Value phaseImages(OpBuilder &b, Location loc, Value value, int64_t dh,
                  int64_t dw, int64_t rows, int64_t columns, bool padded) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> dims = type.getShape();
  int64_t n = dims[0], ch = dims[2], h = dims[3] / dh, w = dims[4] / dw;
  Value image =
      tensor::CollapseShapeOp::create(b, loc, value, {{0, 1}, {2}, {3}, {4}});
  Value split = tensor::ExpandShapeOp::create(
      b, loc, type.clone({n, ch, h, dh, w, dw}), image,
      {{0}, {1}, {2, 3}, {4, 5}});
  SmallVector<int64_t> whole = {n, dh, dw, ch, rows, columns};
  SmallVector<int64_t> part = {n, dh, dw, ch, h, w};
  Value result = padded ? zeros(b, loc, whole)
                        : tensor::EmptyOp::create(b, loc, whole,
                                                  type.getElementType())
                              .getResult();
  Value slice = aotc::leadingSlice(b, loc, result, part);
  Value phases = linalg::TransposeOp::create(b, loc, split, slice,
                                             ArrayRef<int64_t>{0, 3, 5, 1, 2,
                                                               4})
                     .getResult()
                     .front();
  if (slice != result)
    phases = tensor::InsertSliceOp::create(
        b, loc, phases, result,
        SmallVector<OpFoldResult>(6, b.getIndexAttr(0)),
        getAsIndexOpFoldResult(b.getContext(), part),
        SmallVector<OpFoldResult>(6, b.getIndexAttr(1)));
  Value batch =
      tensor::CollapseShapeOp::create(b, loc, phases, {{0, 1, 2}, {3}, {4}, {5}});
  return tensor::ExpandShapeOp::create(
      b, loc, type.clone({n * dh * dw, 1, ch, rows, columns}), batch,
      {{0}, {1, 2}, {3}, {4}});
}

/// The inverse of phaseImages for an unpadded `value` ([n * dh * dw, 1, ch,
/// h, w] into [n, 1, ch, h * dh, w * dw]).
Value interleavePhases(OpBuilder &b, Location loc, Value value, int64_t n,
                       int64_t dh, int64_t dw) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> dims = type.getShape();
  int64_t ch = dims[2], h = dims[3], w = dims[4];
  Value batch =
      tensor::CollapseShapeOp::create(b, loc, value, {{0}, {1, 2}, {3}, {4}});
  Value phases = tensor::ExpandShapeOp::create(
      b, loc, type.clone({n, dh, dw, ch, h, w}), batch,
      {{0, 1, 2}, {3}, {4}, {5}});
  Value empty = tensor::EmptyOp::create(b, loc, {n, ch, h, dh, w, dw},
                                        type.getElementType());
  Value image = linalg::TransposeOp::create(b, loc, phases, empty,
                                            ArrayRef<int64_t>{0, 3, 4, 1, 5,
                                                              2})
                    .getResult()
                    .front();
  Value collapsed = tensor::CollapseShapeOp::create(b, loc, image,
                                                    {{0}, {1}, {2, 3}, {4, 5}});
  return tensor::ExpandShapeOp::create(
      b, loc, type.clone({n, 1, ch, h * dh, w * dw}), collapsed,
      {{0}, {1, 2}, {3}, {4}});
}

/// A dilated convolution `op` of `shape` as the same convolution, undilated,
/// on its phase images (Yu and Koltun's atrous convolution as a batch of
/// ordinary ones): output pixel (a + dh * y, b + dw * x) of an image reads
/// input rows a + dh * (y + kh) and columns b + dw * (x + kw) only, so the
/// phase images (a, b) of the input and of the output are an undilated
/// convolution of their own, all of them with the same filter, as a batch
/// of n * dh * dw images. The phases are of one size, ceil(H / dh) x
/// ceil(W / dw): an output whose rows or columns are not a multiple of the
/// dilation is computed larger (its input and init padded with zeros at
/// the end first) and sliced. The input's phases are written padded to the
/// Winograd tiles' extent (whole tiles of `shape.tile`, plus the window),
/// the init's too (a bias broadcast is computed on them, anything else
/// transposed), and the result interleaved back into `op`'s, which it
/// replaces. Returns the undilated convolution and its shape.
std::pair<linalg::GenericOp, Shape>
splitPhases(RewriterBase &rewriter, linalg::GenericOp op, const Shape &shape) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  int64_t dh = shape.dilationH, dw = shape.dilationW;
  Shape phase = shape;
  phase.batch = shape.batch * shape.phases;
  phase.height = llvm::divideCeil(shape.height, dh);
  phase.width = llvm::divideCeil(shape.width, dw);
  phase.dilationH = phase.dilationW = 1;
  // `value` cut or padded with zeros at the end to `dims`.
  auto resize = [&](Value value, SmallVector<int64_t> dims) {
    ArrayRef<int64_t> current =
        cast<RankedTensorType>(value.getType()).getShape();
    SmallVector<int64_t> common = dims;
    for (auto [size, own] : llvm::zip(common, current))
      size = std::min(size, own);
    return padHigh(rewriter, loc,
                   aotc::leadingSlice(rewriter, loc, value, common), dims);
  };
  // The input rows the window reaches: (h + 2) * dh of them (stride 1).
  int64_t n = shape.batch, c = shape.inputChannels, k = shape.outputChannels;
  Value input = resize(op.getDpsInputs()[0],
                       {n, 1, c, (phase.height + kWindow - 1) * dh,
                        (phase.width + kWindow - 1) * dw});
  Value x = phaseImages(
      rewriter, loc, input, dh, dw,
      llvm::alignTo(phase.height, shape.tile) + kWindow - 1,
      llvm::alignTo(phase.width, shape.tile) + kWindow - 1, /*padded=*/true);
  // The init: computed on the phases when its producer is a fill or a
  // broadcast that does not vary along the batch or the image, else
  // transposed into them.
  Value init = op.getDpsInits()[0];
  std::optional<Value> recomputed = recomputeInit(
      rewriter, loc, init, {phase.batch, 1, k, phase.height, phase.width},
      /*invariantDims=*/{0, 3, 4});
  Value phaseInit =
      recomputed
          ? *recomputed
          : phaseImages(
                rewriter, loc,
                resize(init, {n, 1, k, phase.height * dh, phase.width * dw}),
                dh, dw, phase.height, phase.width, /*padded=*/false);
  auto undilated = linalg::GenericOp::create(
      rewriter, loc, TypeRange{phaseInit.getType()},
      ValueRange{x, op.getDpsInputs()[1]}, ValueRange{phaseInit},
      convolutionMaps(op.getContext(), 1, 1), op.getIteratorTypesArray());
  rewriter.cloneRegionBefore(op.getRegion(), undilated.getRegion(),
                             undilated.getRegion().end());
  rewriter.replaceOp(
      op, aotc::leadingSlice(
              rewriter, loc,
              interleavePhases(rewriter, loc, undilated.getResult(0), n, dh,
                               dw),
              {n, 1, k, shape.height, shape.width}));
  return {undilated, phase};
}

} // namespace

bool aotc::canUseWinograd(linalg::LinalgOp op, int64_t minChannels) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  return generic &&
         matchConvolution(generic, minChannels, /*maxTile=*/4).has_value();
}

namespace {

struct WinogradConvolutionsPass
    : aotc::impl::WinogradConvolutionsBase<WinogradConvolutionsPass> {
  using Base::Base;

  /// The vector register file: the option's width when set, else the
  /// module's CpuTarget's (aotc::vectorRegistersOf).
  aotc::VectorRegisters registers;

  void runOnOperation() override {
    registers = aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    SmallVector<std::pair<linalg::GenericOp, Shape>, 4> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!aotc::isSelectedFor(op, aotc::ConvolutionPath::Winograd))
        return;
      if (std::optional<Shape> shape =
              matchConvolution(op, minChannels, maxTile))
        candidates.push_back({op, *shape});
    });
    IRRewriter rewriter(&getContext());
    // Each transform's rows are one group of parts, numbered after any the
    // function has already.
    int64_t nextGroup = aotc::newSiblingGroup(getOperation());
    for (auto [op, shape] : candidates) {
      if (shape.phases > 1)
        std::tie(op, shape) = splitPhases(rewriter, op, shape);
      rewrite(rewriter, op, shape, nextGroup);
    }
  }

  void rewrite(RewriterBase &rewriter, linalg::GenericOp op, const Shape &shape,
               int64_t &nextGroup) {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    int64_t n = shape.batch, k = shape.outputChannels, c = shape.inputChannels;
    Transform t = transformOf(shape.tile);
    int64_t tile = t.tile, alpha = t.alpha();
    // With more than one image, the transformed tiles keep the batch dim
    // after the channels ([.., c, n, i, j]: the tiles of all images are the
    // contractions' columns); with one, the IR has no batch dim at all.
    bool batched = n > 1;
    auto withBatch = [&](SmallVector<int64_t> dims, size_t at) {
      if (batched)
        dims.insert(dims.begin() + at, n);
      return dims;
    };
    // Tiles cover an odd image's last row or column too: the input is then
    // padded by one more row or column of zeros, and the output computed
    // one larger and sliced.
    int64_t th = llvm::divideCeil(shape.height, tile);
    int64_t tw = llvm::divideCeil(shape.width, tile);
    int64_t paddedWidth = tw * tile + kWindow - 1;
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    auto maps = [&](unsigned loops,
                    ArrayRef<SmallVector<AffineExpr>> operands) {
      SmallVector<AffineMap> result;
      for (const SmallVector<AffineExpr> &exprs : operands)
        result.push_back(AffineMap::get(loops, 0, exprs, ctx));
      return result;
    };
    Value at = matrixConstant(rewriter, loc, t.at, tile);

    // Input transform, on x[c, h, w] (the input without its unit batch and
    // group dims): columns first, on every padded row, w[nu, c, h, j] =
    // sum_b BT[nu, b] x[c, h, m j + b] (stride-m reads of x), then rows,
    // contiguous, v[xi, nu, c, i, j] = sum_a BT[xi, a] w[nu, c, m i + a, j].
    // With a batch, x[n, c, h, w] and w[nu, c, n, h, j] (the column stage
    // reads x's outer dims transposed), v[xi, nu, c, n, i, j].
    // Each row of B^T has two (m = 2, each +1 or -1: one add or subtract)
    // to four nonzero coefficients, a weighted sum per element and stage,
    // vectorized along j. (As contractions over a, with B^T a constant
    // operand, the stages were vectorized as strided convolutions with
    // 2 x 2 register tiles, slower than the signed sums.)
    Value input = op.getDpsInputs()[0];
    auto inputShape = cast<RankedTensorType>(input.getType()).getShape();
    Value x = padImage(
        rewriter, loc, input,
        withBatch({c, std::max(inputShape[3], th * tile + kWindow - 1),
                   std::max(inputShape[4], paddedWidth)},
                  0));
    int64_t xRank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<Value> columnTaps, rowTaps;
    for (int64_t b = 0; b < alpha; ++b)
      columnTaps.push_back(
          strided(rewriter, loc, x, xRank - 1, b, tw, tile));
    Value w = transformRows(rewriter, loc, t.bt, alpha, columnTaps, nextGroup++,
                            batched ? SmallVector<int64_t>{1, 0, 2, 3}
                                    : SmallVector<int64_t>{});
    for (int64_t a = 0; a < alpha; ++a)
      rowTaps.push_back(strided(rewriter, loc, w, xRank - 1, a, th, tile));
    Value tiles =
        transformRows(rewriter, loc, t.bt, alpha, rowTaps, nextGroup++);
    SmallVector<ReassociationIndices> tileGroups = {{0, 1}, {2}, {3, 4}};
    if (batched)
      tileGroups.back().push_back(5);
    Value v = tensor::CollapseShapeOp::create(rewriter, loc, tiles, tileGroups);
    // The tiles are the contractions' lanes, padded with zeros to whole
    // registers: a remainder narrower than a register reads all of u again
    // with partial vectors (49 tiles of a 14 x 14 image on AVX2: a
    // 1-column remainder). Not to whole register tiles (two registers): the
    // contractions read v in place (aotc-pack-contraction-operands leaves
    // shallow run-time right-hand sides unpacked) and a one-register
    // remainder is a register tile of its own, while padding copies v (784
    // tiles of a 56 x 56 image padded to 800 on AVX-512), and the padded v
    // is then packed too: two copies of the whole transformed input.
    int64_t count = n * th * tw;
    int64_t lanes = aotc::registerLanes(registers.bits, 32);
    int64_t panel = aotc::kContractionRegistersPerRow * lanes;
    int64_t columns = llvm::alignTo(count, lanes);
    // When whole registers of tiles would waste too much of the
    // contractions (aotc::winogradChannelsLast), the output channels are
    // the lanes instead (K a whole number of register tiles) and the tiles
    // the rows, padded to whole row tiles (49 -> 54 on AVX2, 10% more):
    // m[e, t, k] = sum_c v[e, c, t] u[e, c, k], with u laid out
    // [alpha^2, C, K] at compile time. The output transform's last stage
    // then reads k-contiguous rows into the image's columns (a transpose).
    // Decided on one image's tiles (the filter's layout must not depend on
    // the batch, see matchConvolution).
    int64_t tilesPerImage = shape.phases * th * tw;
    bool channelsLast = aotc::winogradChannelsLast(
        tilesPerImage, llvm::alignTo(tilesPerImage, lanes), k, panel, c);
    // The alpha^2 contractions over the input channels: m[e, k, t] = sum_c
    // u[e, k, c] v[e, c, t], or with channels last m[e, t, k] = sum_c
    // v[e, c, t] u[e, c, k]; m's part without the padding, as
    // [alpha, alpha, ...].
    int64_t padded =
        channelsLast ? llvm::alignTo(count, aotc::contractionRows(registers))
                     : columns;
    v = padHigh(rewriter, loc, v, {alpha * alpha, c, padded});
    Value u = arith::ConstantOp::create(
        rewriter, loc, transformFilter(shape, t, channelsLast));
    Value lhs = u, rhs = v;
    SmallVector<AffineExpr> lhsExprs = {d(0), d(1), d(3)};
    SmallVector<int64_t> productShape =
        withBatch({alpha, alpha, k, th, tw}, 3);
    SmallVector<ReassociationIndices> productGroups = tileGroups;
    if (channelsLast) {
      std::swap(lhs, rhs);
      lhsExprs = {d(0), d(3), d(1)};
      productShape = withBatch({alpha, alpha, th, tw, k}, 2);
      productGroups =
          batched ? SmallVector<ReassociationIndices>{{0, 1}, {2, 3, 4}, {5}}
                  : SmallVector<ReassociationIndices>{{0, 1}, {2, 3}, {4}};
    }
    auto contractionShape = [&](int64_t tiles) {
      return channelsLast ? SmallVector<int64_t>{alpha * alpha, tiles, k}
                          : SmallVector<int64_t>{alpha * alpha, k, tiles};
    };
    Value m = multiplyAccumulate(
        rewriter, loc, lhs, rhs, zeros(rewriter, loc, contractionShape(padded)),
        maps(4, {lhsExprs, {d(0), d(3), d(2)}, {d(0), d(1), d(2)}}));
    m = aotc::leadingSlice(rewriter, loc, m, contractionShape(count));
    Value products = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(productShape, rewriter.getF32Type()), m,
        productGroups);

    // Output transform, rows then columns, accumulated into the
    // convolution's own init (its bias or zeros): s[p, nu, k, i, j] =
    // sum_xi AT[p, xi] m[xi, nu, k, i, j] (signed sums of three taps; with
    // channels last s[p, nu, i, j, k] from m[xi, nu, i, j, k]), then
    // y[0, 0, k, i, p, j, q] += sum_nu AT[q, nu] s[p, nu, k, i, j]. With a
    // batch, s[p, nu, k, n, i, j] (s[p, nu, n, i, j, k]) and y[n, ...].
    SmallVector<Value> productTaps;
    for (int64_t xi = 0; xi < alpha; ++xi)
      productTaps.push_back(leadingIndex(rewriter, loc, products, xi));
    Value half =
        transformRows(rewriter, loc, t.at, tile, productTaps, nextGroup++);
    Value init = padInit(rewriter, loc, op.getDpsInits()[0],
                         {n, 1, k, th * tile, tw * tile});
    auto tiledType = RankedTensorType::get({n, 1, k, th, tile, tw, tile},
                                           rewriter.getF32Type());
    SmallVector<ReassociationIndices> imageTiles = {
        {0}, {1}, {2}, {3, 4}, {5, 6}};
    Value tiledInit = tensor::ExpandShapeOp::create(rewriter, loc, tiledType,
                                                    init, imageTiles);
    SmallVector<AffineExpr> halfExprs =
        channelsLast ? SmallVector<AffineExpr>{d(4), d(7), d(3), d(5), d(2)}
                     : SmallVector<AffineExpr>{d(4), d(7), d(2), d(3), d(5)};
    if (batched)
      halfExprs.insert(halfExprs.begin() + (channelsLast ? 2 : 3), d(0));
    Value y = multiplyAccumulate(
        rewriter, loc, at, half, tiledInit,
        maps(8, {{d(6), d(7)},
                 halfExprs,
                 {d(0), d(1), d(2), d(3), d(4), d(5), d(6)}}));
    Value result =
        tensor::CollapseShapeOp::create(rewriter, loc, y, imageTiles);
    rewriter.replaceOp(
        op, aotc::leadingSlice(rewriter, loc, result,
                               {n, 1, k, shape.height, shape.width}));
  }
};

} // namespace
