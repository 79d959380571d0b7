//===- NN.cpp - ONNX neural network ops ----------------------*- C++ -*-===//
//
// This file implements the specifications of ONNX's neural network ops:
// MatMul, Gemm, Einsum, Conv, ConvTranspose, MaxPool, AveragePool,
// GlobalAveragePool, GlobalMaxPool and BatchNormalization (inference).
//
// Every op becomes linalg.generic ops with explicit indexing maps (plus
// tensor.pad / expand_shape / collapse_shape / slices), so the lowering reads
// as the formula of the ONNX spec:
//   - contractions (MatMul, Gemm, Einsum) are one generic whose body
//     multiplies the operands and accumulates; batch broadcasting reads index
//     0 of size-1 dimensions;
//   - Conv is one generic over (n, g, m, o..., c, k...) reading the padded
//     input at o * stride + k * dilation, groups being an expanded dimension;
//   - ConvTranspose is a stride-1 Conv over the input dilated by the stride
//     (a strided insert_slice into zeros) with the kernel flipped;
//   - pools are one generic over (n, c, o..., k...) reading a padded input.
// float16/bfloat16 contractions and sums accumulate in float32.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/IR/Matchers.h"

#include "onnx/onnx_pb.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <map>

using namespace mlir;

namespace aotc::onnx_frontend {
namespace {

using utils::IteratorType;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool isHalf(int32_t t) { return t == kFloat16 || t == kBFloat16; }

/// The dtype arithmetic runs in: float32 for 16-bit floats, else `t`.
int32_t computeDtype(int32_t t) { return isHalf(t) ? kFloat : t; }

/// Dtypes of MatMul and Gemm (ONNX: float16/32/64, bfloat16, (u)int32/64).
constexpr int32_t kMatMulTypes[] = {kFloat, kDouble, kFloat16, kBFloat16,
                                    kInt32, kInt64,  kUInt32,  kUInt64};
/// Dtypes of Einsum (all numeric types).
constexpr int32_t kNumericTypes[] = {
    kFloat, kDouble, kFloat16, kBFloat16, kInt8,   kInt16,  kInt32,
    kInt64, kUInt8,  kUInt16,  kUInt32,   kUInt64};

int64_t product(ArrayRef<int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

Shape shapeOf(Value v) {
  return Shape(cast<RankedTensorType>(v.getType()).getShape());
}

/// A tensor of `shape` filled with `value` (a scalar of the element type).
Value filled(NodeContext &ctx, const Shape &shape, int32_t dtype,
             Value value) {
  Value init = ctx.emptyTensor(shape, dtype);
  return linalg::FillOp::create(ctx.builder(), ctx.loc(), value, init)
      .getResult(0);
}

/// `v` (of ONNX dtype `from`) converted elementwise to dtype `to`.
Value convertTensor(NodeContext &ctx, Value v, int32_t from, int32_t to) {
  if (from == to)
    return v;
  auto convert = [&](OpBuilder &b, Location loc, ValueRange a) {
    return convertScalar(b, loc, a[0], from, to);
  };
  auto type = cast<RankedTensorType>(v.getType());
  if (type.hasStaticShape())
    return buildElementwise(ctx, {v}, shapeOf(v), to, convert);
  // Symbolic dimensions: the sizes come from `v` itself.
  OpBuilder &b = ctx.builder();
  Value init = tensor::EmptyOp::create(
      b, ctx.loc(), tensor::getMixedSizes(b, ctx.loc(), v),
      elementTypeOf(ctx.context(), to));
  AffineMap id = AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                   ctx.context());
  return linalg::GenericOp::create(
             b, ctx.loc(), init.getType(), ValueRange{v}, ValueRange{init},
             ArrayRef<AffineMap>{id, id},
             SmallVector<IteratorType>(type.getRank(), IteratorType::parallel),
             [&](OpBuilder &nb, Location loc, ValueRange args) {
               linalg::YieldOp::create(nb, loc,
                                       convert(nb, loc, args.drop_back()));
             })
      .getResult(0);
}

Value expandTo(NodeContext &ctx, Value v, const Shape &shape,
               ArrayRef<ReassociationIndices> reassociation) {
  auto type =
      tensorTypeOf(shape, cast<RankedTensorType>(v.getType()).getElementType());
  return tensor::ExpandShapeOp::create(ctx.builder(), ctx.loc(), type, v,
                                       reassociation)
      .getResult();
}

Value collapseTo(NodeContext &ctx, Value v, const Shape &shape,
                 ArrayRef<ReassociationIndices> reassociation) {
  auto type =
      tensorTypeOf(shape, cast<RankedTensorType>(v.getType()).getElementType());
  return tensor::CollapseShapeOp::create(ctx.builder(), ctx.loc(), type, v,
                                         reassociation)
      .getResult();
}

/// Pads the trailing spatial dimensions of `v` (rank 2 + low.size()) with
/// `padValue`; no-op when every amount is 0.
Value padSpatial(NodeContext &ctx, Value v, ArrayRef<int64_t> low,
                 ArrayRef<int64_t> high, Value padValue) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return v;
  OpBuilder &b = ctx.builder();
  Shape shape = shapeOf(v);
  SmallVector<OpFoldResult> lo(2, b.getIndexAttr(0)), hi(2, b.getIndexAttr(0));
  for (size_t i = 0; i < low.size(); ++i) {
    lo.push_back(b.getIndexAttr(low[i]));
    hi.push_back(b.getIndexAttr(high[i]));
    shape[2 + i] += low[i] + high[i];
  }
  auto type =
      tensorTypeOf(shape, cast<RankedTensorType>(v.getType()).getElementType());
  return tensor::PadOp::create(b, ctx.loc(), type, v, lo, hi, padValue)
      .getResult();
}

/// One generic accumulating the product of `inputs` (converted from their
/// dtypes to `accDtype`) into `init` (of `accDtype`):
///   init[outMap] += prod_i inputs_i[maps_i].
/// Without a reduction loop (an Einsum that only permutes or multiplies
/// elementwise) each output element is the product alone: an elementwise
/// op, not an accumulation that later passes could repeat.
Value buildContraction(NodeContext &ctx, ArrayRef<Value> inputs,
                       ArrayRef<int32_t> dtypes, ArrayRef<AffineMap> maps,
                       AffineMap outMap, ArrayRef<IteratorType> iterators,
                       Value init, int32_t accDtype) {
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(outMap);
  SmallVector<int32_t> inDtypes(dtypes);
  bool accumulates = llvm::is_contained(iterators, IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      ctx.builder(), ctx.loc(), init.getType(), inputs, ValueRange{init},
      allMaps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value prod;
        for (size_t i = 0; i < inDtypes.size(); ++i) {
          Value v = convertScalar(b, loc, args[i], inDtypes[i], accDtype);
          prod = prod ? mulScalar(b, loc, prod, v) : v;
        }
        linalg::YieldOp::create(
            b, loc, accumulates ? addScalar(b, loc, args.back(), prod) : prod);
      });
  return generic.getResult(0);
}

/// Fails with an error unless every listed input is present.
LogicalResult requireInputs(NodeContext &ctx, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (!ctx.hasInput(i)) {
      ctx.error() << "input " << i << " is required";
      return failure();
    }
  return success();
}

/// Fails when the node has more than `count` inputs.
LogicalResult requireAtMostInputs(NodeContext &ctx, size_t count) {
  if (ctx.numInputs() > count) {
    ctx.error() << "has " << ctx.numInputs() << " inputs, at most " << count
                << " are defined";
    return failure();
  }
  return success();
}

/// Fails when output `i` or any later one is requested (non-empty name).
LogicalResult rejectOutputsFrom(NodeContext &ctx, int i, StringRef why) {
  for (int j = i; j < ctx.node().output_size(); ++j)
    if (!ctx.node().output(j).empty()) {
      ctx.error() << "output " << j << " ('" << ctx.node().output(j)
                  << "') is not supported: " << why;
      return failure();
    }
  return success();
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

/// Numpy matmul: 1-D operands get a dimension prepended (A) / appended (B)
/// that the result drops; batch dimensions broadcast.
struct MatMulPlan {
  Shape batch;
  int64_t m = 1, n = 1, k = 1;
  bool aVector = false, bVector = false;
  Shape result;
};

FailureOr<MatMulPlan> planMatMul(NodeContext &ctx) {
  const Shape &a = ctx.input(0).shape, &b = ctx.input(1).shape;
  if (a.empty() || b.empty()) {
    ctx.error() << "MatMul operands must have rank >= 1";
    return failure();
  }
  MatMulPlan p;
  p.aVector = a.size() == 1;
  p.bVector = b.size() == 1;
  int64_t ka = a.back();
  int64_t kb = p.bVector ? b[0] : b[b.size() - 2];
  if (isSymbolDim(ka) || isSymbolDim(kb)) {
    if (failed(ctx.requireEqualDims(ka, kb)))
      return failure();
    ka = isSymbolDim(ka) ? kb : ka;
  } else if (ka != kb) {
    ctx.error() << "contraction dimensions differ: " << ka << " vs " << kb;
    return failure();
  }
  p.k = ka;
  p.m = p.aVector ? 1 : a[a.size() - 2];
  p.n = p.bVector ? 1 : b.back();
  Shape batchA(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  Shape batchB(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  FailureOr<Shape> batch = broadcastShapes(ctx, {batchA, batchB});
  if (failed(batch))
    return failure();
  p.batch = *batch;
  p.result = p.batch;
  if (!p.aVector)
    p.result.push_back(p.m);
  if (!p.bVector)
    p.result.push_back(p.n);
  return p;
}

OpSpec matMulSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireInputs(ctx, 2)) || failed(requireAtMostInputs(ctx, 2)) ||
        failed(requireDtype(ctx, 0, kMatMulTypes)) ||
        failed(requireSameDtypes(ctx)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<MatMulPlan> p = planMatMul(ctx);
    if (failed(p))
      return failure();
    return SmallVector<Shape>{p->result};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<MatMulPlan> p = planMatMul(ctx);
    if (failed(p))
      return failure();
    MLIRContext *mctx = ctx.context();
    const Shape &a = ctx.input(0).shape, &b = ctx.input(1).shape;
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    // Loops: batch..., [m], [n], k.
    unsigned nb = p->batch.size();
    unsigned mDim = nb, nDim = nb + (p->aVector ? 0 : 1);
    unsigned kDim = nDim + (p->bVector ? 0 : 1);
    unsigned numLoops = kDim + 1;
    auto d = [&](unsigned i) { return getAffineDimExpr(i, mctx); };
    auto batchExprs = [&](const Shape &operand, size_t batchRank) {
      SmallVector<AffineExpr> exprs;
      size_t offset = nb - batchRank;
      for (size_t i = 0; i < batchRank; ++i)
        exprs.push_back(operand[i] == 1 && p->batch[offset + i] != 1
                            ? getAffineConstantExpr(0, mctx)
                            : d(offset + i));
      return exprs;
    };
    SmallVector<AffineExpr> aExprs, bExprs, outExprs;
    if (p->aVector) {
      aExprs = {d(kDim)};
    } else {
      aExprs = batchExprs(a, a.size() - 2);
      aExprs.append({d(mDim), d(kDim)});
    }
    if (p->bVector) {
      bExprs = {d(kDim)};
    } else {
      bExprs = batchExprs(b, b.size() - 2);
      bExprs.append({d(kDim), d(nDim)});
    }
    for (unsigned i = 0; i < kDim; ++i)
      outExprs.push_back(d(i));
    SmallVector<IteratorType> iterators(numLoops, IteratorType::parallel);
    iterators[kDim] = IteratorType::reduction;
    Value init = filled(ctx, outputs[0].shape, acc,
                        ctx.scalarConstant(0.0, acc));
    Value result = buildContraction(
        ctx, {ctx.inputValue(0), ctx.inputValue(1)}, {dtype, dtype},
        {AffineMap::get(numLoops, 0, aExprs, mctx),
         AffineMap::get(numLoops, 0, bExprs, mctx)},
        AffineMap::get(numLoops, 0, outExprs, mctx), iterators, init, acc);
    return SmallVector<Value>{convertTensor(ctx, result, acc, dtype)};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Gemm
//===----------------------------------------------------------------------===//

/// Checks Gemm's operands; returns {M, N, K}.
FailureOr<std::array<int64_t, 3>> planGemm(NodeContext &ctx) {
  const Shape &a = ctx.input(0).shape, &b = ctx.input(1).shape;
  if (a.size() != 2 || b.size() != 2) {
    ctx.error() << "A and B must have rank 2";
    return failure();
  }
  bool transA = ctx.intAttr("transA", 0) != 0;
  bool transB = ctx.intAttr("transB", 0) != 0;
  int64_t m = transA ? a[1] : a[0], ka = transA ? a[0] : a[1];
  int64_t kb = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
  if (isSymbolDim(ka) || isSymbolDim(kb)) {
    if (failed(ctx.requireEqualDims(ka, kb)))
      return failure();
    ka = isSymbolDim(ka) ? kb : ka;
  } else if (ka != kb) {
    ctx.error() << "contraction dimensions differ: " << ka << " vs " << kb;
    return failure();
  }
  if (ctx.hasInput(2)) {
    const Shape &c = ctx.input(2).shape;
    Shape target = {m, n};
    bool ok = c.size() <= 2;
    for (size_t i = 0; ok && i < c.size(); ++i)
      ok = c[i] == 1 || c[i] == target[2 - c.size() + i];
    if (!ok) {
      InFlightDiagnostic diag = ctx.error();
      diag << "C of shape [";
      llvm::interleaveComma(c, diag);
      diag << "] cannot be broadcast to [" << m << ", " << n << "]";
      return failure();
    }
  }
  return std::array<int64_t, 3>{m, n, ka};
}

OpSpec gemmSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (ctx.opset() < 11 && !ctx.hasInput(2)) {
      ctx.error() << "input 2 (C) is required before opset 11";
      return failure();
    }
    if (failed(requireInputs(ctx, 2)) || failed(requireAtMostInputs(ctx, 3)) ||
        failed(requireDtype(ctx, 0, kMatMulTypes)) ||
        failed(requireSameDtypes(ctx)))
      return failure();
    int32_t t = ctx.input(0).dtype;
    if (!isFloatType(t))
      for (StringRef name : {"alpha", "beta"}) {
        float v = ctx.floatAttr(name, 1.0f);
        if (v != std::trunc(v)) {
          ctx.attributeError(name) << "value " << v
                                   << " is not an integer, which an integer "
                                      "Gemm cannot apply";
          return failure();
        }
      }
    return SmallVector<int32_t>{t};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    auto p = planGemm(ctx);
    if (failed(p))
      return failure();
    return SmallVector<Shape>{Shape{(*p)[0], (*p)[1]}};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    MLIRContext *mctx = ctx.context();
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    bool transA = ctx.intAttr("transA", 0) != 0;
    bool transB = ctx.intAttr("transB", 0) != 0;
    double alpha = ctx.floatAttr("alpha", 1.0f);
    double beta = ctx.floatAttr("beta", 1.0f);
    const Shape &shape = outputs[0].shape;
    // C with beta == 0 does not contribute (as in BLAS).
    bool useC = ctx.hasInput(2) && beta != 0.0;
    auto scaledC = [&]() {
      int32_t cType = ctx.input(2).dtype;
      return buildElementwise(
          ctx, {ctx.inputValue(2)}, shape, acc,
          [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
            Value c = convertScalar(b, loc, a[0], cType, acc);
            if (beta == 1.0)
              return c;
            return mulScalar(b, loc, c, ctx.scalarConstant(beta, acc));
          });
    };
    // alpha == 1: accumulate straight into beta * C.
    Value init = useC && alpha == 1.0
                     ? scaledC()
                     : filled(ctx, shape, acc, ctx.scalarConstant(0.0, acc));
    auto d = [&](unsigned i) { return getAffineDimExpr(i, mctx); };
    // Loops (m, n, k).
    SmallVector<AffineExpr> aExprs = {d(0), d(2)}, bExprs = {d(2), d(1)};
    if (transA)
      std::swap(aExprs[0], aExprs[1]);
    if (transB)
      std::swap(bExprs[0], bExprs[1]);
    AffineMap aMap = AffineMap::get(3, 0, aExprs, mctx);
    AffineMap bMap = AffineMap::get(3, 0, bExprs, mctx);
    AffineMap outMap = AffineMap::get(3, 0, {d(0), d(1)}, mctx);
    Value result = buildContraction(
        ctx, {ctx.inputValue(0), ctx.inputValue(1)}, {dtype, dtype},
        {aMap, bMap}, outMap,
        {IteratorType::parallel, IteratorType::parallel,
         IteratorType::reduction},
        init, acc);
    if (alpha != 1.0) {
      Value alphaV = ctx.scalarConstant(alpha, acc);
      SmallVector<Value> operands = {result};
      if (useC)
        operands.push_back(scaledC());
      result = buildElementwise(
          ctx, operands, shape, acc,
          [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
            Value r = mulScalar(b, loc, a[0], alphaV);
            return a.size() > 1 ? addScalar(b, loc, r, a[1]) : r;
          });
    }
    return SmallVector<Value>{convertTensor(ctx, result, acc, dtype)};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// One generic: loops are the output labels (in output order) followed by
/// the summed labels; ellipsis dimensions broadcast like numpy.
struct EinsumPlan {
  unsigned numLoops = 0, numOutputLoops = 0;
  SmallVector<int64_t> loopSizes;
  SmallVector<SmallVector<AffineExpr>> inputExprs;
  Shape result;
};

FailureOr<EinsumPlan> planEinsum(NodeContext &ctx) {
  MLIRContext *mctx = ctx.context();
  if (!ctx.hasAttribute("equation")) {
    ctx.attributeError("equation") << "is required";
    return failure();
  }
  std::string equation;
  for (char c : ctx.stringAttr("equation", ""))
    if (!std::isspace(static_cast<unsigned char>(c)))
      equation.push_back(c);
  auto bad = [&](const Twine &why) {
    ctx.attributeError("equation") << "'" << equation << "': " << why;
    return failure();
  };
  // A term is a list of labels; '.' stands for the ellipsis.
  auto parseTerm = [&](StringRef term,
                       SmallVector<char> &labels) -> LogicalResult {
    bool seenEllipsis = false;
    for (size_t i = 0; i < term.size(); ++i) {
      char c = term[i];
      if (std::isalpha(static_cast<unsigned char>(c))) {
        labels.push_back(c);
        continue;
      }
      if (term.substr(i).starts_with("...") && !seenEllipsis) {
        seenEllipsis = true;
        labels.push_back('.');
        i += 2;
        continue;
      }
      return bad("unexpected character '" + Twine(c) + "'");
    }
    return success();
  };
  StringRef eq(equation);
  size_t arrow = eq.find("->");
  StringRef lhs = eq.substr(0, arrow);
  std::optional<StringRef> rhs;
  if (arrow != StringRef::npos)
    rhs = eq.substr(arrow + 2);
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ctx.numInputs())
    return bad("it has " + Twine(terms.size()) + " operand terms but the node "
               "has " + Twine(ctx.numInputs()) + " inputs");
  SmallVector<SmallVector<char>> inputLabels(terms.size());
  for (auto [i, term] : llvm::enumerate(terms))
    if (failed(parseTerm(term, inputLabels[i])))
      return failure();

  // Label sizes and ellipsis ranks.
  std::map<char, int64_t> labelSize;
  std::map<char, int> labelCount;
  SmallVector<int64_t> ellipsisRank(terms.size(), 0);
  int64_t maxEllipsis = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (!ctx.hasInput(i)) {
      ctx.error() << "input " << i << " is required";
      return failure();
    }
    const Shape &shape = ctx.input(i).shape;
    int64_t letters = llvm::count_if(inputLabels[i],
                                     [](char c) { return c != '.'; });
    bool hasEllipsis = llvm::is_contained(inputLabels[i], '.');
    if ((hasEllipsis && (int64_t)shape.size() < letters) ||
        (!hasEllipsis && (int64_t)shape.size() != letters))
      return bad("term '" + terms[i] + "' does not match the rank " +
                 Twine(shape.size()) + " of input " + Twine(i));
    ellipsisRank[i] = hasEllipsis ? shape.size() - letters : 0;
    maxEllipsis = std::max(maxEllipsis, ellipsisRank[i]);
    size_t dim = 0;
    for (char c : inputLabels[i]) {
      if (c == '.') {
        dim += ellipsisRank[i];
        continue;
      }
      int64_t size = shape[dim++];
      auto [it, inserted] = labelSize.insert({c, size});
      if (!inserted && it->second != size)
        return bad("label '" + Twine(c) + "' has sizes " +
                   Twine(it->second) + " and " + Twine(size));
      ++labelCount[c];
    }
  }
  // Ellipsis dimensions broadcast (right-aligned).
  SmallVector<int64_t> ellipsisSizes(maxEllipsis, 1);
  for (size_t i = 0; i < terms.size(); ++i) {
    size_t start = llvm::find(inputLabels[i], '.') - inputLabels[i].begin();
    if (start == inputLabels[i].size())
      continue;
    // Dimension index of the ellipsis start in the operand.
    for (int64_t e = 0; e < ellipsisRank[i]; ++e) {
      int64_t size = ctx.input(i).shape[start + e];
      int64_t &r = ellipsisSizes[maxEllipsis - ellipsisRank[i] + e];
      if (size == r || size == 1)
        continue;
      if (r != 1)
        return bad("ellipsis dimensions of the inputs cannot be broadcast");
      r = size;
    }
  }

  // Output labels.
  SmallVector<char> outLabels;
  if (rhs) {
    if (failed(parseTerm(*rhs, outLabels)))
      return failure();
    for (auto [i, c] : llvm::enumerate(outLabels)) {
      if (c != '.' && !labelSize.count(c))
        return bad("output label '" + Twine(c) + "' is not in any input");
      if (llvm::count(outLabels, c) > 1)
        return bad("output label '" + Twine(c) + "' is repeated");
    }
    if (maxEllipsis > 0 && !llvm::is_contained(outLabels, '.'))
      return bad("the inputs have ellipsis dimensions but the output has no "
                 "ellipsis (summing them is not supported)");
  } else {
    if (maxEllipsis > 0)
      outLabels.push_back('.');
    for (auto &[c, count] : labelCount) // std::map: ASCII order
      if (count == 1)
        outLabels.push_back(c);
  }

  // Loops: output dims in order, then the summed labels.
  EinsumPlan p;
  std::map<char, unsigned> loopOf;
  unsigned ellipsisLoop = 0;
  for (char c : outLabels) {
    if (c == '.') {
      ellipsisLoop = p.numLoops;
      for (int64_t s : ellipsisSizes) {
        p.loopSizes.push_back(s);
        p.result.push_back(s);
        ++p.numLoops;
      }
      continue;
    }
    loopOf[c] = p.numLoops++;
    p.loopSizes.push_back(labelSize[c]);
    p.result.push_back(labelSize[c]);
  }
  p.numOutputLoops = p.numLoops;
  for (auto &[c, size] : labelSize)
    if (!loopOf.count(c)) {
      loopOf[c] = p.numLoops++;
      p.loopSizes.push_back(size);
    }
  for (size_t i = 0; i < terms.size(); ++i) {
    SmallVector<AffineExpr> exprs;
    size_t dim = 0;
    for (char c : inputLabels[i]) {
      if (c != '.') {
        exprs.push_back(getAffineDimExpr(loopOf[c], mctx));
        ++dim;
        continue;
      }
      for (int64_t e = 0; e < ellipsisRank[i]; ++e, ++dim) {
        unsigned loop = ellipsisLoop + maxEllipsis - ellipsisRank[i] + e;
        bool broadcast = ctx.input(i).shape[dim] == 1 && p.loopSizes[loop] != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, mctx)
                                  : getAffineDimExpr(loop, mctx));
      }
    }
    p.inputExprs.push_back(exprs);
  }
  return p;
}

OpSpec einsumSpec() {
  OpSpec spec;
  spec.minOpset = 12;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireInputs(ctx, std::max<size_t>(ctx.numInputs(), 1))) ||
        failed(requireDtype(ctx, 0, kNumericTypes)) ||
        failed(requireSameDtypes(ctx)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<EinsumPlan> p = planEinsum(ctx);
    if (failed(p))
      return failure();
    return SmallVector<Shape>{p->result};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<EinsumPlan> p = planEinsum(ctx);
    if (failed(p))
      return failure();
    MLIRContext *mctx = ctx.context();
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    SmallVector<Value> inputs;
    SmallVector<int32_t> dtypes;
    SmallVector<AffineMap> maps;
    for (size_t i = 0; i < ctx.numInputs(); ++i) {
      inputs.push_back(ctx.inputValue(i));
      dtypes.push_back(dtype);
      maps.push_back(AffineMap::get(p->numLoops, 0, p->inputExprs[i], mctx));
    }
    SmallVector<AffineExpr> outExprs;
    for (unsigned i = 0; i < p->numOutputLoops; ++i)
      outExprs.push_back(getAffineDimExpr(i, mctx));
    SmallVector<IteratorType> iterators(p->numLoops, IteratorType::reduction);
    for (unsigned i = 0; i < p->numOutputLoops; ++i)
      iterators[i] = IteratorType::parallel;
    Value init = filled(ctx, outputs[0].shape, acc,
                        ctx.scalarConstant(0.0, acc));
    Value result = buildContraction(
        ctx, inputs, dtypes, maps,
        AffineMap::get(p->numLoops, 0, outExprs, mctx), iterators, init, acc);
    return SmallVector<Value>{convertTensor(ctx, result, acc, dtype)};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Sliding windows: strides, dilations, pads, auto_pad, ceil_mode
//===----------------------------------------------------------------------===//

/// Reads an ints attribute of `count` values, each >= `minValue` (`dflt`
/// repeated when absent); an error names the attribute otherwise.
LogicalResult readIntsAttr(NodeContext &ctx, StringRef name, size_t count,
                           int64_t dflt, int64_t minValue,
                           SmallVector<int64_t> &out) {
  out = ctx.intsAttr(name);
  if (out.empty()) {
    out.assign(count, dflt);
    return success();
  }
  if (out.size() != count) {
    ctx.attributeError(name) << "has " << out.size() << " values, expected "
                             << count;
    return failure();
  }
  for (int64_t v : out)
    if (v < minValue) {
      ctx.attributeError(name) << "value " << v << " is not supported "
                               << "(must be >= " << minValue << ")";
      return failure();
    }
  return success();
}

/// The resolved geometry of a convolution or pooling window per spatial dim.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd, out;
  /// Extra padding after padEnd read by ceil_mode's last window (not part
  /// of the pads: excluded from AveragePool's counts).
  SmallVector<int64_t> extraEnd;
};

/// Reads strides/dilations/pads/auto_pad (and ceil_mode when `allowCeil`)
/// for an input with spatial dims `spatial` and a kernel `kernel`.
FailureOr<Window> resolveWindow(NodeContext &ctx, ArrayRef<int64_t> spatial,
                                ArrayRef<int64_t> kernel, bool allowCeil,
                                bool allowDilations) {
  size_t n = spatial.size();
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  auto readInts = [&](StringRef name, size_t count, int64_t dflt,
                      int64_t minValue, SmallVector<int64_t> &out) {
    return readIntsAttr(ctx, name, count, dflt, minValue, out);
  };
  SmallVector<int64_t> pads;
  if (failed(readInts("strides", n, 1, 1, w.strides)) ||
      failed(readInts("dilations", n, 1, 1, w.dilations)) ||
      failed(readInts("pads", 2 * n, 0, 0, pads)))
    return failure();
  if (!allowDilations && llvm::any_of(w.dilations, [](int64_t d) {
        return d != 1;
      })) {
    ctx.attributeError("dilations") << "values other than 1 are not "
                                       "supported";
    return failure();
  }
  int64_t ceilMode = ctx.intAttr("ceil_mode", 0);
  if (ceilMode != 0 && ceilMode != 1) {
    ctx.attributeError("ceil_mode") << "value " << ceilMode
                                    << " is not supported";
    return failure();
  }
  if (!allowCeil && ctx.hasAttribute("ceil_mode")) {
    ctx.attributeError("ceil_mode") << "is not an attribute of this op";
    return failure();
  }
  std::string autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  bool explicitPads =
      llvm::any_of(pads, [](int64_t p) { return p != 0; });
  if (autoPad != "NOTSET" && explicitPads) {
    ctx.attributeError("pads") << "non-zero pads cannot be combined with "
                                  "auto_pad '"
                               << autoPad << "'";
    return failure();
  }
  w.padBegin.assign(pads.begin(), pads.begin() + n);
  w.padEnd.assign(pads.begin() + n, pads.end());
  w.extraEnd.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t in = spatial[i], s = w.strides[i];
    int64_t effK = (w.kernel[i] - 1) * w.dilations[i] + 1;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t out = ceilDiv(in, s);
      int64_t total = std::max<int64_t>(0, (out - 1) * s + effK - in);
      int64_t small = total / 2;
      w.padBegin[i] = autoPad == "SAME_UPPER" ? small : total - small;
      w.padEnd[i] = total - w.padBegin[i];
      w.out.push_back(out);
      continue;
    }
    if (autoPad != "NOTSET" && autoPad != "VALID") {
      ctx.attributeError("auto_pad") << "value '" << autoPad
                                     << "' is not supported";
      return failure();
    }
    int64_t span = in + w.padBegin[i] + w.padEnd[i] - effK;
    if (span < 0) {
      ctx.error() << "the window (" << effK << " wide with dilation) is "
                  << "larger than the padded input (" << span + effK
                  << ") along spatial dimension " << i;
      return failure();
    }
    int64_t out = (ceilMode ? ceilDiv(span, s) : span / s) + 1;
    if (ceilMode && out != span / s + 1) {
      // A last window that would start in the end padding is dropped, as
      // PyTorch, ONNX Runtime and the ONNX spec since 1.16 do ("sliding
      // windows that would start in the right padded region are ignored").
      if ((out - 1) * s >= in + w.padBegin[i])
        --out;
      w.extraEnd[i] = std::max<int64_t>(
          0, (out - 1) * s + effK - (in + w.padBegin[i] + w.padEnd[i]));
    }
    w.out.push_back(out);
  }
  return w;
}

/// Reads the kernel_shape attribute of a pool (required, one per spatial
/// dim, each >= 1).
FailureOr<SmallVector<int64_t>> poolKernel(NodeContext &ctx, size_t n) {
  SmallVector<int64_t> kernel = ctx.intsAttr("kernel_shape");
  if (kernel.size() != n) {
    ctx.attributeError("kernel_shape")
        << "has " << kernel.size() << " values, expected " << n
        << " (one per spatial dimension)";
    return failure();
  }
  for (int64_t k : kernel)
    if (k < 1) {
      ctx.attributeError("kernel_shape") << "value " << k << " is invalid";
      return failure();
    }
  return kernel;
}

/// Input 0 must be [N, C, spatial...] with 1 to 3 spatial dims.
LogicalResult requireSpatialInput(NodeContext &ctx) {
  size_t rank = ctx.input(0).shape.size();
  if (rank < 3 || rank > 5) {
    ctx.error() << "input 0 has rank " << rank
                << "; only 1-D, 2-D and 3-D inputs [N, C, spatial...] are "
                   "supported";
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Conv and ConvTranspose
//===----------------------------------------------------------------------===//

/// The core of both convolutions, one generic over
/// (n, g, m, o_1..o_s, c, k_1..k_s):
///   out[n, g, m, o] += x[n, g, c, o * stride + k * dilation] * w[...]
/// where w is [G, Mg, Cg, K...] (`weightsCM` false) or [G, Cg, Mg, K...]
/// (`weightsCM` true). `init` is [N, G, Mg, O...] of dtype `acc`.
Value buildConvGeneric(NodeContext &ctx, Value x, int32_t xDtype, Value w,
                       int32_t wDtype, bool weightsCM, Value init,
                       int32_t acc, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations) {
  MLIRContext *mctx = ctx.context();
  unsigned s = strides.size();
  unsigned numLoops = 4 + 2 * s;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, mctx); };
  unsigned nD = 0, gD = 1, mD = 2, cD = 3 + s;
  auto oD = [&](unsigned i) { return 3 + i; };
  auto kD = [&](unsigned i) { return 4 + s + i; };
  SmallVector<AffineExpr> xExprs = {d(nD), d(gD), d(cD)};
  SmallVector<AffineExpr> wExprs = weightsCM
                                       ? SmallVector<AffineExpr>{d(gD), d(cD),
                                                                 d(mD)}
                                       : SmallVector<AffineExpr>{d(gD), d(mD),
                                                                 d(cD)};
  SmallVector<AffineExpr> outExprs = {d(nD), d(gD), d(mD)};
  for (unsigned i = 0; i < s; ++i) {
    xExprs.push_back(d(oD(i)) * strides[i] + d(kD(i)) * dilations[i]);
    wExprs.push_back(d(kD(i)));
    outExprs.push_back(d(oD(i)));
  }
  SmallVector<IteratorType> iterators(numLoops, IteratorType::parallel);
  for (unsigned i = cD; i < numLoops; ++i)
    iterators[i] = IteratorType::reduction;
  return buildContraction(ctx, {x, w}, {xDtype, wDtype},
                          {AffineMap::get(numLoops, 0, xExprs, mctx),
                           AffineMap::get(numLoops, 0, wExprs, mctx)},
                          AffineMap::get(numLoops, 0, outExprs, mctx),
                          iterators, init, acc);
}

/// The accumulator [N, G, Mg, O...] initialized with the bias (input 2, of
/// shape [M]) or zeros.
Value convInit(NodeContext &ctx, const Shape &shape, int32_t acc) {
  if (!ctx.hasInput(2))
    return filled(ctx, shape, acc, ctx.scalarConstant(0.0, acc));
  MLIRContext *mctx = ctx.context();
  Value bias = expandTo(ctx, ctx.inputValue(2), Shape{shape[1], shape[2]},
                        {{0, 1}});
  unsigned rank = shape.size();
  AffineMap biasMap = AffineMap::get(
      rank, 0, {getAffineDimExpr(1, mctx), getAffineDimExpr(2, mctx)}, mctx);
  Value init = ctx.emptyTensor(shape, acc);
  int32_t biasDtype = ctx.input(2).dtype;
  return linalg::GenericOp::create(
             ctx.builder(), ctx.loc(), init.getType(), ValueRange{bias},
             ValueRange{init},
             ArrayRef<AffineMap>{biasMap,
                                 AffineMap::getMultiDimIdentityMap(rank,
                                                                   mctx)},
             SmallVector<IteratorType>(rank, IteratorType::parallel),
             [&](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(
                   b, loc, convertScalar(b, loc, args[0], biasDtype, acc));
             })
      .getResult(0);
}

/// [N, G, Mg, O...] -> [N, M, O...], converted back to `dtype`.
Value finishConv(NodeContext &ctx, Value result, int32_t acc, int32_t dtype) {
  Shape shape = shapeOf(result);
  Shape collapsed = {shape[0], shape[1] * shape[2]};
  SmallVector<ReassociationIndices> re = {{0}, {1, 2}};
  for (size_t i = 3; i < shape.size(); ++i) {
    collapsed.push_back(shape[i]);
    re.push_back({static_cast<int64_t>(i)});
  }
  result = collapseTo(ctx, result, collapsed, re);
  return convertTensor(ctx, result, acc, dtype);
}

/// Common checks of Conv/ConvTranspose: dtypes of X, W, B.
FailureOr<SmallVector<int32_t>> convDtype(NodeContext &ctx) {
  if (failed(requireInputs(ctx, 2)) || failed(requireAtMostInputs(ctx, 3)) ||
      failed(requireDtype(ctx, 0, kFloatTypes)) ||
      failed(requireDtypeOfInput0(ctx, 1)) ||
      failed(requireDtypeOfInput0(ctx, 2)))
    return failure();
  return SmallVector<int32_t>{ctx.input(0).dtype};
}

/// Shared shape checks; returns the group count.
FailureOr<int64_t> checkConvOperands(NodeContext &ctx, bool transposed) {
  if (failed(requireSpatialInput(ctx)))
    return failure();
  const Shape &x = ctx.input(0).shape, &w = ctx.input(1).shape;
  if (w.size() != x.size()) {
    ctx.error() << "W has rank " << w.size() << " but X has rank "
                << x.size();
    return failure();
  }
  int64_t group = ctx.intAttr("group", 1);
  if (group < 1) {
    ctx.attributeError("group") << "value " << group << " is invalid";
    return failure();
  }
  int64_t c = x[1];
  if (c % group != 0) {
    ctx.attributeError("group") << "input channels " << c
                                << " are not divisible by group " << group;
    return failure();
  }
  // Conv: W is [M, C/group, k...]; ConvTranspose: W is [C, M/group, k...].
  if (!transposed && (w[1] != c / group || w[0] % group != 0)) {
    ctx.error() << "W has shape [" << w[0] << ", " << w[1]
                << ", ...], expected [M, " << c / group
                << ", ...] with M divisible by group " << group;
    return failure();
  }
  if (transposed && w[0] != c) {
    ctx.error() << "W has " << w[0] << " input channels, X has " << c;
    return failure();
  }
  for (int64_t k : ArrayRef<int64_t>(w).drop_front(2))
    if (k < 1) {
      ctx.error() << "W has an empty spatial dimension";
      return failure();
    }
  SmallVector<int64_t> kernelAttr = ctx.intsAttr("kernel_shape");
  if (!kernelAttr.empty() &&
      ArrayRef<int64_t>(kernelAttr) != ArrayRef<int64_t>(w).drop_front(2)) {
    ctx.attributeError("kernel_shape")
        << "does not match the spatial shape of W";
    return failure();
  }
  int64_t m = transposed ? w[1] * group : w[0];
  if (ctx.hasInput(2) && ctx.input(2).shape != Shape{m}) {
    ctx.error() << "B must have shape [" << m << "]";
    return failure();
  }
  return group;
}

/// The taps of each spatial dimension of a convolution that read its
/// unpadded input for at least one output, as a range [first, end): the
/// others multiply only padding. Empty when some dimension has no such tap.
SmallVector<std::pair<int64_t, int64_t>>
tapsReadingInput(ArrayRef<int64_t> spatial, const Window &win) {
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  for (size_t i = 0; i < spatial.size(); ++i) {
    int64_t first = -1, last = -1;
    for (int64_t k = 0; k < win.kernel[i]; ++k)
      for (int64_t o = 0; o < win.out[i]; ++o) {
        int64_t at = o * win.strides[i] - win.padBegin[i] +
                     k * win.dilations[i];
        if (at >= 0 && at < spatial[i]) {
          if (first < 0)
            first = k;
          last = k;
          break;
        }
      }
    if (first < 0)
      return {};
    ranges.push_back({first, last + 1});
  }
  return ranges;
}

/// A convolution with zero padding whose outer taps only ever read the
/// padding (a dilation at least the image's size: DeepLabV3's atrous
/// rates 24 and 36 on a 14 x 14 map) drops them: its constant, finite
/// filter is cut to the taps that read the input and its padding shrinks
/// by the dropped taps' reach, which leaves every output the same (the
/// dropped products were 0 * w). Nothing changes when every tap reads the
/// input for some output, the filter is not a finite constant, or a pad
/// would become negative. Returns the cut filter, null when nothing is cut.
Value dropPaddingTaps(NodeContext &ctx, ArrayRef<int64_t> spatial,
                      Window &win) {
  std::optional<DenseElementsAttr> weights = ctx.constantInput(1);
  if (!weights || !isa<FloatType>(weights->getElementType()))
    return {};
  SmallVector<std::pair<int64_t, int64_t>> taps =
      tapsReadingInput(spatial, win);
  size_t s = spatial.size();
  bool cut = false;
  for (size_t i = 0; i < taps.size(); ++i) {
    auto [first, end] = taps[i];
    int64_t padBegin = win.padBegin[i] - first * win.dilations[i];
    int64_t padEnd = win.padEnd[i] - (win.kernel[i] - end) * win.dilations[i];
    if (padBegin < 0 || padEnd < 0)
      return {};
    cut |= end - first < win.kernel[i];
  }
  if (taps.size() != s || !cut ||
      !llvm::all_of(weights->getValues<APFloat>(),
                    [](const APFloat &v) { return v.isFinite(); }))
    return {};
  // The filter [M, C, K...] cut to [M, C, end - first...].
  auto type = cast<RankedTensorType>(weights->getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> cutShape(shape.take_front(2));
  for (auto [first, end] : taps)
    cutShape.push_back(end - first);
  SmallVector<Attribute> all(weights->getValues<Attribute>());
  SmallVector<Attribute> kept;
  int64_t outer = shape[0] * shape[1];
  SmallVector<int64_t> index(s, 0);
  for (int64_t mc = 0; mc < outer; ++mc) {
    std::fill(index.begin(), index.end(), 0);
    while (true) {
      int64_t flat = mc;
      for (size_t i = 0; i < s; ++i)
        flat = flat * shape[2 + i] + taps[i].first + index[i];
      kept.push_back(all[flat]);
      size_t i = s;
      while (i > 0 && ++index[i - 1] == cutShape[2 + i - 1])
        index[--i] = 0;
      if (i == 0)
        break;
    }
  }
  for (size_t i = 0; i < s; ++i) {
    auto [first, end] = taps[i];
    win.padBegin[i] -= first * win.dilations[i];
    win.padEnd[i] -= (win.kernel[i] - end) * win.dilations[i];
    win.kernel[i] = end - first;
  }
  return arith::ConstantOp::create(
      ctx.builder(), ctx.loc(),
      DenseElementsAttr::get(type.clone(cutShape), kept));
}

OpSpec convSpec() {
  OpSpec spec;
  spec.dtype = convDtype;
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    if (failed(checkConvOperands(ctx, /*transposed=*/false)))
      return failure();
    const Shape &x = ctx.input(0).shape, &w = ctx.input(1).shape;
    FailureOr<Window> win =
        resolveWindow(ctx, ArrayRef<int64_t>(x).drop_front(2),
                      ArrayRef<int64_t>(w).drop_front(2), false, true);
    if (failed(win))
      return failure();
    Shape out = {x[0], w[0]};
    out.append(win->out.begin(), win->out.end());
    return SmallVector<Shape>{out};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    const Shape &x = ctx.input(0).shape, &w = ctx.input(1).shape;
    FailureOr<Window> win =
        resolveWindow(ctx, ArrayRef<int64_t>(x).drop_front(2),
                      ArrayRef<int64_t>(w).drop_front(2), false, true);
    if (failed(win))
      return failure();
    int64_t group = ctx.intAttr("group", 1);
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    size_t s = x.size() - 2;
    // Taps that only ever read the padding are left out.
    Value cutFilter = dropPaddingTaps(
        ctx, ArrayRef<int64_t>(x).drop_front(2), *win);
    // Zero padding, then groups as a separate dimension.
    Value xp = padSpatial(ctx, ctx.inputValue(0), win->padBegin, win->padEnd,
                          ctx.scalarConstant(0.0, dtype));
    Shape xpShape = shapeOf(xp);
    Shape x5 = {x[0], group, x[1] / group};
    SmallVector<ReassociationIndices> xRe = {{0}, {1, 2}};
    Shape w5 = {group, w[0] / group, w[1]};
    SmallVector<ReassociationIndices> wRe = {{0, 1}, {2}};
    Shape out5 = {x[0], group, w[0] / group};
    for (size_t i = 0; i < s; ++i) {
      x5.push_back(xpShape[2 + i]);
      xRe.push_back({static_cast<int64_t>(3 + i)});
      w5.push_back(win->kernel[i]);
      wRe.push_back({static_cast<int64_t>(3 + i)});
      out5.push_back(win->out[i]);
    }
    Value xg = expandTo(ctx, xp, x5, xRe);
    Value wg =
        expandTo(ctx, cutFilter ? cutFilter : ctx.inputValue(1), w5, wRe);
    Value init = convInit(ctx, out5, acc);
    Value result = buildConvGeneric(ctx, xg, dtype, wg, dtype,
                                    /*weightsCM=*/false, init, acc,
                                    win->strides, win->dilations);
    return SmallVector<Value>{finishConv(ctx, result, acc, dtype)};
  };
  return spec;
}

/// ConvTranspose geometry: output size and (possibly negative) pads.
struct TransposedWindow {
  SmallVector<int64_t> kernel, strides, dilations, outputPadding, padBegin,
      padEnd, out;
};

FailureOr<TransposedWindow> resolveTransposedWindow(NodeContext &ctx) {
  const Shape &x = ctx.input(0).shape, &w = ctx.input(1).shape;
  size_t n = x.size() - 2;
  TransposedWindow t;
  t.kernel.assign(w.begin() + 2, w.end());
  auto readInts = [&](StringRef name, size_t count, int64_t dflt,
                      int64_t minValue, SmallVector<int64_t> &out) {
    return readIntsAttr(ctx, name, count, dflt, minValue, out);
  };
  SmallVector<int64_t> pads;
  if (failed(readInts("strides", n, 1, 1, t.strides)) ||
      failed(readInts("dilations", n, 1, 1, t.dilations)) ||
      failed(readInts("output_padding", n, 0, 0, t.outputPadding)) ||
      failed(readInts("pads", 2 * n, 0, 0, pads)))
    return failure();
  for (size_t i = 0; i < n; ++i)
    if (t.outputPadding[i] >= std::max(t.strides[i], t.dilations[i])) {
      ctx.attributeError("output_padding")
          << "value " << t.outputPadding[i]
          << " must be smaller than the stride or the dilation";
      return failure();
    }
  std::string autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER") {
    ctx.attributeError("auto_pad") << "value '" << autoPad
                                   << "' is not supported";
    return failure();
  }
  bool explicitPads = llvm::any_of(pads, [](int64_t p) { return p != 0; });
  if (autoPad != "NOTSET" && explicitPads) {
    ctx.attributeError("pads") << "non-zero pads cannot be combined with "
                                  "auto_pad '"
                               << autoPad << "'";
    return failure();
  }
  SmallVector<int64_t> outputShape = ctx.intsAttr("output_shape");
  if (!outputShape.empty()) {
    if (outputShape.size() == n + 2) {
      int64_t m = w[1] * ctx.intAttr("group", 1);
      if (outputShape[0] != x[0] || outputShape[1] != m) {
        ctx.attributeError("output_shape")
            << "batch/channel values do not match the inputs";
        return failure();
      }
      outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
    }
    if (outputShape.size() != n) {
      ctx.attributeError("output_shape")
          << "has " << outputShape.size() << " values, expected " << n;
      return failure();
    }
  }
  t.padBegin.assign(pads.begin(), pads.begin() + n);
  t.padEnd.assign(pads.begin() + n, pads.end());
  for (size_t i = 0; i < n; ++i) {
    int64_t effK = (t.kernel[i] - 1) * t.dilations[i] + 1;
    int64_t full = t.strides[i] * (x[2 + i] - 1) + t.outputPadding[i] + effK;
    bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    if (!outputShape.empty() || same) {
      int64_t out =
          outputShape.empty() ? x[2 + i] * t.strides[i] : outputShape[i];
      int64_t total = full - out;
      if (!outputShape.empty() && explicitPads) {
        // Both given: accept only when they agree.
        if (t.padBegin[i] + t.padEnd[i] != total) {
          ctx.attributeError("output_shape")
              << "value " << out << " disagrees with pads along spatial "
              << "dimension " << i;
          return failure();
        }
        t.out.push_back(out);
        continue;
      }
      if (total < -1 || (total == -1 && autoPad == "SAME_UPPER")) {
        // Implementations place such negative padding differently.
        ctx.attributeError(outputShape.empty() ? "auto_pad" : "output_shape")
            << "an output " << -total << " larger than the full transposed "
            << "convolution along spatial dimension " << i
            << " is not supported";
        return failure();
      }
      if (total == -1) {
        // Everyone extends at the end (ONNX test data, reference, ORT).
        t.padBegin[i] = 0;
        t.padEnd[i] = -1;
      } else if (autoPad == "SAME_UPPER") {
        t.padBegin[i] = total / 2;
        t.padEnd[i] = total - total / 2;
      } else {
        // SAME_LOWER, and NOTSET with output_shape (ONNX spec formula).
        if (autoPad == "NOTSET" && total % 2 != 0) {
          ctx.attributeError("output_shape")
              << "needs an odd total padding " << total
              << " along spatial dimension " << i
              << ", whose placement implementations disagree on";
          return failure();
        }
        t.padEnd[i] = total / 2;
        t.padBegin[i] = total - total / 2;
      }
      t.out.push_back(out);
      continue;
    }
    if (autoPad == "VALID") {
      t.padBegin[i] = t.padEnd[i] = 0;
    }
    int64_t out = full - t.padBegin[i] - t.padEnd[i];
    if (out < 1) {
      ctx.error() << "the output would be empty along spatial dimension "
                  << i;
      return failure();
    }
    t.out.push_back(out);
  }
  return t;
}

OpSpec convTransposeSpec() {
  OpSpec spec;
  spec.dtype = convDtype;
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<int64_t> group = checkConvOperands(ctx, /*transposed=*/true);
    if (failed(group))
      return failure();
    FailureOr<TransposedWindow> t = resolveTransposedWindow(ctx);
    if (failed(t))
      return failure();
    const Shape &x = ctx.input(0).shape, &w = ctx.input(1).shape;
    Shape out = {x[0], w[1] * *group};
    out.append(t->out.begin(), t->out.end());
    return SmallVector<Shape>{out};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<TransposedWindow> t = resolveTransposedWindow(ctx);
    if (failed(t))
      return failure();
    OpBuilder &b = ctx.builder();
    Location loc = ctx.loc();
    MLIRContext *mctx = ctx.context();
    const Shape &x = ctx.input(0).shape, &w = ctx.input(1).shape;
    int64_t group = ctx.intAttr("group", 1);
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    size_t s = x.size() - 2;
    int64_t n = x[0], c = x[1], cg = c / group, mg = w[1];
    // y[o] = sum_k z[o + shift + k * d] * w[K - 1 - k], where z is x dilated
    // by the stride with lo = effK - 1 + max(0, -padBegin) zeros before it,
    // and shift = max(0, padBegin).
    SmallVector<int64_t> lo(s), hi(s), shift(s), zSize(s), convOut(s);
    for (size_t i = 0; i < s; ++i) {
      int64_t effK = (t->kernel[i] - 1) * t->dilations[i] + 1;
      lo[i] = effK - 1 + std::max<int64_t>(0, -t->padBegin[i]);
      shift[i] = std::max<int64_t>(0, t->padBegin[i]);
      int64_t dilated = (x[2 + i] - 1) * t->strides[i] + 1;
      // Conv output must cover shift + out.
      int64_t needed = shift[i] + t->out[i];
      hi[i] = std::max<int64_t>(0, needed + effK - 1 - lo[i] - dilated);
      zSize[i] = lo[i] + dilated + hi[i];
      convOut[i] = zSize[i] - effK + 1;
    }
    Value zero = ctx.scalarConstant(0.0, dtype);
    Shape zShape = {n, c};
    zShape.append(zSize.begin(), zSize.end());
    Value z = filled(ctx, zShape, dtype, zero);
    SmallVector<int64_t> first(2, 0), step(2, 1), extent(x.begin(), x.end());
    for (size_t i = 0; i < s; ++i) {
      first.push_back(lo[i]);
      step.push_back(t->strides[i]);
    }
    // An input zero-padded by a Pad node: its zeros fall on zeros of z, so
    // the unpadded input goes in at first + low * step. (Left to upstream
    // canonicalization, insert_slice(pad(v)) into a fill becomes v at
    // first + low, which is wrong for a step > 1.)
    Value source = ctx.inputValue(0);
    if (auto pad = source.getDefiningOp<tensor::PadOp>()) {
      Value padValue = pad.getConstantPaddingValue();
      ArrayRef<int64_t> low = pad.getStaticLow();
      if (padValue &&
          (matchPattern(padValue, m_AnyZeroFloat()) ||
           matchPattern(padValue, m_Zero())) &&
          pad.getSourceType().hasStaticShape() &&
          llvm::none_of(low, ShapedType::isDynamic)) {
        for (size_t d = 0; d < first.size(); ++d)
          first[d] += low[d] * step[d];
        extent.assign(pad.getSourceType().getShape().begin(),
                      pad.getSourceType().getShape().end());
        source = pad.getSource();
      }
    }
    z = tensor::InsertSliceOp::create(b, loc, source, z,
                                      getAsIndexOpFoldResult(b.getContext(),
                                                             first),
                                      getAsIndexOpFoldResult(b.getContext(),
                                                             extent),
                                      getAsIndexOpFoldResult(b.getContext(),
                                                             step))
            .getResult();

    // Flipped weights [G, Cg, Mg, K...]: wf[g, c, m, k] = w[g*Cg + c, m,
    // K - 1 - k], gathered with explicit indices.
    Shape wShape = {group, cg, mg};
    SmallVector<ReassociationIndices> wRe = {{0, 1}, {2}};
    for (size_t i = 0; i < s; ++i) {
      wShape.push_back(w[2 + i]);
      wRe.push_back({static_cast<int64_t>(3 + i)});
    }
    Value wv = ctx.inputValue(1);
    Value wg = expandTo(ctx, wv, wShape, wRe);
    Value wfInit = ctx.emptyTensor(wShape, dtype);
    unsigned wRank = wShape.size();
    SmallVector<int64_t> kernel = t->kernel;
    Value wf =
        linalg::GenericOp::create(
            b, loc, wfInit.getType(), ValueRange{}, ValueRange{wfInit},
            ArrayRef<AffineMap>{
                AffineMap::getMultiDimIdentityMap(wRank, mctx)},
            SmallVector<IteratorType>(wRank, IteratorType::parallel),
            [&](OpBuilder &nb, Location nloc, ValueRange) {
              SmallVector<Value> idx;
              for (unsigned i = 0; i < wRank; ++i) {
                Value iv = linalg::IndexOp::create(nb, nloc, i);
                if (i >= 3) {
                  Value last = arith::ConstantIndexOp::create(
                      nb, nloc, kernel[i - 3] - 1);
                  iv = arith::SubIOp::create(nb, nloc, last, iv);
                }
                idx.push_back(iv);
              }
              Value v = tensor::ExtractOp::create(nb, nloc, wg, idx);
              linalg::YieldOp::create(nb, nloc, v);
            })
            .getResult(0);

    Shape z5 = {n, group, cg};
    SmallVector<ReassociationIndices> zRe = {{0}, {1, 2}};
    Shape out5 = {n, group, mg};
    for (size_t i = 0; i < s; ++i) {
      z5.push_back(zSize[i]);
      zRe.push_back({static_cast<int64_t>(3 + i)});
      out5.push_back(convOut[i]);
    }
    Value zg = expandTo(ctx, z, z5, zRe);
    Value init = convInit(ctx, out5, acc);
    SmallVector<int64_t> ones(s, 1);
    Value result = buildConvGeneric(ctx, zg, dtype, wf, dtype,
                                    /*weightsCM=*/true, init, acc, ones,
                                    t->dilations);
    // Crop [shift, shift + out).
    bool crop = false;
    for (size_t i = 0; i < s; ++i)
      crop |= shift[i] != 0 || convOut[i] != t->out[i];
    if (crop) {
      SmallVector<OpFoldResult> cOffsets(3, b.getIndexAttr(0)), cSizes,
          cStrides(3 + s, b.getIndexAttr(1));
      for (int64_t d : ArrayRef<int64_t>(out5).take_front(3))
        cSizes.push_back(b.getIndexAttr(d));
      Shape cropped(out5.begin(), out5.begin() + 3);
      for (size_t i = 0; i < s; ++i) {
        cOffsets.push_back(b.getIndexAttr(shift[i]));
        cSizes.push_back(b.getIndexAttr(t->out[i]));
        cropped.push_back(t->out[i]);
      }
      auto type = RankedTensorType::get(cropped, elementTypeOf(mctx, acc));
      result = tensor::ExtractSliceOp::create(b, loc, type, result, cOffsets,
                                              cSizes, cStrides)
                   .getResult();
    }
    return SmallVector<Value>{finishConv(ctx, result, acc, dtype)};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// One generic over (n, c, o..., k...) reducing x[n, c, o * s + k * d] into
/// `init` with `combine`; a [K...] window operand gives the k loops their
/// ranges.
/// The loops (n, c, o..., k...) of a pooling window: maps reading
/// x[n, c, o * s + k * d], the [K...] window operand and the output
/// [n, c, o...]; the k loops reduce.
struct PoolLoops {
  AffineMap x, window, out;
  SmallVector<IteratorType> iterators;
};

PoolLoops poolLoops(MLIRContext *mctx, const Window &w) {
  unsigned s = w.kernel.size();
  unsigned numLoops = 2 + 2 * s;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, mctx); };
  SmallVector<AffineExpr> xExprs = {d(0), d(1)}, outExprs = {d(0), d(1)},
                          winExprs;
  for (unsigned i = 0; i < s; ++i) {
    xExprs.push_back(d(2 + i) * w.strides[i] + d(2 + s + i) * w.dilations[i]);
    outExprs.push_back(d(2 + i));
    winExprs.push_back(d(2 + s + i));
  }
  PoolLoops loops;
  loops.x = AffineMap::get(numLoops, 0, xExprs, mctx);
  loops.window = AffineMap::get(numLoops, 0, winExprs, mctx);
  loops.out = AffineMap::get(numLoops, 0, outExprs, mctx);
  loops.iterators.assign(numLoops, IteratorType::parallel);
  for (unsigned i = 2 + s; i < numLoops; ++i)
    loops.iterators[i] = IteratorType::reduction;
  return loops;
}

Value buildPoolGeneric(
    NodeContext &ctx, Value x, const Window &w, Value init, int32_t xDtype,
    int32_t accDtype,
    function_ref<Value(OpBuilder &, Location, Value acc, Value x)> combine) {
  PoolLoops loops = poolLoops(ctx.context(), w);
  Value window = ctx.emptyTensor(Shape(w.kernel.begin(), w.kernel.end()),
                                 accDtype);
  return linalg::GenericOp::create(
             ctx.builder(), ctx.loc(), init.getType(), ValueRange{x, window},
             ValueRange{init},
             ArrayRef<AffineMap>{loops.x, loops.window, loops.out},
             loops.iterators,
             [&](OpBuilder &b, Location loc, ValueRange args) {
               Value v = convertScalar(b, loc, args[0], xDtype, accDtype);
               linalg::YieldOp::create(b, loc, combine(b, loc, args[2], v));
             })
      .getResult(0);
}

constexpr int32_t kMaxPoolTypes[] = {kFloat, kDouble, kFloat16, kBFloat16,
                                     kInt8,  kUInt8};

/// The smallest value of `dtype` (-inf for floats).
Value lowestValue(NodeContext &ctx, int32_t dtype) {
  OpBuilder &b = ctx.builder();
  Type t = elementTypeOf(ctx.context(), dtype);
  if (auto f = dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(
        b, ctx.loc(),
        b.getFloatAttr(f, -std::numeric_limits<double>::infinity()));
  unsigned width = t.getIntOrFloatBitWidth();
  APInt v = isUnsignedType(dtype) ? APInt::getMinValue(width)
                                  : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, ctx.loc(), b.getIntegerAttr(t, v));
}

FailureOr<Window> poolWindow(NodeContext &ctx, bool allowCeil) {
  if (failed(requireSpatialInput(ctx)))
    return failure();
  const Shape &x = ctx.input(0).shape;
  FailureOr<SmallVector<int64_t>> kernel = poolKernel(ctx, x.size() - 2);
  if (failed(kernel))
    return failure();
  FailureOr<Window> w =
      resolveWindow(ctx, ArrayRef<int64_t>(x).drop_front(2), *kernel,
                    allowCeil, /*allowDilations=*/true);
  if (failed(w))
    return failure();
  // A window made only of padding has no defined value (max of nothing,
  // average over zero elements).
  for (size_t i = 0; i < w->kernel.size(); ++i)
    for (int64_t o = 0; o < w->out[i]; ++o) {
      bool inside = false;
      for (int64_t k = 0; k < w->kernel[i] && !inside; ++k) {
        int64_t pos = o * w->strides[i] - w->padBegin[i] + k * w->dilations[i];
        inside = pos >= 0 && pos < x[2 + i];
      }
      if (!inside) {
        ctx.attributeError("pads")
            << "output " << o << " along spatial dimension " << i
            << " has a window lying entirely in the padding, which is not "
               "supported";
        return failure();
      }
    }
  return w;
}

ShapeFn poolShape() {
  return [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<Window> w = poolWindow(ctx, /*allowCeil=*/true);
    if (failed(w))
      return failure();
    Shape out = {ctx.input(0).shape[0], ctx.input(0).shape[1]};
    out.append(w->out.begin(), w->out.end());
    return SmallVector<Shape>{out};
  };
}

/// True when a MaxPool node asks for its Indices output.
bool wantsIndices(NodeContext &ctx) {
  return ctx.node().output_size() > 1 && !ctx.node().output(1).empty();
}

/// MaxPool with Indices: one generic over (n, c, o..., k...) keeping the
/// first largest element of each window (scan order, as the ONNX reference)
/// and its flat index into X: row-major ((n*C + c)*H + h)*W + w, or with
/// storage_order 1 column-major within each image (n*C + c)*H*W + h + w*H.
SmallVector<Value> buildMaxPoolWithIndices(NodeContext &ctx, Value xp,
                                           const Window &w,
                                           ArrayRef<TensorValue> outputs,
                                           Value lowest) {
  OpBuilder &builder = ctx.builder();
  int32_t dtype = outputs[0].dtype;
  const Shape &x = ctx.input(0).shape;
  unsigned s = w.kernel.size();
  bool columnMajor = ctx.intAttr("storage_order", 0) == 1;
  PoolLoops loops = poolLoops(ctx.context(), w);
  Value window =
      ctx.emptyTensor(Shape(w.kernel.begin(), w.kernel.end()), dtype);
  Value values = filled(ctx, outputs[0].shape, dtype, lowest);
  Value minusOne = arith::ConstantOp::create(builder, ctx.loc(),
                                             builder.getI64IntegerAttr(-1));
  Value indices = filled(ctx, outputs[1].shape, kInt64, minusOne);
  auto generic = linalg::GenericOp::create(
      builder, ctx.loc(), TypeRange{values.getType(), indices.getType()},
      ValueRange{xp, window}, ValueRange{values, indices},
      ArrayRef<AffineMap>{loops.x, loops.window, loops.out, loops.out},
      loops.iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        Value v = args[0], acc = args[2], accIndex = args[3];
        // Strictly greater: the first maximum wins; NaN never does.
        Value better =
            isFloatType(dtype)
                ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v,
                                        acc)
                      .getResult()
                : arith::CmpIOp::create(b, loc,
                                        isUnsignedType(dtype)
                                            ? arith::CmpIPredicate::ugt
                                            : arith::CmpIPredicate::sgt,
                                        v, acc)
                      .getResult();
        auto c = [&](int64_t value) {
          return arith::ConstantIndexOp::create(b, loc, value);
        };
        // Position in the unpadded input along each spatial dimension.
        SmallVector<Value> pos;
        for (unsigned i = 0; i < s; ++i) {
          Value o = linalg::IndexOp::create(b, loc, 2 + i);
          Value k = linalg::IndexOp::create(b, loc, 2 + s + i);
          Value p = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, o, c(w.strides[i])),
              arith::MulIOp::create(b, loc, k, c(w.dilations[i])));
          pos.push_back(arith::SubIOp::create(b, loc, p, c(w.padBegin[i])));
        }
        Value flat = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, linalg::IndexOp::create(b, loc, 0),
                                  c(x[1])),
            linalg::IndexOp::create(b, loc, 1));
        if (!columnMajor) {
          for (unsigned i = 0; i < s; ++i)
            flat = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, flat, c(x[2 + i])),
                pos[i]);
        } else {
          int64_t image = 1, stride = 1;
          for (unsigned i = 0; i < s; ++i)
            image *= x[2 + i];
          Value inImage = c(0);
          for (unsigned i = 0; i < s; ++i) {
            inImage = arith::AddIOp::create(
                b, loc, inImage, arith::MulIOp::create(b, loc, pos[i], c(stride)));
            stride *= x[2 + i];
          }
          flat = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, flat, c(image)), inImage);
        }
        Value index = arith::IndexCastOp::create(b, loc, b.getI64Type(), flat);
        linalg::YieldOp::create(
            b, loc,
            ValueRange{arith::SelectOp::create(b, loc, better, v, acc),
                       arith::SelectOp::create(b, loc, better, index,
                                               accIndex)});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

OpSpec maxPoolSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kMaxPoolTypes)) ||
        failed(requireAtMostInputs(ctx, 1)))
      return failure();
    int64_t storageOrder = ctx.intAttr("storage_order", 0);
    if (storageOrder != 0 && storageOrder != 1) {
      ctx.attributeError("storage_order")
          << "value " << storageOrder << " is invalid";
      return failure();
    }
    if (wantsIndices(ctx))
      return SmallVector<int32_t>{ctx.input(0).dtype, kInt64};
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    FailureOr<SmallVector<Shape>> shapes = poolShape()(ctx);
    if (failed(shapes))
      return failure();
    if (wantsIndices(ctx)) {
      if (hasSymbolDims(ctx.input(0).shape)) {
        ctx.error() << "the Indices output with symbolic dimensions is not "
                       "supported";
        return failure();
      }
      shapes->push_back(shapes->front());
    }
    return shapes;
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<Window> w = poolWindow(ctx, true);
    if (failed(w))
      return failure();
    int32_t dtype = outputs[0].dtype;
    SmallVector<int64_t> high;
    for (size_t i = 0; i < w->padEnd.size(); ++i)
      high.push_back(w->padEnd[i] + w->extraEnd[i]);
    Value lowest = lowestValue(ctx, dtype);
    Value xp = padSpatial(ctx, ctx.inputValue(0), w->padBegin, high, lowest);
    if (outputs.size() > 1)
      return buildMaxPoolWithIndices(ctx, xp, *w, outputs, lowest);
    Value init = filled(ctx, outputs[0].shape, dtype, lowest);
    bool isFloat = isFloatType(dtype), isUnsigned = isUnsignedType(dtype);
    Value result = buildPoolGeneric(
        ctx, xp, *w, init, dtype, dtype,
        [&](OpBuilder &b, Location loc, Value acc, Value v) -> Value {
          // NaN inputs are ignored, as the ONNX reference does.
          if (isFloat)
            return arith::MaxNumFOp::create(b, loc, acc, v);
          if (isUnsigned)
            return arith::MaxUIOp::create(b, loc, acc, v);
          return arith::MaxSIOp::create(b, loc, acc, v);
        });
    return SmallVector<Value>{result};
  };
  return spec;
}

OpSpec averagePoolSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kFloatTypes)) ||
        failed(requireAtMostInputs(ctx, 1)))
      return failure();
    int64_t cip = ctx.intAttr("count_include_pad", 0);
    if (cip != 0 && cip != 1) {
      ctx.attributeError("count_include_pad") << "value " << cip
                                              << " is invalid";
      return failure();
    }
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = poolShape();
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    FailureOr<Window> w = poolWindow(ctx, true);
    if (failed(w))
      return failure();
    MLIRContext *mctx = ctx.context();
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    bool includePad = ctx.intAttr("count_include_pad", 0) != 0;
    const Shape &x = ctx.input(0).shape;
    size_t s = w->kernel.size();
    SmallVector<int64_t> high;
    for (size_t i = 0; i < s; ++i)
      high.push_back(w->padEnd[i] + w->extraEnd[i]);
    Value xp = padSpatial(ctx, ctx.inputValue(0), w->padBegin, high,
                          ctx.scalarConstant(0.0, dtype));
    Value init = filled(ctx, outputs[0].shape, acc,
                        ctx.scalarConstant(0.0, acc));
    Value sum = buildPoolGeneric(
        ctx, xp, *w, init, dtype, acc,
        [](OpBuilder &b, Location loc, Value a, Value v) -> Value {
          return arith::AddFOp::create(b, loc, a, v);
        });

    // Divisors: window elements inside the input (or the padded input with
    // count_include_pad), per spatial dim; the count is their product.
    SmallVector<SmallVector<int64_t>> counts(s);
    bool uniform = true;
    for (size_t i = 0; i < s; ++i) {
      int64_t lo = includePad ? -w->padBegin[i] : 0;
      int64_t hi = includePad ? x[2 + i] + w->padEnd[i] : x[2 + i];
      for (int64_t o = 0; o < w->out[i]; ++o) {
        int64_t count = 0;
        for (int64_t k = 0; k < w->kernel[i]; ++k) {
          int64_t pos = o * w->strides[i] - w->padBegin[i] +
                        k * w->dilations[i];
          count += pos >= lo && pos < hi;
        }
        counts[i].push_back(count);
        uniform &= count == counts[i][0];
      }
    }
    Value result;
    if (uniform) {
      int64_t total = 1;
      for (auto &c : counts)
        total *= c[0];
      Value divisor = ctx.scalarConstant(static_cast<double>(total), acc);
      result = buildElementwise(
          ctx, {sum}, outputs[0].shape, acc,
          [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
            return arith::DivFOp::create(b, loc, a[0], divisor);
          });
    } else {
      // A constant [O...] tensor of counts, broadcast over N and C.
      Shape outSpatial(w->out.begin(), w->out.end());
      int64_t numel = product(outSpatial);
      SmallVector<float> values(numel);
      for (int64_t flat = 0; flat < numel; ++flat) {
        int64_t rem = flat, count = 1;
        for (int64_t i = s - 1; i >= 0; --i) {
          count *= counts[i][rem % w->out[i]];
          rem /= w->out[i];
        }
        values[flat] = static_cast<float>(count);
      }
      auto type = RankedTensorType::get(outSpatial, ctx.builder().getF32Type());
      Value countTensor = arith::ConstantOp::create(
          ctx.builder(), ctx.loc(),
          DenseElementsAttr::get(type, ArrayRef<float>(values)));
      unsigned rank = 2 + s;
      SmallVector<AffineExpr> cExprs;
      for (size_t i = 0; i < s; ++i)
        cExprs.push_back(getAffineDimExpr(2 + i, mctx));
      Value out = ctx.emptyTensor(outputs[0].shape, acc);
      result =
          linalg::GenericOp::create(
              ctx.builder(), ctx.loc(), out.getType(),
              ValueRange{sum, countTensor}, ValueRange{out},
              ArrayRef<AffineMap>{
                  AffineMap::getMultiDimIdentityMap(rank, mctx),
                  AffineMap::get(rank, 0, cExprs, mctx),
                  AffineMap::getMultiDimIdentityMap(rank, mctx)},
              SmallVector<IteratorType>(rank, IteratorType::parallel),
              [&](OpBuilder &b, Location loc, ValueRange args) {
                Value c = convertScalar(b, loc, args[1], kFloat, acc);
                linalg::YieldOp::create(
                    b, loc,
                    arith::DivFOp::create(b, loc, args[0], c).getResult());
              })
              .getResult(0);
    }
    return SmallVector<Value>{convertTensor(ctx, result, acc, dtype)};
  };
  return spec;
}

/// GlobalAveragePool / GlobalMaxPool: reduce every spatial dim to 1.
OpSpec globalPoolSpec(bool isMax) {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kFloatTypes)) ||
        failed(requireAtMostInputs(ctx, 1)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    const Shape &x = ctx.input(0).shape;
    if (x.size() < 3) {
      ctx.error() << "input 0 must have rank >= 3 ([N, C, spatial...])";
      return failure();
    }
    Shape out(x.size(), 1);
    out[0] = x[0];
    out[1] = x[1];
    return SmallVector<Shape>{out};
  };
  spec.lower = [isMax](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    MLIRContext *mctx = ctx.context();
    const Shape &x = ctx.input(0).shape;
    int32_t dtype = outputs[0].dtype, acc = isMax ? dtype : computeDtype(dtype);
    unsigned rank = x.size();
    Shape nc = {x[0], x[1]};
    Value init = filled(ctx, nc, acc,
                        isMax ? lowestValue(ctx, acc)
                              : ctx.scalarConstant(0.0, acc));
    SmallVector<IteratorType> iterators(rank, IteratorType::reduction);
    iterators[0] = iterators[1] = IteratorType::parallel;
    Value reduced =
        linalg::GenericOp::create(
            ctx.builder(), ctx.loc(), init.getType(),
            ValueRange{ctx.inputValue(0)}, ValueRange{init},
            ArrayRef<AffineMap>{
                AffineMap::getMultiDimIdentityMap(rank, mctx),
                AffineMap::get(rank, 0,
                               {getAffineDimExpr(0, mctx),
                                getAffineDimExpr(1, mctx)},
                               mctx)},
            iterators,
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value v = convertScalar(b, loc, args[0], dtype, acc);
              // NaN propagates, as numpy's max in the ONNX reference.
              Value r = isMax ? arith::MaximumFOp::create(b, loc, args[1], v)
                                    .getResult()
                              : arith::AddFOp::create(b, loc, args[1], v)
                                    .getResult();
              linalg::YieldOp::create(b, loc, r);
            })
            .getResult(0);
    if (!isMax) {
      Value divisor = ctx.scalarConstant(
          static_cast<double>(product(ArrayRef<int64_t>(x).drop_front(2))),
          acc);
      reduced = buildElementwise(
          ctx, {reduced}, nc, acc,
          [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
            return arith::DivFOp::create(b, loc, a[0], divisor);
          });
    }
    reduced = convertTensor(ctx, reduced, acc, dtype);
    SmallVector<ReassociationIndices> re = {{0}, {}};
    for (unsigned i = 1; i < rank; ++i)
      re[1].push_back(i);
    return SmallVector<Value>{expandTo(ctx, reduced, outputs[0].shape, re)};
  };
  return spec;
}

//===----------------------------------------------------------------------===//
// BatchNormalization (inference)
//===----------------------------------------------------------------------===//

OpSpec batchNormSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireInputs(ctx, 5)) || failed(requireAtMostInputs(ctx, 5)) ||
        failed(requireDtype(ctx, 0, kFloatTypes)))
      return failure();
    for (size_t i = 1; i < 5; ++i)
      if (failed(requireDtype(ctx, i, kFloatTypes)))
        return failure();
    if (ctx.intAttr("training_mode", 0) != 0) {
      ctx.attributeError("training_mode")
          << "value " << ctx.intAttr("training_mode", 0)
          << " is not supported (inference only)";
      return failure();
    }
    if (failed(rejectOutputsFrom(ctx, 1, "only inference (output Y) is "
                                         "supported")))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    const Shape &x = ctx.input(0).shape;
    if (x.size() < 2) {
      ctx.error() << "input 0 must have rank >= 2 ([N, C, ...])";
      return failure();
    }
    // Opset < 9 'spatial' = 0: statistics per activation, [C, D1, ...].
    bool spatial = ctx.opset() >= 9 || ctx.intAttr("spatial", 1) != 0;
    Shape expected = spatial ? Shape{x[1]} : Shape(x.begin() + 1, x.end());
    for (size_t i = 1; i < 5; ++i)
      if (ctx.input(i).shape != expected) {
        InFlightDiagnostic diag = ctx.error();
        diag << "input " << i << " must have shape [";
        llvm::interleaveComma(expected, diag);
        diag << "]";
        return failure();
      }
    return SmallVector<Shape>{x};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    MLIRContext *mctx = ctx.context();
    const Shape &x = ctx.input(0).shape;
    int32_t dtype = outputs[0].dtype, acc = computeDtype(dtype);
    double epsilon = ctx.floatAttr("epsilon", 1e-5f);
    unsigned rank = x.size();
    bool spatial = ctx.opset() >= 9 || ctx.intAttr("spatial", 1) != 0;
    SmallVector<AffineExpr> pExprs;
    for (unsigned i = 1; i < (spatial ? 2u : rank); ++i)
      pExprs.push_back(getAffineDimExpr(i, mctx));
    AffineMap pMap = AffineMap::get(rank, 0, pExprs, mctx);
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, mctx);
    SmallVector<Value> inputs;
    SmallVector<int32_t> dtypes;
    for (size_t i = 0; i < 5; ++i) {
      inputs.push_back(ctx.inputValue(i));
      dtypes.push_back(ctx.input(i).dtype);
    }
    Value eps = ctx.scalarConstant(epsilon, acc);
    Value init = ctx.emptyTensor(x, dtype);
    Value result =
        linalg::GenericOp::create(
            ctx.builder(), ctx.loc(), init.getType(), inputs,
            ValueRange{init},
            ArrayRef<AffineMap>{id, pMap, pMap, pMap, pMap, id},
            SmallVector<IteratorType>(rank, IteratorType::parallel),
            [&](OpBuilder &b, Location loc, ValueRange args) {
              SmallVector<Value> v;
              for (size_t i = 0; i < 5; ++i)
                v.push_back(convertScalar(b, loc, args[i], dtypes[i], acc));
              // y = (x - mean) / sqrt(var + epsilon) * scale + B
              Value centered = arith::SubFOp::create(b, loc, v[0], v[3]);
              Value stddev = math::SqrtOp::create(
                  b, loc, arith::AddFOp::create(b, loc, v[4], eps));
              Value normalized =
                  arith::DivFOp::create(b, loc, centered, stddev);
              Value y = arith::AddFOp::create(
                  b, loc, arith::MulFOp::create(b, loc, normalized, v[1]),
                  v[2]);
              linalg::YieldOp::create(b, loc,
                                      convertScalar(b, loc, y, acc, dtype));
            })
            .getResult(0);
    return SmallVector<Value>{result};
  };
  return spec;
}

} // namespace

void registerNNOps(OpLibrary &library) {
  library.add("MatMul", matMulSpec());
  library.add("Gemm", gemmSpec());
  library.add("Einsum", einsumSpec());
  library.add("Conv", convSpec());
  library.add("ConvTranspose", convTransposeSpec());
  library.add("MaxPool", maxPoolSpec());
  library.add("AveragePool", averagePoolSpec());
  library.add("GlobalAveragePool", globalPoolSpec(/*isMax=*/false));
  library.add("GlobalMaxPool", globalPoolSpec(/*isMax=*/true));
  library.add("BatchNormalization", batchNormSpec());
}

} // namespace aotc::onnx_frontend
