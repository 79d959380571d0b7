//===- Common.cpp - Building blocks of ONNX op specifications -*- C++ -*-===//
//
// This file implements the shape/dtype rules shared by many ONNX ops.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;

namespace aotc::onnx_frontend {

ShapeFn sameShapeAs(size_t i) {
  return [i](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    return SmallVector<Shape>{ctx.input(i).shape};
  };
}

DtypeFn sameDtypeAs(size_t i) {
  return [i](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    return SmallVector<int32_t>{ctx.input(i).dtype};
  };
}

DtypeFn fixedDtype(int32_t dtype) {
  return [dtype](NodeContext &) -> FailureOr<SmallVector<int32_t>> {
    return SmallVector<int32_t>{dtype};
  };
}

ShapeFn broadcastShape() {
  return [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    SmallVector<Shape> shapes;
    for (size_t i = 0; i < ctx.numInputs(); ++i)
      if (ctx.hasInput(i))
        shapes.push_back(ctx.input(i).shape);
    FailureOr<Shape> result = broadcastShapes(ctx, shapes);
    if (failed(result))
      return failure();
    return SmallVector<Shape>{*result};
  };
}

LogicalResult requireDtype(NodeContext &ctx, size_t i,
                           ArrayRef<int32_t> allowed) {
  if (!ctx.hasInput(i)) {
    ctx.error() << "input " << i << " is required";
    return failure();
  }
  if (llvm::is_contained(allowed, ctx.input(i).dtype))
    return success();
  ctx.error() << "input " << i << " has dtype "
              << onnxTypeName(ctx.input(i).dtype) << ", which is not supported";
  return failure();
}

LogicalResult requireDtypeOfInput0(NodeContext &ctx, size_t i) {
  if (ctx.hasInput(i) && ctx.input(i).dtype != ctx.input(0).dtype) {
    ctx.error() << "input " << i << " has dtype "
                << onnxTypeName(ctx.input(i).dtype) << " but input 0 has "
                << onnxTypeName(ctx.input(0).dtype);
    return failure();
  }
  return success();
}

LogicalResult requireSameDtypes(NodeContext &ctx) {
  for (size_t i = 1; i < ctx.numInputs(); ++i)
    if (failed(requireDtypeOfInput0(ctx, i)))
      return failure();
  return success();
}

} // namespace aotc::onnx_frontend

namespace aotc::onnx_frontend {

SmallVector<int64_t> broadcastIndices(const Shape &inShape,
                                      const Shape &outShape) {
  int64_t total = 1;
  for (int64_t d : outShape)
    total *= d;
  size_t offset = outShape.size() - inShape.size();
  SmallVector<int64_t> result;
  result.reserve(total);
  SmallVector<int64_t> index(outShape.size(), 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t in = 0;
    for (size_t i = 0; i < inShape.size(); ++i)
      in = in * inShape[i] + (inShape[i] == 1 ? 0 : index[offset + i]);
    result.push_back(in);
    for (int64_t d = outShape.size() - 1; d >= 0; --d) {
      if (++index[d] < outShape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

SmallVector<int64_t> intValues(DenseElementsAttr attr, int32_t dtype) {
  SmallVector<int64_t> values;
  bool isUnsigned = isUnsignedType(dtype);
  for (APInt v : attr.getValues<APInt>())
    values.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                : v.getSExtValue());
  return values;
}

Value addScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mulScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

DenseElementsAttr intConstant(MLIRContext *ctx, int32_t dtype,
                              const Shape &shape, ArrayRef<int64_t> values) {
  Type element = elementTypeOf(ctx, dtype);
  auto type = RankedTensorType::get(shape, element);
  SmallVector<APInt> bits;
  unsigned width = element.getIntOrFloatBitWidth();
  for (int64_t v : values)
    bits.push_back(APInt(width, static_cast<uint64_t>(v), /*isSigned=*/true,
                         /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, bits);
}

} // namespace aotc::onnx_frontend
