//===- WgmmaVariant.h - Kernels with a wgmma and an mma.sync body -*- C++ -*-===//
//
// This file declares the marker that aotc-gpu-mma-contractions puts in
// kernels with two bodies (wgmma for sm_90a, mma.sync for every other
// chip), and the helper that keeps one of the two, shared by
// aotc-select-cuda-variants and the CPU emulation of kernels.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_WGMMAVARIANT_H
#define AOTC_TRANSFORMS_WGMMAVARIANT_H

#include "mlir/IR/Builders.h"

namespace aotc {

/// Unit attribute of the marker value.
constexpr llvm::StringLiteral kWgmmaVariantAttrName = "aotc.wgmma_variant";

/// A zero-operand `builtin.unrealized_conversion_cast to i1` marked
/// `aotc.wgmma_variant`: true in the wgmma variant of a kernel, false in
/// the other. Nothing folds it; it must be resolved before lowering.
mlir::Value createWgmmaVariantMarker(mlir::OpBuilder &b, mlir::Location loc);

/// Keeps, for every marker under `root`, the `then` (`useWgmma`) or `else`
/// region of the `scf.if` ops it conditions, and erases the markers. Fails
/// (with an error) on a marker used otherwise.
mlir::LogicalResult resolveWgmmaVariants(mlir::Operation *root, bool useWgmma);

/// Whether `root` holds a marker.
bool hasWgmmaVariants(mlir::Operation *root);

} // namespace aotc

#endif // AOTC_TRANSFORMS_WGMMAVARIANT_H
