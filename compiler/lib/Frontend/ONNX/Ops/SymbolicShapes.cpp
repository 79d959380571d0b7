//===- SymbolicShapes.cpp - Shape arithmetic on symbolic dims -*- C++ -*-===//
//
// This file implements the symbolic folds of the ops that appear in shape
// arithmetic (Shape -> Gather -> Mul -> Unsqueeze -> Concat -> Reshape, as
// PyTorch exports attention heads and flattens): when their inputs are
// shapes whose entries are symbolic dimensions, the result is computed at
// compile time as entries that are constants or symbols (monomials such as
// "4*N"), so that Reshape targets stay expressible without run-time shape
// work. An op whose inputs do not fit (a data-dependent shape, a sum of
// symbols) is not folded and is lowered like any other.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;

namespace aotc::onnx_frontend {

namespace {

using SymbolicResults = FailureOr<SmallVector<Shape>>;

/// The entries of input `i` when it is an integer vector or scalar known at
/// compile time (with symbols or not).
std::optional<Shape> entriesOf(NodeContext &ctx, size_t i) {
  if (!ctx.hasInput(i) || ctx.input(i).shape.size() > 1 ||
      (ctx.input(i).dtype != kInt64 && ctx.input(i).dtype != kInt32))
    return std::nullopt;
  return ctx.symbolicInts(i);
}

/// Only entries >= -1 and symbols are representable (-1 is Reshape's
/// "infer"; more negative constants would read as symbols).
SymbolicResults result(const Shape &entries) {
  if (llvm::any_of(entries, [](int64_t e) { return e < -1 && !isSymbolDim(e); }))
    return failure();
  return SmallVector<Shape>{entries};
}

/// Shape: the dimensions of input 0 in [start, end).
SymbolicResults foldShape(NodeContext &ctx, ArrayRef<TensorValue>) {
  const Shape &in = ctx.input(0).shape;
  auto [start, end] = shapeRange(ctx);
  return result(Shape(in.begin() + start, in.begin() + end));
}

/// Size: the product of input 0's dimensions.
SymbolicResults foldSize(NodeContext &ctx, ArrayRef<TensorValue>) {
  return result({ctx.symbolTable()->product(ctx.input(0).shape)});
}

/// Unsqueeze, Squeeze, Identity, Reshape of a shape vector, Cast between
/// integer types: the same entries.
SymbolicResults foldSameEntries(NodeContext &ctx,
                                ArrayRef<TensorValue> outputs) {
  std::optional<Shape> in = entriesOf(ctx, 0);
  if (!in || outputs[0].shape.size() > 1 ||
      (outputs[0].dtype != kInt64 && outputs[0].dtype != kInt32) ||
      static_cast<int64_t>(in->size()) != outputs[0].numElements())
    return failure();
  return result(*in);
}

/// Gather along axis 0 of a shape vector with constant indices.
SymbolicResults foldGather(NodeContext &ctx, ArrayRef<TensorValue>) {
  std::optional<Shape> data = entriesOf(ctx, 0);
  std::optional<DenseElementsAttr> indices = ctx.constantInput(1);
  if (!data || ctx.input(0).shape.size() != 1 || !indices ||
      ctx.input(1).shape.size() > 1)
    return failure();
  int64_t n = data->size();
  Shape out;
  for (int64_t i : intValues(*indices, ctx.input(1).dtype)) {
    if (i < -n || i >= n)
      return failure(); // the shape function reports it
    out.push_back((*data)[i < 0 ? i + n : i]);
  }
  return result(out);
}

/// Concat of shape vectors.
SymbolicResults foldConcat(NodeContext &ctx, ArrayRef<TensorValue>) {
  Shape out;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    std::optional<Shape> part = entriesOf(ctx, i);
    if (!part || ctx.input(i).shape.size() != 1)
      return failure();
    llvm::append_range(out, *part);
  }
  return result(out);
}

/// Slice of a shape vector (axis 0, step 1, constant bounds).
SymbolicResults foldSlice(NodeContext &ctx, ArrayRef<TensorValue>) {
  std::optional<Shape> data = entriesOf(ctx, 0);
  if (!data || ctx.input(0).shape.size() != 1 || ctx.opset() < 10)
    return failure();
  auto ints = [&](size_t i) -> std::optional<SmallVector<int64_t>> {
    std::optional<DenseElementsAttr> c = ctx.constantInput(i);
    if (!c)
      return std::nullopt;
    return intValues(*c, ctx.input(i).dtype);
  };
  std::optional<SmallVector<int64_t>> starts = ints(1), ends = ints(2);
  if (!starts || !ends || starts->size() != 1 || ends->size() != 1)
    return failure();
  if (ctx.hasInput(3) && ints(3) != std::optional(SmallVector<int64_t>{0}) &&
      ints(3) != std::optional(SmallVector<int64_t>{-1}))
    return failure();
  if (ctx.hasInput(4) && ints(4) != std::optional(SmallVector<int64_t>{1}))
    return failure();
  int64_t n = data->size();
  auto clamp = [&](int64_t a) {
    return std::clamp<int64_t>(a < 0 ? a + n : a, 0, n);
  };
  int64_t start = clamp((*starts)[0]), end = clamp((*ends)[0]);
  return result(Shape(data->begin() + start,
                      data->begin() + std::max(start, end)));
}

/// Mul, Div, Add, Sub of shape entries (numpy broadcasting of vectors and
/// scalars). Products and exact quotients of symbols are symbols; a sum with
/// a symbol is not representable unless the other term is 0.
SymbolicResults foldArithmetic(NodeContext &ctx, ArrayRef<TensorValue> outputs,
                               StringRef op) {
  std::optional<Shape> a = entriesOf(ctx, 0), b = entriesOf(ctx, 1);
  if (!a || !b || outputs[0].shape.size() > 1)
    return failure();
  size_t n = std::max(a->size(), b->size());
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1))
    return failure();
  SymbolicDims &symbols = *ctx.symbolTable();
  Shape out;
  for (size_t i = 0; i < n; ++i) {
    int64_t x = (*a)[a->size() == 1 ? 0 : i];
    int64_t y = (*b)[b->size() == 1 ? 0 : i];
    bool symbolic = isSymbolDim(x) || isSymbolDim(y);
    // Constants here are >= -1; a symbol times -1 is not a dimension.
    if (symbolic &&
        ((x < 0 && !isSymbolDim(x)) || (y < 0 && !isSymbolDim(y))))
      return failure();
    if (op == "Mul") {
      out.push_back(symbolic ? symbols.product({x, y}) : x * y);
    } else if (op == "Div") {
      if (!symbolic) {
        if (y == 0)
          return failure();
        out.push_back(x / y);
        continue;
      }
      std::optional<int64_t> q = symbols.quotient(x, y);
      if (!q)
        return failure();
      out.push_back(*q);
    } else if (!symbolic) {
      out.push_back(op == "Add" ? x + y : x - y);
    } else if (y == 0) {
      out.push_back(x);
    } else if (op == "Add" && x == 0) {
      out.push_back(y);
    } else {
      return failure();
    }
  }
  return result(out);
}

} // namespace

llvm::StringMap<SymbolicFoldFn> symbolicShapeFolds() {
  llvm::StringMap<SymbolicFoldFn> folds;
  folds["Shape"] = foldShape;
  folds["Size"] = foldSize;
  for (StringRef op : {"Unsqueeze", "Squeeze", "Identity", "Cast", "Reshape",
                       "Flatten"})
    folds[op] = foldSameEntries;
  folds["Gather"] = foldGather;
  folds["Concat"] = foldConcat;
  folds["Slice"] = foldSlice;
  for (StringRef op : {"Mul", "Div", "Add", "Sub"})
    folds[op] = [op](NodeContext &ctx, ArrayRef<TensorValue> outputs) {
      return foldArithmetic(ctx, outputs, op);
    };
  return folds;
}

} // namespace aotc::onnx_frontend
