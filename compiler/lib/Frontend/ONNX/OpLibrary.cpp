//===- OpLibrary.cpp - ONNX op library and shared helpers ----*- C++ -*-===//
//
// This file implements the op registry, the per-node context handed to op
// functions (attributes, inputs, diagnostics) and the helpers shared by the op
// groups: broadcasting, elementwise generics, dtype conversion and tensor
// data decoding.
//
//===----------------------------------------------------------------------===//

#include "aotc/Frontend/ONNX/OpLibrary.h"

#include "onnx/onnx_pb.h"

#include "llvm/Support/Endian.h"

using namespace mlir;

namespace aotc::onnx_frontend {

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

Type elementTypeOf(MLIRContext *ctx, int32_t t) {
  Builder b(ctx);
  switch (t) {
  case kFloat:
    return b.getF32Type();
  case kDouble:
    return b.getF64Type();
  case kFloat16:
    return b.getF16Type();
  case kBFloat16:
    return b.getBF16Type();
  case kInt8:
  case kUInt8:
    return b.getIntegerType(8);
  case kInt16:
  case kUInt16:
    return b.getIntegerType(16);
  case kInt32:
  case kUInt32:
    return b.getIntegerType(32);
  case kInt64:
  case kUInt64:
    return b.getIntegerType(64);
  case kBool:
    return b.getI1Type();
  default:
    return nullptr;
  }
}

StringRef onnxTypeName(int32_t t) {
  switch (t) {
  case kFloat:
    return "float";
  case kDouble:
    return "double";
  case kFloat16:
    return "float16";
  case kBFloat16:
    return "bfloat16";
  case kInt8:
    return "int8";
  case kUInt8:
    return "uint8";
  case kInt16:
    return "int16";
  case kUInt16:
    return "uint16";
  case kInt32:
    return "int32";
  case kUInt32:
    return "uint32";
  case kInt64:
    return "int64";
  case kUInt64:
    return "uint64";
  case kBool:
    return "bool";
  case kString:
    return "string";
  default:
    return "unknown";
  }
}

bool isFloatType(int32_t t) {
  return t == kFloat || t == kDouble || t == kFloat16 || t == kBFloat16;
}

bool isUnsignedType(int32_t t) {
  return t == kUInt8 || t == kUInt16 || t == kUInt32 || t == kUInt64 ||
         t == kBool;
}

RankedTensorType tensorTypeOf(const Shape &shape, Type element) {
  SmallVector<int64_t> dims = llvm::map_to_vector(shape, [](int64_t d) {
    return isSymbolDim(d) ? ShapedType::kDynamic : d;
  });
  return RankedTensorType::get(dims, element);
}

//===----------------------------------------------------------------------===//
// SymbolicDims
//===----------------------------------------------------------------------===//

int64_t SymbolicDims::addBase(StringRef name, int64_t bound) {
  unsigned k = names.size();
  names.push_back(name.str());
  bounds.push_back(bound);
  values.push_back(Value());
  coefficients.push_back(1);
  factors.push_back({k});
  return symbolDim(k);
}

int64_t SymbolicDims::monomial(int64_t coefficient,
                               SmallVector<unsigned, 2> bases) {
  if (bases.empty())
    return coefficient;
  llvm::sort(bases);
  for (unsigned k = 0; k < names.size(); ++k)
    if (coefficients[k] == coefficient && factors[k] == bases)
      return symbolDim(k);
  std::string name = coefficient == 1 ? "" : std::to_string(coefficient);
  int64_t bound = coefficient;
  for (unsigned base : bases) {
    name += (name.empty() ? "" : "*") + names[base];
    bound *= bounds[base];
  }
  names.push_back(name);
  bounds.push_back(bound);
  values.push_back(Value());
  coefficients.push_back(coefficient);
  factors.push_back(bases);
  return symbolDim(names.size() - 1);
}

int64_t SymbolicDims::product(ArrayRef<int64_t> dims) {
  int64_t coefficient = 1;
  SmallVector<unsigned, 2> bases;
  for (int64_t d : dims) {
    if (!isSymbolDim(d)) {
      coefficient *= d;
      continue;
    }
    coefficient *= coefficients[symbolIndex(d)];
    llvm::append_range(bases, factors[symbolIndex(d)]);
  }
  // Zero elements make every symbol irrelevant.
  return coefficient == 0 ? 0 : monomial(coefficient, bases);
}

std::optional<int64_t> SymbolicDims::quotient(int64_t a, int64_t b) {
  auto parts = [&](int64_t d) -> std::pair<int64_t, SmallVector<unsigned, 2>> {
    if (!isSymbolDim(d))
      return {d, {}};
    return {coefficients[symbolIndex(d)], factors[symbolIndex(d)]};
  };
  auto [ca, fa] = parts(a);
  auto [cb, fb] = parts(b);
  if (cb == 0 || ca % cb != 0)
    return std::nullopt;
  // Remove fb from fa (both sorted multisets).
  SmallVector<unsigned, 2> rest;
  size_t j = 0;
  for (unsigned f : fa) {
    if (j < fb.size() && fb[j] == f) {
      ++j;
      continue;
    }
    rest.push_back(f);
  }
  if (j != fb.size())
    return std::nullopt;
  return monomial(ca / cb, rest);
}

Value SymbolicDims::valueOf(int64_t d, OpBuilder &b, Location loc) {
  unsigned k = symbolIndex(d);
  if (values[k])
    return values[k];
  Value v = arith::ConstantIndexOp::create(b, loc, coefficients[k]);
  for (unsigned base : factors[k])
    v = arith::MulIOp::create(b, loc, v, values[base]);
  values[k] = v;
  return v;
}

RankedTensorType TensorValue::type(MLIRContext *ctx) const {
  return tensorTypeOf(shape, elementTypeOf(ctx, dtype));
}

int64_t TensorValue::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= isSymbolDim(d) ? 1 : d;
  return n;
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(const onnx::NodeProto &node, int64_t opset,
                         ArrayRef<TensorValue *> inputs, OpBuilder &builder,
                         Location loc, SymbolicDims *symbols)
    : nodeProto(node), opsetVersion(opset), inputValues(inputs),
      b(builder), location(loc), symbols(symbols) {}

StringRef NodeContext::opType() const { return nodeProto.op_type(); }
StringRef NodeContext::name() const { return nodeProto.name(); }

Value materializeValue(TensorValue &v, OpBuilder &b, Location loc,
                       SymbolicDims *symbols) {
  if (v.value)
    return v.value;
  if (v.constant) {
    v.value = arith::ConstantOp::create(b, loc, *v.constant);
    return v.value;
  }
  assert(v.symbolicValue && "a value with neither an SSA value nor contents");
  Type element = elementTypeOf(b.getContext(), v.dtype);
  SmallVector<Value> entries;
  for (int64_t e : *v.symbolicValue) {
    if (!isSymbolDim(e)) {
      entries.push_back(
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, e)));
      continue;
    }
    entries.push_back(arith::IndexCastOp::create(
        b, loc, element, symbols->valueOf(e, b, loc)));
  }
  v.value = tensor::FromElementsOp::create(b, loc, v.type(b.getContext()),
                                           entries);
  return v.value;
}

Value NodeContext::inputValue(size_t i) {
  return materializeValue(*inputValues[i], b, location, symbols);
}

std::optional<Shape> NodeContext::symbolicInts(size_t i) const {
  if (!hasInput(i))
    return std::nullopt;
  if (inputValues[i]->symbolicValue)
    return inputValues[i]->symbolicValue;
  std::optional<DenseElementsAttr> c = inputValues[i]->constant;
  if (!c || !isa<IntegerType>(c->getElementType()))
    return std::nullopt;
  Shape values;
  for (APInt v : c->getValues<APInt>())
    values.push_back(c->getElementType().isInteger(1) ? v.getZExtValue()
                                                      : v.getSExtValue());
  return values;
}

std::optional<DenseElementsAttr> NodeContext::constantInput(size_t i) const {
  if (!hasInput(i))
    return std::nullopt;
  return inputValues[i]->constant;
}

FailureOr<SmallVector<int64_t>> NodeContext::constantInts(size_t i,
                                                         StringRef what) {
  std::optional<DenseElementsAttr> c = constantInput(i);
  if (!c)
    return notConstantError(i, what,
                            "must be known at compile time (dynamic shapes "
                            "are not supported)");
  SmallVector<int64_t> values;
  for (APInt v : c->getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

const onnx::AttributeProto *NodeContext::attribute(StringRef name) const {
  for (const onnx::AttributeProto &a : nodeProto.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(StringRef name, int64_t defaultValue) const {
  const onnx::AttributeProto *a = attribute(name);
  return a ? a->i() : defaultValue;
}

float NodeContext::floatAttr(StringRef name, float defaultValue) const {
  const onnx::AttributeProto *a = attribute(name);
  return a ? a->f() : defaultValue;
}

std::string NodeContext::stringAttr(StringRef name,
                                    StringRef defaultValue) const {
  const onnx::AttributeProto *a = attribute(name);
  return a ? a->s() : defaultValue.str();
}

SmallVector<int64_t> NodeContext::intsAttr(StringRef name) const {
  SmallVector<int64_t> values;
  if (const onnx::AttributeProto *a = attribute(name))
    values.append(a->ints().begin(), a->ints().end());
  return values;
}

SmallVector<float> NodeContext::floatsAttr(StringRef name) const {
  SmallVector<float> values;
  if (const onnx::AttributeProto *a = attribute(name))
    values.append(a->floats().begin(), a->floats().end());
  return values;
}

const onnx::TensorProto *NodeContext::tensorAttr(StringRef name) const {
  const onnx::AttributeProto *a = attribute(name);
  return a && a->has_t() ? &a->t() : nullptr;
}

InFlightDiagnostic NodeContext::error() {
  return mlir::emitError(location)
         << "node '" << nodeProto.name() << "' (" << nodeProto.op_type()
         << "): ";
}

InFlightDiagnostic NodeContext::attributeError(StringRef attribute) {
  return error() << "attribute '" << attribute << "': ";
}

LogicalResult NodeContext::notConstantError(size_t i, StringRef what,
                                            StringRef requirement) {
  InFlightDiagnostic diag = error() << what << " " << requirement;
  if (hasInput(i) && !input(i).graphInput.empty())
    diag << "; it is graph input '" << input(i).graphInput
         << "', which --bind-input " << input(i).graphInput
         << "=FILE fixes at compile time";
  return failure();
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= std::max<int64_t>(rank, 1)) {
    error() << "axis " << axis << " is out of range for rank " << rank;
    return failure();
  }
  return normalized;
}

OpFoldResult NodeContext::dimSize(int64_t d) {
  assert(d != ShapedType::kDynamic && "a dynamic size needs its symbol");
  if (isSymbolDim(d))
    return symbols->valueOf(d, b, location);
  return b.getIndexAttr(d);
}

Value NodeContext::emptyTensor(const Shape &shape, int32_t dtype) {
  SmallVector<OpFoldResult> sizes =
      llvm::map_to_vector(shape, [&](int64_t d) { return dimSize(d); });
  return tensor::EmptyOp::create(b, location, sizes,
                                 elementTypeOf(context(), dtype));
}

LogicalResult NodeContext::requireEqualDims(int64_t a, int64_t b) {
  assert((isSymbolDim(a) || isSymbolDim(b)) && "a guard needs a symbol");
  if (a == b)
    return success();
  for (int64_t d : {a, b})
    if (isSymbolDim(d) && !symbols->isBase(d)) {
      error() << "dimensions " << describeDim(a) << " and " << describeDim(b)
              << " must be equal, which aotc checks at run time only between "
                 "a symbolic dimension of a graph input and another one or a "
                 "constant";
      return failure();
    }
  symbols->guards.push_back({a, b});
  return success();
}

std::string NodeContext::describeDim(int64_t d) const {
  return symbols ? symbols->describe(d) : std::to_string(d);
}

Value NodeContext::scalarConstant(double value, int32_t dtype) {
  Type t = elementTypeOf(context(), dtype);
  if (auto f = dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(b, location, b.getFloatAttr(f, value));
  return arith::ConstantOp::create(
      b, location, b.getIntegerAttr(t, static_cast<int64_t>(value)));
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

const OpLibrary &OpLibrary::get() {
  static const OpLibrary library = [] {
    OpLibrary l;
    registerElementwiseOps(l);
    registerNNOps(l);
    registerReductionOps(l);
    registerShapeOps(l);
    // Ops whose shape function, guards and lowering handle symbolic
    // dimensions (each reviewed for it; tests/models/dynamic_batch checks
    // them against PyTorch at several batch sizes).
    for (StringRef op :
         {"Abs", "Add", "AveragePool", "BatchNormalization", "Cast", "Clip", "Concat",
          "Conv", "Div", "Dropout", "Elu", "Erf", "Exp", "Flatten", "Gelu",
          "Gemm", "GlobalAveragePool", "GlobalMaxPool", "HardSigmoid",
          "HardSwish", "Identity", "LeakyRelu", "Log", "MatMul", "Max",
          "MaxPool", "Min", "Mul", "Neg", "Reciprocal", "Relu", "Reshape",
          "Selu", "Shape", "Sigmoid", "Size", "Slice", "Softplus", "Sqrt", "Squeeze",
          "Sub", "Tanh", "Transpose", "Unsqueeze",
          // Normalizations and reductions over static dimensions (they
          // reject symbolic reduced dimensions themselves).
          "LayerNormalization", "LogSoftmax", "Pow", "ReduceL1", "ReduceL2",
          "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
          "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare",
          "Softmax"})
      l.specs.find(op)->second.symbolicDims = true;
    for (const auto &fold : symbolicShapeFolds())
      l.specs.find(fold.getKey())->second.symbolicFold = fold.getValue();
    return l;
  }();
  return library;
}

void OpLibrary::add(StringRef opType, OpSpec spec) {
  assert(!specs.count(opType) && "op registered twice");
  specs[opType] = std::move(spec);
}

const OpSpec *OpLibrary::lookup(StringRef opType) const {
  auto it = specs.find(opType);
  return it == specs.end() ? nullptr : &it->second;
}

SmallVector<StringRef> OpLibrary::opTypes() const {
  SmallVector<StringRef> names;
  for (const auto &entry : specs)
    names.push_back(entry.getKey());
  llvm::sort(names);
  return names;
}

//===----------------------------------------------------------------------===//
// Broadcasting and elementwise generics
//===----------------------------------------------------------------------===//

FailureOr<Shape> broadcastShapes(NodeContext &ctx, ArrayRef<Shape> shapes) {
  size_t rank = 0;
  for (const Shape &s : shapes)
    rank = std::max(rank, s.size());
  Shape result(rank, 1);
  for (const Shape &s : shapes) {
    size_t offset = rank - s.size();
    for (auto [i, d] : llvm::enumerate(s)) {
      int64_t &r = result[offset + i];
      if (d == r || d == 1)
        continue;
      if (r == 1) {
        r = d;
        continue;
      }
      // A symbolic dimension broadcasts only against an equal one (a size-1
      // symbol value would need a different indexing map): a guard.
      if (isSymbolDim(d) || isSymbolDim(r)) {
        if (failed(ctx.requireEqualDims(r, d)))
          return failure();
        if (isSymbolDim(r))
          r = d;
        continue;
      }
      InFlightDiagnostic diag = ctx.error();
      diag << "shapes cannot be broadcast together:";
      for (const Shape &t : shapes) {
        diag << " [";
        llvm::interleave(
            t, diag, [&](int64_t d) { diag << ctx.describeDim(d); }, ", ");
        diag << "]";
      }
      return failure();
    }
  }
  return result;
}

AffineMap broadcastMap(MLIRContext *ctx, const Shape &inputShape,
                       const Shape &outputShape) {
  SmallVector<AffineExpr> exprs;
  size_t offset = outputShape.size() - inputShape.size();
  for (auto [i, d] : llvm::enumerate(inputShape)) {
    if (d == 1 && outputShape[offset + i] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(offset + i, ctx));
  }
  return AffineMap::get(outputShape.size(), 0, exprs, ctx);
}

Value buildParallelGeneric(
    NodeContext &ctx, ArrayRef<Value> inputs, ArrayRef<AffineMap> maps,
    const Shape &shape, int32_t resultDtype,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(
      AffineMap::getMultiDimIdentityMap(shape.size(), ctx.context()));
  SmallVector<utils::IteratorType> iterators(shape.size(),
                                             utils::IteratorType::parallel);
  Value init = ctx.emptyTensor(shape, resultDtype);
  auto generic = linalg::GenericOp::create(
      ctx.builder(), ctx.loc(), init.getType(), inputs, ValueRange{init},
      allMaps, iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        linalg::YieldOp::create(b, loc, body(b, loc, args.drop_back()));
      });
  return generic.getResult(0);
}

Value buildElementwise(
    NodeContext &ctx, ArrayRef<Value> inputs, const Shape &resultShape,
    int32_t resultDtype,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<AffineMap> maps;
  for (Value v : inputs) {
    auto type = cast<RankedTensorType>(v.getType());
    maps.push_back(
        broadcastMap(ctx.context(), Shape(type.getShape()), resultShape));
  }
  return buildParallelGeneric(ctx, inputs, maps, resultShape, resultDtype,
                              body);
}

Value convertScalar(OpBuilder &b, Location loc, Value v, int32_t from,
                    int32_t to) {
  MLIRContext *ctx = b.getContext();
  Type target = elementTypeOf(ctx, to);
  if (from == to || v.getType() == target && isUnsignedType(from) ==
                                                  isUnsignedType(to))
    return v;
  bool fromFloat = isFloatType(from), toFloat = isFloatType(to);
  if (to == kBool) {
    // Any non-zero value is true.
    if (fromFloat) {
      Value zero = arith::ConstantOp::create(
          b, loc, b.getFloatAttr(v.getType(), 0.0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
    }
    Value zero =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(v.getType(), 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  }
  if (fromFloat && toFloat) {
    unsigned fw = v.getType().getIntOrFloatBitWidth();
    unsigned tw = target.getIntOrFloatBitWidth();
    if (fw < tw)
      return arith::ExtFOp::create(b, loc, target, v);
    if (fw > tw)
      return arith::TruncFOp::create(b, loc, target, v);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return arith::TruncFOp::create(b, loc, target, wide);
  }
  if (fromFloat)
    return isUnsignedType(to) ? arith::FPToUIOp::create(b, loc, target, v)
                                    .getResult()
                              : arith::FPToSIOp::create(b, loc, target, v)
                                    .getResult();
  if (toFloat)
    return isUnsignedType(from) ? arith::UIToFPOp::create(b, loc, target, v)
                                      .getResult()
                                : arith::SIToFPOp::create(b, loc, target, v)
                                      .getResult();
  unsigned fw = v.getType().getIntOrFloatBitWidth();
  unsigned tw = target.getIntOrFloatBitWidth();
  if (fw < tw)
    return isUnsignedType(from)
               ? arith::ExtUIOp::create(b, loc, target, v).getResult()
               : arith::ExtSIOp::create(b, loc, target, v).getResult();
  if (fw > tw)
    return arith::TruncIOp::create(b, loc, target, v);
  return v;
}

//===----------------------------------------------------------------------===//
// Tensor data
//===----------------------------------------------------------------------===//

FailureOr<DenseElementsAttr> tensorProtoToAttr(MLIRContext *ctx,
                                               const onnx::TensorProto &t,
                                               StringRef externalBytes,
                                               std::string &error) {
  Type element = elementTypeOf(ctx, t.data_type());
  if (!element) {
    error = "tensor '" + t.name() + "' has unsupported data type " +
            onnxTypeName(t.data_type()).str();
    return failure();
  }
  Shape shape(t.dims().begin(), t.dims().end());
  for (int64_t d : shape)
    if (d < 0) {
      error = "tensor '" + t.name() + "' has a negative dimension";
      return failure();
    }
  auto type = RankedTensorType::get(shape, element);
  int64_t n = type.getNumElements();

  StringRef raw = t.has_raw_data() ? StringRef(t.raw_data()) : externalBytes;
  bool hasRaw = t.has_raw_data() || !externalBytes.empty() ||
                (t.data_location() == onnx::TensorProto::EXTERNAL);
  if (hasRaw) {
    int64_t elementBytes =
        element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
    if (static_cast<int64_t>(raw.size()) != n * elementBytes) {
      error = "tensor '" + t.name() + "' holds " + std::to_string(raw.size()) +
              " bytes, expected " + std::to_string(n * elementBytes);
      return failure();
    }
    if (element.isInteger(1)) {
      SmallVector<bool> values;
      for (char c : raw)
        values.push_back(c != 0);
      return DenseElementsAttr::get(type, ArrayRef<bool>(values));
    }
    // Little-endian raw bytes; this host is little-endian too.
    bool detectedSplat = false;
    if (!DenseElementsAttr::isValidRawBuffer(type, ArrayRef(raw.data(), raw.size()),
                                             detectedSplat)) {
      error = "tensor '" + t.name() + "' has an invalid raw buffer";
      return failure();
    }
    return DenseElementsAttr::getFromRawBuffer(type,
                                               ArrayRef(raw.data(), raw.size()));
  }

  auto checkCount = [&](int64_t count) {
    if (count == n)
      return true;
    error = "tensor '" + t.name() + "' holds " + std::to_string(count) +
            " values, expected " + std::to_string(n);
    return false;
  };
  switch (t.data_type()) {
  case kFloat: {
    if (!checkCount(t.float_data_size()))
      return failure();
    SmallVector<float> v(t.float_data().begin(), t.float_data().end());
    return DenseElementsAttr::get(type, ArrayRef<float>(v));
  }
  case kDouble: {
    if (!checkCount(t.double_data_size()))
      return failure();
    SmallVector<double> v(t.double_data().begin(), t.double_data().end());
    return DenseElementsAttr::get(type, ArrayRef<double>(v));
  }
  case kInt64: {
    if (!checkCount(t.int64_data_size()))
      return failure();
    SmallVector<int64_t> v(t.int64_data().begin(), t.int64_data().end());
    return DenseElementsAttr::get(type, ArrayRef<int64_t>(v));
  }
  case kUInt32:
  case kUInt64: {
    if (!checkCount(t.uint64_data_size()))
      return failure();
    SmallVector<APInt> v;
    for (uint64_t x : t.uint64_data())
      v.push_back(APInt(element.getIntOrFloatBitWidth(), x));
    return DenseElementsAttr::get(type, v);
  }
  case kBool: {
    if (!checkCount(t.int32_data_size()))
      return failure();
    SmallVector<bool> v;
    for (int32_t x : t.int32_data())
      v.push_back(x != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(v));
  }
  case kFloat16:
  case kBFloat16: {
    if (!checkCount(t.int32_data_size()))
      return failure();
    SmallVector<APFloat> v;
    const llvm::fltSemantics &sem = cast<FloatType>(element).getFloatSemantics();
    for (int32_t x : t.int32_data())
      v.push_back(APFloat(sem, APInt(16, static_cast<uint16_t>(x))));
    return DenseElementsAttr::get(type, v);
  }
  default: {
    // int8/uint8/int16/uint16/int32 live in int32_data.
    if (!checkCount(t.int32_data_size()))
      return failure();
    SmallVector<APInt> v;
    for (int32_t x : t.int32_data())
      v.push_back(APInt(element.getIntOrFloatBitWidth(),
                        static_cast<uint64_t>(static_cast<int64_t>(x)),
                        /*isSigned=*/true, /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, v);
  }
  }
}

} // namespace aotc::onnx_frontend
