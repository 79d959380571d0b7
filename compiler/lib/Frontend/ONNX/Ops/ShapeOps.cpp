//===- ShapeOps.cpp - ONNX data movement and shape ops -------*- C++ -*-===//
//
// This file implements the specifications of ONNX's data movement and shape
// ops (Reshape, Transpose, Concat, Slice, Gather, Shape, Constant, ...), with
// compile-time evaluation of the shape arithmetic PyTorch exports.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "onnx/onnx_pb.h"

using namespace mlir;

namespace aotc::onnx_frontend {
namespace {

/// Constant: the `value` tensor attribute (other forms are not supported).
OpSpec constantSpec() {
  OpSpec spec;
  spec.dtype = [](NodeContext &ctx) -> FailureOr<SmallVector<int32_t>> {
    const onnx::TensorProto *t = ctx.tensorAttr("value");
    if (!t) {
      ctx.error() << "only the 'value' form of Constant is supported";
      return failure();
    }
    return SmallVector<int32_t>{t->data_type()};
  };
  spec.shape = [](NodeContext &ctx) -> FailureOr<SmallVector<Shape>> {
    const onnx::TensorProto *t = ctx.tensorAttr("value");
    return SmallVector<Shape>{Shape(t->dims().begin(), t->dims().end())};
  };
  spec.fold = [](NodeContext &ctx, ArrayRef<TensorValue>)
      -> FailureOr<SmallVector<DenseElementsAttr>> {
    std::string message;
    FailureOr<DenseElementsAttr> attr =
        tensorProtoToAttr(ctx.context(), *ctx.tensorAttr("value"), "", message);
    if (failed(attr)) {
      ctx.attributeError("value") << message;
      return failure();
    }
    return SmallVector<DenseElementsAttr>{*attr};
  };
  // Constant always folds; lowering is only reached if decoding failed.
  spec.lower = [](NodeContext &, ArrayRef<TensorValue>)
      -> FailureOr<SmallVector<Value>> { return failure(); };
  return spec;
}

} // namespace

void registerShapeOps(OpLibrary &library) {
  library.add("Constant", constantSpec());
}

} // namespace aotc::onnx_frontend
