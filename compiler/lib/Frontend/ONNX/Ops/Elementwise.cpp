//===- Elementwise.cpp - ONNX elementwise ops ----------------*- C++ -*-===//
//
// This file implements the specifications of ONNX's elementwise ops:
// activations, arithmetic with multidirectional broadcasting, comparisons,
// logic, Where, Clip, Cast and Identity. Each becomes one linalg.generic,
// which the tensor stage fuses with its neighbours.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "onnx/onnx_pb.h"

#include <cmath>

using namespace mlir;

namespace aotc::onnx_frontend {
namespace {

using ScalarFn =
    std::function<Value(OpBuilder &, Location, ValueRange, int32_t dtype)>;

/// Float constant of the element type of `like`.
Value floatConst(OpBuilder &b, Location loc, Value like, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(like.getType(), v));
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

/// A unary op: output has the input's shape and dtype; `allowed` dtypes.
OpSpec unaryOp(ArrayRef<int32_t> allowed, ScalarFn fn) {
  SmallVector<int32_t> allowedTypes(allowed);
  OpSpec spec;
  spec.shape = sameShapeAs(0);
  spec.dtype = [allowedTypes](NodeContext &ctx)
      -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, allowedTypes)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.lower = [fn](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t dtype = outputs[0].dtype;
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0)}, outputs[0].shape, dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return fn(b, loc, args, dtype);
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

/// A float unary op whose body also reads float attributes.
using AttrScalarFn = std::function<Value(OpBuilder &, Location, Value x,
                                         ArrayRef<double> attrs)>;
OpSpec floatUnaryWithAttrs(
    std::vector<std::pair<std::string, double>> attrs, AttrScalarFn fn) {
  OpSpec spec = unaryOp(kFloatTypes, nullptr);
  spec.lower = [attrs, fn](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    SmallVector<double> values;
    for (auto &[name, dflt] : attrs)
      values.push_back(ctx.floatAttr(name, dflt));
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0)}, outputs[0].shape, outputs[0].dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return fn(b, loc, args[0], values);
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = floatConst(b, loc, x, 1.0);
  Value negX = arith::NegFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, negX);
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

bool isSignedInt(int32_t t) {
  return t == kInt8 || t == kInt16 || t == kInt32 || t == kInt64;
}

constexpr int32_t kSignedTypes[] = {kFloat,  kDouble, kFloat16, kBFloat16,
                                    kInt8,   kInt16,  kInt32,   kInt64};
constexpr int32_t kNumericTypes[] = {
    kFloat, kDouble, kFloat16, kBFloat16, kInt8,   kInt16,  kInt32,
    kInt64, kUInt8,  kUInt16,  kUInt32,   kUInt64};

/// `spec` with a compile-time fold of integer constants (shape arithmetic,
/// e.g. Neg of an axis count in ONNX's expanded LayerNormalization).
OpSpec withIntFold(OpSpec spec, std::function<int64_t(int64_t)> f) {
  spec.fold = [f](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    const TensorValue &x = ctx.input(0);
    if (isFloatType(x.dtype) || !isSignedInt(x.dtype) ||
        outputs[0].numElements() > kFoldLimit)
      return failure();
    SmallVector<int64_t> values =
        llvm::map_to_vector(intValues(*x.constant, x.dtype), f);
    return SmallVector<DenseElementsAttr>{intConstant(
        ctx.context(), outputs[0].dtype, outputs[0].shape, values)};
  };
  return spec;
}

void registerUnaryOps(OpLibrary &l) {
  l.add("Relu", unaryOp(kSignedTypes, [](OpBuilder &b, Location loc,
                                         ValueRange a, int32_t t) -> Value {
          if (isFloatType(t))
            return arith::MaximumFOp::create(b, loc, a[0],
                                             floatConst(b, loc, a[0], 0.0));
          Value zero = arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(a[0].getType(), 0));
          return arith::MaxSIOp::create(b, loc, a[0], zero);
        }));
  l.add("Neg", withIntFold(
                   unaryOp(kSignedTypes,
                           [](OpBuilder &b, Location loc, ValueRange a,
                              int32_t t) -> Value {
                             if (isFloatType(t))
                               return arith::NegFOp::create(b, loc, a[0]);
                             Value zero = arith::ConstantOp::create(
                                 b, loc, b.getIntegerAttr(a[0].getType(), 0));
                             return arith::SubIOp::create(b, loc, zero, a[0]);
                           }),
                   [](int64_t x) { return -x; }));
  l.add("Abs", withIntFold(
                   unaryOp(kNumericTypes,
                           [](OpBuilder &b, Location loc, ValueRange a,
                              int32_t t) -> Value {
                             if (isFloatType(t))
                               return math::AbsFOp::create(b, loc, a[0]);
                             if (!isSignedInt(t))
                               return a[0];
                             return math::AbsIOp::create(b, loc, a[0]);
                           }),
                   [](int64_t x) { return x < 0 ? -x : x; }));
  auto floatUnary = [&](StringRef name,
                        std::function<Value(OpBuilder &, Location, Value)> f) {
    l.add(name, unaryOp(kFloatTypes, [f](OpBuilder &b, Location loc,
                                         ValueRange a, int32_t) {
            return f(b, loc, a[0]);
          }));
  };
  floatUnary("Sigmoid", sigmoid);
  floatUnary("Tanh", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::TanhOp::create(b, loc, x);
  });
  floatUnary("Exp", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::ExpOp::create(b, loc, x);
  });
  floatUnary("Log", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::LogOp::create(b, loc, x);
  });
  floatUnary("Sqrt", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::SqrtOp::create(b, loc, x);
  });
  floatUnary("Erf", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::ErfOp::create(b, loc, x);
  });
  floatUnary("Reciprocal", [](OpBuilder &b, Location loc, Value x) -> Value {
    return arith::DivFOp::create(b, loc, floatConst(b, loc, x, 1.0), x);
  });
  floatUnary("Floor", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::FloorOp::create(b, loc, x);
  });
  floatUnary("Ceil", [](OpBuilder &b, Location loc, Value x) -> Value {
    return math::CeilOp::create(b, loc, x);
  });
  floatUnary("Softplus", [](OpBuilder &b, Location loc, Value x) -> Value {
    // log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), stable for large |x|.
    Value zero = floatConst(b, loc, x, 0.0);
    Value pos = arith::MaximumFOp::create(b, loc, x, zero);
    Value negAbs =
        arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x));
    Value e = math::ExpOp::create(b, loc, negAbs);
    return arith::AddFOp::create(b, loc, pos, math::Log1pOp::create(b, loc, e));
  });
  floatUnary("HardSwish", [](OpBuilder &b, Location loc, Value x) -> Value {
    // x * max(0, min(1, x / 6 + 1 / 2))
    Value t = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, floatConst(b, loc, x, 1.0 / 6)),
        floatConst(b, loc, x, 0.5));
    t = arith::MinimumFOp::create(b, loc, t, floatConst(b, loc, x, 1.0));
    t = arith::MaximumFOp::create(b, loc, t, floatConst(b, loc, x, 0.0));
    return arith::MulFOp::create(b, loc, x, t);
  });

  l.add("LeakyRelu",
        floatUnaryWithAttrs({{"alpha", 0.01}}, [](OpBuilder &b, Location loc,
                                                  Value x, ArrayRef<double> p) {
          Value zero = floatConst(b, loc, x, 0.0);
          Value neg = arith::MulFOp::create(b, loc, x,
                                            floatConst(b, loc, x, p[0]));
          Value isPos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                              x, zero);
          return arith::SelectOp::create(b, loc, isPos, x, neg).getResult();
        }));
  l.add("Elu", floatUnaryWithAttrs({{"alpha", 1.0}}, [](OpBuilder &b,
                                                        Location loc, Value x,
                                                        ArrayRef<double> p) {
          Value zero = floatConst(b, loc, x, 0.0);
          Value em1 = math::ExpM1Op::create(b, loc, x);
          Value neg = arith::MulFOp::create(b, loc, em1,
                                            floatConst(b, loc, x, p[0]));
          Value isPos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                              x, zero);
          return arith::SelectOp::create(b, loc, isPos, x, neg).getResult();
        }));
  l.add("Selu",
        floatUnaryWithAttrs(
            {{"alpha", 1.67326319217681884765625},
             {"gamma", 1.05070102214813232421875}},
            [](OpBuilder &b, Location loc, Value x, ArrayRef<double> p) {
              Value zero = floatConst(b, loc, x, 0.0);
              Value em1 = arith::SubFOp::create(
                  b, loc, math::ExpOp::create(b, loc, x),
                  floatConst(b, loc, x, 1.0));
              Value neg = arith::MulFOp::create(b, loc, em1,
                                                floatConst(b, loc, x, p[0]));
              Value isPos = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OGT, x, zero);
              Value r = arith::SelectOp::create(b, loc, isPos, x, neg);
              return arith::MulFOp::create(b, loc, r,
                                           floatConst(b, loc, x, p[1]))
                  .getResult();
            }));
  l.add("HardSigmoid",
        floatUnaryWithAttrs({{"alpha", 0.2}, {"beta", 0.5}},
                            [](OpBuilder &b, Location loc, Value x,
                               ArrayRef<double> p) {
                              Value t = arith::AddFOp::create(
                                  b, loc,
                                  arith::MulFOp::create(
                                      b, loc, x, floatConst(b, loc, x, p[0])),
                                  floatConst(b, loc, x, p[1]));
                              t = arith::MinimumFOp::create(
                                  b, loc, t, floatConst(b, loc, x, 1.0));
                              return arith::MaximumFOp::create(
                                         b, loc, t, floatConst(b, loc, x, 0.0))
                                  .getResult();
                            }));

  // Gelu (opset 20 in ONNX; accepted here for models that carry it).
  OpSpec gelu = unaryOp(kFloatTypes, nullptr);
  gelu.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    std::string approximate = ctx.stringAttr("approximate", "none");
    if (approximate != "none" && approximate != "tanh") {
      ctx.attributeError("approximate") << "unknown value '" << approximate
                                        << "'";
      return failure();
    }
    bool useTanh = approximate == "tanh";
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0)}, outputs[0].shape, outputs[0].dtype,
        [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
          Value x = a[0];
          Value half = floatConst(b, loc, x, 0.5);
          Value one = floatConst(b, loc, x, 1.0);
          Value inner;
          if (useTanh) {
            // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
            Value x3 = arith::MulFOp::create(
                b, loc, x, arith::MulFOp::create(b, loc, x, x));
            Value s = arith::AddFOp::create(
                b, loc, x,
                arith::MulFOp::create(b, loc, x3,
                                      floatConst(b, loc, x, 0.044715)));
            inner = math::TanhOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, s,
                    floatConst(b, loc, x, std::sqrt(2.0 / M_PI))));
          } else {
            inner = math::ErfOp::create(
                b, loc,
                arith::MulFOp::create(b, loc, x,
                                      floatConst(b, loc, x, M_SQRT1_2)));
          }
          Value t = arith::AddFOp::create(b, loc, one, inner);
          return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, half),
                                       t);
        });
    return SmallVector<Value>{result};
  };
  gelu.maxOpset = 18;
  l.add("Gelu", gelu);

  l.add("Not", unaryOp({kBool}, [](OpBuilder &b, Location loc, ValueRange a,
                                   int32_t) -> Value {
          Value one =
              arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI1Type(), 1));
          return arith::XOrIOp::create(b, loc, a[0], one);
        }));
}

//===----------------------------------------------------------------------===//
// Binary and variadic ops with broadcasting
//===----------------------------------------------------------------------===//

/// Integer evaluator used for compile-time folding of shape arithmetic.
using IntFoldFn = std::function<std::optional<int64_t>(int64_t, int64_t)>;

/// Folds an integer/bool elementwise op over broadcast constant inputs.
FoldFn foldIntBinary(IntFoldFn f) {
  return [f](NodeContext &ctx, ArrayRef<TensorValue> outputs)
             -> FailureOr<SmallVector<DenseElementsAttr>> {
    const TensorValue &a = ctx.input(0), &b = ctx.input(1);
    if (isFloatType(a.dtype) || isFloatType(outputs[0].dtype) ||
        outputs[0].numElements() > kFoldLimit)
      return failure();
    SmallVector<int64_t> av = intValues(*a.constant, a.dtype);
    SmallVector<int64_t> bv = intValues(*b.constant, b.dtype);
    SmallVector<int64_t> ai = broadcastIndices(a.shape, outputs[0].shape);
    SmallVector<int64_t> bi = broadcastIndices(b.shape, outputs[0].shape);
    SmallVector<int64_t> result;
    for (size_t i = 0; i < ai.size(); ++i) {
      std::optional<int64_t> r = f(av[ai[i]], bv[bi[i]]);
      if (!r)
        return failure();
      result.push_back(*r);
    }
    return SmallVector<DenseElementsAttr>{intConstant(
        ctx.context(), outputs[0].dtype, outputs[0].shape, result)};
  };
}

/// A binary op over broadcast inputs of one dtype. `resultDtype` is the
/// output dtype, or -1 for the inputs' dtype.
OpSpec binaryOp(ArrayRef<int32_t> allowed, int32_t resultDtype, ScalarFn fn,
                IntFoldFn fold = nullptr) {
  SmallVector<int32_t> allowedTypes(allowed);
  OpSpec spec;
  spec.shape = broadcastShape();
  spec.dtype = [allowedTypes, resultDtype](NodeContext &ctx)
      -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, allowedTypes)) ||
        failed(requireSameDtypes(ctx)))
      return failure();
    return SmallVector<int32_t>{resultDtype < 0 ? ctx.input(0).dtype
                                                : resultDtype};
  };
  spec.lower = [fn](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t inputDtype = ctx.input(0).dtype;
    SmallVector<Value> inputs;
    for (size_t i = 0; i < ctx.numInputs(); ++i)
      inputs.push_back(ctx.inputValue(i));
    Value result = buildElementwise(
        ctx, inputs, outputs[0].shape, outputs[0].dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return fn(b, loc, args, inputDtype);
        });
    return SmallVector<Value>{result};
  };
  if (fold)
    spec.fold = foldIntBinary(fold);
  return spec;
}

/// Variadic Min/Max/Sum/Mean: folds the binary `fn` over all inputs.
OpSpec variadicOp(ArrayRef<int32_t> allowed, ScalarFn fn, bool mean = false) {
  OpSpec spec = binaryOp(allowed, -1, fn);
  spec.lower = [fn, mean](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t dtype = outputs[0].dtype;
    SmallVector<Value> inputs;
    for (size_t i = 0; i < ctx.numInputs(); ++i)
      inputs.push_back(ctx.inputValue(i));
    Value result = buildElementwise(
        ctx, inputs, outputs[0].shape, dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value acc = args[0];
          for (Value v : args.drop_front())
            acc = fn(b, loc, {acc, v}, dtype);
          if (mean)
            acc = arith::DivFOp::create(
                b, loc, acc, floatConst(b, loc, acc, args.size()));
          return acc;
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

Value compare(OpBuilder &b, Location loc, ValueRange a, int32_t t,
              arith::CmpFPredicate fp, arith::CmpIPredicate sp,
              arith::CmpIPredicate up) {
  if (isFloatType(t))
    return arith::CmpFOp::create(b, loc, fp, a[0], a[1]);
  return arith::CmpIOp::create(b, loc, isUnsignedType(t) ? up : sp, a[0],
                               a[1]);
}

void registerBinaryOps(OpLibrary &l) {
  l.add("Add", binaryOp(kNumericTypes, -1,
                        [](OpBuilder &b, Location loc, ValueRange a,
                           int32_t t) -> Value {
                          if (isFloatType(t))
                            return arith::AddFOp::create(b, loc, a[0], a[1]);
                          return arith::AddIOp::create(b, loc, a[0], a[1]);
                        },
                        [](int64_t x, int64_t y) -> std::optional<int64_t> {
                          return x + y;
                        }));
  l.add("Sub", binaryOp(kNumericTypes, -1,
                        [](OpBuilder &b, Location loc, ValueRange a,
                           int32_t t) -> Value {
                          if (isFloatType(t))
                            return arith::SubFOp::create(b, loc, a[0], a[1]);
                          return arith::SubIOp::create(b, loc, a[0], a[1]);
                        },
                        [](int64_t x, int64_t y) -> std::optional<int64_t> {
                          return x - y;
                        }));
  l.add("Mul", binaryOp(kNumericTypes, -1,
                        [](OpBuilder &b, Location loc, ValueRange a,
                           int32_t t) -> Value {
                          if (isFloatType(t))
                            return arith::MulFOp::create(b, loc, a[0], a[1]);
                          return arith::MulIOp::create(b, loc, a[0], a[1]);
                        },
                        [](int64_t x, int64_t y) -> std::optional<int64_t> {
                          return x * y;
                        }));
  l.add("Div", binaryOp(kNumericTypes, -1,
                        [](OpBuilder &b, Location loc, ValueRange a,
                           int32_t t) -> Value {
                          if (isFloatType(t))
                            return arith::DivFOp::create(b, loc, a[0], a[1]);
                          if (isUnsignedType(t))
                            return arith::DivUIOp::create(b, loc, a[0], a[1]);
                          return arith::DivSIOp::create(b, loc, a[0], a[1]);
                        },
                        [](int64_t x, int64_t y) -> std::optional<int64_t> {
                          if (y == 0)
                            return std::nullopt;
                          return x / y;
                        }));

  // Mod (opset 10): with fmod = 0, the default, the remainder takes the
  // divisor's sign, as Python's % does (integers only); with fmod = 1 the
  // dividend's, as C's fmod (which floats require).
  OpSpec mod = binaryOp(kNumericTypes, -1, nullptr);
  mod.minOpset = 10;
  mod.dtype = [dtype = mod.dtype](NodeContext &ctx)
      -> FailureOr<SmallVector<int32_t>> {
    int64_t fmod = ctx.intAttr("fmod", 0);
    if (fmod != 0 && fmod != 1) {
      ctx.error() << "attribute fmod must be 0 or 1, not " << fmod;
      return failure();
    }
    if (fmod == 0 && ctx.numInputs() > 0 && isFloatType(ctx.input(0).dtype)) {
      ctx.error() << "a floating-point Mod needs fmod = 1";
      return failure();
    }
    return dtype(ctx);
  };
  mod.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t t = ctx.input(0).dtype;
    bool cRemainder = ctx.intAttr("fmod", 0) == 1;
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0), ctx.inputValue(1)}, outputs[0].shape, t,
        [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
          if (isFloatType(t))
            return arith::RemFOp::create(b, loc, a[0], a[1]);
          if (isUnsignedType(t))
            return arith::RemUIOp::create(b, loc, a[0], a[1]);
          Value r = arith::RemSIOp::create(b, loc, a[0], a[1]);
          if (cRemainder)
            return r;
          // A non-zero remainder of the other sign than the divisor moves
          // by one divisor.
          Value zero = arith::ConstantOp::create(
              b, loc, b.getZeroAttr(r.getType()));
          Value nonZero =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
          Value signs = arith::XOrIOp::create(b, loc, r, a[1]);
          Value differ = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, signs, zero);
          Value moves = arith::AndIOp::create(b, loc, nonZero, differ);
          Value moved = arith::AddIOp::create(b, loc, r, a[1]);
          return arith::SelectOp::create(b, loc, moves, moved, r).getResult();
        });
    return SmallVector<Value>{result};
  };
  mod.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    bool cRemainder = ctx.intAttr("fmod", 0) == 1;
    return foldIntBinary([cRemainder](int64_t x, int64_t y)
                             -> std::optional<int64_t> {
      if (y == 0)
        return std::nullopt;
      int64_t r = x % y;
      if (!cRemainder && r != 0 && (r < 0) != (y < 0))
        r += y;
      return r;
    })(ctx, outputs);
  };
  l.add("Mod", mod);

  // Pow: the output has the base's dtype; base and exponent may each be
  // float or signed integer (opset 12+ allows the mix).
  OpSpec pow;
  pow.shape = broadcastShape();
  pow.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kSignedTypes)) ||
        failed(requireDtype(ctx, 1, kSignedTypes)))
      return failure();
    if (!isFloatType(ctx.input(0).dtype) && ctx.opset() < 12) {
      ctx.error() << "an integer base needs opset 12";
      return failure();
    }
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  pow.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t base = ctx.input(0).dtype, exponent = ctx.input(1).dtype;
    // An integer base is raised in double precision and truncated back, as
    // numpy does for int ** float (exact while |result| < 2^53).
    int32_t compute = isFloatType(base) ? base : kDouble;
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0), ctx.inputValue(1)}, outputs[0].shape, base,
        [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
          Value x = convertScalar(b, loc, a[0], base, compute);
          Value e = convertScalar(b, loc, a[1], exponent, compute);
          Value r = math::PowFOp::create(b, loc, x, e);
          return convertScalar(b, loc, r, compute, base);
        });
    return SmallVector<Value>{result};
  };
  l.add("Pow", pow);

  ScalarFn minFn = [](OpBuilder &b, Location loc, ValueRange a,
                      int32_t t) -> Value {
    if (isFloatType(t))
      return arith::MinimumFOp::create(b, loc, a[0], a[1]);
    if (isUnsignedType(t))
      return arith::MinUIOp::create(b, loc, a[0], a[1]);
    return arith::MinSIOp::create(b, loc, a[0], a[1]);
  };
  ScalarFn maxFn = [](OpBuilder &b, Location loc, ValueRange a,
                      int32_t t) -> Value {
    if (isFloatType(t))
      return arith::MaximumFOp::create(b, loc, a[0], a[1]);
    if (isUnsignedType(t))
      return arith::MaxUIOp::create(b, loc, a[0], a[1]);
    return arith::MaxSIOp::create(b, loc, a[0], a[1]);
  };
  ScalarFn addFn = [](OpBuilder &b, Location loc, ValueRange a,
                      int32_t t) -> Value {
    if (isFloatType(t))
      return arith::AddFOp::create(b, loc, a[0], a[1]);
    return arith::AddIOp::create(b, loc, a[0], a[1]);
  };
  l.add("Min", variadicOp(kNumericTypes, minFn));
  l.add("Max", variadicOp(kNumericTypes, maxFn));
  l.add("Sum", variadicOp(kNumericTypes, addFn));
  l.add("Mean", variadicOp(kFloatTypes, addFn, /*mean=*/true));

  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  auto cmp = [&](StringRef name, FP fp, IP sp, IP up, IntFoldFn fold) {
    l.add(name, binaryOp(kNumericTypes, kBool,
                         [=](OpBuilder &b, Location loc, ValueRange a,
                             int32_t t) {
                           return compare(b, loc, a, t, fp, sp, up);
                         },
                         fold));
  };
  cmp("Equal", FP::OEQ, IP::eq, IP::eq,
      [](int64_t x, int64_t y) -> std::optional<int64_t> { return x == y; });
  cmp("Less", FP::OLT, IP::slt, IP::ult,
      [](int64_t x, int64_t y) -> std::optional<int64_t> { return x < y; });
  cmp("Greater", FP::OGT, IP::sgt, IP::ugt,
      [](int64_t x, int64_t y) -> std::optional<int64_t> { return x > y; });
  cmp("LessOrEqual", FP::OLE, IP::sle, IP::ule,
      [](int64_t x, int64_t y) -> std::optional<int64_t> { return x <= y; });
  cmp("GreaterOrEqual", FP::OGE, IP::sge, IP::uge,
      [](int64_t x, int64_t y) -> std::optional<int64_t> { return x >= y; });
  // Equal also accepts bool inputs.
  auto logic = [&](StringRef name,
                   std::function<Value(OpBuilder &, Location, Value, Value)> f,
                   IntFoldFn fold) {
    l.add(name, binaryOp({kBool}, kBool,
                         [f](OpBuilder &b, Location loc, ValueRange a,
                             int32_t) { return f(b, loc, a[0], a[1]); },
                         fold));
  };
  logic("And",
        [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
          return arith::AndIOp::create(b, loc, x, y);
        },
        [](int64_t x, int64_t y) -> std::optional<int64_t> { return x && y; });
  logic("Or",
        [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
          return arith::OrIOp::create(b, loc, x, y);
        },
        [](int64_t x, int64_t y) -> std::optional<int64_t> { return x || y; });
  logic("Xor",
        [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
          return arith::XOrIOp::create(b, loc, x, y);
        },
        [](int64_t x, int64_t y) -> std::optional<int64_t> {
          return (x != 0) != (y != 0);
        });
}

//===----------------------------------------------------------------------===//
// Where, Clip, Cast, Identity
//===----------------------------------------------------------------------===//

void registerSelectionOps(OpLibrary &l) {
  OpSpec where;
  where.shape = broadcastShape();
  where.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, {kBool})))
      return failure();
    if (ctx.input(1).dtype != ctx.input(2).dtype) {
      ctx.error() << "X and Y have different dtypes";
      return failure();
    }
    return SmallVector<int32_t>{ctx.input(1).dtype};
  };
  where.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0), ctx.inputValue(1), ctx.inputValue(2)},
        outputs[0].shape, outputs[0].dtype,
        [](OpBuilder &b, Location loc, ValueRange a) -> Value {
          return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
        });
    return SmallVector<Value>{result};
  };
  where.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    const TensorValue &out = outputs[0];
    if (isFloatType(out.dtype) || out.numElements() > kFoldLimit)
      return failure();
    SmallVector<int64_t> c = intValues(*ctx.input(0).constant, kBool);
    SmallVector<int64_t> x = intValues(*ctx.input(1).constant, out.dtype);
    SmallVector<int64_t> y = intValues(*ctx.input(2).constant, out.dtype);
    SmallVector<int64_t> ci = broadcastIndices(ctx.input(0).shape, out.shape);
    SmallVector<int64_t> xi = broadcastIndices(ctx.input(1).shape, out.shape);
    SmallVector<int64_t> yi = broadcastIndices(ctx.input(2).shape, out.shape);
    SmallVector<int64_t> r;
    for (size_t i = 0; i < ci.size(); ++i)
      r.push_back(c[ci[i]] ? x[xi[i]] : y[yi[i]]);
    return SmallVector<DenseElementsAttr>{
        intConstant(ctx.context(), out.dtype, out.shape, r)};
  };
  l.add("Where", where);

  // Clip: bounds from inputs 1/2 (opset 11+) or attributes min/max (< 11).
  OpSpec clip;
  clip.shape = sameShapeAs(0);
  clip.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kNumericTypes)))
      return failure();
    for (size_t i = 1; i < 3; ++i)
      if (ctx.hasInput(i) &&
          (ctx.input(i).dtype != ctx.input(0).dtype ||
           ctx.input(i).numElements() != 1)) {
        ctx.error() << "input " << i << " must be a scalar of dtype "
                    << onnxTypeName(ctx.input(0).dtype);
        return failure();
      }
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  clip.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t t = outputs[0].dtype;
    SmallVector<Value> inputs = {ctx.inputValue(0)};
    std::optional<Value> lo, hi;
    if (ctx.opset() < 11) {
      if (ctx.hasAttribute("min"))
        lo = ctx.scalarConstant(ctx.floatAttr("min", 0), t);
      if (ctx.hasAttribute("max"))
        hi = ctx.scalarConstant(ctx.floatAttr("max", 0), t);
    }
    // Scalar bounds enter the generic as rank-0 tensors (broadcast).
    auto asRank0 = [&](size_t i) -> Value {
      Value v = ctx.inputValue(i);
      if (ctx.input(i).shape.empty())
        return v;
      return tensor::CollapseShapeOp::create(
                 ctx.builder(), ctx.loc(), v,
                 SmallVector<ReassociationIndices>{})
          .getResult();
    };
    int loIndex = -1, hiIndex = -1;
    if (ctx.hasInput(1)) {
      loIndex = inputs.size();
      inputs.push_back(asRank0(1));
    }
    if (ctx.hasInput(2)) {
      hiIndex = inputs.size();
      inputs.push_back(asRank0(2));
    }
    Value result = buildElementwise(
        ctx, inputs, outputs[0].shape, t,
        [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
          Value x = a[0];
          // Attribute bounds are constants defined outside the generic.
          Value low = loIndex >= 0 ? a[loIndex] : lo.value_or(Value());
          Value high = hiIndex >= 0 ? a[hiIndex] : hi.value_or(Value());
          bool isFloat = isFloatType(t), isUnsigned = isUnsignedType(t);
          if (low)
            x = isFloat ? arith::MaximumFOp::create(b, loc, x, low).getResult()
                : isUnsigned
                    ? arith::MaxUIOp::create(b, loc, x, low).getResult()
                    : arith::MaxSIOp::create(b, loc, x, low).getResult();
          if (high)
            x = isFloat ? arith::MinimumFOp::create(b, loc, x, high).getResult()
                : isUnsigned
                    ? arith::MinUIOp::create(b, loc, x, high).getResult()
                    : arith::MinSIOp::create(b, loc, x, high).getResult();
          return x;
        });
    return SmallVector<Value>{result};
  };
  l.add("Clip", clip);

  OpSpec cast;
  cast.shape = sameShapeAs(0);
  cast.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    int32_t to = ctx.intAttr("to", kUndefined);
    if (!elementTypeOf(ctx.context(), to) ||
        !elementTypeOf(ctx.context(), ctx.input(0).dtype)) {
      ctx.attributeError("to")
          << "cast from " << onnxTypeName(ctx.input(0).dtype) << " to "
          << onnxTypeName(to) << " is not supported";
      return failure();
    }
    return SmallVector<int32_t>{to};
  };
  cast.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    int32_t from = ctx.input(0).dtype, to = outputs[0].dtype;
    Value result = buildElementwise(
        ctx, {ctx.inputValue(0)}, outputs[0].shape, to,
        [&](OpBuilder &b, Location loc, ValueRange a) {
          return convertScalar(b, loc, a[0], from, to);
        });
    return SmallVector<Value>{result};
  };
  cast.fold = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    int32_t from = ctx.input(0).dtype, to = outputs[0].dtype;
    if (isFloatType(from) || isFloatType(to) ||
        outputs[0].numElements() > kFoldLimit)
      return failure();
    SmallVector<int64_t> v = intValues(*ctx.input(0).constant, from);
    if (to == kBool)
      for (int64_t &x : v)
        x = x != 0;
    return SmallVector<DenseElementsAttr>{
        intConstant(ctx.context(), to, outputs[0].shape, v)};
  };
  l.add("Cast", cast);

  OpSpec identity;
  identity.shape = sameShapeAs(0);
  identity.dtype = sameDtypeAs(0);
  identity.lower = [](NodeContext &ctx, ArrayRef<TensorValue>)
      -> FailureOr<SmallVector<Value>> {
    return SmallVector<Value>{ctx.inputValue(0)};
  };
  identity.fold = [](NodeContext &ctx, ArrayRef<TensorValue>)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    return SmallVector<DenseElementsAttr>{*ctx.input(0).constant};
  };
  l.add("Identity", identity);
}

} // namespace

void registerElementwiseOps(OpLibrary &library) {
  registerUnaryOps(library);
  registerBinaryOps(library);
  registerSelectionOps(library);
}

} // namespace aotc::onnx_frontend
