//===- Reductions.cpp - ONNX reduction and normalization ops -*- C++ -*-===//
//
// This file implements the specifications of ONNX's reductions (ReduceSum,
// ReduceMean, ..., ArgMax, CumSum) and normalizations (Softmax, LogSoftmax,
// LayerNormalization).
//
// Every reduction is one linalg.generic whose loops run over the input's
// shape, with `reduction` iterators on the reduced dimensions and an output
// indexing map that drops them; the accumulator starts at the combiner's
// identity (linalg.fill). keepdims=1 then inserts the unit dimensions with a
// tensor.expand_shape. float16/bfloat16 sums accumulate in float32.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "onnx/onnx_pb.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;

namespace aotc::onnx_frontend {
namespace {

constexpr int32_t kNumericTypes[] = {
    kFloat, kDouble, kFloat16, kBFloat16, kInt8,   kInt16,  kInt32,
    kInt64, kUInt8,  kUInt16,  kUInt32,   kUInt64};

using BodyFn =
    function_ref<Value(OpBuilder &, Location, ValueRange inputs, Value acc)>;
using MapFn = function_ref<Value(OpBuilder &, Location, ValueRange inputs)>;

/// The dtype float16/bfloat16 sums accumulate in (float32); others keep theirs.
int32_t accumulatorDtype(int32_t dtype) {
  return dtype == kFloat16 || dtype == kBFloat16 ? kFloat : dtype;
}

Value floatConst(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
}

Value intConst(OpBuilder &b, Location loc, Type t, const APInt &v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

/// The smallest (`largest` false) or largest value of `dtype`: -inf/+inf for
/// floats, the integer bounds otherwise.
Value extremeConstant(NodeContext &ctx, int32_t dtype, bool largest) {
  OpBuilder &b = ctx.builder();
  Type t = elementTypeOf(ctx.context(), dtype);
  if (isFloatType(dtype))
    return floatConst(b, ctx.loc(), t,
                      largest ? std::numeric_limits<double>::infinity()
                              : -std::numeric_limits<double>::infinity());
  unsigned w = t.getIntOrFloatBitWidth();
  APInt v = isUnsignedType(dtype)
                ? (largest ? APInt::getMaxValue(w) : APInt::getMinValue(w))
                : (largest ? APInt::getSignedMaxValue(w)
                           : APInt::getSignedMinValue(w));
  return intConst(b, ctx.loc(), t, v);
}

/// Loops over `inShape`: the map reading an operand that holds only the
/// dimensions not in `reduced`.
AffineMap keptMap(MLIRContext *mctx, ArrayRef<bool> reduced) {
  SmallVector<AffineExpr> exprs;
  for (auto [i, r] : llvm::enumerate(reduced))
    if (!r)
      exprs.push_back(getAffineDimExpr(i, mctx));
  return AffineMap::get(reduced.size(), 0, exprs, mctx);
}

Shape keptShape(const Shape &inShape, ArrayRef<bool> reduced) {
  Shape s;
  for (auto [d, r] : llvm::zip(inShape, reduced))
    if (!r)
      s.push_back(d);
  return s;
}

Shape keepdimsShape(const Shape &inShape, ArrayRef<bool> reduced) {
  Shape s;
  for (auto [d, r] : llvm::zip(inShape, reduced))
    s.push_back(r ? 1 : d);
  return s;
}

int64_t reducedCount(const Shape &inShape, ArrayRef<bool> reduced) {
  int64_t n = 1;
  for (auto [d, r] : llvm::zip(inShape, reduced))
    if (r)
      n *= d;
  return n;
}

/// A linalg.generic over loops `loopShape`, all parallel, writing a tensor of
/// `loopShape` and `dtype` through the identity map; `maps` read `inputs`.
Value parallelGeneric(NodeContext &ctx, ArrayRef<Value> inputs,
                      ArrayRef<AffineMap> maps, const Shape &loopShape,
                      int32_t dtype, MapFn body) {
  return buildParallelGeneric(ctx, inputs, maps, loopShape, dtype, body);
}

/// A linalg.generic over loops `inShape` that reduces the dimensions marked in
/// `reduced`: the result (dtype `accDtype`) has the kept dimensions, starts at
/// `init` and is updated by `body(inputs, acc)` at every point.
Value reduceGeneric(NodeContext &ctx, const Shape &inShape,
                    ArrayRef<bool> reduced, ArrayRef<Value> inputs,
                    ArrayRef<AffineMap> maps, Value init, int32_t accDtype,
                    BodyFn body) {
  MLIRContext *mctx = ctx.context();
  OpBuilder &b = ctx.builder();
  Shape outShape = keptShape(inShape, reduced);
  Value empty = ctx.emptyTensor(outShape, accDtype);
  Value filled = linalg::FillOp::create(b, ctx.loc(), init, empty).getResult(0);
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(keptMap(mctx, reduced));
  SmallVector<utils::IteratorType> iterators;
  for (bool r : reduced)
    iterators.push_back(r ? utils::IteratorType::reduction
                          : utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, ctx.loc(), filled.getType(), inputs, ValueRange{filled}, allMaps,
      iterators, [&](OpBuilder &nb, Location loc, ValueRange args) {
        linalg::YieldOp::create(
            nb, loc, body(nb, loc, args.drop_back(), args.back()));
      });
  return generic.getResult(0);
}

/// Reinserts the reduced dimensions of a kept-dims tensor as size-1
/// dimensions (keepdims=1).
Value expandKeepdims(NodeContext &ctx, Value v, const Shape &inShape,
                     ArrayRef<bool> reduced) {
  if (llvm::none_of(reduced, [](bool r) { return r; }))
    return v;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [i, r] : llvm::enumerate(reduced)) {
    pending.push_back(i);
    if (!r) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!pending.empty() && !groups.empty())
    groups.back().append(pending.begin(), pending.end());
  auto type = tensorTypeOf(keepdimsShape(inShape, reduced),
                           cast<RankedTensorType>(v.getType()).getElementType());
  return tensor::ExpandShapeOp::create(ctx.builder(), ctx.loc(), type, v,
                                       groups)
      .getResult();
}

Value maxOf(OpBuilder &b, Location loc, Value x, Value y, int32_t dtype) {
  if (isFloatType(dtype)) // NaN-propagating, as numpy.max
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isUnsignedType(dtype))
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value minOf(OpBuilder &b, Location loc, Value x, Value y, int32_t dtype) {
  if (isFloatType(dtype))
    return arith::MinimumFOp::create(b, loc, x, y);
  if (isUnsignedType(dtype))
    return arith::MinUIOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

FailureOr<bool> boolAttr(NodeContext &ctx, StringRef name, int64_t dflt) {
  int64_t v = ctx.intAttr(name, dflt);
  if (v != 0 && v != 1) {
    ctx.attributeError(name) << "value " << v << " is not 0 or 1";
    return failure();
  }
  return v == 1;
}

//===----------------------------------------------------------------------===//
// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
// ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp
//===----------------------------------------------------------------------===//

enum class ReduceKind {
  Sum, Mean, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp
};

/// The reduced dimensions of a Reduce* node, from the `axes` attribute (before
/// `inputOpset`) or the optional `axes` input (from `inputOpset` on).
struct ReduceAxes {
  SmallVector<bool> reduced; ///< one flag per input dimension
  bool noop = false;         ///< empty axes with noop_with_empty_axes=1
  bool keepdims = true;
};

/// Reductions divide by (or otherwise depend on) the number of reduced
/// elements at compile time: the reduced dimensions must be static.
LogicalResult requireStaticReduced(NodeContext &ctx, ArrayRef<bool> reduced) {
  for (auto [d, r] : llvm::zip(ctx.input(0).shape, reduced))
    if (r && isSymbolDim(d)) {
      ctx.error() << "reducing over symbolic dimension " << ctx.describeDim(d)
                  << " is not supported";
      return failure();
    }
  return success();
}

FailureOr<ReduceAxes> reduceAxes(NodeContext &ctx, int64_t inputOpset) {
  int64_t rank = ctx.input(0).shape.size();
  bool inputForm = ctx.opset() >= inputOpset;
  ReduceAxes result;
  FailureOr<bool> keepdims = boolAttr(ctx, "keepdims", 1);
  if (failed(keepdims))
    return failure();
  result.keepdims = *keepdims;
  SmallVector<int64_t> axes;
  bool noopWithEmpty = false;
  if (inputForm) {
    if (ctx.hasAttribute("axes")) {
      ctx.attributeError("axes") << "is an input, not an attribute, since "
                                    "opset "
                                 << inputOpset;
      return failure();
    }
    FailureOr<bool> noop = boolAttr(ctx, "noop_with_empty_axes", 0);
    if (failed(noop))
      return failure();
    noopWithEmpty = *noop;
    if (ctx.hasInput(1)) {
      const TensorValue &a = ctx.input(1);
      if (a.dtype != kInt64 && a.dtype != kInt32) {
        ctx.error() << "input 'axes' has dtype " << onnxTypeName(a.dtype)
                    << ", expected int64";
        return failure();
      }
      if (a.shape.size() > 1) {
        ctx.error() << "input 'axes' must be 1-D";
        return failure();
      }
      // An empty axes tensor is known without its contents.
      if (a.numElements() != 0) {
        FailureOr<SmallVector<int64_t>> v = ctx.constantInts(1, "input 'axes'");
        if (failed(v))
          return failure();
        axes = *v;
      }
    }
  } else {
    if (ctx.numInputs() > 1) {
      ctx.error() << "'axes' is an attribute before opset " << inputOpset
                  << ", the node has " << ctx.numInputs() << " inputs";
      return failure();
    }
    if (ctx.hasAttribute("noop_with_empty_axes")) {
      ctx.attributeError("noop_with_empty_axes")
          << "is only defined from opset " << inputOpset << " on";
      return failure();
    }
    axes = ctx.intsAttr("axes");
  }
  result.reduced.assign(rank, false);
  for (int64_t axis : axes) {
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      ctx.error() << "axis " << axis << " is out of range for rank " << rank;
      return failure();
    }
    if (result.reduced[a]) {
      ctx.error() << "axis " << axis << " appears more than once in 'axes'";
      return failure();
    }
    result.reduced[a] = true;
  }
  if (axes.empty()) {
    if (noopWithEmpty)
      result.noop = true;
    else
      result.reduced.assign(rank, true);
  }
  if (!result.noop && failed(requireStaticReduced(ctx, result.reduced)))
    return failure();
  return result;
}

OpSpec reduceOp(ReduceKind kind, int64_t inputOpset) {
  bool floatOnly = kind == ReduceKind::L2 || kind == ReduceKind::LogSum ||
                   kind == ReduceKind::LogSumExp;
  OpSpec spec;
  spec.dtype = [floatOnly](NodeContext &ctx)
      -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0,
                            floatOnly ? ArrayRef<int32_t>(kFloatTypes)
                                      : ArrayRef<int32_t>(kNumericTypes))))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [kind, inputOpset](NodeContext &ctx)
      -> FailureOr<SmallVector<Shape>> {
    FailureOr<ReduceAxes> axes = reduceAxes(ctx, inputOpset);
    if (failed(axes))
      return failure();
    const Shape &in = ctx.input(0).shape;
    if (axes->noop) {
      // The spec says the output equals the input; for ops that transform
      // elements (|x|, x^2, log, ...) the reference implementations disagree.
      if (kind != ReduceKind::Sum && kind != ReduceKind::Mean &&
          kind != ReduceKind::Max && kind != ReduceKind::Min &&
          kind != ReduceKind::Prod) {
        ctx.attributeError("noop_with_empty_axes")
            << "value 1 with empty axes is not supported for "
            << ctx.opType();
        return failure();
      }
      return SmallVector<Shape>{in};
    }
    if (kind == ReduceKind::Mean && !isFloatType(ctx.input(0).dtype) &&
        reducedCount(in, axes->reduced) == 0) {
      ctx.error() << "integer mean over an empty set of elements";
      return failure();
    }
    return SmallVector<Shape>{axes->keepdims
                                  ? keepdimsShape(in, axes->reduced)
                                  : keptShape(in, axes->reduced)};
  };
  spec.lower = [kind, inputOpset](NodeContext &ctx,
                                  ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<ReduceAxes> axes = reduceAxes(ctx, inputOpset);
    if (failed(axes))
      return failure();
    Value x = ctx.inputValue(0);
    if (axes->noop)
      return SmallVector<Value>{x};
    MLIRContext *mctx = ctx.context();
    const Shape &in = ctx.input(0).shape;
    ArrayRef<bool> reduced = axes->reduced;
    int32_t dtype = ctx.input(0).dtype;
    int32_t acc = accumulatorDtype(dtype);
    // An integer mean sums in 64 bits (as numpy.mean), then truncates.
    if (kind == ReduceKind::Mean && !isFloatType(dtype))
      acc = isUnsignedType(dtype) ? kUInt64 : kInt64;
    Type accType = elementTypeOf(mctx, acc);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(in.size(), mctx);
    AffineMap kept = keptMap(mctx, reduced);
    Shape outShape = keptShape(in, reduced);
    auto toAcc = [&](OpBuilder &b, Location loc, Value v) {
      return convertScalar(b, loc, v, dtype, acc);
    };

    Value result;
    switch (kind) {
    case ReduceKind::Max:
    case ReduceKind::Min: {
      bool isMax = kind == ReduceKind::Max;
      result = reduceGeneric(
          ctx, in, reduced, {x}, {identity},
          extremeConstant(ctx, acc, /*largest=*/!isMax), acc,
          [&](OpBuilder &b, Location loc, ValueRange a, Value r) {
            Value v = toAcc(b, loc, a[0]);
            return isMax ? maxOf(b, loc, r, v, acc) : minOf(b, loc, r, v, acc);
          });
      break;
    }
    case ReduceKind::LogSumExp: {
      // shift = max (0 when infinite), then log(sum(exp(x - shift))) + shift.
      Value m = reduceGeneric(
          ctx, in, reduced, {x}, {identity},
          extremeConstant(ctx, acc, /*largest=*/false), acc,
          [&](OpBuilder &b, Location loc, ValueRange a, Value r) {
            return maxOf(b, loc, r, toAcc(b, loc, a[0]), acc);
          });
      Value shift = parallelGeneric(
          ctx, {m}, {AffineMap::getMultiDimIdentityMap(outShape.size(), mctx)},
          outShape, acc, [&](OpBuilder &b, Location loc, ValueRange a) {
            Value inf = floatConst(b, loc, accType,
                                   std::numeric_limits<double>::infinity());
            Value isInf = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OEQ,
                math::AbsFOp::create(b, loc, a[0]), inf);
            return arith::SelectOp::create(
                       b, loc, isInf, floatConst(b, loc, accType, 0.0), a[0])
                .getResult();
          });
      Value sum = reduceGeneric(
          ctx, in, reduced, {x, shift}, {identity, kept},
          ctx.scalarConstant(0.0, acc), acc,
          [&](OpBuilder &b, Location loc, ValueRange a, Value r) {
            Value d = arith::SubFOp::create(b, loc, toAcc(b, loc, a[0]), a[1]);
            return arith::AddFOp::create(b, loc, r,
                                         math::ExpOp::create(b, loc, d));
          });
      AffineMap outId = AffineMap::getMultiDimIdentityMap(outShape.size(), mctx);
      result = parallelGeneric(
          ctx, {sum, shift}, {outId, outId}, outShape, acc,
          [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
            return arith::AddFOp::create(b, loc,
                                         math::LogOp::create(b, loc, a[0]),
                                         a[1]);
          });
      break;
    }
    default: {
      bool isProd = kind == ReduceKind::Prod;
      result = reduceGeneric(
          ctx, in, reduced, {x}, {identity},
          ctx.scalarConstant(isProd ? 1.0 : 0.0, acc), acc,
          [&](OpBuilder &b, Location loc, ValueRange a, Value r) -> Value {
            Value v = toAcc(b, loc, a[0]);
            switch (kind) {
            case ReduceKind::Prod:
              return mulScalar(b, loc, r, v);
            case ReduceKind::L1:
              if (isFloatType(acc))
                v = math::AbsFOp::create(b, loc, v);
              else if (!isUnsignedType(acc))
                v = math::AbsIOp::create(b, loc, v);
              break;
            case ReduceKind::L2:
            case ReduceKind::SumSquare:
              v = mulScalar(b, loc, v, v);
              break;
            default:
              break;
            }
            return addScalar(b, loc, r, v);
          });
      // Post-processing of the sum.
      if (kind == ReduceKind::Mean || kind == ReduceKind::L2 ||
          kind == ReduceKind::LogSum) {
        int64_t count = reducedCount(in, reduced);
        result = parallelGeneric(
            ctx, {result},
            {AffineMap::getMultiDimIdentityMap(outShape.size(), mctx)},
            outShape, acc, [&](OpBuilder &b, Location loc, ValueRange a) {
              Value s = a[0];
              if (kind == ReduceKind::L2)
                return math::SqrtOp::create(b, loc, s).getResult();
              if (kind == ReduceKind::LogSum)
                return math::LogOp::create(b, loc, s).getResult();
              if (isFloatType(acc))
                return arith::DivFOp::create(
                           b, loc, s, floatConst(b, loc, accType, count))
                    .getResult();
              Value n = intConst(b, loc, accType,
                                 APInt(accType.getIntOrFloatBitWidth(), count));
              if (isUnsignedType(acc))
                return arith::DivUIOp::create(b, loc, s, n).getResult();
              return arith::DivSIOp::create(b, loc, s, n).getResult();
            });
      }
      break;
    }
    }
    if (acc != dtype)
      result = parallelGeneric(
          ctx, {result},
          {AffineMap::getMultiDimIdentityMap(outShape.size(), mctx)},
          outShape, dtype, [&](OpBuilder &b, Location loc, ValueRange a) {
            return convertScalar(b, loc, a[0], acc, dtype);
          });
    if (axes->keepdims)
      result = expandKeepdims(ctx, result, in, reduced);
    return SmallVector<Value>{result};
  };
  // Integer Sum/Prod/Max/Min of constants (e.g. ReduceProd of a Shape) are
  // evaluated at compile time so that shape arithmetic stays constant.
  spec.fold = [kind, inputOpset](NodeContext &ctx,
                                 ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    const TensorValue &x = ctx.input(0);
    int32_t dtype = x.dtype;
    if (isFloatType(dtype) || dtype == kUInt64 ||
        x.numElements() > kFoldLimit ||
        (kind != ReduceKind::Sum && kind != ReduceKind::Prod &&
         kind != ReduceKind::Max && kind != ReduceKind::Min))
      return failure();
    FailureOr<ReduceAxes> axes = reduceAxes(ctx, inputOpset);
    if (failed(axes))
      return failure();
    if (axes->noop)
      return SmallVector<DenseElementsAttr>{*x.constant};
    if (reducedCount(x.shape, axes->reduced) == 0)
      return failure();
    SmallVector<int64_t> values = intValues(*x.constant, dtype);
    const Shape &in = x.shape;
    int64_t outCount = outputs[0].numElements();
    SmallVector<int64_t> result(outCount);
    SmallVector<bool> seen(outCount, false);
    SmallVector<int64_t> index(in.size(), 0);
    for (int64_t v : values) {
      int64_t out = 0;
      for (size_t d = 0; d < in.size(); ++d)
        if (!axes->reduced[d])
          out = out * in[d] + index[d];
      int64_t &r = result[out];
      if (!seen[out]) {
        r = v;
        seen[out] = true;
      } else {
        // Wrap-around arithmetic, as at run time (intConstant truncates).
        uint64_t ur = static_cast<uint64_t>(r), uv = static_cast<uint64_t>(v);
        switch (kind) {
        case ReduceKind::Sum:
          r = static_cast<int64_t>(ur + uv);
          break;
        case ReduceKind::Prod:
          r = static_cast<int64_t>(ur * uv);
          break;
        case ReduceKind::Max:
          r = std::max(r, v);
          break;
        default:
          r = std::min(r, v);
          break;
        }
      }
      for (int64_t d = in.size() - 1; d >= 0; --d) {
        if (++index[d] < in[d])
          break;
        index[d] = 0;
      }
    }
    return SmallVector<DenseElementsAttr>{
        intConstant(ctx.context(), dtype, outputs[0].shape, result)};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// ArgMax, ArgMin
//===----------------------------------------------------------------------===//

struct ArgAttrs {
  int64_t axis;
  bool keepdims, lastIndex;
};

FailureOr<ArgAttrs> argAttrs(NodeContext &ctx) {
  const Shape &in = ctx.input(0).shape;
  if (in.empty()) {
    ctx.error() << "the input must have rank >= 1";
    return failure();
  }
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.intAttr("axis", 0), in.size());
  FailureOr<bool> keepdims = boolAttr(ctx, "keepdims", 1);
  if (failed(axis) || failed(keepdims))
    return failure();
  if (ctx.opset() < 12 && ctx.hasAttribute("select_last_index")) {
    ctx.attributeError("select_last_index") << "is only defined from opset 12";
    return failure();
  }
  FailureOr<bool> last = boolAttr(ctx, "select_last_index", 0);
  if (failed(last))
    return failure();
  if (in[*axis] == 0) {
    ctx.error() << "the reduced axis " << *axis << " has size 0";
    return failure();
  }
  return ArgAttrs{*axis, *keepdims, *last};
}

OpSpec argOp(bool isMax) {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kNumericTypes)))
      return failure();
    return SmallVector<int32_t>{kInt64};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<ArgAttrs> attrs = argAttrs(ctx);
    if (failed(attrs))
      return failure();
    const Shape &in = ctx.input(0).shape;
    SmallVector<bool> reduced(in.size(), false);
    reduced[attrs->axis] = true;
    return SmallVector<Shape>{attrs->keepdims ? keepdimsShape(in, reduced)
                                              : keptShape(in, reduced)};
  };
  spec.lower = [isMax](NodeContext &ctx, ArrayRef<TensorValue>)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<ArgAttrs> attrs = argAttrs(ctx);
    if (failed(attrs))
      return failure();
    MLIRContext *mctx = ctx.context();
    OpBuilder &b = ctx.builder();
    const Shape &in = ctx.input(0).shape;
    int32_t dtype = ctx.input(0).dtype;
    SmallVector<bool> reduced(in.size(), false);
    reduced[attrs->axis] = true;
    Shape outShape = keptShape(in, reduced);
    bool last = attrs->lastIndex;
    int64_t axis = attrs->axis;

    // Two reductions: m = max (min) along the axis, NaN-propagating; then the
    // smallest (largest with select_last_index) index whose element equals m,
    // NaN matching NaN. This gives numpy.argmax/argmin's answer (first NaN
    // wins) and is independent of the visiting order.
    AffineMap identity = AffineMap::getMultiDimIdentityMap(in.size(), mctx);
    AffineMap kept = keptMap(mctx, reduced);
    Value x = ctx.inputValue(0);
    Value m = reduceGeneric(
        ctx, in, reduced, {x}, {identity},
        extremeConstant(ctx, dtype, /*largest=*/!isMax), dtype,
        [&](OpBuilder &nb, Location loc, ValueRange a, Value r) {
          return isMax ? maxOf(nb, loc, r, a[0], dtype)
                       : minOf(nb, loc, r, a[0], dtype);
        });
    int64_t sentinel = last ? -1 : std::numeric_limits<int64_t>::max();
    Value indexInit =
        arith::ConstantOp::create(b, ctx.loc(), b.getI64IntegerAttr(sentinel));
    Value result = reduceGeneric(
        ctx, in, reduced, {x, m}, {identity, kept}, indexInit, kInt64,
        [&](OpBuilder &nb, Location loc, ValueRange a, Value r) -> Value {
          Value match;
          if (isFloatType(dtype)) {
            Value eq = arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::OEQ,
                                             a[0], a[1]);
            Value xNan = arith::CmpFOp::create(
                nb, loc, arith::CmpFPredicate::UNO, a[0], a[0]);
            Value mNan = arith::CmpFOp::create(
                nb, loc, arith::CmpFPredicate::UNO, a[1], a[1]);
            match = arith::OrIOp::create(
                nb, loc, eq, arith::AndIOp::create(nb, loc, xNan, mNan));
          } else {
            match = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq,
                                          a[0], a[1]);
          }
          Value index = arith::IndexCastOp::create(
              nb, loc, nb.getI64Type(), linalg::IndexOp::create(nb, loc, axis));
          Value none = arith::ConstantOp::create(
              nb, loc, nb.getI64IntegerAttr(sentinel));
          Value candidate = arith::SelectOp::create(nb, loc, match, index, none);
          return last ? arith::MaxSIOp::create(nb, loc, r, candidate).getResult()
                      : arith::MinSIOp::create(nb, loc, r, candidate).getResult();
        });
    if (attrs->keepdims)
      result = expandKeepdims(ctx, result, in, reduced);
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Softmax, LogSoftmax
//===----------------------------------------------------------------------===//

/// The dimensions a (Log)Softmax normalizes over: one axis (default -1) from
/// opset 13, all dimensions from `axis` (default 1) on before (the input is
/// coerced to 2-D [prod(dims[:axis]), prod(dims[axis:])]).
FailureOr<SmallVector<bool>> softmaxDims(NodeContext &ctx) {
  int64_t rank = ctx.input(0).shape.size();
  if (rank == 0) {
    ctx.error() << "the input must have rank >= 1";
    return failure();
  }
  bool newSemantics = ctx.opset() >= 13;
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.intAttr("axis", newSemantics ? -1 : 1), rank);
  if (failed(axis))
    return failure();
  SmallVector<bool> reduced(rank, false);
  for (int64_t i = *axis; i < (newSemantics ? *axis + 1 : rank); ++i)
    reduced[i] = true;
  return reduced;
}

OpSpec softmaxOp(bool isLog) {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kFloatTypes)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    if (failed(softmaxDims(ctx)))
      return failure();
    return SmallVector<Shape>{ctx.input(0).shape};
  };
  spec.lower = [isLog](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<SmallVector<bool>> reduced = softmaxDims(ctx);
    if (failed(reduced))
      return failure();
    MLIRContext *mctx = ctx.context();
    const Shape &in = ctx.input(0).shape;
    int32_t dtype = ctx.input(0).dtype;
    int32_t acc = accumulatorDtype(dtype);
    Value x = ctx.inputValue(0);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(in.size(), mctx);
    AffineMap kept = keptMap(mctx, *reduced);
    auto toAcc = [&](OpBuilder &b, Location loc, Value v) {
      return convertScalar(b, loc, v, dtype, acc);
    };
    // m = max(x); s = sum(exp(x - m)); y = exp(x - m) / s or x - m - log(s).
    Value m = reduceGeneric(
        ctx, in, *reduced, {x}, {identity},
        extremeConstant(ctx, acc, /*largest=*/false), acc,
        [&](OpBuilder &b, Location loc, ValueRange a, Value r) {
          return maxOf(b, loc, r, toAcc(b, loc, a[0]), acc);
        });
    Value s = reduceGeneric(
        ctx, in, *reduced, {x, m}, {identity, kept},
        ctx.scalarConstant(0.0, acc), acc,
        [&](OpBuilder &b, Location loc, ValueRange a, Value r) -> Value {
          Value d = arith::SubFOp::create(b, loc, toAcc(b, loc, a[0]), a[1]);
          return arith::AddFOp::create(b, loc, r,
                                       math::ExpOp::create(b, loc, d));
        });
    Value y = parallelGeneric(
        ctx, {x, m, s}, {identity, kept, kept}, in, dtype,
        [&](OpBuilder &b, Location loc, ValueRange a) {
          Value d = arith::SubFOp::create(b, loc, toAcc(b, loc, a[0]), a[1]);
          Value r = isLog ? arith::SubFOp::create(
                                b, loc, d, math::LogOp::create(b, loc, a[2]))
                                .getResult()
                          : arith::DivFOp::create(
                                b, loc, math::ExpOp::create(b, loc, d), a[2])
                                .getResult();
          return convertScalar(b, loc, r, acc, dtype);
        });
    return SmallVector<Value>{y};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// LayerNormalization (opset 17)
//===----------------------------------------------------------------------===//

struct LayerNormAttrs {
  int64_t axis;
  int32_t stash; ///< the dtype mean/variance are computed in (stash_type)
  /// Outputs to produce: 1 (Y), 2 (Y, Mean) or 3 (Y, Mean, InvStdDev), as
  /// many as the node lists (the importer expects no more than that).
  int numOutputs;
};

FailureOr<LayerNormAttrs> layerNormAttrs(NodeContext &ctx) {
  const Shape &in = ctx.input(0).shape;
  if (in.empty()) {
    ctx.error() << "the input must have rank >= 1";
    return failure();
  }
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.intAttr("axis", -1), in.size());
  if (failed(axis))
    return failure();
  SmallVector<bool> normalized(in.size(), false);
  for (size_t i = *axis; i < in.size(); ++i)
    normalized[i] = true;
  if (failed(requireStaticReduced(ctx, normalized)))
    return failure();
  int64_t stash = ctx.intAttr("stash_type", kFloat);
  if (!isFloatType(stash)) {
    ctx.attributeError("stash_type")
        << "value " << stash << " is not a supported float type";
    return failure();
  }
  if (!ctx.hasInput(1)) {
    ctx.error() << "input 'Scale' is required";
    return failure();
  }
  for (size_t i = 1; i < 3; ++i) {
    if (!ctx.hasInput(i))
      continue;
    const TensorValue &p = ctx.input(i);
    if (p.dtype != ctx.input(0).dtype) {
      ctx.error() << "input " << i << " has dtype " << onnxTypeName(p.dtype)
                  << " but X has " << onnxTypeName(ctx.input(0).dtype);
      return failure();
    }
    // Unidirectional broadcast to X's shape.
    bool ok = p.shape.size() <= in.size();
    for (size_t k = 0; ok && k < p.shape.size(); ++k) {
      int64_t d = p.shape[p.shape.size() - 1 - k];
      ok = d == 1 || d == in[in.size() - 1 - k];
    }
    if (!ok) {
      InFlightDiagnostic diag = ctx.error();
      diag << "input " << i << " of shape [";
      llvm::interleaveComma(p.shape, diag);
      diag << "] does not broadcast to X's shape [";
      llvm::interleaveComma(in, diag);
      diag << "]";
      return failure();
    }
  }
  int numOutputs = std::clamp(ctx.node().output_size(), 1, 3);
  return LayerNormAttrs{*axis, static_cast<int32_t>(stash), numOutputs};
}

OpSpec layerNormOp() {
  OpSpec spec;
  spec.minOpset = 17;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kFloatTypes)))
      return failure();
    FailureOr<LayerNormAttrs> attrs = layerNormAttrs(ctx);
    if (failed(attrs))
      return failure();
    SmallVector<int32_t> dtypes = {ctx.input(0).dtype};
    dtypes.append(attrs->numOutputs - 1, attrs->stash);
    return dtypes;
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<LayerNormAttrs> attrs = layerNormAttrs(ctx);
    if (failed(attrs))
      return failure();
    const Shape &in = ctx.input(0).shape;
    SmallVector<Shape> shapes = {in};
    Shape stat(in.begin(), in.end());
    for (size_t i = attrs->axis; i < in.size(); ++i)
      stat[i] = 1;
    shapes.append(attrs->numOutputs - 1, stat);
    return shapes;
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue>)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<LayerNormAttrs> attrs = layerNormAttrs(ctx);
    if (failed(attrs))
      return failure();
    MLIRContext *mctx = ctx.context();
    const Shape &in = ctx.input(0).shape;
    int32_t dtype = ctx.input(0).dtype, stash = attrs->stash;
    Type stashType = elementTypeOf(mctx, stash);
    SmallVector<bool> reduced(in.size(), false);
    for (size_t i = attrs->axis; i < in.size(); ++i)
      reduced[i] = true;
    Shape outer = keptShape(in, reduced);
    int64_t count = reducedCount(in, reduced);
    double epsilon = ctx.floatAttr("epsilon", 1e-5f);
    Value x = ctx.inputValue(0);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(in.size(), mctx);
    AffineMap outerId = AffineMap::getMultiDimIdentityMap(outer.size(), mctx);
    AffineMap kept = keptMap(mctx, reduced);
    auto toStash = [&](OpBuilder &b, Location loc, Value v) {
      return convertScalar(b, loc, v, dtype, stash);
    };
    auto sumOver = [&](ArrayRef<Value> inputs, ArrayRef<AffineMap> maps,
                       function_ref<Value(OpBuilder &, Location, ValueRange)>
                           term) {
      return reduceGeneric(
          ctx, in, reduced, inputs, maps, ctx.scalarConstant(0.0, stash),
          stash, [&](OpBuilder &b, Location loc, ValueRange a, Value r) {
            return arith::AddFOp::create(b, loc, r, term(b, loc, a))
                .getResult();
          });
    };
    // mean = sum / count; invStdDev = 1 / sqrt(sum / count + epsilon).
    auto divideByCount = [&](Value v, bool invSqrt) {
      return parallelGeneric(
          ctx, {v}, {outerId}, outer, stash,
          [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
            Value r = arith::DivFOp::create(
                b, loc, a[0], floatConst(b, loc, stashType, count));
            if (!invSqrt)
              return r;
            r = arith::AddFOp::create(b, loc, r,
                                      floatConst(b, loc, stashType, epsilon));
            return arith::DivFOp::create(b, loc,
                                         floatConst(b, loc, stashType, 1.0),
                                         math::SqrtOp::create(b, loc, r));
          });
    };
    Value mean = divideByCount(
        sumOver({x}, {identity},
                [&](OpBuilder &b, Location loc, ValueRange a) {
                  return toStash(b, loc, a[0]);
                }),
        /*invSqrt=*/false);
    Value invStdDev = divideByCount(
        sumOver({x, mean}, {identity, kept},
                [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
                  Value d =
                      arith::SubFOp::create(b, loc, toStash(b, loc, a[0]), a[1]);
                  return arith::MulFOp::create(b, loc, d, d);
                }),
        /*invSqrt=*/true);
    // Y = cast((x - mean) * invStdDev) * Scale + B, the affine part in X's
    // dtype as in the spec's function body.
    SmallVector<Value> inputs = {x, mean, invStdDev, ctx.inputValue(1)};
    SmallVector<AffineMap> maps = {identity, kept, kept,
                                   broadcastMap(mctx, ctx.input(1).shape, in)};
    bool hasBias = ctx.hasInput(2);
    if (hasBias) {
      inputs.push_back(ctx.inputValue(2));
      maps.push_back(broadcastMap(mctx, ctx.input(2).shape, in));
    }
    Value y = parallelGeneric(
        ctx, inputs, maps, in, dtype,
        [&](OpBuilder &b, Location loc, ValueRange a) {
          Value d = arith::SubFOp::create(b, loc, toStash(b, loc, a[0]), a[1]);
          Value n = arith::MulFOp::create(b, loc, d, a[2]);
          Value r = arith::MulFOp::create(
              b, loc, convertScalar(b, loc, n, stash, dtype), a[3]);
          if (hasBias)
            r = arith::AddFOp::create(b, loc, r, a[4]);
          return r;
        });
    SmallVector<Value> results = {y};
    if (attrs->numOutputs > 1)
      results.push_back(expandKeepdims(ctx, mean, in, reduced));
    if (attrs->numOutputs > 2)
      results.push_back(expandKeepdims(ctx, invStdDev, in, reduced));
    return results;
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// CumSum
//===----------------------------------------------------------------------===//

FailureOr<int64_t> cumSumAxis(NodeContext &ctx) {
  if (!ctx.hasInput(1)) {
    ctx.error() << "input 'axis' is required";
    return failure();
  }
  const TensorValue &a = ctx.input(1);
  if ((a.dtype != kInt32 && a.dtype != kInt64) || a.numElements() != 1 ||
      a.shape.size() > 1) {
    ctx.error() << "input 'axis' must be an int32/int64 scalar";
    return failure();
  }
  FailureOr<SmallVector<int64_t>> v = ctx.constantInts(1, "input 'axis'");
  if (failed(v))
    return failure();
  if (ctx.input(0).shape.empty()) {
    ctx.error() << "the input must have rank >= 1";
    return failure();
  }
  return ctx.normalizeAxis((*v)[0], ctx.input(0).shape.size());
}

OpSpec cumSumOp() {
  OpSpec spec;
  spec.minOpset = 11;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0,
                            {kFloat, kDouble, kFloat16, kBFloat16, kInt32,
                             kInt64, kUInt32, kUInt64})))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    if (failed(cumSumAxis(ctx)) || failed(boolAttr(ctx, "exclusive", 0)) ||
        failed(boolAttr(ctx, "reverse", 0)))
      return failure();
    return SmallVector<Shape>{ctx.input(0).shape};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<int64_t> axisOr = cumSumAxis(ctx);
    if (failed(axisOr))
      return failure();
    int64_t axis = *axisOr;
    bool exclusive = *boolAttr(ctx, "exclusive", 0);
    bool reverse = *boolAttr(ctx, "reverse", 0);
    MLIRContext *mctx = ctx.context();
    OpBuilder &b = ctx.builder();
    const Shape &in = ctx.input(0).shape;
    int32_t dtype = ctx.input(0).dtype, acc = accumulatorDtype(dtype);
    int64_t rank = in.size();
    // Loops (d0, ..., d{rank-1}, j): out[..., i, ...] accumulates
    // x[..., j, ...] for every j in the window of i (j <= i, j < i, j >= i or
    // j > i).
    SmallVector<AffineExpr> readExprs, writeExprs;
    for (int64_t d = 0; d < rank; ++d) {
      readExprs.push_back(getAffineDimExpr(d == axis ? rank : d, mctx));
      writeExprs.push_back(getAffineDimExpr(d, mctx));
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, readExprs, mctx),
        AffineMap::get(rank + 1, 0, writeExprs, mctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value init = linalg::FillOp::create(b, ctx.loc(),
                                        ctx.scalarConstant(0.0, acc),
                                        ctx.emptyTensor(in, acc))
                     .getResult(0);
    arith::CmpIPredicate pred =
        reverse ? (exclusive ? arith::CmpIPredicate::sgt
                             : arith::CmpIPredicate::sge)
                : (exclusive ? arith::CmpIPredicate::slt
                             : arith::CmpIPredicate::sle);
    auto generic = linalg::GenericOp::create(
        b, ctx.loc(), init.getType(), ValueRange{ctx.inputValue(0)},
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &nb, Location loc, ValueRange args) {
          Value i = linalg::IndexOp::create(nb, loc, axis);
          Value j = linalg::IndexOp::create(nb, loc, rank);
          Value inWindow = arith::CmpIOp::create(nb, loc, pred, j, i);
          Value v = convertScalar(nb, loc, args[0], dtype, acc);
          Value sum = addScalar(nb, loc, args[1], v);
          linalg::YieldOp::create(
              nb, loc,
              arith::SelectOp::create(nb, loc, inWindow, sum, args[1])
                  .getResult());
        });
    Value result = generic.getResult(0);
    if (acc != dtype)
      result = parallelGeneric(
          ctx, {result}, {AffineMap::getMultiDimIdentityMap(rank, mctx)}, in,
          dtype, [&](OpBuilder &nb, Location loc, ValueRange a) {
            return convertScalar(nb, loc, a[0], acc, dtype);
          });
    return SmallVector<Value>{result};
  };
  return spec;
}

} // namespace

void registerReductionOps(OpLibrary &library) {
  library.add("ReduceSum", reduceOp(ReduceKind::Sum, 13));
  library.add("ReduceMean", reduceOp(ReduceKind::Mean, 18));
  library.add("ReduceMax", reduceOp(ReduceKind::Max, 18));
  library.add("ReduceMin", reduceOp(ReduceKind::Min, 18));
  library.add("ReduceProd", reduceOp(ReduceKind::Prod, 18));
  library.add("ReduceL1", reduceOp(ReduceKind::L1, 18));
  library.add("ReduceL2", reduceOp(ReduceKind::L2, 18));
  library.add("ReduceSumSquare", reduceOp(ReduceKind::SumSquare, 18));
  library.add("ReduceLogSum", reduceOp(ReduceKind::LogSum, 18));
  library.add("ReduceLogSumExp", reduceOp(ReduceKind::LogSumExp, 18));
  library.add("ArgMax", argOp(/*isMax=*/true));
  library.add("ArgMin", argOp(/*isMax=*/false));
  library.add("Softmax", softmaxOp(/*isLog=*/false));
  library.add("LogSoftmax", softmaxOp(/*isLog=*/true));
  library.add("LayerNormalization", layerNormOp());
  library.add("CumSum", cumSumOp());
}

} // namespace aotc::onnx_frontend
