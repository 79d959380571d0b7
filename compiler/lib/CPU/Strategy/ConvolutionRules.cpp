//===- ConvolutionRules.cpp - When a convolution path pays ----*- C++ -*-===//
//
// This file implements the profitability rules of the CPU convolution
// paths (ConvolutionRules.h): each constant with what it trades.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/ConvolutionRules.h"
#include "aotc/Common/TilingUtils.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace aotc;

//===----------------------------------------------------------------------===//
// aotc-im2col-convolutions
//===----------------------------------------------------------------------===//

namespace {

/// Largest filter block of one panel of output channels (every reduced
/// element's lanes, f32) that the direct paths (channel lanes, the
/// flattened image) read again for every row of register tiles; above it
/// im2col's contraction, which blocks the reduction, is taken. A fixed
/// size, not a share of the L2: with a 2 MiB L2 the direct path still lost
/// on DeepLabV3's rate-12 atrous convolution, 960 input channels x 3 x 3,
/// 1.1 MB per panel of 32, read again for each of its 14 rows.
constexpr int64_t kMaxDirectFilterBytes = 768 * 1024;

/// True when the filter block of one panel exceeds kMaxDirectFilterBytes.
bool streamsFilter(int64_t reduction, int64_t vectorBits) {
  int64_t panelLanes =
      kContractionRegistersPerRow * registerLanes(vectorBits, 32);
  return reduction * panelLanes * 4 > kMaxDirectFilterBytes;
}

/// Smallest reduction (input channels x window) and number of output
/// channels per group for which the copy pays: below them (depthwise
/// convolutions, a single input channel) the direct convolution is kept.
constexpr int64_t kMinIm2colReduction = 8;
constexpr int64_t kMinIm2colOutputChannels = 8;
/// A stride-1 convolution whose flattened-image grid computes at least
/// kWastedGridNumerator / kWastedGridDenominator times its outputs (1.2: a
/// 13 x 13 image, 15 grid rows of 16 for 169 outputs; 14 x 14, 240 for 196)
/// takes the copy when its image has at least kMinCopiedImage outputs, the
/// rows of the contraction (7 x 7 stays direct: 49 rows are six register
/// tiles and a one-row remainder). With 512-bit registers the copy repays
/// its cost on 13 x 13 and 14 x 14 images, not on a grid that wastes less
/// (28 x 28: 1.10 times its outputs). With narrower ones (AVX2) the
/// threshold is 1.25 (kNarrowWastedGrid*): there 14 x 14 runs better
/// direct, in 4 x 3 register tiles, and so does 7 x 7. Convolutions with
/// enough channels reach this pass only when aotc-channel-lane-convolutions
/// left them: ResNet-18's 7 x 7 x 512 ones no longer do with 512-bit
/// registers.
constexpr int64_t kWastedGridNumerator = 6;
constexpr int64_t kWastedGridDenominator = 5;
constexpr int64_t kNarrowWastedGridNumerator = 5;
constexpr int64_t kNarrowWastedGridDenominator = 4;
constexpr int64_t kMinCopiedImage = 128;
/// A strided convolution whose column tensor holds at least this many
/// copies of each input element it reads (window elements per stride area:
/// 12.25 for ResNet's 7 x 7 stride-2 stem, 2.25 for a 3 x 3 stride-2 layer)
/// is computed directly (aotc-vectorize-convolutions' windowed path): the
/// stem's 147 x 12544 columns (7.4 MB, far beyond L2) cost a copy and a
/// contraction reading them from memory, more than the direct convolution
/// takes. The 3 x 3 stride-2 stems of squeezenet1_1 and mobilenet_v2 stay
/// copied: computed directly, they are no faster. Only when the direct
/// path's vectors along an output row hold at least half a register
/// (kMinDirectRowLanesDivisor): its lanes are the largest divisor of the
/// row's width up to a register, so a 109-wide row (prime) would be
/// computed one lane at a time.
constexpr int64_t kMaxWindowCopies = 8;
constexpr int64_t kMinDirectRowLanesDivisor = 2;

/// True when the flattened-image grid of the stride-1 convolution `op`
/// wastes enough for the copy to pay (see kWastedGridNumerator).
bool wastefulGrid(linalg::GenericOp op, int64_t vectorBits) {
  auto xType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!xType || !outType || !xType.hasStaticShape() ||
      !outType.hasStaticShape() || !convolutionChannelRowLoop(op))
    return false;
  int64_t bits = outType.getElementTypeBitWidth();
  int64_t lanes = registerLanes(vectorBits, bits);
  int64_t rank = outType.getRank();
  int64_t height = outType.getDimSize(rank - 2);
  int64_t outputs = height * outType.getDimSize(rank - 1);
  int64_t grid = convolutionGridLength(
      height, outType.getDimSize(rank - 1),
      xType.getDimSize(xType.getRank() - 1), lanes, vectorBits);
  auto [numerator, denominator] =
      vectorBits >= 512
          ? std::pair(kWastedGridNumerator, kWastedGridDenominator)
          : std::pair(kNarrowWastedGridNumerator, kNarrowWastedGridDenominator);
  return outputs >= kMinCopiedImage &&
         grid * denominator >= outputs * numerator;
}

} // namespace

bool aotc::im2colPays(linalg::GenericOp op, const ConvolutionLoops &conv,
                      int64_t vectorBits) {
  AffineMap xMap = op.getIndexingMapsArray()[0];
  AffineMap wMap = op.getIndexingMapsArray()[1];
  AffineMap oMap = op.getIndexingMapsArray()[2];
  // Enough work per copied element: not depthwise, more than one channel.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t reduction = ranges[conv.channels];
  for (unsigned k : conv.window)
    reduction *= ranges[k];
  int64_t outputChannels = 1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (wMap.isFunctionOfDim(d) && oMap.isFunctionOfDim(d) &&
        !xMap.isFunctionOfDim(d))
      outputChannels *= ranges[d];
  if (reduction < kMinIm2colReduction || outputChannels < kMinIm2colOutputChannels)
    return false;
  int64_t window = 1, strideArea = 1;
  for (auto [k, stride] : llvm::zip_equal(conv.window, conv.strides)) {
    window *= ranges[k];
    strideArea *= stride;
  }
  int64_t lanes = registerLanes(vectorBits, 32);
  int64_t rowLanes =
      largestDivisorAtMost(ranges[conv.image.back()], lanes);
  if (strideArea > 1 && window >= kMaxWindowCopies * strideArea &&
      rowLanes * kMinDirectRowLanesDivisor >= lanes)
    return false;
  // Stride-1 windows are computed directly on the flattened image
  // (aotc-flatten-convolution-images), which reads each input row where the
  // copy would write it kh x kw times.
  if (isFlatImageConvolution(op, conv) &&
      llvm::any_of(conv.window, [&](unsigned k) { return ranges[k] > 1; }) &&
      !wastefulGrid(op, vectorBits) &&
      !streamsFilter(reduction, vectorBits))
    return false;
  return true;
}


//===----------------------------------------------------------------------===//
// aotc-channel-lane-convolutions
//===----------------------------------------------------------------------===//

namespace {

/// Fewest reduced elements (input channels x window) per output for which
/// the blocked path pays: the result is transposed back to NCHW once, an
/// extra pass over the output that a shallow reduction does not repay:
/// ResNet-18's 3x3 stride-2 layers (576 to 2304 elements) gain on im2col,
/// its 1x1 stride-2 ones (64 and 256) and the stems (147, 27) do not.
constexpr int64_t kMinChannelLaneReduction = 512;

/// Below kMinChannelLaneReduction, a convolution over at most this many
/// input channels (an image's RGB) is computed straight into its NCHW
/// output, its register tiles stored transposed (the same stores as the
/// blocked layout's, plus shuffles), rather than copied by im2col
/// (MobileNetV2's stem: 27 x 12544 columns, 1.35 MB, a quarter of its time)
/// or read through stride phases.
constexpr int64_t kMaxDirectInputChannels = 4;
/// ... with registers of at least this many bits: its 8 x 32 tiles are
/// transposed as 16 x 16 squares (aotc-lower-vector-ops); AVX2's 6 x 16
/// ones would move element by element.
constexpr int64_t kMinDirectVectorBits = 512;
/// ... and, on output rows split into register tiles and a remainder part
/// (channelLaneRowBulk), over at least this many reduced elements: each of
/// the remainder's 32 rows of lanes is stored as narrow pieces. A 7x7 stem
/// over 3 channels on 109-pixel rows (147 elements) took 0.63x the time of
/// the im2col path, a 5x5 one on 110 (75) 0.85x, a 3x3 one on 111 or 149
/// (27) 1.16x-1.28x.
constexpr int64_t kMinDirectSplitReduction = 64;

} // namespace

std::optional<ChannelLaneForm>
aotc::channelLaneForm(int64_t inputChannels, int64_t reduction, int64_t width,
                      bool grouped, VectorRegisters registers) {
  if (streamsFilter(reduction, registers.bits))
    return std::nullopt;
  // A grouped convolution is blocked whatever its reduction: the other
  // paths copy each group's windows (im2col: 9 copies of the input for a
  // 3x3 window) for a contraction over the group's few output channels,
  // where a register tile reads the input in place. Groups of 16 channels
  // (RegNet-X's, ResNeXt's third stage), 3x3, in one register of lanes:
  // 0.73x-0.90x the time of im2col at 7 x 7 and 14 x 14, 0.77x-0.99x at
  // stride 2; ResNeXt's groups of 32 at 7 x 7: 0.80x.
  std::optional<ChannelLaneForm> blocked =
      grouped ? std::optional(ChannelLaneForm::Blocked) : std::nullopt;
  bool direct = reduction < kMinChannelLaneReduction;
  if (direct && (inputChannels > kMaxDirectInputChannels ||
                 registers.bits < kMinDirectVectorBits))
    return blocked;
  // A row that register tiles do not divide is split into tiles and a
  // remainder part (channelLaneRowBulk); straight into NCHW only over a
  // reduction that repays the remainder's rows of lanes stored as narrow
  // pieces.
  if (direct && reduction < kMinDirectSplitReduction &&
      channelLaneRowBulk(width, registers) != width)
    return blocked;
  return direct ? ChannelLaneForm::Direct : ChannelLaneForm::Blocked;
}

int64_t aotc::channelLaneBlock(int64_t outputChannels, bool grouped,
                               VectorRegisters registers) {
  // One contraction register tile's row of lanes; a group's channels that
  // fill one register only (RegNet-X's 16 with 512-bit registers) take one
  // register per pixel, tiles of half the accumulators.
  int64_t lanes = registerLanes(registers.bits, 32);
  int64_t block = kContractionRegistersPerRow * lanes;
  if (outputChannels % block == 0)
    return block;
  return grouped && outputChannels % lanes == 0 ? lanes : 0;
}

int64_t aotc::planeSlackRows(int64_t planes, int64_t planeBytes,
                             const CpuTarget &target) {
  // A register tile reads one window position of every input channel in
  // turn: lines planeBytes apart, which fall into stride / gcd(planeBytes,
  // stride) of L2's sets. Past half its ways each (the rest holds the
  // filter block and the output) they evict each other before the next
  // tile reads them again (fcn_resnet50's dilation-2 3x3 over 512 channels
  // on 32 x 32 padded planes, 4 KiB apart: 78 ms; one more row, 39 ms; over
  // 256 channels, 8 lines a set, the extra row is 6% slower).
  int64_t stride = target.l2SetStride();
  if (planeBytes <= 0 || stride <= 0)
    return 0;
  int64_t sets = std::min(stride / target.lineBytes,
                          stride / std::gcd(planeBytes, stride));
  return sets > 0 && planes > sets * target.l2Ways / 2 ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// aotc-channel-lane-convolutions (depthwise)
//===----------------------------------------------------------------------===//

namespace {

/// Widest window (taps along a dimension) that the paths on NCHW rows
/// compute well: aotc-vectorize-convolutions unrolls up to 3 taps
/// (kMaxUnrolledWindow), and aotc-peel-padded-windows cuts a 3-tap window
/// with padding 1 into 3 x 3 parts; a 5-tap one makes 6 x 6, most of them
/// one row or column of outputs read across channels.
constexpr int64_t kMaxRowWindow = 3;

} // namespace

bool aotc::depthwiseLanesPay(ArrayRef<int64_t> window,
                             ArrayRef<int64_t> strides, int64_t width,
                             int64_t vectorBits) {
  // Stride 1, a window wider than kMaxRowWindow, on output rows narrower
  // than a register (14 x 14 and 7 x 7 images with 16 lanes): on NCHW rows
  // such a convolution computed 10- or 14-lane vectors in 36 parts, 2.7x
  // the time of the blocked one (MnasNet's 5x5 layers on 480 channels at
  // 14 x 14). With wider rows the two transposes, half the blocked time,
  // leave little gain (28 x 28 x 240 alone: 0.86x-0.93x the time, not
  // measured in whole models); stride 2 lost (1.15x-1.2x).
  return llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
         llvm::any_of(window,
                      [](int64_t taps) { return taps > kMaxRowWindow; }) &&
         width < registerLanes(vectorBits, 32);
}


//===----------------------------------------------------------------------===//
// aotc-vectorize-convolutions
//===----------------------------------------------------------------------===//

bool aotc::partialRowSplitPays(int64_t width, int64_t lanes, bool ownInits) {
  if (width <= lanes || width % lanes == 0)
    return false;
  // Whole, the row's vectors are its largest divisor up to a register (a
  // 17-wide row: one lane; 35: seven). Split, a row is whole registers and
  // one part register; an op with its own init and activation is split
  // only when its vectors whole would hold less than half a register (as
  // kMinDirectRowLanesDivisor), since each part computes them apart.
  return !ownInits ||
         largestDivisorAtMost(width, lanes) * kMinDirectRowLanesDivisor <
             lanes;
}

//===----------------------------------------------------------------------===//
// aotc-winograd-convolutions
//===----------------------------------------------------------------------===//

namespace {

/// Fewest output tiles (the contractions' columns): each transformed filter
/// element is used once per tile, and the transformed filter is 16/9 the
/// size of the filter. With few tiles the transformed filters are streamed
/// from memory for little reuse (ResNet-18's 7 x 7 layers: 512 channels,
/// 16 tiles of 8 x 8 for 7 x 7, 16.8 MB of them per layer), which the
/// saved multiplications barely repay, for 7 MB more object per layer.
constexpr int64_t kMinWinogradTiles = 32;

/// Fewest input channels for output channels as the contractions' lanes
/// (winogradChannelsLast): only with many input channels do the
/// contractions save more than the transposed output transform costs
/// (resnet18's 256 channels at 14 x 14 do, squeezenet1_1's 48 and 64 at
/// 13 x 13 do not).
constexpr int64_t kMinChannelsLast = 128;

} // namespace

bool aotc::winogradPays(int64_t inputChannels, int64_t outputChannels,
                        int64_t tiles, int64_t minChannels) {
  return inputChannels >= minChannels && outputChannels >= minChannels &&
         tiles >= kMinWinogradTiles;
}

int64_t aotc::winogradOutputTile(int64_t inputChannels, int64_t outputChannels,
                                 int64_t height, int64_t width,
                                 int64_t minChannels, int64_t maxTile,
                                 int64_t phases) {
  // The largest tile whose tiles alone are enough to pay: F(4x4, 3x3) makes
  // 36 multiplications per 16 outputs (2.25 each, F(2x2, 3x3) 4), from a
  // 6 x 6 transformed tile per 4 x 4 outputs (2.25 inputs per output
  // against 4), but it pads an image to whole 4 x 4 tiles and its
  // transformed filter is 36/9 of the filter, reused once per tile (of
  // every phase image: a dilated convolution's phases share the filter).
  for (int64_t tile : {4, 2})
    if (tile <= maxTile &&
        winogradPays(inputChannels, outputChannels,
                     phases * llvm::divideCeil(height, tile) *
                         llvm::divideCeil(width, tile),
                     minChannels))
      return tile;
  return 0;
}

bool aotc::winogradPhasesPay(int64_t height, int64_t width, int64_t dilationH,
                             int64_t dilationW) {
  // Phases of one size cover ceil(H / dh) * dh rows: at most a quarter more
  // outputs than the image, for which Winograd's 2.25x fewer products (2 x 2
  // tiles, at least) still pay; an atrous layer dilated nearly as far as
  // its image is wide would compute mostly padding.
  int64_t covered = llvm::alignTo(height, dilationH) *
                    llvm::alignTo(width, dilationW);
  return (covered - height * width) * 4 <= height * width;
}

bool aotc::winogradChannelsLast(int64_t tiles, int64_t paddedTiles,
                                int64_t outputChannels, int64_t panelLanes,
                                int64_t inputChannels) {
  // Whole registers of tiles would waste more than an eighth of the
  // contractions (49 tiles of a 14 x 14 image: 64 columns on AVX-512, 31%
  // more multiply-adds).
  return (paddedTiles - tiles) * 8 > tiles &&
         outputChannels % panelLanes == 0 && inputChannels >= kMinChannelsLast;
}

//===----------------------------------------------------------------------===//
// aotc-flatten-convolution-images (depthwise)
//===----------------------------------------------------------------------===//

namespace {

/// Most vector registers of output pixels (H * W) for which a depthwise
/// convolution is computed on flattened images: one output row of a
/// channel is then one vector (aotc-tile-and-vectorize's whole-row rule).
constexpr int64_t kMaxFlatDepthwiseRegisters = 4;
/// Fewest channels: the path was measured on MobileNet's layers of 96 to
/// 960 channels; one or two channels stay on the peeled path.
constexpr int64_t kMinFlatDepthwiseChannels = 3;

} // namespace

bool aotc::flatDepthwisePays(int64_t channels, int64_t height, int64_t width,
                             int64_t vectorBits) {
  // Rows narrower than one register (MobileNetV2's 7 x 7 layers: its peeled
  // interior is 5 lanes wide).
  int64_t lanes = registerLanes(vectorBits, 32);
  return channels >= kMinFlatDepthwiseChannels && width < lanes &&
         height * width <= kMaxFlatDepthwiseRegisters * lanes;
}

//===----------------------------------------------------------------------===//
// aotc-peel-padded-windows
//===----------------------------------------------------------------------===//

namespace {

/// Most parts an op is computed in when its windows are cut to their taps
/// (3 x 3 for a 3x3 window with padding 1 on both sides, up to 6 x 6 for a
/// 5x5 window with padding 2 and a rest of lanes; a 7x7 window with padding
/// 3 would make 7 x 7 or more): beyond, the strips read padded copies.
constexpr size_t kMaxClippedParts = 36;

/// The share of an op's products that must read padding for its taps to be
/// computed apart (aotc-clip-padded-taps): at least half. The parts are
/// smaller ops, each reading and writing its outputs again, so a small
/// saving does not repay them; DeepLabV3's rate-12 atrous convolution on a
/// 14 x 14 map reads the input in 18% of its products, and computed apart
/// (nine 1x1 convolutions) takes 0.15x the time.
constexpr int64_t kMinPaddedProductsNumerator = 1;
constexpr int64_t kMinPaddedProductsDenominator = 2;

/// Most outputs per row, in tenths, in the border strips along a row of
/// lanes for a peel to pay: those strips are computed a lane at a time
/// (each lane a load of its own), the interior in whole vectors. Times of
/// MnasNet's depthwise layers in the model (1 thread), peeled against the
/// direct path on an input padded in each thread tile: 5x5 on 28 x 28 (4
/// of 28 border columns) 71 against 47 us; stride 2 to 7 x 7 (2 of 7) 48
/// against 46, to 14 x 14 (2 of 14) 60 against 64; to 28 x 28 (2 of 28)
/// 53 against 70, 3x3 windows on 56 x 56 (2 of 56) 32 against 46.
constexpr int64_t kMaxPeeledBorderTenths = 1;

} // namespace

bool aotc::clipsWindowsInto(size_t parts) { return parts <= kMaxClippedParts; }

bool aotc::peeledRowsPay(int64_t borderOutputs, int64_t rowOutputs,
                         int64_t taps, bool columnPhases) {
  // A window wider than kMaxRowWindow that can take the column phases of
  // its thread tiles (aotc-split-tile-phases): the peeled interior gathers
  // each of its taps
  // from strided input; one depthwise layer alone, 1 thread, peeled against
  // direct on phases: 5x5 stride 2 on 72 x 56 x 56 61 against 36 us, on
  // 144 x 56 x 56 122 against 86. 3x3 windows stay peeled (96 x 112 x 112:
  // 83 against 147 us, 144 x 56 x 56: 42 against 57).
  if (taps > kMaxRowWindow && columnPhases)
    return false;
  return borderOutputs * 10 < rowOutputs * kMaxPeeledBorderTenths;
}

bool aotc::tileColumnPhasesPay(int64_t stride, int64_t dilation,
                               int64_t taps) {
  // Stride 2 gathers each tap's register of lanes from two (two loads and
  // a shuffle); on the phases each tap is one load, for one deinterleave
  // per two registers of the buffer. A single column would read one phase
  // of the two written.
  return stride == kColumnPhases && dilation == 1 && taps >= 2;
}

bool aotc::clippedTapsPay(int64_t products, int64_t reading, size_t parts) {
  return parts <= kMaxClippedParts &&
         (products - reading) * kMinPaddedProductsDenominator >=
             products * kMinPaddedProductsNumerator;
}
