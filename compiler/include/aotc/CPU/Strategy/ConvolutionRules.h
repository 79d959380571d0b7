//===- ConvolutionRules.h - When a convolution path pays ------*- C++ -*-===//
//
// This file declares the profitability rules of the CPU convolution paths:
// pure functions of a convolution's shape (its loop ranges, as matched by
// aotc/CPU/Convolutions/ConvolutionUtils.h) and the target's vector width,
// each constant with its reason in ConvolutionRules.cpp. A path's
// precondition (aotc/CPU/Convolutions/Paths.h) is its pass's structural
// match (can the rewrite be carried out?) and the rule here (does it pay?);
// the strategy selection evaluates the preconditions in order and records
// the first that holds. docs/tuning.md lists the measurements behind the
// constants.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_STRATEGY_CONVOLUTIONRULES_H
#define AOTC_CPU_STRATEGY_CONVOLUTIONRULES_H

#include "aotc/CPU/Convolutions/ConvolutionUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace aotc {

/// aotc-im2col-convolutions: true when copying the windows of the NCHW
/// convolution `op` (loops `conv`) into a column tensor and computing one
/// contraction costs less than computing it directly or on its flattened
/// image.
bool im2colPays(mlir::linalg::GenericOp op, const ConvolutionLoops &conv,
                int64_t vectorBits);

/// How aotc-channel-lane-convolutions computes a convolution.
enum class ChannelLaneForm {
  /// In a layout blocked by output channels, transposed back to NCHW.
  Blocked,
  /// Straight into the NCHW output, register tiles stored transposed.
  Direct,
};
/// The form in which a convolution over `inputChannels` input channels (of
/// each group, `grouped` when there are several), reducing `reduction`
/// elements (channels x window) per output into output rows of `width`
/// pixels, pays with output channels as lanes in `registers`; none when it
/// does not.
std::optional<ChannelLaneForm> channelLaneForm(int64_t inputChannels,
                                               int64_t reduction,
                                               int64_t width, bool grouped,
                                               VectorRegisters registers);

/// Lanes of the output-channel blocks of such a convolution with
/// `outputChannels` output channels (of each group, `grouped` when there
/// are several) in `registers`; 0 when no block size divides them.
int64_t channelLaneBlock(int64_t outputChannels, bool grouped,
                         VectorRegisters registers);

/// Rows of padding to add below a blocked convolution's padded input of
/// `planes` channel planes of `planeBytes` each (aotc-channel-lane-
/// convolutions), so that one image position of every plane does not
/// crowd the few L2 sets of `target` that planes a multiple of its L1 set
/// stride apart share: 1 when they would, else 0.
int64_t planeSlackRows(int64_t planes, int64_t planeBytes,
                       const CpuTarget &target);

/// Whether a depthwise convolution with windows of `window` taps and
/// `strides` on output rows of `width` pixels pays with its channels as
/// lanes in blocks of one register of `vectorBits` (aotc-channel-lane-
/// convolutions), its input transposed into them and its result back.
bool depthwiseLanesPay(llvm::ArrayRef<int64_t> window,
                       llvm::ArrayRef<int64_t> strides, int64_t width,
                       int64_t vectorBits);

/// aotc-winograd-convolutions: true when a convolution of `inputChannels`
/// and `outputChannels` with `tiles` output tiles (per image) pays;
/// `minChannels` is the pass's option (both channel counts at least).
bool winogradPays(int64_t inputChannels, int64_t outputChannels,
                  int64_t tiles, int64_t minChannels);
/// aotc-winograd-convolutions: the output tile (4 for F(4x4, 3x3), 2 for
/// F(2x2, 3x3), at most `maxTile`) of a convolution of `inputChannels` and
/// `outputChannels` on `phases` output images of `height` x `width` per
/// image (a dilated convolution's phase images, else one), the largest
/// whose tiles pay (winogradPays); 0 when none does.
int64_t winogradOutputTile(int64_t inputChannels, int64_t outputChannels,
                           int64_t height, int64_t width, int64_t minChannels,
                           int64_t maxTile, int64_t phases = 1);
/// aotc-winograd-convolutions: true when a window dilated by (`dilationH`,
/// `dilationW`) on a `height` x `width` output may be computed on its phase
/// images, all of ceil(height / dilationH) x ceil(width / dilationW): the
/// outputs that rounding adds are few.
bool winogradPhasesPay(int64_t height, int64_t width, int64_t dilationH,
                       int64_t dilationW);
/// True when the Winograd contractions take output channels as lanes: the
/// `tiles` (padded to `paddedTiles` for whole registers) would waste too
/// much of a contraction, `outputChannels` fill panels of `panelLanes`, and
/// the `inputChannels` repay the transposed output transform.
bool winogradChannelsLast(int64_t tiles, int64_t paddedTiles,
                          int64_t outputChannels, int64_t panelLanes,
                          int64_t inputChannels);

/// aotc-flatten-convolution-images (depthwise): true when a depthwise
/// convolution of `channels` over an output image of `height` x `width` is
/// computed on its channels' flattened images.
bool flatDepthwisePays(int64_t channels, int64_t height, int64_t width,
                       int64_t vectorBits);

/// aotc-vectorize-convolutions: true when a windowed op without channel
/// rows (a pool, an im2col, a depthwise convolution) whose output rows are
/// `width` wide is split at the row's last whole register of `lanes`.
/// `ownInits`: the op has an activation or an init other than a fill fused
/// into its register tiles, which each part then computes too.
bool partialRowSplitPays(int64_t width, int64_t lanes, bool ownInits);

/// aotc-peel-padded-windows: true when windows cut to their taps make few
/// enough parts (`parts`) to compute them so, rather than strips reading
/// padded copies.
bool clipsWindowsInto(size_t parts);

/// aotc-peel-padded-windows: true when a peel pays for an op whose rows of
/// lanes hold `rowOutputs`, `borderOutputs` of them in the border strips
/// (their windows read the padding), its window `taps` wide along them;
/// `columnPhases`: the op can take the column phases of its thread tiles
/// instead (aotc-split-tile-phases). Else the op takes the direct path on
/// an input padded in each thread tile.
bool peeledRowsPay(int64_t borderOutputs, int64_t rowOutputs, int64_t taps,
                   bool columnPhases);

/// aotc-split-tile-phases: true when a windowed op whose window reads the
/// columns of its input at `stride` with `dilation`, `taps` columns wide,
/// is computed on the column phases of the buffer that each thread tile
/// pads its input in.
bool tileColumnPhasesPay(int64_t stride, int64_t dilation, int64_t taps);

/// aotc-clip-padded-taps: true when computing a windowed op tap run by tap
/// run, in `parts` parts, pays: only `reading` of its `products` (outputs
/// x taps) read the unpadded input, the others padding.
bool clippedTapsPay(int64_t products, int64_t reading, size_t parts);

} // namespace aotc

#endif // AOTC_CPU_STRATEGY_CONVOLUTIONRULES_H
