//===- ShapeOps.cpp - ONNX data movement and shape ops -------*- C++ -*-===//
//
// This file implements the specifications of ONNX's data movement and shape
// ops (Reshape, Transpose, Concat, Slice, Gather, Shape, Constant, ...), with
// compile-time evaluation of the shape arithmetic PyTorch exports.
//
// Folding: every op that takes part in shape arithmetic has a fold function
// that evaluates it on small constant tensors (at most kFoldLimit elements,
// any dtype; the element attributes are moved, never recomputed). Larger
// tensors are lowered normally. Shape and Size never read their input's
// contents, so their lowering also records the (static) result as a
// compile-time constant of the output.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace aotc::onnx_frontend {
namespace {


using Results = FailureOr<SmallVector<Value>>;
using Folded = FailureOr<SmallVector<DenseElementsAttr>>;
using Shapes = FailureOr<SmallVector<Shape>>;
using Dtypes = FailureOr<SmallVector<int32_t>>;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t numel(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Calls `fn` with every multi-index of `shape`, in row-major order.
void forEachIndex(ArrayRef<int64_t> shape,
                  function_ref<void(ArrayRef<int64_t>)> fn) {
  int64_t total = numel(shape);
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    fn(index);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// Whether every output is small enough to fold.
bool smallOutputs(ArrayRef<TensorValue> outputs) {
  return llvm::all_of(outputs, [](const TensorValue &v) {
    return v.numElements() <= kFoldLimit;
  });
}

/// The elements of a constant as attributes (any element type).
SmallVector<Attribute> elementsOf(DenseElementsAttr attr) {
  return SmallVector<Attribute>(attr.getValues<Attribute>());
}

DenseElementsAttr makeAttr(NodeContext &ctx, const TensorValue &out,
                           ArrayRef<Attribute> elements) {
  return DenseElementsAttr::get(out.type(ctx.context()), elements);
}

/// Folds an op that picks elements of input `in`: `source` maps an output
/// multi-index to the flat index of the input element it copies.
FailureOr<DenseElementsAttr>
foldPick(NodeContext &ctx, size_t in, const TensorValue &out,
         function_ref<int64_t(ArrayRef<int64_t>)> source) {
  // The input is read element by element too: bound it as well (a small
  // slice of a large weight is lowered, not folded).
  if (out.numElements() > kFoldLimit || !ctx.input(in).constant ||
      ctx.input(in).numElements() > kFoldLimit)
    return failure();
  SmallVector<Attribute> src = elementsOf(*ctx.input(in).constant);
  SmallVector<Attribute> result;
  result.reserve(out.numElements());
  forEachIndex(out.shape, [&](ArrayRef<int64_t> idx) {
    result.push_back(src[source(idx)]);
  });
  return makeAttr(ctx, out, result);
}

/// A fold that only reshapes input 0 (same elements, new shape).
Folded foldReshape(NodeContext &ctx, ArrayRef<TensorValue> outputs) {
  if (!smallOutputs(outputs))
    return failure();
  DenseElementsAttr value = *ctx.input(0).constant;
  return SmallVector<DenseElementsAttr>{
      value.reshape(outputs[0].type(ctx.context()))};
}

/// The numbers of equal leading and trailing dimensions of a reshape from
/// `in` to `out`, leaving a non-empty middle on both sides.
std::pair<int64_t, int64_t> reshapeMiddle(ArrayRef<int64_t> in,
                                          ArrayRef<int64_t> out) {
  int64_t n = in.size(), m = out.size(), prefix = 0, suffix = 0;
  while (prefix + 1 < std::min(n, m) && in[prefix] == out[prefix])
    ++prefix;
  while (prefix + suffix + 1 < std::min(n, m) &&
         in[n - 1 - suffix] == out[m - 1 - suffix])
    ++suffix;
  return {prefix, suffix};
}

/// Reshapes `v` (row-major, same element count) with collapse/expand_shape.
Value reshapeValue(NodeContext &ctx, Value v, const Shape &out) {
  OpBuilder &b = ctx.builder();
  auto inType = cast<RankedTensorType>(v.getType());
  auto outType = tensorTypeOf(out, inType.getElementType());
  if (inType == outType)
    return v;
  if (!inType.hasStaticShape() || !outType.hasStaticShape()) {
    // When each symbolic dimension stays whole: one collapse or expand
    // whose groups keep it with static ones.
    const Shape &in = ctx.input(0).shape;
    bool collapse = inType.getRank() >= outType.getRank();
    std::optional<SmallVector<ReassociationIndices>> groups =
        collapse ? getReassociationIndicesForCollapse(inType.getShape(),
                                                      outType.getShape())
                 : getReassociationIndicesForCollapse(outType.getShape(),
                                                      inType.getShape());
    auto sameSymbols = [](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
      SmallVector<int64_t> x, y;
      llvm::copy_if(a, std::back_inserter(x), isSymbolDim);
      llvm::copy_if(b, std::back_inserter(y), isSymbolDim);
      return x == y;
    };
    if (groups && sameSymbols(in, out)) {
      if (collapse)
        return tensor::CollapseShapeOp::create(b, ctx.loc(), outType, v,
                                               *groups);
      return tensor::ExpandShapeOp::create(b, ctx.loc(), outType, v, *groups);
    }
    // Otherwise (e.g. [S,N,256] -> [S,4*N,64]): equal leading and trailing
    // dimensions stay, the middle is collapsed into one dimension and
    // expanded again, its output sizes given by the symbols' values.
    std::pair<int64_t, int64_t> kept = reshapeMiddle(in, out);
    int64_t prefix = kept.first, suffix = kept.second;
    SmallVector<ReassociationIndices> inGroups, outGroups;
    auto middleGroups = [&](int64_t rank, SmallVector<ReassociationIndices> &g) {
      for (int64_t i = 0; i < prefix; ++i)
        g.push_back({i});
      ReassociationIndices middle;
      for (int64_t i = prefix; i < rank - suffix; ++i)
        middle.push_back(i);
      g.push_back(middle);
      for (int64_t i = rank - suffix; i < rank; ++i)
        g.push_back({i});
    };
    middleGroups(inType.getRank(), inGroups);
    middleGroups(outType.getRank(), outGroups);
    Value collapsed = tensor::CollapseShapeOp::create(b, ctx.loc(), v, inGroups);
    SmallVector<OpFoldResult> sizes =
        llvm::map_to_vector(out, [&](int64_t d) { return ctx.dimSize(d); });
    return tensor::ExpandShapeOp::create(b, ctx.loc(), outType, collapsed,
                                         outGroups, sizes);
  }
  if (inType.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, ctx.loc(), outType, v,
                                         SmallVector<ReassociationIndices>{});
  if (out.empty())
    return tensor::CollapseShapeOp::create(b, ctx.loc(), outType, v,
                                           SmallVector<ReassociationIndices>{});
  Value flat = v;
  if (inType.getRank() > 1) {
    ReassociationIndices all;
    for (int64_t i = 0; i < inType.getRank(); ++i)
      all.push_back(i);
    auto flatType =
        RankedTensorType::get({inType.getNumElements()}, inType.getElementType());
    flat = tensor::CollapseShapeOp::create(b, ctx.loc(), flatType, v,
                                           SmallVector<ReassociationIndices>{all});
  }
  if (out.size() == 1)
    return flat;
  ReassociationIndices all;
  for (size_t i = 0; i < out.size(); ++i)
    all.push_back(i);
  return tensor::ExpandShapeOp::create(b, ctx.loc(), outType, flat,
                                       SmallVector<ReassociationIndices>{all});
}

/// A linalg.generic over `outShape` whose body sees the loop indices and the
/// scalar inputs (read through `inputMaps`) and returns the element.
Value buildIndexGeneric(
    NodeContext &ctx, const Shape &outShape, int32_t dtype,
    ArrayRef<Value> inputs, ArrayRef<AffineMap> inputMaps,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, ValueRange)>
        body) {
  return buildParallelGeneric(
      ctx, inputs, inputMaps, outShape, dtype,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        SmallVector<Value> ivs;
        for (size_t d = 0; d < outShape.size(); ++d)
          ivs.push_back(linalg::IndexOp::create(b, loc, d));
        return body(b, loc, ivs, args);
      });
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Integer values of an optional constant input, or an error.
FailureOr<SmallVector<int64_t>> intsInput(NodeContext &ctx, size_t i,
                                          StringRef what) {
  if (failed(requireDtype(ctx, i, {kInt64, kInt32})))
    return failure();
  return ctx.constantInts(i, what);
}

/// Normalizes a list of axes against `rank`; rejects duplicates.
FailureOr<SmallVector<int64_t>> normalizeAxes(NodeContext &ctx,
                                              ArrayRef<int64_t> axes,
                                              int64_t rank) {
  SmallVector<int64_t> result;
  for (int64_t a : axes) {
    FailureOr<int64_t> n = ctx.normalizeAxis(a, rank);
    if (failed(n))
      return failure();
    if (llvm::is_contained(result, *n)) {
      ctx.error() << "axis " << a << " appears more than once";
      return failure();
    }
    result.push_back(*n);
  }
  return result;
}

/// Shape/dtype/lower of an op reshaping input 0 to `shapeFn`'s shape.
OpSpec reshapeLike(std::function<FailureOr<Shape>(NodeContext &)> shapeFn) {
  OpSpec spec;
  spec.dtype = sameDtypeAs(0);
  spec.shape = [shapeFn](NodeContext &ctx) -> Shapes {
    FailureOr<Shape> s = shapeFn(ctx);
    if (failed(s))
      return failure();
    // With symbolic dimensions, the element counts are equal monomials.
    const Shape &in = ctx.input(0).shape;
    if (hasSymbolDims(in) || hasSymbolDims(*s)) {
      SymbolicDims &symbols = *ctx.symbolTable();
      // A target dimension below -1 that names no symbol is no dimension.
      for (int64_t d : *s)
        if (isSymbolDim(d) && symbolIndex(d) >= symbols.coefficients.size()) {
          ctx.error() << "invalid target dimension " << d;
          return failure();
        }
      if (symbols.product(in) != symbols.product(*s)) {
        InFlightDiagnostic diag = ctx.error() << "cannot reshape [";
        llvm::interleave(
            in, diag, [&](int64_t d) { diag << ctx.describeDim(d); }, ",");
        diag << "] to [";
        llvm::interleave(
            *s, diag, [&](int64_t d) { diag << ctx.describeDim(d); }, ",");
        diag << "]: the element counts differ";
        return failure();
      }
      return SmallVector<Shape>{*s};
    }
    if (TensorValue{kFloat, *s}.numElements() != ctx.input(0).numElements()) {
      ctx.error() << "cannot reshape " << ctx.input(0).numElements()
                  << " elements to " << numel(*s);
      return failure();
    }
    return SmallVector<Shape>{*s};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    return SmallVector<Value>{
        reshapeValue(ctx, ctx.inputValue(0), outputs[0].shape)};
  };
  spec.fold = foldReshape;
  return spec;
}

//===----------------------------------------------------------------------===//
// Constant, Shape, Size, ConstantOfShape, Range
//===----------------------------------------------------------------------===//

/// Constant: value, value_float(s), value_int(s).
FailureOr<DenseElementsAttr> constantValue(NodeContext &ctx) {
  static const char *const kForms[] = {
      "value",     "value_float",  "value_floats", "value_int",
      "value_ints", "sparse_value", "value_string", "value_strings"};
  const onnx::AttributeProto *found = nullptr;
  int count = 0;
  for (const char *form : kForms)
    if (const onnx::AttributeProto *a = ctx.attribute(form)) {
      found = a;
      ++count;
    }
  if (count != 1) {
    ctx.error() << "exactly one of the value attributes must be set (found "
                << count << ")";
    return failure();
  }
  StringRef name = found->name();
  MLIRContext *mctx = ctx.context();
  Builder b(mctx);
  if (name == "value") {
    if (!found->has_t()) {
      ctx.attributeError(name) << "is not a tensor";
      return failure();
    }
    if (found->t().data_location() == onnx::TensorProto::EXTERNAL) {
      ctx.attributeError(name) << "external data is not supported";
      return failure();
    }
    std::string message;
    FailureOr<DenseElementsAttr> attr =
        tensorProtoToAttr(mctx, found->t(), "", message);
    if (failed(attr)) {
      ctx.attributeError(name) << message;
      return failure();
    }
    return *attr;
  }
  if (name == "value_float")
    return DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                  found->f());
  if (name == "value_floats") {
    SmallVector<float> v(found->floats().begin(), found->floats().end());
    return DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(v.size())},
                              b.getF32Type()),
        ArrayRef<float>(v));
  }
  if (name == "value_int")
    return intConstant(mctx, kInt64, {}, {found->i()});
  if (name == "value_ints") {
    SmallVector<int64_t> v(found->ints().begin(), found->ints().end());
    return intConstant(mctx, kInt64, {static_cast<int64_t>(v.size())}, v);
  }
  ctx.attributeError(name) << "this form of Constant is not supported "
                              "(sparse and string tensors)";
  return failure();
}

int32_t constantDtype(NodeContext &ctx) {
  if (const onnx::TensorProto *t = ctx.tensorAttr("value"))
    return t->data_type();
  if (ctx.hasAttribute("value_float") || ctx.hasAttribute("value_floats"))
    return kFloat;
  return kInt64;
}

/// Which attribute holds the value; error unless exactly one is set.
const onnx::AttributeProto *constantForm(NodeContext &ctx) {
  static const char *const kForms[] = {
      "value",     "value_float",  "value_floats", "value_int",
      "value_ints", "sparse_value", "value_string", "value_strings"};
  const onnx::AttributeProto *found = nullptr;
  int count = 0;
  for (const char *form : kForms)
    if (const onnx::AttributeProto *a = ctx.attribute(form)) {
      found = a;
      ++count;
    }
  if (count != 1) {
    ctx.error() << "exactly one of the value attributes must be set (found "
                << count << ")";
    return nullptr;
  }
  return found;
}

OpSpec constantSpec() {
  OpSpec spec;
  // dtype and shape read the attribute without decoding the (possibly large)
  // tensor; the fold decodes it once.
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    const onnx::AttributeProto *a = constantForm(ctx);
    if (!a)
      return failure();
    StringRef name = a->name();
    if (name == "value" && a->has_t())
      return SmallVector<int32_t>{a->t().data_type()};
    if (name == "value_float" || name == "value_floats")
      return SmallVector<int32_t>{kFloat};
    if (name == "value_int" || name == "value_ints")
      return SmallVector<int32_t>{kInt64};
    // Sparse, string and malformed forms: the decoder names the problem.
    if (failed(constantValue(ctx)))
      return failure();
    return SmallVector<int32_t>{constantDtype(ctx)};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    const onnx::AttributeProto *a = constantForm(ctx);
    StringRef name = a->name();
    if (name == "value") {
      Shape dims(a->t().dims().begin(), a->t().dims().end());
      for (int64_t d : dims)
        if (d < 0) {
          ctx.attributeError("value") << "negative dimension " << d;
          return failure();
        }
      return SmallVector<Shape>{dims};
    }
    if (name == "value_floats")
      return SmallVector<Shape>{Shape{(int64_t)a->floats_size()}};
    if (name == "value_ints")
      return SmallVector<Shape>{Shape{(int64_t)a->ints_size()}};
    return SmallVector<Shape>{Shape{}};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    FailureOr<DenseElementsAttr> v = constantValue(ctx);
    if (failed(v))
      return failure();
    if (v->getType() != outputs[0].type(ctx.context())) {
      ctx.attributeError(constantForm(ctx)->name())
          << "the data does not match the declared dtype and dimensions";
      return failure();
    }
    return SmallVector<DenseElementsAttr>{*v};
  };
  // Constant has no inputs, so the importer always calls the fold, which
  // either succeeds or reports why; the lowering only propagates the failure.
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue>) -> Results {
    return failure();
  };
  return spec;
}

/// Shape and Size never read their input: the result is a compile-time
/// constant even when the input is not (OpSpec::foldNeedsOnlyShapes), so the
/// shape arithmetic after it folds. The lowering is the same constant, for
/// completeness; the importer always folds these ops.
Results constantResult(NodeContext &ctx, DenseElementsAttr value) {
  return SmallVector<Value>{
      arith::ConstantOp::create(ctx.builder(), ctx.loc(), value)};
}


DenseElementsAttr shapeValue(NodeContext &ctx) {
  auto [start, end] = shapeRange(ctx);
  SmallVector<int64_t> dims(ctx.input(0).shape.begin() + start,
                            ctx.input(0).shape.begin() + end);
  return intConstant(ctx.context(), kInt64, {end - start}, dims);
}

OpSpec shapeSpec() {
  OpSpec spec;
  spec.dtype = fixedDtype(kInt64);
  spec.shape = [](NodeContext &ctx) -> Shapes {
    auto [start, end] = shapeRange(ctx);
    return SmallVector<Shape>{Shape{end - start}};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue>) -> Folded {
    return SmallVector<DenseElementsAttr>{shapeValue(ctx)};
  };
  spec.foldNeedsOnlyShapes = true;
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue>) -> Results {
    return constantResult(ctx, shapeValue(ctx));
  };
  return spec;
}

OpSpec sizeSpec() {
  OpSpec spec;
  spec.dtype = fixedDtype(kInt64);
  spec.shape = [](NodeContext &) -> Shapes { return SmallVector<Shape>{Shape{}}; };
  auto value = [](NodeContext &ctx) {
    return intConstant(ctx.context(), kInt64, {}, {ctx.input(0).numElements()});
  };
  spec.fold = [value](NodeContext &ctx, ArrayRef<TensorValue>) -> Folded {
    return SmallVector<DenseElementsAttr>{value(ctx)};
  };
  spec.foldNeedsOnlyShapes = true;
  spec.lower = [value](NodeContext &ctx, ArrayRef<TensorValue>) -> Results {
    return constantResult(ctx, value(ctx));
  };
  return spec;
}

/// ConstantOfShape's fill value (default float 0).
FailureOr<DenseElementsAttr> fillValue(NodeContext &ctx) {
  const onnx::TensorProto *t = ctx.tensorAttr("value");
  if (!t) {
    if (ctx.hasAttribute("value")) {
      ctx.attributeError("value") << "must be a tensor";
      return failure();
    }
    return DenseElementsAttr::get(
        RankedTensorType::get({1}, Float32Type::get(ctx.context())), 0.0f);
  }
  std::string message;
  FailureOr<DenseElementsAttr> attr =
      tensorProtoToAttr(ctx.context(), *t, "", message);
  if (failed(attr)) {
    ctx.attributeError("value") << message;
    return failure();
  }
  if (attr->getNumElements() != 1) {
    ctx.attributeError("value") << "must have exactly one element";
    return failure();
  }
  return *attr;
}

OpSpec constantOfShapeSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    FailureOr<DenseElementsAttr> v = fillValue(ctx);
    if (failed(v))
      return failure();
    const onnx::TensorProto *t = ctx.tensorAttr("value");
    return SmallVector<int32_t>{t ? t->data_type() : kFloat};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    if (failed(requireDtype(ctx, 0, {kInt64})))
      return failure();
    FailureOr<SmallVector<int64_t>> dims = ctx.constantInts(0, "input 'input'");
    if (failed(dims))
      return failure();
    for (int64_t d : *dims)
      if (d < 0) {
        ctx.error() << "negative dimension " << d;
        return failure();
      }
    return SmallVector<Shape>{Shape(dims->begin(), dims->end())};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    if (!smallOutputs(outputs))
      return failure();
    FailureOr<DenseElementsAttr> v = fillValue(ctx);
    if (failed(v))
      return failure();
    return SmallVector<DenseElementsAttr>{DenseElementsAttr::get(
        outputs[0].type(ctx.context()), *v->getValues<Attribute>().begin())};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    FailureOr<DenseElementsAttr> v = fillValue(ctx);
    if (failed(v))
      return failure();
    Value scalar = arith::ConstantOp::create(
        ctx.builder(), ctx.loc(),
        cast<TypedAttr>(*v->getValues<Attribute>().begin()));
    Value init = ctx.emptyTensor(outputs[0].shape, outputs[0].dtype);
    Value filled = linalg::FillOp::create(ctx.builder(), ctx.loc(),
                                          ValueRange{scalar}, ValueRange{init})
                       .getResult(0);
    return SmallVector<Value>{filled};
  };
  return spec;
}

/// Range's start/limit/delta as doubles (they must be constant scalars).
struct RangeParams {
  double start, limit, delta;
  int64_t count;
};

FailureOr<RangeParams> rangeParams(NodeContext &ctx) {
  static const char *const kNames[] = {"start", "limit", "delta"};
  double v[3];
  for (int i = 0; i < 3; ++i) {
    std::optional<DenseElementsAttr> c = ctx.constantInput(i);
    if (!ctx.hasInput(i) || !c || ctx.input(i).numElements() != 1)
      return ctx.notConstantError(i, "input '" + std::string(kNames[i]) + "'",
                                  "must be a scalar known at compile time");
    if (ctx.input(i).dtype != ctx.input(0).dtype) {
      ctx.error() << "inputs must have the same dtype";
      return failure();
    }
    if (isFloatType(ctx.input(i).dtype))
      v[i] = (*c->getValues<APFloat>().begin()).convertToDouble();
    else
      v[i] = static_cast<double>(intValues(*c, ctx.input(i).dtype)[0]);
  }
  if (v[2] == 0) {
    ctx.error() << "delta must not be zero";
    return failure();
  }
  double n = std::ceil((v[1] - v[0]) / v[2]);
  if (!(n < 1e12)) {
    if (n > 0) {
      ctx.error() << "the range has too many elements";
      return failure();
    }
  }
  return RangeParams{v[0], v[1], v[2], std::max<int64_t>(0, (int64_t)n)};
}

OpSpec rangeSpec() {
  OpSpec spec;
  spec.minOpset = 11;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    if (failed(requireDtype(ctx, 0, {kFloat, kDouble, kInt16, kInt32, kInt64})))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<RangeParams> p = rangeParams(ctx);
    if (failed(p))
      return failure();
    return SmallVector<Shape>{Shape{p->count}};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    if (!smallOutputs(outputs))
      return failure();
    FailureOr<RangeParams> p = rangeParams(ctx);
    if (failed(p))
      return failure();
    int32_t dtype = outputs[0].dtype;
    auto type = outputs[0].type(ctx.context());
    if (dtype == kFloat) {
      SmallVector<float> v;
      for (int64_t i = 0; i < p->count; ++i)
        v.push_back(static_cast<float>(p->start) +
                    static_cast<float>(i) * static_cast<float>(p->delta));
      return SmallVector<DenseElementsAttr>{
          DenseElementsAttr::get(type, ArrayRef<float>(v))};
    }
    if (dtype == kDouble) {
      SmallVector<double> v;
      for (int64_t i = 0; i < p->count; ++i)
        v.push_back(p->start + i * p->delta);
      return SmallVector<DenseElementsAttr>{
          DenseElementsAttr::get(type, ArrayRef<double>(v))};
    }
    SmallVector<int64_t> v;
    int64_t start = p->start, delta = p->delta;
    for (int64_t i = 0; i < p->count; ++i)
      v.push_back(start + i * delta);
    return SmallVector<DenseElementsAttr>{
        intConstant(ctx.context(), dtype, outputs[0].shape, v)};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    FailureOr<RangeParams> p = rangeParams(ctx);
    if (failed(p))
      return failure();
    int32_t dtype = outputs[0].dtype;
    Value start = ctx.scalarConstant(p->start, dtype);
    Value delta = ctx.scalarConstant(p->delta, dtype);
    Value result = buildIndexGeneric(
        ctx, outputs[0].shape, dtype, {}, {},
        [&](OpBuilder &b, Location loc, ArrayRef<Value> ivs,
            ValueRange) -> Value {
          Type et = start.getType();
          Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), ivs[0]);
          if (isFloatType(dtype)) {
            Value f = arith::SIToFPOp::create(b, loc, et, i64);
            return arith::AddFOp::create(
                b, loc, start, arith::MulFOp::create(b, loc, f, delta));
          }
          Value n = et == b.getI64Type()
                        ? i64
                        : arith::TruncIOp::create(b, loc, et, i64).getResult();
          return arith::AddIOp::create(b, loc, start,
                                       arith::MulIOp::create(b, loc, n, delta));
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Expand, Tile
//===----------------------------------------------------------------------===//

OpSpec expandSpec() {
  OpSpec spec;
  spec.minOpset = 8;
  spec.dtype = sameDtypeAs(0);
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<SmallVector<int64_t>> dims = intsInput(ctx, 1, "input 'shape'");
    if (failed(dims))
      return failure();
    for (int64_t d : *dims)
      if (d < 0) {
        ctx.error() << "negative dimension " << d << " in 'shape'";
        return failure();
      }
    FailureOr<Shape> out =
        broadcastShapes(ctx, {ctx.input(0).shape, Shape(dims->begin(), dims->end())});
    if (failed(out))
      return failure();
    return SmallVector<Shape>{*out};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    if (!smallOutputs(outputs))
      return failure();
    SmallVector<int64_t> idx =
        broadcastIndices(ctx.input(0).shape, outputs[0].shape);
    SmallVector<Attribute> src = elementsOf(*ctx.input(0).constant);
    SmallVector<Attribute> result;
    for (int64_t i : idx)
      result.push_back(src[i]);
    return SmallVector<DenseElementsAttr>{makeAttr(ctx, outputs[0], result)};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0)}, outputs[0].shape, outputs[0].dtype,
        [](OpBuilder &, Location, ValueRange a) { return a[0]; });
    return SmallVector<Value>{result};
  };
  return spec;
}

OpSpec tileSpec() {
  OpSpec spec;
  spec.dtype = sameDtypeAs(0);
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<SmallVector<int64_t>> reps = intsInput(ctx, 1, "input 'repeats'");
    if (failed(reps))
      return failure();
    const Shape &in = ctx.input(0).shape;
    if (reps->size() != in.size()) {
      ctx.error() << "'repeats' has " << reps->size()
                  << " elements but the input has rank " << in.size();
      return failure();
    }
    Shape out;
    for (size_t i = 0; i < in.size(); ++i) {
      if ((*reps)[i] < 0) {
        ctx.error() << "negative repeat " << (*reps)[i];
        return failure();
      }
      out.push_back(in[i] * (*reps)[i]);
    }
    return SmallVector<Shape>{out};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    const Shape &in = ctx.input(0).shape;
    SmallVector<int64_t> strides = stridesOf(in);
    FailureOr<DenseElementsAttr> r =
        foldPick(ctx, 0, outputs[0], [&](ArrayRef<int64_t> idx) {
          int64_t flat = 0;
          for (size_t d = 0; d < in.size(); ++d)
            flat += (idx[d] % in[d]) * strides[d];
          return flat;
        });
    if (failed(r))
      return failure();
    return SmallVector<DenseElementsAttr>{*r};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    const Shape &in = ctx.input(0).shape;
    MLIRContext *mctx = ctx.context();
    SmallVector<AffineExpr> exprs;
    for (size_t d = 0; d < in.size(); ++d) {
      AffineExpr e = getAffineDimExpr(d, mctx);
      if (in[d] == 1)
        exprs.push_back(getAffineConstantExpr(0, mctx));
      else if (in[d] == 0 || in[d] == outputs[0].shape[d])
        exprs.push_back(e);
      else
        exprs.push_back(e % in[d]);
    }
    AffineMap map = AffineMap::get(in.size(), 0, exprs, mctx);
    Value result = buildIndexGeneric(
        ctx, outputs[0].shape, outputs[0].dtype, {ctx.inputValue(0)}, {map},
        [](OpBuilder &, Location, ArrayRef<Value>, ValueRange a) {
          return a[0];
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Reshape, Flatten, Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

OpSpec reshapeSpec() {
  OpSpec spec = reshapeLike([](NodeContext &ctx) -> FailureOr<Shape> {
    // The target may hold symbolic dimensions (folded shape arithmetic).
    if (failed(requireDtype(ctx, 1, {kInt64, kInt32})))
      return failure();
    std::optional<Shape> symbolic = ctx.symbolicInts(1);
    FailureOr<SmallVector<int64_t>> dims =
        symbolic ? FailureOr<SmallVector<int64_t>>(
                       SmallVector<int64_t>(symbolic->begin(), symbolic->end()))
                 : ctx.constantInts(1, "input 'shape'");
    if (failed(dims))
      return failure();
    bool allowZero = ctx.opset() >= 14 && ctx.intAttr("allowzero", 0) != 0;
    const Shape &in = ctx.input(0).shape;
    Shape out;
    int inferred = -1;
    bool hasZero = false;
    for (auto [i, d] : llvm::enumerate(*dims)) {
      if (d == -1) {
        if (inferred >= 0) {
          ctx.error() << "'shape' has more than one -1";
          return failure();
        }
        inferred = i;
        out.push_back(1);
      } else if (d == 0 && !allowZero) {
        if (i >= in.size()) {
          ctx.error() << "'shape' copies dimension " << i
                      << " (0) but the input has rank " << in.size();
          return failure();
        }
        out.push_back(in[i]);
      } else if (d < 0 && !isSymbolDim(d)) {
        ctx.error() << "invalid dimension " << d << " in 'shape'";
        return failure();
      } else {
        hasZero |= d == 0;
        out.push_back(d);
      }
    }
    if (inferred >= 0) {
      if (hasZero) {
        ctx.attributeError("allowzero")
            << "'shape' has both 0 and -1 with allowzero=1";
        return failure();
      }
      if (hasSymbolDims(in) || hasSymbolDims(out)) {
        SymbolicDims &symbols = *ctx.symbolTable();
        std::optional<int64_t> rest =
            symbols.quotient(symbols.product(in), symbols.product(out));
        if (!rest) {
          ctx.error() << "cannot infer the -1 dimension: "
                      << ctx.describeDim(symbols.product(in))
                      << " elements do not divide by "
                      << ctx.describeDim(symbols.product(out));
          return failure();
        }
        out[inferred] = *rest;
        return out;
      }
      int64_t known = numel(out);
      int64_t total = ctx.input(0).numElements();
      if (known == 0 || total % known != 0) {
        ctx.error() << "cannot infer the -1 dimension: " << total
                    << " elements do not divide by " << known;
        return failure();
      }
      out[inferred] = total / known;
    }
    return out;
  });
  spec.minOpset = 5;
  return spec;
}

OpSpec flattenSpec() {
  return reshapeLike([](NodeContext &ctx) -> FailureOr<Shape> {
    const Shape &in = ctx.input(0).shape;
    int64_t rank = in.size();
    int64_t axis = ctx.intAttr("axis", 1);
    if (axis < -rank || axis > rank) {
      ctx.attributeError("axis") << "value " << axis << " is out of range for "
                                 << "rank " << rank;
      return failure();
    }
    if (axis < 0)
      axis += rank;
    ArrayRef<int64_t> front = ArrayRef<int64_t>(in).take_front(axis);
    ArrayRef<int64_t> back = ArrayRef<int64_t>(in).drop_front(axis);
    auto extent = [&](ArrayRef<int64_t> part) {
      return hasSymbolDims(part) ? ctx.symbolTable()->product(part)
                                 : numel(part);
    };
    return Shape{extent(front), extent(back)};
  });
}

/// Squeeze/Unsqueeze axes: attribute before opset 13, input from 13.
FailureOr<std::optional<SmallVector<int64_t>>> axesOf(NodeContext &ctx,
                                                      size_t input) {
  if (ctx.opset() < 13) {
    if (!ctx.hasAttribute("axes"))
      return std::optional<SmallVector<int64_t>>();
    return std::optional<SmallVector<int64_t>>(ctx.intsAttr("axes"));
  }
  if (ctx.hasAttribute("axes")) {
    ctx.attributeError("axes") << "is an input from opset 13 on";
    return failure();
  }
  if (!ctx.hasInput(input))
    return std::optional<SmallVector<int64_t>>();
  FailureOr<SmallVector<int64_t>> axes = intsInput(ctx, input, "input 'axes'");
  if (failed(axes))
    return failure();
  return std::optional<SmallVector<int64_t>>(*axes);
}

OpSpec squeezeSpec() {
  return reshapeLike([](NodeContext &ctx) -> FailureOr<Shape> {
    const Shape &in = ctx.input(0).shape;
    auto axes = axesOf(ctx, 1);
    if (failed(axes))
      return failure();
    SmallVector<int64_t> remove;
    // An empty 'axes' tensor means the same as no axes.
    if (!*axes || (*axes)->empty()) {
      for (size_t i = 0; i < in.size(); ++i)
        if (in[i] == 1)
          remove.push_back(i);
    } else {
      FailureOr<SmallVector<int64_t>> n = normalizeAxes(ctx, **axes, in.size());
      if (failed(n))
        return failure();
      for (int64_t a : *n)
        if (in[a] != 1) {
          ctx.error() << "cannot squeeze axis " << a << " of size " << in[a];
          return failure();
        }
      remove = *n;
    }
    Shape out;
    for (size_t i = 0; i < in.size(); ++i)
      if (!llvm::is_contained(remove, (int64_t)i))
        out.push_back(in[i]);
    return out;
  });
}

OpSpec unsqueezeSpec() {
  return reshapeLike([](NodeContext &ctx) -> FailureOr<Shape> {
    const Shape &in = ctx.input(0).shape;
    auto axes = axesOf(ctx, 1);
    if (failed(axes))
      return failure();
    if (!*axes) {
      ctx.error() << "'axes' is required";
      return failure();
    }
    int64_t rank = in.size() + (*axes)->size();
    FailureOr<SmallVector<int64_t>> n = normalizeAxes(ctx, **axes, rank);
    if (failed(n))
      return failure();
    Shape out;
    size_t next = 0;
    for (int64_t i = 0; i < rank; ++i)
      out.push_back(llvm::is_contained(*n, i) ? 1 : in[next++]);
    return out;
  });
}

//===----------------------------------------------------------------------===//
// Transpose, Concat, Split
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>> permOf(NodeContext &ctx) {
  int64_t rank = ctx.input(0).shape.size();
  SmallVector<int64_t> perm = ctx.intsAttr("perm");
  if (!ctx.hasAttribute("perm")) {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
    return perm;
  }
  SmallVector<bool> seen(rank, false);
  if ((int64_t)perm.size() != rank) {
    ctx.attributeError("perm") << "has " << perm.size()
                               << " entries for rank " << rank;
    return failure();
  }
  for (int64_t &p : perm) {
    if (p < 0)
      p += rank;
    if (p < 0 || p >= rank || seen[p]) {
      ctx.attributeError("perm") << "is not a permutation";
      return failure();
    }
    seen[p] = true;
  }
  return perm;
}

OpSpec transposeSpec() {
  OpSpec spec;
  spec.dtype = sameDtypeAs(0);
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<SmallVector<int64_t>> perm = permOf(ctx);
    if (failed(perm))
      return failure();
    Shape out;
    for (int64_t p : *perm)
      out.push_back(ctx.input(0).shape[p]);
    return SmallVector<Shape>{out};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    SmallVector<int64_t> perm = *permOf(ctx);
    SmallVector<int64_t> strides = stridesOf(ctx.input(0).shape);
    FailureOr<DenseElementsAttr> r =
        foldPick(ctx, 0, outputs[0], [&](ArrayRef<int64_t> idx) {
          int64_t flat = 0;
          for (size_t d = 0; d < perm.size(); ++d)
            flat += idx[d] * strides[perm[d]];
          return flat;
        });
    if (failed(r))
      return failure();
    return SmallVector<DenseElementsAttr>{*r};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    SmallVector<int64_t> perm = *permOf(ctx);
    Value init = ctx.emptyTensor(outputs[0].shape, outputs[0].dtype);
    Value result = linalg::TransposeOp::create(ctx.builder(), ctx.loc(),
                                               ctx.inputValue(0), init, perm)
                       .getResult()[0];
    return SmallVector<Value>{result};
  };
  return spec;
}

OpSpec concatSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    if (ctx.numInputs() == 0 || !ctx.hasInput(0)) {
      ctx.error() << "needs at least one input";
      return failure();
    }
    for (size_t i = 0; i < ctx.numInputs(); ++i)
      if (!ctx.hasInput(i)) {
        ctx.error() << "input " << i << " is missing";
        return failure();
      }
    if (failed(requireSameDtypes(ctx)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    if (!ctx.hasAttribute("axis")) {
      ctx.attributeError("axis") << "is required";
      return failure();
    }
    Shape out = ctx.input(0).shape;
    FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.intAttr("axis", 0), out.size());
    if (failed(axis))
      return failure();
    out[*axis] = 0;
    for (size_t i = 0; i < ctx.numInputs(); ++i) {
      const Shape &s = ctx.input(i).shape;
      bool ok = s.size() == out.size();
      for (size_t d = 0; ok && d < s.size(); ++d)
        ok = (int64_t)d == *axis || s[d] == out[d];
      if (!ok) {
        ctx.error() << "input " << i << " has a shape incompatible with input 0";
        return failure();
      }
      if (isSymbolDim(s[*axis])) {
        ctx.error() << "concatenating along symbolic dimension "
                    << ctx.describeDim(s[*axis]) << " is not supported";
        return failure();
      }
      out[*axis] += s[*axis];
    }
    return SmallVector<Shape>{out};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    if (!smallOutputs(outputs))
      return failure();
    int64_t rank = outputs[0].shape.size();
    int64_t axis = *ctx.normalizeAxis(ctx.intAttr("axis", 0), rank);
    SmallVector<SmallVector<Attribute>> srcs;
    SmallVector<int64_t> starts;
    int64_t offset = 0;
    for (size_t i = 0; i < ctx.numInputs(); ++i) {
      srcs.push_back(elementsOf(*ctx.input(i).constant));
      starts.push_back(offset);
      offset += ctx.input(i).shape[axis];
    }
    SmallVector<Attribute> result;
    forEachIndex(outputs[0].shape, [&](ArrayRef<int64_t> idx) {
      size_t k = 0;
      while (k + 1 < starts.size() &&
             (idx[axis] >= starts[k + 1] ||
              ctx.input(k).shape[axis] == 0))
        ++k;
      const Shape &s = ctx.input(k).shape;
      SmallVector<int64_t> strides = stridesOf(s);
      int64_t flat = 0;
      for (int64_t d = 0; d < rank; ++d)
        flat += (d == axis ? idx[d] - starts[k] : idx[d]) * strides[d];
      result.push_back(srcs[k][flat]);
    });
    return SmallVector<DenseElementsAttr>{makeAttr(ctx, outputs[0], result)};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    int64_t rank = outputs[0].shape.size();
    int64_t axis = *ctx.normalizeAxis(ctx.intAttr("axis", 0), rank);
    OpBuilder &b = ctx.builder();
    Value result = ctx.emptyTensor(outputs[0].shape, outputs[0].dtype);
    int64_t offset = 0;
    for (size_t i = 0; i < ctx.numInputs(); ++i) {
      const Shape &s = ctx.input(i).shape;
      if (ctx.input(i).numElements() == 0) {
        offset += s[axis];
        continue;
      }
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
          strides(rank, b.getIndexAttr(1));
      offsets[axis] = b.getIndexAttr(offset);
      for (int64_t d : s)
        sizes.push_back(ctx.dimSize(d));
      result = tensor::InsertSliceOp::create(b, ctx.loc(), ctx.inputValue(i),
                                             result, offsets, sizes, strides);
      offset += s[axis];
    }
    return SmallVector<Value>{result};
  };
  return spec;
}

/// Split sizes along the axis.
FailureOr<SmallVector<int64_t>> splitSizes(NodeContext &ctx, int64_t &axis) {
  const Shape &in = ctx.input(0).shape;
  FailureOr<int64_t> a = ctx.normalizeAxis(ctx.intAttr("axis", 0), in.size());
  if (failed(a))
    return failure();
  axis = *a;
  int64_t dim = in[axis];
  int64_t n = ctx.node().output_size();
  SmallVector<int64_t> sizes;
  bool given = false;
  if (ctx.opset() < 13) {
    if (ctx.hasAttribute("split")) {
      sizes = ctx.intsAttr("split");
      given = true;
    }
  } else {
    if (ctx.hasAttribute("split")) {
      ctx.attributeError("split") << "is an input from opset 13 on";
      return failure();
    }
    if (ctx.hasInput(1)) {
      FailureOr<SmallVector<int64_t>> s = intsInput(ctx, 1, "input 'split'");
      if (failed(s))
        return failure();
      sizes = *s;
      given = true;
    }
  }
  if (ctx.hasAttribute("num_outputs")) {
    if (ctx.opset() < 18) {
      ctx.attributeError("num_outputs") << "exists from opset 18 on";
      return failure();
    }
    if (given) {
      ctx.attributeError("num_outputs") << "cannot be combined with 'split'";
      return failure();
    }
    int64_t k = ctx.intAttr("num_outputs", 0);
    if (k != n || k <= 0) {
      ctx.attributeError("num_outputs")
          << "is " << k << " but the node has " << n << " outputs";
      return failure();
    }
    int64_t chunk = (dim + k - 1) / k;
    int64_t left = dim;
    for (int64_t i = 0; i < k; ++i) {
      sizes.push_back(std::clamp<int64_t>(left, 0, chunk));
      left -= sizes.back();
    }
    if (left != 0 || (k > 1 && sizes.back() == 0 && dim >= k)) {
      ctx.attributeError("num_outputs") << "cannot split " << dim << " into "
                                        << k << " chunks";
      return failure();
    }
    return sizes;
  }
  if (!given) {
    if (n <= 0 || dim % n != 0) {
      ctx.error() << "cannot split dimension " << dim << " into " << n
                  << " equal parts";
      return failure();
    }
    sizes.assign(n, dim / n);
    return sizes;
  }
  if ((int64_t)sizes.size() != n) {
    ctx.error() << "'split' has " << sizes.size() << " entries for " << n
                << " outputs";
    return failure();
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) {
      ctx.error() << "negative split size " << s;
      return failure();
    }
    total += s;
  }
  if (total != dim) {
    ctx.error() << "split sizes sum to " << total << " but the dimension is "
                << dim;
    return failure();
  }
  return sizes;
}

OpSpec splitSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    return SmallVector<int32_t>(ctx.node().output_size(), ctx.input(0).dtype);
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    int64_t axis;
    FailureOr<SmallVector<int64_t>> sizes = splitSizes(ctx, axis);
    if (failed(sizes))
      return failure();
    SmallVector<Shape> shapes;
    for (int64_t s : *sizes) {
      Shape out = ctx.input(0).shape;
      out[axis] = s;
      shapes.push_back(out);
    }
    return shapes;
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    int64_t axis;
    SmallVector<int64_t> sizes = *splitSizes(ctx, axis);
    SmallVector<int64_t> strides = stridesOf(ctx.input(0).shape);
    SmallVector<DenseElementsAttr> results;
    int64_t offset = 0;
    for (size_t k = 0; k < outputs.size(); ++k) {
      FailureOr<DenseElementsAttr> r =
          foldPick(ctx, 0, outputs[k], [&](ArrayRef<int64_t> idx) {
            int64_t flat = 0;
            for (size_t d = 0; d < idx.size(); ++d)
              flat += (idx[d] + ((int64_t)d == axis ? offset : 0)) * strides[d];
            return flat;
          });
      if (failed(r))
        return failure();
      results.push_back(*r);
      offset += sizes[k];
    }
    return results;
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    int64_t axis;
    SmallVector<int64_t> sizes = *splitSizes(ctx, axis);
    OpBuilder &b = ctx.builder();
    int64_t rank = ctx.input(0).shape.size();
    SmallVector<Value> results;
    int64_t offset = 0;
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (outputs[k].numElements() == 0) {
        results.push_back(ctx.emptyTensor(outputs[k].shape, outputs[k].dtype));
        offset += sizes[k];
        continue;
      }
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), szs,
          strides(rank, b.getIndexAttr(1));
      offsets[axis] = b.getIndexAttr(offset);
      for (int64_t d : outputs[k].shape)
        szs.push_back(b.getIndexAttr(d));
      results.push_back(tensor::ExtractSliceOp::create(
          b, ctx.loc(), outputs[k].type(ctx.context()), ctx.inputValue(0),
          offsets, szs, strides));
      offset += sizes[k];
    }
    return results;
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

/// Per input dimension: first index, step and count.
struct SliceDims {
  SmallVector<int64_t> start, step, size;
};

FailureOr<SliceDims> sliceDims(NodeContext &ctx) {
  const Shape &in = ctx.input(0).shape;
  int64_t rank = in.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  bool hasAxes = false, hasSteps = false;
  if (ctx.opset() < 10) {
    starts = ctx.intsAttr("starts");
    ends = ctx.intsAttr("ends");
    hasAxes = ctx.hasAttribute("axes");
    axes = ctx.intsAttr("axes");
  } else {
    for (StringRef a : {"starts", "ends", "axes"})
      if (ctx.hasAttribute(a)) {
        ctx.attributeError(a) << "is an input from opset 10 on";
        return failure();
      }
    FailureOr<SmallVector<int64_t>> s = intsInput(ctx, 1, "input 'starts'");
    if (failed(s))
      return failure();
    FailureOr<SmallVector<int64_t>> e = intsInput(ctx, 2, "input 'ends'");
    if (failed(e))
      return failure();
    starts = *s;
    ends = *e;
    if (ctx.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = intsInput(ctx, 3, "input 'axes'");
      if (failed(a))
        return failure();
      axes = *a;
      hasAxes = true;
    }
    if (ctx.hasInput(4)) {
      FailureOr<SmallVector<int64_t>> st = intsInput(ctx, 4, "input 'steps'");
      if (failed(st))
        return failure();
      steps = *st;
      hasSteps = true;
    }
  }
  if (!hasAxes)
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (!hasSteps)
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    ctx.error() << "starts, ends, axes and steps must have the same length";
    return failure();
  }
  FailureOr<SmallVector<int64_t>> nAxes = normalizeAxes(ctx, axes, rank);
  if (failed(nAxes))
    return failure();
  SliceDims r;
  r.start.assign(rank, 0);
  r.step.assign(rank, 1);
  r.size.assign(in.begin(), in.end());
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t a = (*nAxes)[i], dim = in[a], step = steps[i];
    if (step == 0) {
      ctx.error() << "step must not be zero";
      return failure();
    }
    int64_t s = starts[i], e = ends[i];
    if (isSymbolDim(dim)) {
      // Only the whole of a symbolic dimension: [0, INT_MAX-ish) step 1.
      if (s != 0 || step != 1 || e < std::numeric_limits<int32_t>::max()) {
        ctx.error() << "slicing symbolic dimension " << ctx.describeDim(dim)
                    << " other than whole is not supported";
        return failure();
      }
      continue;
    }
    if (s < 0)
      s += dim;
    if (e < 0)
      e += dim;
    int64_t count;
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      count = e > s ? (e - s + step - 1) / step : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      count = s > e ? (s - e + (-step) - 1) / (-step) : 0;
    }
    if (dim == 0)
      count = 0;
    r.start[a] = count ? s : 0;
    r.step[a] = step;
    r.size[a] = count;
  }
  return r;
}

OpSpec sliceSpec() {
  OpSpec spec;
  spec.dtype = sameDtypeAs(0);
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<SliceDims> d = sliceDims(ctx);
    if (failed(d))
      return failure();
    return SmallVector<Shape>{Shape(d->size.begin(), d->size.end())};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    SliceDims d = *sliceDims(ctx);
    SmallVector<int64_t> strides = stridesOf(ctx.input(0).shape);
    FailureOr<DenseElementsAttr> r =
        foldPick(ctx, 0, outputs[0], [&](ArrayRef<int64_t> idx) {
          int64_t flat = 0;
          for (size_t k = 0; k < idx.size(); ++k)
            flat += (d.start[k] + d.step[k] * idx[k]) * strides[k];
          return flat;
        });
    if (failed(r))
      return failure();
    return SmallVector<DenseElementsAttr>{*r};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    SliceDims d = *sliceDims(ctx);
    OpBuilder &b = ctx.builder();
    if (outputs[0].numElements() == 0)
      return SmallVector<Value>{
          ctx.emptyTensor(outputs[0].shape, outputs[0].dtype)};
    // The elements taken, in input order: a strided slice (along a
    // negative step, from its last element taken to its first).
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (size_t k = 0; k < d.start.size(); ++k) {
      int64_t first = d.step[k] > 0 ? d.start[k]
                                    : d.start[k] + d.step[k] * (d.size[k] - 1);
      offsets.push_back(b.getIndexAttr(first));
      sizes.push_back(ctx.dimSize(d.size[k]));
      strides.push_back(b.getIndexAttr(std::abs(d.step[k])));
    }
    Value slice = tensor::ExtractSliceOp::create(
        b, ctx.loc(), outputs[0].type(ctx.context()), ctx.inputValue(0),
        offsets, sizes, strides);
    if (llvm::all_of(d.step, [](int64_t s) { return s > 0; }))
      return SmallVector<Value>{slice};
    // Negative steps: a generic reading the slice reversed along them (the
    // other dimensions read as they are, so that their sizes agree).
    MLIRContext *mctx = ctx.context();
    SmallVector<AffineExpr> exprs;
    for (size_t k = 0; k < d.start.size(); ++k) {
      AffineExpr i = getAffineDimExpr(k, mctx);
      exprs.push_back(d.step[k] > 0 ? i : (d.size[k] - 1) - i);
    }
    AffineMap map = AffineMap::get(d.start.size(), 0, exprs, mctx);
    Value result = buildIndexGeneric(
        ctx, outputs[0].shape, outputs[0].dtype, {slice}, {map},
        [](OpBuilder &, Location, ArrayRef<Value>, ValueRange a) {
          return a[0];
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

OpSpec gatherSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    if (failed(requireDtype(ctx, 1, {kInt32, kInt64})))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    const Shape &data = ctx.input(0).shape;
    if (data.empty()) {
      ctx.error() << "input 'data' must have rank >= 1";
      return failure();
    }
    FailureOr<int64_t> axis =
        ctx.normalizeAxis(ctx.intAttr("axis", 0), data.size());
    if (failed(axis))
      return failure();
    if (data[*axis] == 0 && ctx.input(1).numElements() > 0) {
      ctx.error() << "cannot gather from an empty axis";
      return failure();
    }
    // Constant indices are checked here.
    if (std::optional<DenseElementsAttr> c = ctx.constantInput(1)) {
      int64_t dim = data[*axis];
      for (int64_t i : intValues(*c, ctx.input(1).dtype))
        if (i < -dim || i >= dim) {
          ctx.error() << "index " << i << " is out of range for dimension "
                      << dim;
          return failure();
        }
    }
    Shape out(data.begin(), data.begin() + *axis);
    out.append(ctx.input(1).shape.begin(), ctx.input(1).shape.end());
    out.append(data.begin() + *axis + 1, data.end());
    return SmallVector<Shape>{out};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    const Shape &data = ctx.input(0).shape;
    int64_t axis = *ctx.normalizeAxis(ctx.intAttr("axis", 0), data.size());
    int64_t q = ctx.input(1).shape.size();
    SmallVector<int64_t> indices =
        intValues(*ctx.input(1).constant, ctx.input(1).dtype);
    SmallVector<int64_t> istrides = stridesOf(ctx.input(1).shape);
    SmallVector<int64_t> strides = stridesOf(data);
    FailureOr<DenseElementsAttr> r =
        foldPick(ctx, 0, outputs[0], [&](ArrayRef<int64_t> idx) {
          int64_t iflat = 0;
          for (int64_t k = 0; k < q; ++k)
            iflat += idx[axis + k] * istrides[k];
          int64_t i = indices[iflat];
          if (i < 0)
            i += data[axis];
          int64_t flat = 0;
          for (int64_t d = 0; d < (int64_t)data.size(); ++d) {
            int64_t v = d < axis ? idx[d] : d == axis ? i : idx[d + q - 1];
            flat += v * strides[d];
          }
          return flat;
        });
    if (failed(r))
      return failure();
    return SmallVector<DenseElementsAttr>{*r};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    const Shape &data = ctx.input(0).shape;
    int64_t rank = data.size();
    int64_t axis = *ctx.normalizeAxis(ctx.intAttr("axis", 0), rank);
    int64_t q = ctx.input(1).shape.size();
    int64_t outRank = outputs[0].shape.size();
    MLIRContext *mctx = ctx.context();
    SmallVector<AffineExpr> exprs;
    for (int64_t k = 0; k < q; ++k)
      exprs.push_back(getAffineDimExpr(axis + k, mctx));
    AffineMap map = AffineMap::get(outRank, 0, exprs, mctx);
    Value dataValue = ctx.inputValue(0);
    int64_t dim = data[axis];
    Value result = buildIndexGeneric(
        ctx, outputs[0].shape, outputs[0].dtype, {ctx.inputValue(1)}, {map},
        [&](OpBuilder &b, Location loc, ArrayRef<Value> ivs,
            ValueRange a) -> Value {
          // index + dim when negative, then clamped into range so that an
          // invalid runtime index never reads outside the tensor.
          Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), a[0]);
          Value zero = indexConst(b, loc, 0);
          Value neg =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
          Value shifted =
              arith::AddIOp::create(b, loc, i, indexConst(b, loc, dim));
          i = arith::SelectOp::create(b, loc, neg, shifted, i);
          i = arith::MaxSIOp::create(b, loc, i, zero);
          i = arith::MinSIOp::create(b, loc, i,
                                     indexConst(b, loc, std::max<int64_t>(dim - 1, 0)));
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(d < axis ? ivs[d] : d == axis ? i : ivs[d + q - 1]);
          return tensor::ExtractOp::create(b, loc, dataValue, coords);
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// ScatterND
//===----------------------------------------------------------------------===//

/// For each element of ScatterND's output (row-major), the flat index of
/// the update element written there, or -1 where the data's stays: from the
/// constant `indices` ([..., K], each row the first K coordinates of a slice
/// of `data`; negative ones count from the end; the last row wins where
/// rows repeat). An error naming the row when a coordinate is out of range.
FailureOr<SmallVector<int64_t>> scatterTargets(NodeContext &ctx,
                                               ArrayRef<int64_t> indices) {
  const Shape &data = ctx.input(0).shape;
  const Shape &indexShape = ctx.input(1).shape;
  int64_t k = indexShape.back();
  int64_t rows = 1, slice = 1;
  for (int64_t d : ArrayRef<int64_t>(indexShape).drop_back())
    rows *= d;
  for (int64_t d : ArrayRef<int64_t>(data).drop_front(k))
    slice *= d;
  int64_t elements = slice;
  for (int64_t d : ArrayRef<int64_t>(data).take_front(k))
    elements *= d;
  SmallVector<int64_t> targets(elements, -1);
  for (int64_t row = 0; row < rows; ++row) {
    int64_t base = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = indices[row * k + j];
      if (i < -data[j] || i >= data[j]) {
        ctx.error() << "index " << i << " of row " << row
                    << " of input 'indices' is out of range for dimension "
                    << j << " of size " << data[j];
        return failure();
      }
      base = base * data[j] + (i < 0 ? i + data[j] : i);
    }
    for (int64_t e = 0; e < slice; ++e)
      targets[base * slice + e] = row * slice + e;
  }
  return targets;
}

/// ScatterND (reduction "none"): a copy of `data` with the slices at
/// `indices` replaced by `updates`. The indices must be known at compile
/// time (exporters write them as constants); data and updates may be
/// computed at run time: each output element then reads its data or update
/// element through a constant map.
OpSpec scatterNDSpec() {
  OpSpec spec;
  spec.minOpset = 11;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    if (failed(requireDtype(ctx, 1, {kInt64})))
      return failure();
    if (ctx.input(2).dtype != ctx.input(0).dtype) {
      ctx.error() << "input 'updates' must have the dtype of input 'data'";
      return failure();
    }
    std::string reduction = ctx.stringAttr("reduction", "none");
    if (reduction != "none") {
      ctx.attributeError("reduction")
          << "'" << reduction << "' is not supported (only 'none')";
      return failure();
    }
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    const Shape &data = ctx.input(0).shape;
    const Shape &indices = ctx.input(1).shape;
    const Shape &updates = ctx.input(2).shape;
    if (indices.empty() || indices.back() < 1 ||
        indices.back() > static_cast<int64_t>(data.size())) {
      ctx.error() << "the last dimension of input 'indices' must be between "
                     "1 and the rank of input 'data' ("
                  << data.size() << ")";
      return failure();
    }
    Shape expected(indices.begin(), indices.end() - 1);
    expected.append(data.begin() + indices.back(), data.end());
    if (updates != expected) {
      ctx.error() << "input 'updates' must have shape indices.shape[:-1] + "
                     "data.shape[indices.shape[-1]:]";
      return failure();
    }
    return SmallVector<Shape>{data};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    FailureOr<SmallVector<int64_t>> indices =
        ctx.constantInts(1, "input 'indices'");
    if (failed(indices))
      return failure();
    FailureOr<SmallVector<int64_t>> targets = scatterTargets(ctx, *indices);
    if (failed(targets))
      return failure();
    const Shape &shape = outputs[0].shape;
    MLIRContext *mctx = ctx.context();
    OpBuilder &b = ctx.builder();
    Location loc = ctx.loc();
    Value map = arith::ConstantOp::create(
        b, loc, intConstant(mctx, kInt64, shape, *targets));
    Value updates = ctx.inputValue(2);
    auto updatesType = cast<RankedTensorType>(updates.getType());
    int64_t count = updatesType.getNumElements();
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, updatesType.getRank()));
    Value flat =
        updatesType.getRank() == 1
            ? updates
            : tensor::CollapseShapeOp::create(
                  b, loc,
                  RankedTensorType::get({count},
                                        updatesType.getElementType()),
                  updates, SmallVector<ReassociationIndices>{all})
                  .getResult();
    AffineMap id = AffineMap::getMultiDimIdentityMap(shape.size(), mctx);
    Value result = buildIndexGeneric(
        ctx, shape, outputs[0].dtype, {ctx.inputValue(0), map}, {id, id},
        [&](OpBuilder &nb, Location nloc, ArrayRef<Value>,
            ValueRange a) -> Value {
          Value target =
              arith::IndexCastOp::create(nb, nloc, nb.getIndexType(), a[1]);
          Value zero = indexConst(nb, nloc, 0);
          Value updated = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::sge, target, zero);
          Value at = arith::MaxSIOp::create(nb, nloc, target, zero);
          Value update = tensor::ExtractOp::create(nb, nloc, flat, at);
          return arith::SelectOp::create(nb, nloc, updated, update, a[0])
              .getResult();
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

struct PadParams {
  std::string mode;
  SmallVector<int64_t> before, after;
};

FailureOr<PadParams> padParams(NodeContext &ctx) {
  const Shape &in = ctx.input(0).shape;
  int64_t rank = in.size();
  PadParams p;
  p.mode = ctx.stringAttr("mode", "constant");
  if (p.mode != "constant" && p.mode != "reflect" && p.mode != "edge") {
    ctx.attributeError("mode") << "value '" << p.mode << "' is not supported";
    return failure();
  }
  SmallVector<int64_t> pads;
  SmallVector<int64_t> axes;
  if (ctx.opset() < 11) {
    if (!ctx.hasAttribute("pads")) {
      ctx.attributeError("pads") << "is required";
      return failure();
    }
    pads = ctx.intsAttr("pads");
  } else {
    if (ctx.hasAttribute("pads")) {
      ctx.attributeError("pads") << "is an input from opset 11 on";
      return failure();
    }
    FailureOr<SmallVector<int64_t>> v = intsInput(ctx, 1, "input 'pads'");
    if (failed(v))
      return failure();
    pads = *v;
    if (ctx.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = intsInput(ctx, 3, "input 'axes'");
      if (failed(a))
        return failure();
      FailureOr<SmallVector<int64_t>> n = normalizeAxes(ctx, *a, rank);
      if (failed(n))
        return failure();
      axes = *n;
    }
  }
  if (axes.empty() && !(ctx.opset() >= 11 && ctx.hasInput(3)))
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  if ((int64_t)pads.size() != 2 * (int64_t)axes.size()) {
    ctx.error() << "'pads' has " << pads.size() << " entries for "
                << axes.size() << " axes";
    return failure();
  }
  p.before.assign(rank, 0);
  p.after.assign(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    p.before[axes[i]] = pads[i];
    p.after[axes[i]] = pads[i + axes.size()];
  }
  for (int64_t d = 0; d < rank; ++d) {
    // Negative pads crop the input first; the rest pads the cropped input.
    int64_t n = in[d] + std::min<int64_t>(p.before[d], 0) +
                std::min<int64_t>(p.after[d], 0);
    if (n < 0 || n + std::max<int64_t>(p.before[d], 0) +
                         std::max<int64_t>(p.after[d], 0) < 0) {
      ctx.error() << "pads make dimension " << d << " negative";
      return failure();
    }
    bool grows = p.before[d] > 0 || p.after[d] > 0;
    if (p.mode != "constant" && grows && n == 0) {
      ctx.attributeError("mode") << "'" << p.mode
                                 << "' cannot pad an empty dimension";
      return failure();
    }
    if (p.mode == "reflect" && n > 1 &&
        (p.before[d] > n - 1 || p.after[d] > n - 1)) {
      ctx.attributeError("mode")
          << "'reflect' pads larger than the dimension minus one are not "
             "supported";
      return failure();
    }
  }
  return p;
}

OpSpec padSpec() {
  OpSpec spec;
  spec.minOpset = 2;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    if (ctx.opset() >= 11 && ctx.hasInput(2) &&
        (ctx.input(2).dtype != ctx.input(0).dtype ||
         ctx.input(2).numElements() != 1)) {
      ctx.error() << "input 'constant_value' must be a scalar of the data's "
                     "dtype";
      return failure();
    }
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<PadParams> p = padParams(ctx);
    if (failed(p))
      return failure();
    Shape out;
    for (size_t d = 0; d < ctx.input(0).shape.size(); ++d)
      out.push_back(ctx.input(0).shape[d] + p->before[d] + p->after[d]);
    return SmallVector<Shape>{out};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    PadParams p = *padParams(ctx);
    int32_t dtype = outputs[0].dtype;
    Shape in = ctx.input(0).shape;
    int64_t rank = in.size();
    Value data = ctx.inputValue(0);
    // Negative pads: crop the input with an extract_slice first.
    if (llvm::any_of(p.before, [](int64_t v) { return v < 0; }) ||
        llvm::any_of(p.after, [](int64_t v) { return v < 0; })) {
      OpBuilder &b = ctx.builder();
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t lo = std::max<int64_t>(-p.before[d], 0);
        int64_t hi = std::max<int64_t>(-p.after[d], 0);
        offsets.push_back(b.getIndexAttr(lo));
        in[d] -= lo + hi;
        sizes.push_back(b.getIndexAttr(in[d]));
        strides.push_back(b.getIndexAttr(1));
        p.before[d] = std::max<int64_t>(p.before[d], 0);
        p.after[d] = std::max<int64_t>(p.after[d], 0);
      }
      if (numel(in) == 0) {
        ctx.error() << "negative pads remove every element of the input";
        return failure();
      }
      data = tensor::ExtractSliceOp::create(
          b, ctx.loc(),
          RankedTensorType::get(in, elementTypeOf(ctx.context(), dtype)),
          data, offsets, sizes, strides);
    }
    bool constantMode = p.mode == "constant";
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    Value padValue;
    if (constantMode) {
      if (ctx.opset() >= 11 && ctx.hasInput(2)) {
        Value v = ctx.inputValue(2);
        if (!ctx.input(2).shape.empty())
          v = reshapeValue(ctx, v, {});
        inputs.push_back(v);
        maps.push_back(AffineMap::get(rank, 0, {}, ctx.context()));
      } else {
        double value = ctx.opset() < 11 ? ctx.floatAttr("value", 0.0) : 0.0;
        padValue = ctx.scalarConstant(value, dtype);
      }
    }
    // With an empty input only constant padding is possible.
    bool emptyInput = numel(in) == 0;
    // Constant padding of a non-empty input is a tensor.pad: the form the
    // CPU strategy reads windows through (a pool or convolution reading a
    // padded input in place, its border apart), rather than a generic that
    // gathers every element, which fusion would move into the consumer.
    if (constantMode && !emptyInput) {
      OpBuilder &b = ctx.builder();
      Value fill = padValue;
      if (!fill)
        fill = tensor::ExtractOp::create(b, ctx.loc(), inputs[0],
                                         ValueRange{});
      SmallVector<OpFoldResult> low, high;
      for (int64_t d = 0; d < rank; ++d) {
        low.push_back(b.getIndexAttr(p.before[d]));
        high.push_back(b.getIndexAttr(p.after[d]));
      }
      auto type = RankedTensorType::get(outputs[0].shape,
                                        elementTypeOf(ctx.context(), dtype));
      Value padded =
          tensor::PadOp::create(b, ctx.loc(), type, data, low, high, fill)
              .getResult();
      return SmallVector<Value>{padded};
    }
    Value result = buildIndexGeneric(
        ctx, outputs[0].shape, dtype, inputs, maps,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> ivs,
            ValueRange a) -> Value {
          // Constant padding reaches here only for an empty input.
          Value fill = inputs.empty() ? padValue : a[0];
          if (emptyInput)
            return fill;
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t n = in[d];
            Value j = ivs[d];
            if (p.before[d] != 0)
              j = arith::SubIOp::create(b, loc, j,
                                        indexConst(b, loc, p.before[d]));
            Value zero = indexConst(b, loc, 0);
            Value last = indexConst(b, loc, n - 1);
            if (p.before[d] <= 0 && p.after[d] <= 0) {
              coords.push_back(j);
              continue;
            }
            if (p.mode == "reflect" && n > 1) {
              // j < 0 -> -j; j > n-1 -> 2(n-1) - j.
              Value negJ = arith::SubIOp::create(b, loc, zero, j);
              Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                               j, zero);
              j = arith::SelectOp::create(b, loc, lt, negJ, j);
              Value mirrored = arith::SubIOp::create(
                  b, loc, indexConst(b, loc, 2 * (n - 1)), j);
              Value gt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                               j, last);
              j = arith::SelectOp::create(b, loc, gt, mirrored, j);
            }
            // Edge (and reflect's last step): clamp.
            j = arith::MaxSIOp::create(b, loc, j, zero);
            j = arith::MinSIOp::create(b, loc, j, last);
            coords.push_back(j);
          }
          return tensor::ExtractOp::create(b, loc, data, coords).getResult();
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Resize
//===----------------------------------------------------------------------===//

/// Per output index of one axis: the two source indices and their weights.
struct AxisInterp {
  SmallVector<int64_t> lo, hi;
  SmallVector<double> wlo, whi;
  /// tf_crop_and_resize: the output index maps outside the input (the
  /// result there is extrapolation_value).
  SmallVector<bool> outside;
  bool identity = true; ///< output index i reads input index i with weight 1
};

struct ResizeParams {
  std::string mode, ctm, nearestMode;
  Shape outShape;
  SmallVector<double> scales;
  /// tf_crop_and_resize: the region of interest per axis (normalized).
  SmallVector<double> roiStart, roiEnd;
  double extrapolation = 0.0;
};

FailureOr<ResizeParams> resizeParams(NodeContext &ctx) {
  const Shape &in = ctx.input(0).shape;
  int64_t rank = in.size();
  ResizeParams p;
  p.mode = ctx.stringAttr("mode", "nearest");
  p.ctm = ctx.stringAttr("coordinate_transformation_mode", "half_pixel");
  p.nearestMode = ctx.stringAttr("nearest_mode", "round_prefer_floor");
  if (p.mode != "nearest" && p.mode != "linear") {
    ctx.attributeError("mode") << "value '" << p.mode << "' is not supported";
    return failure();
  }
  if (p.ctm != "half_pixel" && p.ctm != "asymmetric" &&
      p.ctm != "align_corners" && p.ctm != "pytorch_half_pixel" &&
      p.ctm != "tf_crop_and_resize" &&
      !(p.ctm == "tf_half_pixel_for_nn" && p.mode == "nearest")) {
    ctx.attributeError("coordinate_transformation_mode")
        << "value '" << p.ctm << "' is not supported";
    return failure();
  }
  if (p.nearestMode != "round_prefer_floor" &&
      p.nearestMode != "round_prefer_ceil" && p.nearestMode != "floor" &&
      p.nearestMode != "ceil") {
    ctx.attributeError("nearest_mode")
        << "value '" << p.nearestMode << "' is not supported";
    return failure();
  }
  if (ctx.intAttr("exclude_outside", 0) != 0) {
    ctx.attributeError("exclude_outside") << "value 1 is not supported";
    return failure();
  }
  if (ctx.intAttr("antialias", 0) != 0) {
    ctx.attributeError("antialias") << "value 1 is not supported";
    return failure();
  }
  std::string policy = ctx.stringAttr("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller") {
    ctx.attributeError("keep_aspect_ratio_policy")
        << "value '" << policy << "' is not supported";
    return failure();
  }
  SmallVector<int64_t> axes;
  if (ctx.hasAttribute("axes")) {
    FailureOr<SmallVector<int64_t>> n =
        normalizeAxes(ctx, ctx.intsAttr("axes"), rank);
    if (failed(n))
      return failure();
    axes = *n;
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  // Inputs: X, roi, scales, sizes (opset 11+); roi only matters for
  // tf_crop_and_resize: [starts..., ends...] over `axes`.
  p.roiStart.assign(rank, 0.0);
  p.roiEnd.assign(rank, 1.0);
  if (p.ctm == "tf_crop_and_resize") {
    if (!isFloatType(ctx.input(0).dtype)) {
      ctx.attributeError("coordinate_transformation_mode")
          << "tf_crop_and_resize needs a float input";
      return failure();
    }
    std::optional<DenseElementsAttr> roi = ctx.constantInput(1);
    if (!roi || !isFloatType(ctx.input(1).dtype))
      return ctx.notConstantError(1, "input 'roi'",
                                  "must be a float tensor known at compile "
                                  "time (tf_crop_and_resize)");
    SmallVector<double> r;
    for (APFloat v : roi->getValues<APFloat>())
      r.push_back(v.convertToDouble());
    if (r.size() != 2 * axes.size()) {
      ctx.error() << "'roi' has " << r.size() << " entries for "
                  << axes.size() << " axes";
      return failure();
    }
    for (size_t i = 0; i < axes.size(); ++i) {
      p.roiStart[axes[i]] = r[i];
      p.roiEnd[axes[i]] = r[axes.size() + i];
    }
    p.extrapolation = ctx.floatAttr("extrapolation_value", 0.0f);
  }
  bool hasScales = ctx.hasInput(2) && ctx.input(2).numElements() > 0;
  bool hasSizes = ctx.hasInput(3) && ctx.input(3).numElements() > 0;
  if (hasScales == hasSizes) {
    ctx.error() << "exactly one of 'scales' and 'sizes' must be given";
    return failure();
  }
  p.scales.assign(rank, 1.0);
  p.outShape = in;
  if (hasScales) {
    std::optional<DenseElementsAttr> c = ctx.constantInput(2);
    if (!c || !isFloatType(ctx.input(2).dtype))
      return ctx.notConstantError(
          2, "input 'scales'", "must be a float tensor known at compile time");
    SmallVector<double> s;
    for (APFloat v : c->getValues<APFloat>())
      s.push_back(v.convertToDouble());
    if (s.size() != axes.size()) {
      ctx.error() << "'scales' has " << s.size() << " entries for "
                  << axes.size() << " axes";
      return failure();
    }
    for (size_t i = 0; i < axes.size(); ++i) {
      if (!(s[i] > 0)) {
        ctx.error() << "scale " << s[i] << " must be positive";
        return failure();
      }
      p.scales[axes[i]] = s[i];
      p.outShape[axes[i]] =
          static_cast<int64_t>(std::floor(in[axes[i]] * s[i]));
    }
    if (policy != "stretch") {
      ctx.attributeError("keep_aspect_ratio_policy")
          << "applies only with 'sizes'";
      return failure();
    }
  } else {
    if (failed(requireDtype(ctx, 3, {kInt64})))
      return failure();
    FailureOr<SmallVector<int64_t>> s = ctx.constantInts(3, "input 'sizes'");
    if (failed(s))
      return failure();
    if (s->size() != axes.size()) {
      ctx.error() << "'sizes' has " << s->size() << " entries for "
                  << axes.size() << " axes";
      return failure();
    }
    for (size_t i = 0; i < axes.size(); ++i)
      if ((*s)[i] <= 0 || in[axes[i]] == 0) {
        ctx.error() << "sizes must be positive and input dimensions non-empty";
        return failure();
      }
    if (policy == "stretch") {
      for (size_t i = 0; i < axes.size(); ++i) {
        p.outShape[axes[i]] = (*s)[i];
        p.scales[axes[i]] = double((*s)[i]) / double(in[axes[i]]);
      }
    } else {
      double scale = policy == "not_larger"
                         ? std::numeric_limits<double>::infinity()
                         : 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        double r = double((*s)[i]) / double(in[axes[i]]);
        scale = policy == "not_larger" ? std::min(scale, r)
                                       : std::max(scale, r);
      }
      for (size_t i = 0; i < axes.size(); ++i) {
        p.scales[axes[i]] = scale;
        p.outShape[axes[i]] =
            static_cast<int64_t>(std::round(scale * in[axes[i]]));
      }
    }
  }
  return p;
}

/// Source coordinates of one axis, following the ONNX reference.
AxisInterp axisInterp(const ResizeParams &p, int64_t axis, int64_t inDim,
                      int64_t outDim, double scale) {
  AxisInterp r;
  double outWidth = scale * inDim;
  for (int64_t x = 0; x < outDim; ++x) {
    double xo;
    bool outside = false;
    if (p.ctm == "tf_crop_and_resize") {
      double start = p.roiStart[axis], end = p.roiEnd[axis];
      xo = outDim > 1 ? start * (inDim - 1) +
                            x * (end - start) * (inDim - 1) / (outDim - 1)
                      : 0.5 * (start + end) * (inDim - 1);
      outside = xo < 0 || xo > inDim - 1;
    } else if (p.ctm == "align_corners")
      xo = outWidth == 1 ? 0.0 : x * (inDim - 1) / (outWidth - 1);
    else if (p.ctm == "asymmetric")
      xo = x / scale;
    else if (p.ctm == "pytorch_half_pixel")
      xo = outWidth == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    else if (p.ctm == "tf_half_pixel_for_nn")
      xo = (x + 0.5) / scale;
    else
      xo = (x + 0.5) / scale - 0.5;
    double fl = std::floor(xo);
    double ratio = xo == fl ? 1.0 : xo - fl;
    // Neighbours floor(x) - (x integral), ... as in the reference: the two
    // points are lo = ceil(x) - 1 and hi = lo + 1 with weights 1-ratio, ratio.
    int64_t lo = xo == fl ? (int64_t)fl - 1 : (int64_t)fl;
    int64_t hi = lo + 1;
    double wlo = 1.0 - ratio, whi = ratio;
    if (p.mode == "nearest") {
      bool takeHi;
      if (xo == fl)
        takeHi = true;
      else if (p.nearestMode == "round_prefer_floor")
        takeHi = ratio > 0.5;
      else if (p.nearestMode == "round_prefer_ceil")
        takeHi = ratio >= 0.5;
      else if (p.nearestMode == "floor")
        takeHi = false;
      else
        takeHi = true;
      wlo = takeHi ? 0.0 : 1.0;
      whi = takeHi ? 1.0 : 0.0;
    }
    lo = std::clamp<int64_t>(lo, 0, inDim - 1);
    hi = std::clamp<int64_t>(hi, 0, inDim - 1);
    if (wlo == 0.0)
      lo = hi;
    if (whi == 0.0)
      hi = lo;
    if (lo == hi) {
      wlo = 1.0;
      whi = 0.0;
    }
    if (outside) {
      lo = hi = 0;
      wlo = 1.0;
      whi = 0.0;
    }
    r.lo.push_back(lo);
    r.hi.push_back(hi);
    r.wlo.push_back(wlo);
    r.whi.push_back(whi);
    r.outside.push_back(outside);
    if (lo != x || wlo != 1.0 || outside)
      r.identity = false;
  }
  if (outDim != inDim)
    r.identity = false;
  return r;
}

OpSpec resizeSpec() {
  OpSpec spec;
  spec.minOpset = 11;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    std::string mode = ctx.stringAttr("mode", "nearest");
    if (mode == "linear" && failed(requireDtype(ctx, 0, kFloatTypes)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    FailureOr<ResizeParams> p = resizeParams(ctx);
    if (failed(p))
      return failure();
    return SmallVector<Shape>{p->outShape};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    ResizeParams p = *resizeParams(ctx);
    const Shape &in = ctx.input(0).shape;
    int64_t rank = in.size();
    int32_t dtype = outputs[0].dtype;
    if (outputs[0].numElements() == 0)
      return SmallVector<Value>{ctx.emptyTensor(outputs[0].shape, dtype)};
    MLIRContext *mctx = ctx.context();
    // Per non-identity axis: tables lo, hi (int64) and weights (dtype).
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    struct AxisTables {
      int lo = -1, hi = -1, wlo = -1, whi = -1;
      int inside = -1; ///< 1/0 per output index (tf_crop_and_resize)
      bool blend = false;
    };
    SmallVector<AxisTables> tables(rank);
    int blended = 0;
    for (int64_t d = 0; d < rank; ++d) {
      AxisInterp a = axisInterp(p, d, in[d], p.outShape[d], p.scales[d]);
      if (a.identity)
        continue;
      int64_t n = p.outShape[d];
      AffineMap map = AffineMap::get(rank, 0, {getAffineDimExpr(d, mctx)}, mctx);
      auto addTable = [&](DenseElementsAttr attr) {
        inputs.push_back(
            arith::ConstantOp::create(ctx.builder(), ctx.loc(), attr));
        maps.push_back(map);
        return (int)inputs.size() - 1;
      };
      tables[d].lo = addTable(intConstant(mctx, kInt64, {n}, a.lo));
      if (llvm::is_contained(a.outside, true)) {
        SmallVector<int64_t> inside = llvm::map_to_vector(
            a.outside, [](bool o) -> int64_t { return o ? 0 : 1; });
        tables[d].inside = addTable(intConstant(mctx, kBool, {n}, inside));
      }
      bool blend = llvm::any_of(a.whi, [](double w) { return w != 0.0; });
      if (blend) {
        tables[d].blend = true;
        ++blended;
        tables[d].hi = addTable(intConstant(mctx, kInt64, {n}, a.hi));
        auto wType = RankedTensorType::get({n}, elementTypeOf(mctx, dtype));
        SmallVector<Attribute> wl, wh;
        for (int64_t i = 0; i < n; ++i) {
          wl.push_back(FloatAttr::get(wType.getElementType(), a.wlo[i]));
          wh.push_back(FloatAttr::get(wType.getElementType(), a.whi[i]));
        }
        tables[d].wlo = addTable(DenseElementsAttr::get(wType, wl));
        tables[d].whi = addTable(DenseElementsAttr::get(wType, wh));
      }
    }
    if (blended > 4) {
      ctx.error() << "linear interpolation over more than 4 axes is not "
                     "supported";
      return failure();
    }
    Value data = ctx.inputValue(0);
    Value result = buildIndexGeneric(
        ctx, outputs[0].shape, dtype, inputs, maps,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> ivs,
            ValueRange a) -> Value {
          auto toIndex = [&](Value v) -> Value {
            return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
          };
          SmallVector<Value> loIdx(rank), hiIdx(rank);
          SmallVector<int64_t> blendAxes;
          for (int64_t d = 0; d < rank; ++d) {
            if (tables[d].lo < 0) {
              loIdx[d] = hiIdx[d] = ivs[d];
              continue;
            }
            loIdx[d] = toIndex(a[tables[d].lo]);
            hiIdx[d] = loIdx[d];
            if (tables[d].blend) {
              hiIdx[d] = toIndex(a[tables[d].hi]);
              blendAxes.push_back(d);
            }
          }
          Value sum;
          for (int64_t corner = 0; corner < (1 << blendAxes.size()); ++corner) {
            SmallVector<Value> coords(loIdx);
            Value weight;
            for (size_t k = 0; k < blendAxes.size(); ++k) {
              int64_t d = blendAxes[k];
              bool high = corner & (1 << k);
              if (high)
                coords[d] = hiIdx[d];
              Value w = a[high ? tables[d].whi : tables[d].wlo];
              weight = weight ? arith::MulFOp::create(b, loc, weight, w)
                                    .getResult()
                              : w;
            }
            Value v = tensor::ExtractOp::create(b, loc, data, coords);
            if (weight)
              v = arith::MulFOp::create(b, loc, v, weight);
            sum = sum ? arith::AddFOp::create(b, loc, sum, v).getResult() : v;
          }
          // tf_crop_and_resize: extrapolation_value outside the input.
          Value inside;
          for (int64_t d = 0; d < rank; ++d)
            if (tables[d].inside >= 0)
              inside = inside ? arith::AndIOp::create(b, loc, inside,
                                                      a[tables[d].inside])
                                    .getResult()
                              : a[tables[d].inside];
          if (inside)
            sum = arith::SelectOp::create(
                b, loc, inside, sum,
                arith::ConstantOp::create(
                    b, loc, b.getFloatAttr(sum.getType(), p.extrapolation)));
          return sum;
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Dropout (inference)
//===----------------------------------------------------------------------===//

int32_t dropoutMaskDtype(NodeContext &ctx) {
  return ctx.opset() >= 10 ? kBool : ctx.input(0).dtype;
}

DenseElementsAttr dropoutMask(NodeContext &ctx, const TensorValue &out) {
  MLIRContext *mctx = ctx.context();
  Type et = elementTypeOf(mctx, out.dtype);
  Attribute one = isFloatType(out.dtype) ? Attribute(FloatAttr::get(et, 1.0))
                                         : Attribute(IntegerAttr::get(et, 1));
  return DenseElementsAttr::get(out.type(mctx), one);
}

OpSpec dropoutSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> Dtypes {
    if (failed(requireDtype(ctx, 0, kFloatTypes)))
      return failure();
    // Training mode drops nothing at a constant ratio of 0 (exporters
    // write such nodes for an F.dropout(p=0) called in training mode).
    auto zeroRatio = [&] {
      std::optional<DenseElementsAttr> r =
          ctx.hasInput(1) ? ctx.constantInput(1) : std::nullopt;
      return r && isa<FloatType>(r->getElementType()) &&
             llvm::all_of(r->getValues<APFloat>(),
                          [](const APFloat &v) { return v.isZero(); });
    };
    if (ctx.opset() >= 12 && ctx.hasInput(2)) {
      std::optional<DenseElementsAttr> c = ctx.constantInput(2);
      if (!c || ctx.input(2).numElements() != 1 ||
          (intValues(*c, ctx.input(2).dtype)[0] != 0 && !zeroRatio())) {
        ctx.error() << "input 'training_mode' must be absent or a constant "
                       "false, or 'ratio' a constant 0 (only inference is "
                       "supported)";
        return failure();
      }
    }
    if (ctx.opset() < 7 && ctx.intAttr("is_test", 0) == 0) {
      ctx.attributeError("is_test") << "training mode is not supported";
      return failure();
    }
    SmallVector<int32_t> dtypes{ctx.input(0).dtype};
    if (ctx.node().output_size() >= 2 && !ctx.node().output(1).empty())
      dtypes.push_back(dropoutMaskDtype(ctx));
    return dtypes;
  };
  spec.shape = [](NodeContext &ctx) -> Shapes {
    SmallVector<Shape> shapes{ctx.input(0).shape};
    if (ctx.node().output_size() >= 2 && !ctx.node().output(1).empty())
      shapes.push_back(ctx.input(0).shape);
    return shapes;
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Folded {
    SmallVector<DenseElementsAttr> r{*ctx.input(0).constant};
    if (outputs.size() > 1)
      r.push_back(dropoutMask(ctx, outputs[1]));
    return r;
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs) -> Results {
    SmallVector<Value> r{ctx.inputValue(0)};
    if (outputs.size() > 1) {
      Value scalar = arith::ConstantOp::create(
          ctx.builder(), ctx.loc(),
          cast<TypedAttr>(dropoutMask(ctx, outputs[1]).getSplatValue<Attribute>()));
      Value init = ctx.emptyTensor(outputs[1].shape, outputs[1].dtype);
      r.push_back(linalg::FillOp::create(ctx.builder(), ctx.loc(),
                                         ValueRange{scalar}, ValueRange{init})
                      .getResult(0));
    }
    return r;
  };
  return spec;
}

/// Lowered (not folded) zero-element results are rejected: the code
/// generator does not handle zero-size buffers yet.
OpSpec rejectEmptyResults(OpSpec spec) {
  LowerFn lower = spec.lower;
  spec.lower = [lower](NodeContext &ctx,
                       ArrayRef<TensorValue> outputs) -> Results {
    for (auto [i, out] : llvm::enumerate(outputs))
      if (out.numElements() == 0) {
        ctx.error() << "output " << i
                    << " has zero elements, which is only supported when it "
                       "is known at compile time";
        return failure();
      }
    return lower(ctx, outputs);
  };
  return spec;
}

/// Every op but Constant reads input 0 (the other required inputs are
/// checked where they are read).
OpSpec requireInput0(OpSpec spec) {
  DtypeFn dtype = spec.dtype;
  spec.dtype = [dtype](NodeContext &ctx) -> Dtypes {
    if (!ctx.hasInput(0)) {
      ctx.error() << "input 0 is required";
      return failure();
    }
    return dtype(ctx);
  };
  return spec;
}

} // namespace

std::pair<int64_t, int64_t> shapeRange(NodeContext &ctx) {
  int64_t rank = ctx.input(0).shape.size();
  int64_t start = 0, end = rank;
  if (ctx.opset() >= 15) {
    start = ctx.intAttr("start", 0);
    end = ctx.intAttr("end", rank);
  }
  auto clampAxis = [&](int64_t a) {
    if (a < 0)
      a += rank;
    return std::clamp<int64_t>(a, 0, rank);
  };
  start = clampAxis(start);
  end = std::max(clampAxis(end), start);
  return {start, end};
}

void registerShapeOps(OpLibrary &library) {
  auto add = [&](StringRef name, OpSpec spec) {
    library.add(name, requireInput0(rejectEmptyResults(std::move(spec))));
  };
  library.add("Constant", constantSpec());
  // Shape and Size lower to constants, empty ones included.
  library.add("Shape", requireInput0(shapeSpec()));
  library.add("Size", requireInput0(sizeSpec()));
  add("ConstantOfShape", constantOfShapeSpec());
  add("Range", rangeSpec());
  add("ScatterND", scatterNDSpec());
  add("Expand", expandSpec());
  add("Tile", tileSpec());
  add("Reshape", reshapeSpec());
  add("Flatten", flattenSpec());
  add("Squeeze", squeezeSpec());
  add("Unsqueeze", unsqueezeSpec());
  add("Transpose", transposeSpec());
  add("Concat", concatSpec());
  add("Split", splitSpec());
  add("Slice", sliceSpec());
  add("Gather", gatherSpec());
  add("Pad", padSpec());
  add("Resize", resizeSpec());
  add("Dropout", dropoutSpec());
}

} // namespace aotc::onnx_frontend
