//===- TilingUtils.h - Helpers shared by the tiling passes ---*- C++ -*-===//
//
// This file declares the small helpers the thread-level and register-level
// tiling passes share: static tile sizes from divisors, and tiling a linalg
// op with scf.for or scf.forall loops.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_TILINGUTILS_H
#define AOTC_TRANSFORMS_TILINGUTILS_H

#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

namespace aotc {

/// Records the ops a rewriter erases, for loops over a list of ops that
/// their own rewrites may erase (skip those: their memory is freed).
struct ErasedOps : mlir::RewriterBase::Listener {
  void notifyOperationErased(mlir::Operation *op) override { ops.insert(op); }
  llvm::DenseSet<mlir::Operation *> ops;
};

/// Vector registers per row of a contraction's register tile.
constexpr int64_t kContractionRegistersPerRow = 2;

/// Largest scratch buffer of one thread tile, allocated in the body of its
/// thread loop: it lives on the thread's stack (aotc-plan-memory), not in
/// the pool.
constexpr int64_t kMaxTileScratchBytes = 64 * 1024;

/// The divisor of min-work for ops without reduction loops (a copy, a fill, a
/// transform's rows, an activation), which are threaded from a quarter of
/// min-work iterations in a function with threaded ops
/// (aotc-distribute-to-forall): left sequential between threaded ops, each
/// splits the parallel region around it in two (a fork and join more, the other
/// threads idle meanwhile). With copies threaded from 8192 elements too
/// (aotc-lower-copies), SqueezeNet's 13 x 13 and 27 x 27 Winograd input
/// transforms, pads and output copies run in the regions of their neighbours:
/// 10 parallel regions per inference instead of 15, and far less sequential
/// time between them.
constexpr int64_t kNonReducingMinWorkDivisor = 4;

/// Largest scratch buffer of one thread tile beyond kMaxTileScratchBytes: a
/// slot of the pool per thread (aotc-plan-memory, aotc-partition-omp-loops),
/// which each thread reuses for all its tiles. Three quarters of the L2, so
/// that the slot and the blocks the tile computes with stay in it (768 KiB
/// of a 1 MiB L2: tiles of 1 MiB of panels, as GEMM 1024^3's, fall out of
/// it and lose to one copy of all the panels).
inline int64_t maxThreadSlotBytes(const CpuTarget &target) {
  return target.l2Bytes * 3 / 4;
}
/// Alignment of each such slot (a cache line).
constexpr int64_t kThreadSlotAlignment = 64;

/// Rows a multiple of the L1 set stride apart (CpuTarget::l1SetStride: 4 KiB,
/// 32 KiB over 8 ways) all fall into one L1 set: a register tile's rows
/// that far apart compete for the set's ways.

/// Widest element type of `op`'s operands in bits (at least 8); 0 when some
/// operand holds i1 (vectors of i1 are bit-packed in memory, unlike scalar
/// i1 which take a byte each) or is not an integer or float: such ops are
/// left to the scalar loop path.
unsigned widestElementBits(mlir::linalg::LinalgOp op);

/// Lanes of a `vectorBits`-wide register holding `elementBits`-bit elements
/// (at least one).
inline int64_t registerLanes(int64_t vectorBits, int64_t elementBits) {
  return std::max<int64_t>(1, vectorBits / elementBits);
}

/// Registers of a contraction's register tile that hold no accumulator:
/// the row of loaded right-hand side registers and two broadcasts of
/// left-hand side elements in flight.
constexpr int64_t kContractionSpareRegisters = kContractionRegistersPerRow + 2;
/// Most accumulator rows of a contraction's register tile: 8, the tile the
/// AVX-512 strategy was measured with (8 x 2 of its 32 registers); a larger
/// file does not get taller tiles, whose row remainders on images (49, 196
/// pixels) grow.
constexpr int64_t kMaxContractionRows = 8;

/// Accumulator rows of a contraction's register tile on `registers`: as
/// many rows of kContractionRegistersPerRow accumulators as the file holds
/// beside kContractionSpareRegisters, at most kMaxContractionRows. 32
/// registers (AVX-512, AArch64's Neon) give 8 rows; 16 (AVX2, SSE) give 6:
/// 8 x 2 accumulators spilled to the stack on every reduction step there.
inline int64_t contractionRows(VectorRegisters registers) {
  return std::clamp<int64_t>(
      (registers.count - kContractionSpareRegisters) /
          kContractionRegistersPerRow,
      1, kMaxContractionRows);
}

/// The largest divisor of `size` that is <= `limit` (at least 1): tiles of
/// that size keep every tile's shape static.
inline int64_t largestDivisorAtMost(int64_t size, int64_t limit) {
  for (int64_t d = std::min(size, limit); d > 1; --d)
    if (size % d == 0)
      return d;
  return 1;
}

/// Rows of a contraction's register tile for `rows` rows: contractionRows,
/// or a divisor of `rows` at most a quarter smaller when it has one (49
/// pixels of a 7 x 7 image with 8-row tiles: seven tiles of 7 rows instead of
/// six of 8 and a one-row remainder, whose two accumulators wait on each
/// other's FMAs).
inline int64_t contractionRowTile(int64_t rows, VectorRegisters registers) {
  int64_t tile = contractionRows(registers);
  if (rows <= tile || rows % tile == 0)
    return std::min(rows, tile);
  int64_t d = largestDivisorAtMost(rows, tile);
  return d >= tile - tile / 4 ? d : tile;
}

/// Pixels (register rows) of a register tile of a convolution with output
/// channels as lanes (aotc-channel-lane-convolutions) whose output rows are
/// `width` pixels: the largest divisor of `width` up to contractionRowTile.
inline int64_t channelLaneRowTile(int64_t width, VectorRegisters registers) {
  return largestDivisorAtMost(width, contractionRowTile(width, registers));
}

/// The pixels of output rows `width` wide that such register tiles cover
/// before a remainder part of its own (aotc-vectorize-convolutions splits
/// the rows there): `width` when channelLaneRowTile gives tiles of at least
/// three-quarters of contractionRows (or the whole row); else the most
/// pixels covered by tiles of t pixels that leave a remainder of r, both
/// between half of contractionRows and all of it, the largest t first (a
/// prime 109-pixel row: 13 tiles of 8 and a part of 5; 17: 2 of 6 and 5).
/// Some t and r always exist: t = half of contractionRows leaves one.
inline int64_t channelLaneRowBulk(int64_t width, VectorRegisters registers) {
  int64_t rows = contractionRows(registers);
  int64_t tile = channelLaneRowTile(width, registers);
  if (4 * tile >= 3 * rows || tile == width)
    return width;
  for (int64_t t = rows; 2 * t >= rows; --t) {
    // The remainder the t-pixel tiles leave, or one tile more of it.
    for (int64_t r = width % t + t; r >= width % t; r -= t)
      if (r <= rows && 2 * r >= rows && r < width)
        return width - r;
  }
  return width;
}

/// For each loop of `op`, whether an indexing map reads it through a mod,
/// floordiv or ceildiv (ONNX Tile reads its input at `d0 mod 2`). Tiling or
/// splitting such a loop in pieces longer than one iteration takes the
/// operand's slice between the expression's values at the piece's ends,
/// which these expressions do not bound: such loops stay whole.
llvm::SmallVector<bool> nonMonotonicLoops(mlir::linalg::LinalgOp op);

/// One dimension of a loop with static bounds and step.
struct StaticLoopDim {
  int64_t lowerBound, step, trips;
};

/// The dimensions of `loop` when its bounds and steps are static.
std::optional<llvm::SmallVector<StaticLoopDim>>
staticLoopDims(mlir::scf::ForallOp loop);

/// Iterations of `loop` when its bounds and steps are static.
std::optional<int64_t> staticTripCount(mlir::scf::ForallOp loop);

/// Tiles `op` with `tileSizes` (0: loop not tiled) using `loopType` loops,
/// nested in the order `interchange` gives (a permutation of the loops;
/// empty: the op's order), and replaces it; returns the tiled op, or failure
/// with a diagnostic on `op`.
mlir::FailureOr<mlir::Operation *>
tileAndReplace(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
               llvm::ArrayRef<int64_t> tileSizes,
               mlir::scf::SCFTilingOptions::LoopType loopType,
               llvm::ArrayRef<int64_t> interchange = {});

/// Tiles `op` with scf.for loops to `sizes` (one per loop), leaving untiled
/// every loop whose range the size already covers; returns the op that does
/// one tile (`op` itself when nothing needed tiling). The loops nest in the
/// op's order, but for a contraction whose right-hand side is in panels
/// (aotc-pack-contraction-operands) too big for the L1 cache and bigger
/// than the block of the rows' input: its panel loop goes outside its
/// register-tile row loop, so that each panel stays in L1 while the row
/// tiles sweep past it, and the smaller row block is what is read again
/// (aotc-channel-lane-convolutions' 7 x 7 layers of MobileNetV2: 4 panels x
/// 160 steps x 32 lanes = 80 KiB of weights, read again from L2 by each of
/// 7 row tiles in the op's order; 49 pixels x 160 steps = 31 KiB). With the
/// rows in panels too (a left-hand side [M / t, K, t]), it goes outside the
/// loop over row panels, unless the output rows it then sweeps down a
/// column of panels would share L1 sets more than the L1 has ways (rows a
/// multiple of 2 or 4 KiB apart).
mlir::FailureOr<mlir::Operation *>
tileToRegisterSizes(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                    llvm::ArrayRef<int64_t> sizes);

/// Bytes per reduction step of the rows' input block of a static
/// contraction whose register tiles read it again for each right-hand panel
/// (their panel loop outside the row loop, see tileToRegisterSizes); 0 when
/// the tiles loop in the op's order.
int64_t rereadRowBytesPerStep(mlir::linalg::LinalgOp op);

/// The (row, lane) loops of a contraction's register tile: lanes along the
/// loop of the output's innermost dimension (contiguous in memory), rows
/// along the innermost loop of the other operand's side (unit loops skipped
/// on both sides); none when `op` is not a contraction with M, N and K
/// loops.
std::optional<std::pair<unsigned, unsigned>>
contractionTileDims(mlir::linalg::LinalgOp op);

/// The panel loop of register-tile loop `inner` of a contraction with an
/// operand in panels (aotc-pack-contraction-operands), read as (...,
/// panel, k, inner): the loop just outside `inner`, of the same kind. For
/// the lane loop, the panels of a right-hand side; for the row loop, the
/// row panels of a left-hand side. None for any other op or loop.
std::optional<unsigned> contractionPanelLoop(mlir::linalg::LinalgOp op,
                                             unsigned inner);

/// The loops of a static contraction on memrefs (two inputs, one output,
/// every operand a statically shaped ranked memref, no linalg.index, one
/// region) grouped by the operands that index with them, each group in
/// loop order: batch (A, B and C; parallel), m (A and C; parallel), n (B
/// and C; parallel), k (A and B; reduction). None when some loop fits no
/// group.
struct ContractionLoops {
  llvm::SmallVector<unsigned> batch, m, n, k;
};
std::optional<ContractionLoops>
classifyStaticContractionLoops(mlir::linalg::LinalgOp op);

/// Vectorizes the static tile `tile` with the upstream linalg vectorizer and
/// replaces it; false (the op stays, lowered to loops later) when the
/// vectorizer rejects it.
bool vectorizeTile(mlir::RewriterBase &rewriter, mlir::Operation *tile);

/// True when `producer` can be computed tile by tile as the init of another
/// op: parallel loops only, one result, the identity output map, and a
/// payload that never reads its own init (a fill, a broadcast).
bool isTileableInitProducer(mlir::linalg::LinalgOp producer);

/// The parallel loops of `op` (other than its innermost loop, the lanes)
/// that index the innermost dimension of an input also read along the
/// lanes: transposed inputs, read in square register tiles along both
/// loops (aotc-tile-and-vectorize) instead of gathered element by element.
llvm::SmallVector<unsigned> transposedInputLoops(mlir::linalg::LinalgOp op);

/// The op writing the init of `op` when it can be computed tile by tile in
/// `op`'s tile loops (see `fuseInitProducer`): a tileable init producer
/// (`isTileableInitProducer`) in the same block whose single result is used
/// only as `op`'s single init. Null otherwise.
mlir::linalg::LinalgOp fusableInitProducer(mlir::linalg::LinalgOp op);

/// `producer` (from `fusableInitProducer` of the op that was tiled into
/// `tiled`) computed on `tiled`'s init tile (an extract_slice with unit
/// strides) right before it: `tiled` starts from the producer's tile instead
/// of a tile the producer wrote in a separate pass. The untiled producer is
/// erased (its init takes its place as the loops' destination). Returns the
/// producer's tile.
mlir::FailureOr<mlir::linalg::LinalgOp>
fuseInitProducer(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp tiled,
                 mlir::linalg::LinalgOp producer);

/// A contraction whose init is a fill or a broadcast reached through
/// reshapes and transposes (a convolution's bias, collapsed with the image,
/// transposed for a contraction computed transposed and split into panels)
/// or shared with other ops: the producer is rebuilt in the init's shape for
/// this contraction alone when its inputs index only dims the reshapes keep
/// whole, so it can be fused into the contraction's tiles
/// (`fuseInitProducer`) instead of filling, and transposing, a whole buffer
/// first. A single-use producer that writes into part of a larger buffer
/// (not a tensor.empty: a split part's own init, `splitWithOwnInits`), with
/// reshapes only, keeps writing there through the same reshapes, so the
/// op's result still lands in that buffer in place; otherwise the rebuilt
/// producer writes into a new tensor.empty. Nothing changes when it does not
/// apply.
void rebuildReshapedInit(mlir::RewriterBase &rewriter,
                         mlir::linalg::LinalgOp op);

/// The reshapes (collapse_shape, expand_shape) and crops (extract_slice:
/// the image inside a flattened convolution's padded grid) that carry
/// `value` to its only other user, each the only user of the value before
/// it, in order; sets `end` to the last value of the chain.
llvm::SmallVector<mlir::Operation *> singleUseReshapeChain(mlir::Value value,
                                                           mlir::Value &end);

/// The reassociation of a rank-`rank` shape whose dimension `dim` is split
/// in two (the groups of splitDimension's expansion).
llvm::SmallVector<mlir::ReassociationIndices> splitDimGroups(int64_t rank,
                                                             int64_t dim);

/// `type` with dimension `dim` of size D split into [D / size, size].
mlir::RankedTensorType splitDimensionType(mlir::RankedTensorType type,
                                          int64_t dim, int64_t size);

/// `v` with dimension `dim` of size D viewed as [D / size, size] (a free
/// reshape).
mlir::Value splitDimension(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value v, int64_t dim, int64_t size);

/// `value` (shaped like the end of `chain`, a chain of reshapes from
/// `singleUseReshapeChain` without crops) carried back to the shape of the
/// chain's start: each reshape undone, last first.
mlir::Value undoReshapes(mlir::RewriterBase &rewriter, mlir::Location loc,
                         mlir::Value value,
                         llvm::ArrayRef<mlir::Operation *> chain);

/// The tensor.empty that `value` was computed into, followed back through
/// reshapes (collected in `reshapes`, the one nearest `value` first), the
/// destinations of inserts and the tied inits of destination-style ops and
/// scf.forall loops; null when the chain ends elsewhere.
mlir::tensor::EmptyOp
computedInto(mlir::Value value,
             llvm::SmallVectorImpl<mlir::Operation *> &reshapes);

/// The tensor.empty that the source of `insert` was computed into
/// (`computedInto`), when that computation can write into the inserted
/// slice instead (aotc-eliminate-reshaped-empty-tensors): the empty tensor
/// has the type the reshapes undo the slice to, and an expansion among them is undone only on a
/// contiguous slice (the interior of a padded image is not: its rows are
/// apart). Null otherwise.
mlir::tensor::EmptyOp
emptyComputedIntoSlice(mlir::tensor::InsertSliceOp insert,
                       llvm::SmallVectorImpl<mlir::Operation *> &reshapes);

/// `linalg::splitOp` of `op` along loop `dim` at `point`, with each part
/// computing its own init: when the init is a fill or a broadcast
/// (`isTileableInitProducer`, possibly reached through reshapes), each part
/// starts from the producer computed on its slice alone, and the producer's
/// whole result (which the parts overwrite) is replaced by the tensor it
/// wrote into (a tensor.empty, or a thread tile's slice of the shared
/// output), which the parts' slices and inserts then share, so the
/// parts can take their inits into their tiles instead of reading back a
/// pass over the whole output. Returns (head, tail).
std::pair<mlir::linalg::LinalgOp, mlir::linalg::LinalgOp>
splitWithOwnInits(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                  unsigned dim, int64_t point);

/// A group number for the parts of one op (aotc::kSiblingPartsAttrName)
/// that no op nested in `scope` carries yet.
int64_t newSiblingGroup(mlir::Operation *scope);

/// `op` (one init, one result) computed as parts, one per box of its
/// iteration space (a range per loop; together the boxes cover every
/// output element once, each with all of its reduction loops), in order:
/// each part's init is its slice of the previous part's insert (the first
/// one's of `op`'s init) and its result is inserted there; the last insert
/// replaces `op`. Each part computes its own init as in splitWithOwnInits.
/// With `accumulate`, the boxes instead split the reduction: they may
/// share outputs, each with reduction ranges of its own that together are
/// the whole reduction, and every part adds to what the parts before it
/// wrote (only the first reads `op`'s init). Returns the parts
/// (aotc::splitElementwiseConsumer takes them, unless `accumulate`).
llvm::SmallVector<mlir::linalg::LinalgOp>
splitIntoBoxes(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
               llvm::ArrayRef<llvm::SmallVector<mlir::Range>> boxes,
               bool accumulate = false);

/// The elementwise consumer (an activation) of an op split into `parts`
/// (`splitWithOwnInits`), reached from the parts' inserts through reshapes,
/// computed on each part right before its insert instead of in a pass over
/// the whole result, which the split would otherwise leave it (the parts
/// are tiled apart, so neither can take the consumer into its tiles). Each
/// part's result must be used only by a tensor.insert_slice, the last
/// insert's result only by a chain of reshapes to the consumer (which may
/// use it twice: as an input and as its init), and the
/// consumer an elementwise consumer of it (`isElementwiseConsumer`) with
/// identity maps for every operand that is not a scalar, its other operands
/// defined before the parts, and its init either that result (in place)
/// or one its payload does not read.
/// Returns true when the consumer was split.
bool splitElementwiseConsumer(mlir::RewriterBase &rewriter,
                              llvm::ArrayRef<mlir::linalg::LinalgOp> parts);

/// True when `consumer` is an all-parallel generic on tensors in `block`,
/// without linalg.index, with one init and one result of `resultType`: the
/// shape of an activation or a residual add of another op's result.
bool isElementwiseConsumer(mlir::linalg::GenericOp consumer,
                           mlir::Block *block, mlir::Type resultType);

/// `tileToRegisterSizes` of `op`'s parallel (output) loops only, its
/// reduction loops left whole: the op's tile, on which an init producer or
/// a consumer can then be computed once per tile of output.
mlir::FailureOr<mlir::Operation *>
tileOutputLoops(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                llvm::ArrayRef<int64_t> sizes);

/// The elementwise consumer of `op`'s result that can be computed on its
/// register tiles (`fuseElementwiseConsumer`): the only user of the result
/// (which it may read both as an input and as the init it overwrites),
/// in the same block, all-parallel, with identity maps for its output and
/// for every operand that is not a scalar, each shaped like the result, and
/// its other operands defined before `op` (an activation or a residual add
/// that aotc-distribute-to-forall fused into a thread tile). Null otherwise.
mlir::linalg::GenericOp registerTileConsumer(mlir::linalg::LinalgOp op,
                                             mlir::DominanceInfo &dominance);

/// An elementwise `consumer` of an op's whole result computed on each tile
/// of it: `tiled` computes one tile and `insert` (a tensor.insert_slice or
/// tensor.parallel_insert_slice of `tiled`'s result) places it in
/// `loopResult`, the loops' result that `consumer` reads (as an input or as
/// its init). The consumer's tile, sliced like `insert`, runs right after
/// `tiled`, in place on its tile, and is inserted instead; the loops' result
/// replaces the consumer. The consumer must be all-parallel with identity
/// maps for every operand that is not a scalar, its other operands must
/// be defined outside the loops, and its payload must not read an init
/// other than `loopResult` (failure otherwise).
mlir::LogicalResult fuseElementwiseConsumer(mlir::RewriterBase &rewriter,
                                            mlir::Operation *tiled,
                                            mlir::Operation *insert,
                                            mlir::Value loopResult,
                                            mlir::linalg::LinalgOp consumer);

/// `fuseElementwiseConsumer` for a `tile` of an op tiled with scf.for loops
/// (`tileToRegisterSizes`) whose result `loopResult` the consumer reads:
/// the consumer's tile, or null (the consumer left as it was) when `tile`
/// is not inserted by a tensor.insert_slice.
mlir::linalg::LinalgOp fuseConsumerIntoLoopTile(mlir::RewriterBase &rewriter,
                                                mlir::linalg::LinalgOp tile,
                                                mlir::Value loopResult,
                                                mlir::linalg::GenericOp consumer);

} // namespace aotc

#endif // AOTC_TRANSFORMS_TILINGUTILS_H
