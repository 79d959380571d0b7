//===- NN.cpp - ONNX neural network ops ----------------------*- C++ -*-===//
//
// This file implements the specifications of ONNX's neural network ops:
// MatMul, Gemm, Conv, ConvTranspose, pooling, BatchNormalization, ...
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "onnx/onnx_pb.h"

using namespace mlir;

namespace aotc::onnx_frontend {
namespace {

/// MatMul of two 2-D operands (numpy matmul semantics for rank 2).
OpSpec matMulSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    if (failed(requireDtype(ctx, 0, kFloatTypes)) ||
        failed(requireSameDtypes(ctx)))
      return failure();
    return SmallVector<int32_t>{ctx.input(0).dtype};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    const Shape &a = ctx.input(0).shape, &b = ctx.input(1).shape;
    if (a.size() != 2 || b.size() != 2) {
      ctx.error() << "only rank-2 operands are supported yet";
      return failure();
    }
    if (a[1] != b[0]) {
      ctx.error() << "contraction dimensions differ: " << a[1] << " vs "
                  << b[0];
      return failure();
    }
    return SmallVector<Shape>{Shape{a[0], b[1]}};
  };
  spec.lower = [](NodeContext &ctx, ArrayRef<TensorValue> outputs)
      -> FailureOr<SmallVector<Value>> {
    OpBuilder &b = ctx.builder();
    Value zero = ctx.scalarConstant(0.0, outputs[0].dtype);
    Value init = ctx.emptyTensor(outputs[0].shape, outputs[0].dtype);
    Value filled =
        linalg::FillOp::create(b, ctx.loc(), zero, init).getResult(0);
    Value result =
        linalg::MatmulOp::create(b, ctx.loc(), outputs[0].type(ctx.context()),
                                 ValueRange{ctx.inputValue(0),
                                            ctx.inputValue(1)},
                                 ValueRange{filled})
            .getResult(0);
    return SmallVector<Value>{result};
  };
  return spec;
}

} // namespace

void registerNNOps(OpLibrary &library) { library.add("MatMul", matMulSpec()); }

} // namespace aotc::onnx_frontend
