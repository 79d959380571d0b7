//===- Common.h - Building blocks of ONNX op specifications --*- C++ -*-===//
//
// This file declares the shape/dtype rules that many ONNX ops share, so each
// op's specification reads as one line per rule.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_FRONTEND_ONNX_OPS_COMMON_H
#define AOTC_FRONTEND_ONNX_OPS_COMMON_H

#include "aotc/Frontend/ONNX/OpLibrary.h"

namespace aotc::onnx_frontend {

/// Output 0 has the shape of input `i`.
ShapeFn sameShapeAs(size_t i);
/// Output 0 has the dtype of input `i`.
DtypeFn sameDtypeAs(size_t i);
/// Output 0 has dtype `dtype`.
DtypeFn fixedDtype(int32_t dtype);
/// Output 0 has the numpy-broadcast shape of all (present) inputs.
ShapeFn broadcastShape();
/// Fails unless input `i` has one of `allowed` dtypes (names the input).
mlir::LogicalResult requireDtype(NodeContext &ctx, size_t i,
                                 llvm::ArrayRef<int32_t> allowed);
/// Fails unless input `i` (if present) has the dtype of input 0.
mlir::LogicalResult requireDtypeOfInput0(NodeContext &ctx, size_t i);
/// Fails unless every present input has the dtype of input 0.
mlir::LogicalResult requireSameDtypes(NodeContext &ctx);
/// Shape's [start, end) of input 0's dimensions (attributes from opset 15,
/// clamped as the spec says).
std::pair<int64_t, int64_t> shapeRange(NodeContext &ctx);
/// Float dtypes ONNX ops accept.
inline constexpr int32_t kFloatTypes[] = {kFloat, kDouble, kFloat16,
                                          kBFloat16};
/// Largest tensor (elements) the importer evaluates at compile time (folds
/// of shape and index arithmetic): 65536, enough for the index tensors of a
/// 256 x 256 attention mask, a few milliseconds of compile time at most.
inline constexpr int64_t kFoldLimit = 1 << 16;

/// For each element of `outShape` (row-major), the index of the element of a
/// tensor of `inShape` that numpy broadcasting reads.
llvm::SmallVector<int64_t> broadcastIndices(const Shape &inShape,
                                            const Shape &outShape);
/// The values of an integer (or bool) constant as int64, signedness from
/// `dtype`.
llvm::SmallVector<int64_t> intValues(mlir::DenseElementsAttr attr,
                                     int32_t dtype);
/// `x + y` / `x * y` of two scalars of one float or integer type.
mlir::Value addScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value mulScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
/// An integer/bool constant of the given ONNX dtype and shape.
mlir::DenseElementsAttr intConstant(mlir::MLIRContext *ctx, int32_t dtype,
                                    const Shape &shape,
                                    llvm::ArrayRef<int64_t> values);

} // namespace aotc::onnx_frontend

#endif // AOTC_FRONTEND_ONNX_OPS_COMMON_H
