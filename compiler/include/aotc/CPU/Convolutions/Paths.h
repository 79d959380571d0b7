//===- Paths.h - Preconditions of the CPU convolution paths ---*- C++ -*-===//
//
// This file declares, for each convolution path of the CPU target, the
// precondition its pass checks before rewriting an op. The strategy
// selection (aotc-select-cpu-strategy) evaluates them to choose one path
// per op and records it as `aotc.strategy`; each pass then rewrites the ops
// recorded for it (checking its precondition again: an op it cannot rewrite
// is left to the paths after it, with a remark) and ops without a record,
// which earlier rewrites made after the selection ran.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_CONVOLUTIONS_PATHS_H
#define AOTC_CPU_CONVOLUTIONS_PATHS_H

#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cstdint>
#include <optional>

namespace aotc {

/// The convolution paths, in the order the passes carrying them out run:
/// the selection takes the first whose precondition holds.
enum class ConvolutionPath {
  PointwiseMatmul, ///< aotc-pointwise-conv-to-matmul
  Winograd,        ///< aotc-winograd-convolutions
  ChannelLanes,    ///< aotc-channel-lane-convolutions
  Im2col,          ///< aotc-im2col-convolutions
  StridePhases,    ///< aotc-split-stride-phases
  FlatImage,       ///< aotc-flatten-convolution-images
  FlatDepthwise,   ///< aotc-flatten-convolution-images (depthwise)
  PeeledWindows,   ///< aotc-peel-padded-windows
  ColumnPhases,    ///< aotc-split-tile-phases (after the thread tiles)
  Direct,          ///< none of the above: aotc-vectorize-convolutions
  Generic,         ///< --strategy=generic: no specialised path
};

/// The path's name in `aotc.strategy` and the strategy table.
llvm::StringRef pathName(ConvolutionPath path);
/// The path named `name`, if any.
std::optional<ConvolutionPath> pathNamed(llvm::StringRef name);
/// The path recorded on `op`, if any.
std::optional<ConvolutionPath> recordedPath(mlir::Operation *op);
/// Records `path` on `op`.
void recordPath(mlir::Operation *op, ConvolutionPath path);
/// True when the pass of `path` may rewrite `op`: `op` is recorded for
/// `path`, or has no record.
bool isSelectedFor(mlir::Operation *op, ConvolutionPath path);
/// Called by the pass of `path` when it cannot carry out the recorded
/// choice for `op`: drops the record (the paths after it, and at last the
/// generic one, take the op) and emits a remark saying why.
void revertPath(mlir::Operation *op, ConvolutionPath path,
                llvm::StringRef reason);

/// The preconditions, one per path, each defined beside its pass: the
/// pass's structural match (can the rewrite be carried out?) and the
/// strategy rule (aotc/CPU/Strategy/ConvolutionRules.h: does it pay?).
bool canUsePointwiseMatmul(mlir::linalg::LinalgOp op);
bool canUseWinograd(mlir::linalg::LinalgOp op, int64_t minChannels);
bool canUseChannelLanes(mlir::linalg::LinalgOp op, VectorRegisters registers);
bool canUseIm2col(mlir::linalg::LinalgOp op, int64_t vectorBits);
bool canUseStridePhases(mlir::linalg::LinalgOp op);
bool canUseFlatImage(mlir::linalg::LinalgOp op);
bool canUseFlatDepthwise(mlir::linalg::LinalgOp op,
                          int64_t vectorBits);
/// `columnPhases`: whether `op` can take ColumnPhases instead (a wide
/// window then is not peeled, aotc::peeledRowsPay).
bool canUsePeeledWindows(mlir::linalg::LinalgOp op, int64_t vectorBits,
                         bool columnPhases = false);
/// `tiling`: the thread tiles `op` will be given, which must pad its input
/// in each tile.
bool canUseColumnPhases(mlir::linalg::LinalgOp op, const ThreadTiling &tiling);
/// True for the ops aotc-vectorize-convolutions computes directly when no
/// path above rewrites them: windowed ops (convolutions, pools).
bool isWindowedOp(mlir::linalg::LinalgOp op);

} // namespace aotc

#endif // AOTC_CPU_CONVOLUTIONS_PATHS_H
