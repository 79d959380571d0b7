//===- Tiles.h - Thread tiles, register tiles, packing -------*- C++ -*-===//
//
// This file declares the heuristics of the CPU strategy that size tiles
// and choose packed layouts: pure functions of an op's shape, its operands
// and the target (aotc::CpuTarget), each constant with its reason. The
// passes that carry the decisions out call them (aotc-pack-contraction-
// operands, aotc-distribute-to-forall, aotc-tile-and-vectorize), and so do
// aotc-select-cpu-tiles and aotc-select-register-tiles, which record them
// on the ops (`aotc.tiles`, `aotc.register_tiles`) and in the strategy
// table. docs/tuning.md lists the constants with the measurements behind
// them.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_STRATEGY_TILES_H
#define AOTC_CPU_STRATEGY_TILES_H

#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/MapVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace aotc {

//===----------------------------------------------------------------------===//
// Thread tiles (aotc-distribute-to-forall)
//===----------------------------------------------------------------------===//

/// Smallest thread tile of a contraction along its register-tile row and
/// lane loops: 64 rows share each cache block of the right-hand side, and
/// 256 columns are one whole cache block (registerTileSizes, cacheTileSizes).
/// A contraction these would leave in one piece (64 x 256 outputs, as in a
/// transformer's projections) takes half-blocks of 128 columns instead.
inline constexpr int64_t kMinContractionRows = 64;
inline constexpr int64_t kMinContractionColumns = 256;
inline constexpr int64_t kMinContractionHalfColumns = 128;
/// A contraction whose right-hand side holds at least kMinTallRhsBytes takes
/// thread tiles of at least kTallTileRows rows (all of them when fewer):
/// each tile reads all of the right-hand side's packed panels it spans
/// once per tile of rows (its rows go through every cache block of them),
/// so 64-row tiles of a 2048 x 2048 x 2048 GEMM read its 16 MB of panels 32
/// times; 256-row tiles read them 8 times. 384 x 3072 x 768 (9.4 MB) takes
/// whole rows: 12 tiles of 256 columns instead of 48 of 64 x 384. A
/// right-hand side of 4 MB (1024^3) gains nothing, and the models'
/// right-hand sides are smaller.
inline constexpr int64_t kMinTallRhsBytes = 8 << 20;
inline constexpr int64_t kTallTileRows = 256;
/// Smallest thread tile along the innermost loop of any other op: four
/// 512-bit registers of f32.
inline constexpr int64_t kMinInnermost = 64;
/// Smallest thread tile along the loop of a transposed input's innermost
/// dimension: one square register tile of f32 (registerTileSizes).
inline constexpr int64_t kMinTransposed = 16;
/// Odd tile counts below this are made even when the op allows it.
inline constexpr int64_t kMaxEvenedTiles = 16;

/// A contraction's register tile: accumulator rows, and lanes per register.
struct RegisterTile {
  int64_t rows, lanes;
  VectorRegisters registers;
};

/// Iterations of `op`'s loop nest.
int64_t workOf(mlir::linalg::LinalgOp op);

/// Thread tiles that tile sizes `sizes` make of `op` (0: untiled loop).
int64_t tileCount(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> sizes);

/// The static shape of the slice of `op`'s input `input` that one thread
/// tile of `sizes` (0: untiled loop) reads (a dimension whole where no loop
/// it reads is tiled); none when the input is not static or its indexing
/// map has a result other than a sum of loops with positive factors and a
/// constant.
std::optional<llvm::SmallVector<int64_t>>
tileSliceShape(mlir::linalg::LinalgOp op, unsigned input,
               llvm::ArrayRef<int64_t> sizes);

/// Whether each of `tiles` thread tiles pads its own copy of its window of
/// a padded input of `paddedElements` (aotc-distribute-to-forall), a copy
/// of `tileElements` of `elementBytes`: at most kMaxTileScratchBytes, and
/// the copies together not much more than one of the whole padded input.
bool tilePadPays(int64_t tileElements, int64_t elementBytes, int64_t tiles,
                 int64_t paddedElements);

/// Tile sizes that split the parallel loops of `op` into about `targetTiles`
/// static tiles, outermost loops first; 0 leaves a loop untiled, as every
/// loop `whole` marks. For a contraction the register-tile row loop is split
/// first, then the lane loop, each into tiles no smaller than the minimums
/// above, the lane loop's of whole registers (half registers with
/// `halfRegisters`) when the columns are.
llvm::SmallVector<int64_t> computeForallTileSizes(
    mlir::linalg::LinalgOp op, int64_t targetTiles, RegisterTile registerTile,
    int64_t minColumns = kMinContractionColumns,
    int64_t minRows = kMinContractionRows, llvm::ArrayRef<bool> whole = {},
    bool halfRegisters = false);

/// The ops aotc-distribute-to-forall distributes: static linalg ops on
/// tensors directly in `func`'s body (one level of parallelism).
llvm::SmallVector<mlir::linalg::LinalgOp>
distributableOps(mlir::func::FuncOp func);

/// The parts of one op among `ops` (aotc::kSiblingPartsAttrName: an
/// interior and its border strips, the rows of a transform), by group, in
/// order.
llvm::MapVector<int64_t, llvm::SmallVector<mlir::linalg::LinalgOp>>
siblingGroups(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// A split of one loop of an op at `at`: [0, at) and [at, range).
struct LoopSplit {
  unsigned dim;
  int64_t at;
};

/// The thread-tile decision for one op: what aotc-distribute-to-forall
/// does with it. Recorded on the op as `aotc.tiles` by
/// aotc-select-cpu-tiles (with the loop ranges it was made for) and carried
/// out by aotc-distribute-to-forall.
struct ThreadPlan {
  enum class Kind {
    /// Too little work: the op runs on the calling thread.
    Sequential,
    /// One scf.forall of tiles of `sizes` (0: loop untiled).
    Tiles,
    /// The parts of one op (kSiblingPartsAttrName) share tiles of `sizes`.
    Parts,
    /// Split at `split` first for an even count of tiles; each part is
    /// then planned on its own (never split again this way).
    SplitEven,
    /// Split at `split` into a bulk with static tiles and a remainder; each
    /// part is then tiled on its own (Tiles or Sequential).
    SplitRemainder,
    /// The rows beyond the last whole register tile are split off at
    /// `split`; the bulk takes tiles of register-tile rows
    /// (ThreadTiling::rowTileSizes for `targetTiles`, `minColumns`).
    SplitRows,
  };
  Kind kind = Kind::Sequential;
  llvm::SmallVector<int64_t> sizes;
  LoopSplit split = {0, 0};
  int64_t targetTiles = 0, minColumns = 0;

  /// The plan's name in `aotc.tiles` and the strategy table.
  static llvm::StringRef kindName(Kind kind);
  static std::optional<Kind> kindNamed(llvm::StringRef name);
};

/// The attribute recording a ThreadPlan on an op.
inline constexpr llvm::StringLiteral kTilesAttrName = "aotc.tiles";

/// Records `plan`, made for `op`'s current loop ranges, on `op`.
void recordThreadPlan(mlir::Operation *op, const ThreadPlan &plan);
/// The plan recorded on `op`, when there is one made for its current loop
/// ranges (an op a later rewrite cloned into other ranges has none).
std::optional<ThreadPlan> recordedThreadPlan(mlir::linalg::LinalgOp op);

/// The thread-tile decisions for the ops of one function, from the options
/// of aotc-distribute-to-forall (min-work, max-tiles) and the register
/// file.
struct ThreadTiling {
  int64_t minWork, maxTiles;
  VectorRegisters registers;
  /// The decisions for a function whose distributable ops are `ops`
  /// (regionsToJoin derived from them).
  static ThreadTiling forOps(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                             int64_t minWork, int64_t maxTiles,
                             VectorRegisters registers);

  /// Whether the function has an op of min-work iterations, threaded
  /// whatever its neighbours. Without one, a small op given threads would
  /// fork them for itself, gaining little on two threads and losing
  /// several times that when the other vCPU answers late (a softmax of
  /// 64 x 256 floats).
  bool regionsToJoin = false;

  /// A contraction's register tile with these registers (f32 lanes, as
  /// aotc-tile-and-vectorize makes it).
  RegisterTile registerTile() const;
  /// Fewest iterations for which `op` is threaded: min-work, a
  /// kNonReducingMinWorkDivisor-th of it without reduction loops when there
  /// are regions to join.
  int64_t minWorkOf(mlir::linalg::LinalgOp op) const;
  /// Thread tiles of an op with `work` iterations: about min-work
  /// iterations each, at most max-tiles, and two at least for an op other
  /// than a contraction (one tile would leave it sequential).
  int64_t tilesFor(int64_t work, bool contraction) const;
  /// `sizes` for `op`, or sizes making an even count of tiles when `sizes`
  /// make a few tiles in an odd count (ThreadTiles.cpp has the rules).
  llvm::SmallVector<int64_t>
  evenTileSizes(mlir::linalg::LinalgOp op, llvm::SmallVector<int64_t> sizes,
                bool contraction, RegisterTile registerTile, int64_t minColumns,
                int64_t minRows, llvm::ArrayRef<bool> whole = {}) const;
  /// Thread tile sizes of `op` for about `targetTiles` tiles, before
  /// evenTileSizes, with the fallbacks of a contraction the minimums leave
  /// whole. `minColumns` and `minRows` are set to the minimums used. None
  /// when the tiles must be register-tile rows after the rows beyond the
  /// last whole register tile are split off (a rewrite left to the caller).
  std::optional<llvm::SmallVector<int64_t>>
  plannedTileSizes(mlir::linalg::LinalgOp op, int64_t targetTiles,
                   int64_t &minColumns, int64_t &minRows) const;
  /// The split of a contraction whose thread tiles would be a few in an odd
  /// count along one loop, so that its bulk tiles evenly; none otherwise.
  std::optional<LoopSplit> evenSplit(mlir::linalg::LinalgOp op) const;
  /// The split of an op other than a contraction whose outermost parallel
  /// loop has no divisor near `targetTiles` (197 rows, a prime) into a bulk
  /// that divides evenly and a remainder (196 + 1); or, when that loop
  /// tiled whole gives a few tiles in an odd count, of the next loop that
  /// has no divisor near the tiles still wanted. None otherwise.
  std::optional<LoopSplit> remainderSplit(mlir::linalg::LinalgOp op,
                                          int64_t targetTiles) const;
  /// The whole decision for `op`, an op directly in the function body:
  /// first an even split (unless `allowEvenSplit` is false: `op` is a part
  /// of one), then too little work, a remainder split, and the tiles
  /// (tilePlan).
  ThreadPlan plan(mlir::linalg::LinalgOp op, bool allowEvenSplit = true) const;
  /// The decision for `op` with no split but SplitRows: Sequential, Tiles,
  /// or SplitRows.
  ThreadPlan tilePlan(mlir::linalg::LinalgOp op) const;
  /// Thread tiles of register-tile rows for the bulk of a SplitRows plan.
  llvm::SmallVector<int64_t> rowTileSizes(mlir::linalg::LinalgOp bulk,
                                          int64_t targetTiles,
                                          int64_t minColumns) const;
  /// Thread tiles shared by the parts of one op (an interior and its border
  /// strips, the rows of a transform) along the loops they all span whole;
  /// none when they should be distributed one by one.
  std::optional<llvm::SmallVector<int64_t>>
  partTileSizes(llvm::ArrayRef<mlir::linalg::LinalgOp> parts) const;
};

//===----------------------------------------------------------------------===//
// Register tiles and cache blocks (aotc-tile-and-vectorize)
//===----------------------------------------------------------------------===//

/// A row of at most this many registers that is not a whole number of them
/// (a 55-wide image row: 3 registers and 7 lanes) is one vector: whole
/// registers and one part register (which LLVM moves as 4 + 2 + 1 lanes),
/// not a divisor of the row (5 vectors of 11 lanes, each moved as 8 + 2 +
/// 1). Masked AVX-512 moves for the part register were slower: a masked
/// store does not forward to a load of the same cache line (an in-place
/// update of the next row).
inline constexpr int64_t kWholeRowRegisters = 4;

/// The innermost loop of `op` when it is a parallel loop along which a
/// vector reads and writes contiguous elements (not a contraction or a
/// transpose), with a range that is not a whole number of `lanes`.
std::optional<unsigned> partialRowLoop(mlir::linalg::LinalgOp op,
                                       int64_t lanes);

/// Row panels a register tile of the contraction `op` spans (1 unless its
/// lanes are one register or less on rows in row panels).
int64_t rowPanelSpan(mlir::linalg::LinalgOp op, int64_t lanes,
                     VectorRegisters registers);

/// Register tile sizes for `op` with `lanes`-lane registers of `registers`:
/// one register along the innermost loop, accumulator blocks for
/// contractions, square blocks for transposes, 1 elsewhere.
llvm::SmallVector<int64_t> registerTileSizes(mlir::linalg::LinalgOp op,
                                             int64_t lanes,
                                             VectorRegisters registers);

/// Cache tile sizes of a contraction (0: loop not tiled): column blocks of
/// whole register tiles and reduction blocks; empty when the op fits.
llvm::SmallVector<int64_t> cacheTileSizes(mlir::linalg::LinalgOp op,
                                          llvm::ArrayRef<int64_t> registerSizes,
                                          int64_t vectorBits);

/// True when a contraction's cache blocks split its reduction and nothing
/// else.
bool splitsOnlyReduction(mlir::linalg::LinalgOp op,
                         llvm::ArrayRef<int64_t> cacheSizes);

/// True when a contraction's cache blocks split none of its reduction
/// loops (column blocks only): each register tile still accumulates its
/// whole reduction, so a fill can start its accumulators in registers.
bool splitsOnlyParallelLoops(mlir::linalg::LinalgOp op,
                             llvm::ArrayRef<int64_t> cacheSizes);

/// Vector lanes of `op` when aotc-tile-and-vectorize vectorizes it with
/// `vectorBits`-wide registers, 0 otherwise: convolutions and pooling are
/// aotc-vectorize-convolutions' (those left are lowered to loops), as is
/// anything the vectorizer rejects or with i1 or non-numeric operands.
int64_t vectorLanesOf(mlir::linalg::LinalgOp op, int64_t vectorBits);

/// The register-level decision for one op: what aotc-tile-and-vectorize
/// does with it. Recorded on the op as `aotc.register_tiles` by
/// aotc-select-register-tiles (with the loop ranges it was made for).
struct RegisterPlan {
  /// Vector lanes (vectorLanesOf).
  int64_t lanes = 0;
  /// A row longer than kWholeRowRegisters registers that is not a whole
  /// number of them, or a transposed loop longer than one register that is
  /// not a whole number of them (transposeSplit), is split at its last
  /// whole register first; each part is then planned on its own. Otherwise
  /// none, and:
  std::optional<LoopSplit> split;
  /// Register tile sizes (registerTileSizes).
  llvm::SmallVector<int64_t> registers;
  /// Cache block sizes of a contraction (cacheTileSizes), empty when none.
  llvm::SmallVector<int64_t> cache;
};

/// The register-level decision for `op` with `lanes` lanes.
RegisterPlan planRegisters(mlir::linalg::LinalgOp op, int64_t lanes,
                           VectorRegisters registers);

/// The attribute recording a RegisterPlan on an op.
inline constexpr llvm::StringLiteral kRegisterTilesAttrName =
    "aotc.register_tiles";

/// Records `plan`, made for `op`'s current loop ranges, on `op`.
void recordRegisterPlan(mlir::Operation *op, const RegisterPlan &plan);
/// The plan recorded on `op` when there is one made for its current loop
/// ranges.
std::optional<RegisterPlan> recordedRegisterPlan(mlir::linalg::LinalgOp op);

//===----------------------------------------------------------------------===//
// Packing (aotc-pack-contraction-operands)
//===----------------------------------------------------------------------===//

/// Rows of a right-hand side computed at run time that its copy into
/// panels reads one after the other before the next panel: each panel's
/// part of them is one contiguous run (4 cache lines with 16-lane panels,
/// 8 with 32-lane ones), and the rows are read as whole rows rather than one
/// cache line of every row per panel (a new page per line for rows 4 KiB or
/// more apart). Two or eight rows at a time do no better than four,
/// sixteen worse.
inline constexpr int64_t kPackRowBlock = 4;

/// Whether a contraction of `rows` x `lanes` outputs over `depth` reduction
/// steps (its rows a constant) is computed transposed, rows as lanes, with
/// a transpose out: none when not; else whether it is for its few lanes
/// (a constant right-hand side is then transposed as well).
std::optional<bool> transposesLanes(int64_t rows, int64_t lanes,
                                    int64_t depth, VectorRegisters registers);

/// Whether a right-hand side computed at run time, of `rowBytes`-byte rows,
/// is copied into panels for a contraction of `rows` rows over `depth`
/// reduction steps: enough rows must reuse the copy, over a reduction too
/// deep to stay in L1.
bool packsRuntimeRhs(int64_t rows, int64_t depth, int64_t rowBytes,
                     const CpuTarget &target);

/// Whether a contraction's left-hand side of `rows` rows over `depth` f32
/// reduction steps goes into row panels of `tile` rows for `columns` output
/// columns (`constant`: a weight, packed at compile time).
bool packsLhs(int64_t rows, int64_t depth, int64_t columns, int64_t tile,
              bool constant, const CpuTarget &target);

/// The packing decision for one contraction: what
/// aotc-pack-contraction-operands does with it. Made by aotc::planPacking
/// (aotc/CPU/Tiling/Packing.h: the layouts the pass can rewrite, and the
/// rules above), recorded on the op as `aotc.packing` by
/// aotc-select-cpu-packing (with the loop ranges it was made for).
struct PackingPlan {
  /// How an operand is packed: not, at compile time (a constant), or by a
  /// copy at run time.
  enum class Layout { None, CompileTime, RunTime };
  /// The output is computed transposed, rows as lanes (transposesLanes);
  /// the transposed contraction is then planned anew, without
  /// transposition. The fields below are then None.
  bool transpose = false;
  /// The right-hand side in column panels. Columns beyond the last whole
  /// panel are then split off and stay unpacked.
  Layout rhs = Layout::None;
  /// The left-hand side in row panels (packsLhs): of the op, or of its whole
  /// column panels when `rhs` splits off a remainder.
  Layout lhs = Layout::None;
  /// The same for that remainder of columns.
  Layout remainderLhs = Layout::None;

  /// A layout's name in `aotc.packing` and the strategy table.
  static llvm::StringRef layoutName(Layout layout);
  static std::optional<Layout> layoutNamed(llvm::StringRef name);
};

/// The attribute recording a PackingPlan on an op.
inline constexpr llvm::StringLiteral kPackingAttrName = "aotc.packing";

/// Records `plan`, made for `op`'s current loop ranges, on `op`.
void recordPackingPlan(mlir::Operation *op, const PackingPlan &plan);
/// The plan recorded on `op` when there is one made for its current loop
/// ranges.
std::optional<PackingPlan> recordedPackingPlan(mlir::linalg::LinalgOp op);

//===----------------------------------------------------------------------===//
// Vector loads (aotc-mask-partial-vectors)
//===----------------------------------------------------------------------===//

/// The lanes a contiguous load of `lanes` elements of `elementBits` bits is
/// widened to, the lanes past `lanes` masked off; 0 when it stays as it is.
int64_t maskedAccessLanes(int64_t lanes, int64_t elementBits,
                          const CpuTarget &target);

} // namespace aotc

#endif // AOTC_CPU_STRATEGY_TILES_H
