//===- ConvolutionUtils.h - Matching the importer's convolutions -*- C++ -*-===//
//
// This file declares the matcher of convolution generics in the importer's
// NCHW form, shared by the passes that pick a convolution strategy
// (aotc-im2col-convolutions, aotc-flatten-convolution-images), and the
// reassociation that collapses an image (also aotc-pointwise-conv-to-matmul).
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_CONVOLUTIONUTILS_H
#define AOTC_TRANSFORMS_CONVOLUTIONUTILS_H

#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aotc {

/// A window access `image * stride + window * dilation` of an indexing map
/// (loops image and window; stride and dilation positive constants, either
/// product optional).
struct WindowAccess {
  unsigned image, window;
  int64_t stride, dilation;
};

/// `expr` as a window access; none for any other expression.
std::optional<WindowAccess> matchWindow(mlir::AffineExpr expr);

/// The column stride that aotc-split-stride-phases and
/// aotc-split-tile-phases remove: the columns as this many phases, window
/// column kw = kColumnPhases * q + p reading phase p at column ow + q.
inline constexpr int64_t kColumnPhases = 2;

/// The window columns of a window `taps` wide that read phase `phase`:
/// phase, phase + kColumnPhases, ...
inline int64_t phaseTaps(int64_t taps, int64_t phase) {
  return (taps - phase + kColumnPhases - 1) / kColumnPhases;
}

/// The loops of a convolution generic in the importer's NCHW form: loops
/// (outer..., o..., c, k...), input map (outer..., c, o * s + k * d...),
/// filter map (..., c, k...), output map (..., o...), with o the image
/// loops (parallel), k the window loops and c the reduced input channels
/// (reductions). `strides` and `dilations` are s and d per image dim.
struct ConvolutionLoops {
  llvm::SmallVector<unsigned> image, window;
  llvm::SmallVector<int64_t> strides, dilations;
  unsigned channels = 0;
};

/// The loops of `op` (two inputs, one init, static shapes, tensor semantics,
/// no linalg.index) as a convolution; none for any other op. The body is
/// not looked at.
std::optional<ConvolutionLoops>
matchNchwConvolution(mlir::linalg::GenericOp op);

/// Output channels (accumulator rows) of a convolution's register tile at
/// most (aotc-vectorize-convolutions), whatever the register width.
constexpr int64_t kConvolutionChannelRows = 8;

/// The output-channel loop of a convolution over input channels: a
/// parallel loop of the output and the filter, not of the windowed input
/// (operand 0), when some reduction loop of the filter indexes the input
/// directly (input channels; not a depthwise convolution or a pool). Each
/// input vector then serves one register row per output channel.
/// None for a convolution whose channels are its lanes
/// (convolutionChannelLaneLoop).
std::optional<unsigned>
convolutionChannelRowLoop(mlir::linalg::LinalgOp op);
/// The output-channel loop of a convolution over input channels computed
/// with output channels as lanes (aotc-channel-lane-convolutions): the
/// innermost loop of the filter, which the output reads too (innermost in
/// a blocked layout, after the channel blocks in an NCHW one), a parallel
/// loop the windowed input (operand 0) does not read, when some reduction
/// loop of the filter indexes the input directly. Each filter row of lanes
/// then serves one register per output pixel of the tile.
std::optional<unsigned> convolutionChannelLaneLoop(mlir::linalg::LinalgOp op);
/// The pixel loop of such a convolution's register tiles: the output's
/// innermost loop but the lanes.
std::optional<unsigned>
convolutionChannelLanePixelLoop(mlir::linalg::LinalgOp op);

/// Grid rows (registers of lanes along the output dimension next to the
/// lanes, the rows of a flattened image) per register tile of a
/// convolution over input channels whose tile has `rows` of them. With 32
/// registers (AVX-512, Neon): three when they divide evenly (x 8
/// output channels = 24 accumulators), else four (x 4 channels: each filter
/// broadcast serves 4 FMAs where 8 x 2 serves 2, as on 7x7 images), else
/// two (x 8), else one. With 16 registers (AVX2, SSE): three
/// (x 4 channels: 12 accumulators, 3 input vectors, a broadcast; each
/// broadcast serves 3 FMAs and each input vector 4, where 8 x 1 loaded 9
/// vectors for 8 FMAs), else two (x 4), else one (x 8).
int64_t convolutionRegisterRows(int64_t rows, VectorRegisters registers);

/// Output channels (at most) of a register tile of `registerRows` grid
/// rows (convolutionRegisterRows): with 32 registers 4 with 4 rows, else
/// 8; with 16, 4 with more than one row, else 8.
int64_t convolutionRegisterChannels(int64_t registerRows,
                                    VectorRegisters registers);

/// Grid rows of a convolution over input channels on a flattened image whose
/// output needs `rows` of them: with 512-bit registers a multiple of three
/// (register tiles of 3 rows load each filter broadcast for 3 FMAs, of 2 rows
/// for 2) unless that pads more than an eighth beyond the next even count
/// (whatever the register width).
int64_t convolutionGridRows(int64_t rows, int64_t vectorBits);

/// True when a convolution over input channels whose output is `height` x
/// `width`, read from input rows `paddedWidth` wide with `lanes` elements
/// per register, is computed on a row-aligned grid: one register of lanes
/// per output row (grid element (r, l) is output (r, l), its window at flat
/// input r * paddedWidth + l + kh * d * paddedWidth + kw * d) instead of
/// the flat grid of whole registers over height * paddedWidth elements.
/// Taken when the rows fit one register, the padded rows do not, and the
/// grid is smaller: 7 x 7 on AVX2 computes 56 outputs for 49 instead of
/// 72.
bool isRowAlignedGrid(int64_t height, int64_t width, int64_t paddedWidth,
                      int64_t lanes, int64_t vectorBits);

/// Elements of the grid (aotc-flatten-convolution-images) of a convolution
/// over input channels whose output is `height` x `width` read from input
/// rows `paddedWidth` wide, with `lanes` elements per register: height *
/// lanes for a row-aligned grid (isRowAlignedGrid), else whole registers
/// over the flattened image, convolutionGridRows of them.
int64_t convolutionGridLength(int64_t height, int64_t width,
                              int64_t paddedWidth, int64_t lanes,
                              int64_t vectorBits);

/// True when `op`, a convolution over input channels
/// (convolutionChannelRowLoop), is computed on a row-aligned grid: some
/// result of its windowed input's map steps by more along the grid rows
/// (the output's second innermost loop) than the lanes (its innermost loop)
/// span.
bool isRowAlignedConvolution(mlir::linalg::LinalgOp op);

/// The multiple that thread tiles of `rows` such grid rows keep, so every
/// thread tile holds whole register tiles: 3, 4, 2 or 1, the first that
/// divides `rows`.
int64_t convolutionThreadRowMultiple(int64_t rows);

/// True when aotc-flatten-convolution-images computes `op` (matched as
/// `conv`) on its flattened padded image: a 2-D, stride-1 convolution of a
/// function body (not inside the loops of aotc-tile-symbolic-dims, since
/// the flat buffers must be plannable function-level allocations) on ints
/// or floats.
bool isFlatImageConvolution(mlir::linalg::GenericOp op,
                            const ConvolutionLoops &conv);

/// True when `op`'s payload is out + in0 * in1 on f32 (a convolution's
/// multiply-accumulate; the product's operands in either order).
bool isMultiplyAccumulate(mlir::linalg::GenericOp op);

/// The leading `shape` part of `value` (an extract_slice from 0 with unit
/// strides; `value` itself when it has that shape).
mlir::Value leadingSlice(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, llvm::ArrayRef<int64_t> shape);

/// Reassociation of a rank-`rank` shape that collapses its trailing
/// `count` dims into one (the others stay single groups): an image into
/// one dimension.
llvm::SmallVector<mlir::ReassociationIndices> collapseTrailing(int64_t rank,
                                                               int64_t count);

/// A padded tensor: `source` with `low` and `high` elements of `value`
/// before and after it along each dimension.
struct Padding {
  mlir::Value source, value;
  llvm::SmallVector<int64_t> low, high;
};

/// `padded` as a padded tensor: a tensor.pad with static sizes and a
/// constant value, or what aotc-decompose-ops makes of one (the source
/// inserted with unit strides into a linalg.fill of the value).
std::optional<Padding> matchPadding(mlir::Value padded);

/// The low and high padding per dimension of `expand`'s result (the padded
/// tensor's own dimensions without `expand`); none when `expand` splits a
/// padded dimension.
std::optional<llvm::SmallVector<std::pair<int64_t, int64_t>>>
paddingOfInput(const Padding &padding, mlir::tensor::ExpandShapeOp expand);

/// The source of `padding` as a tensor of the rank of `paddedType` (the
/// padded tensor through `expand` when not null), and its `lowHigh`
/// padding (paddingOfInput) as index attributes in `low` and `high`: the
/// operands of a tensor.pad that makes `paddedType` again.
mlir::Value unpaddedSource(mlir::OpBuilder &b, mlir::Location loc,
                           const Padding &padding,
                           mlir::tensor::ExpandShapeOp expand,
                           mlir::RankedTensorType paddedType,
                           llvm::ArrayRef<std::pair<int64_t, int64_t>> lowHigh,
                           llvm::SmallVectorImpl<mlir::OpFoldResult> &low,
                           llvm::SmallVectorImpl<mlir::OpFoldResult> &high);

/// The padded copy that a windowed op reads as its input 0, as
/// aotc-decompose-ops makes it: `insert` of the source into `fill` (of an
/// empty tensor), read by the op alone, directly or through `expand` (null
/// when none), an expand_shape that splits no padded dimension; `lowHigh`
/// is the padding of the op's input (paddingOfInput).
struct PaddedCopy {
  Padding padding;
  mlir::tensor::ExpandShapeOp expand;
  mlir::tensor::InsertSliceOp insert;
  mlir::linalg::FillOp fill;
  llvm::SmallVector<std::pair<int64_t, int64_t>> lowHigh;
};

/// `op`'s input 0 as a padded copy that aotc-distribute-to-forall can pad
/// in each thread tile instead; none when it is not one.
std::optional<PaddedCopy> matchPaddedCopy(mlir::linalg::LinalgOp op);

} // namespace aotc

#endif // AOTC_TRANSFORMS_CONVOLUTIONUTILS_H
