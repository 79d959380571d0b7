//===- Tiles.cpp - Thread tiles, register tiles, packing -----*- C++ -*-===//
//
// This file implements the tile-sizing and packing heuristics of the CPU
// strategy (aotc/CPU/Strategy/Tiles.h).
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/Analysis/BufferLifetimes.h"
#include "aotc/CPU/Convolutions/ConvolutionUtils.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/NameTable.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"

using namespace mlir;

namespace aotc {

//===----------------------------------------------------------------------===//
// Thread tiles
//===----------------------------------------------------------------------===//

namespace {

/// Bytes of the contraction `op`'s right-hand side: its inputs that no row
/// loop (`row`, and `rowPanel` when the rows are in panels) indexes.
int64_t rightHandSideBytes(linalg::LinalgOp op, unsigned row,
                           std::optional<unsigned> rowPanel) {
  int64_t bytes = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !type.hasStaticShape() || map.isFunctionOfDim(row) ||
        (rowPanel && map.isFunctionOfDim(*rowPanel)))
      continue;
    bytes += type.getNumElements() * aotc::elementBytes(type);
  }
  return bytes;
}

} // namespace

int64_t workOf(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t r : op.getStaticLoopRanges())
    work *= r;
  return work;
}

int64_t tileCount(linalg::LinalgOp op, ArrayRef<int64_t> sizes) {
  int64_t count = 1;
  for (auto [range, size] : llvm::zip_equal(op.getStaticLoopRanges(), sizes))
    if (size != 0)
      count *= llvm::divideCeil(range, size);
  return count;
}

std::optional<SmallVector<int64_t>>
tileSliceShape(linalg::LinalgOp op, unsigned input, ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  OpOperand *operand = op.getDpsInputOperand(input);
  AffineMap map = op.getMatchingIndexingMap(operand);
  auto type = dyn_cast<RankedTensorType>(operand->get().getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> shape;
  for (auto [dimension, expr] : llvm::enumerate(map.getResults())) {
    // The extent of sum(f_d * d) + c over the tile: sum(f_d * (size_d - 1))
    // + 1; the whole dimension when no loop of the sum is tiled.
    int64_t extent = 1;
    bool linear = true, tiled = false;
    auto addTerm = [&](AffineExpr term) {
      auto mul = dyn_cast<AffineBinaryOpExpr>(term);
      int64_t factor = 1;
      if (mul && mul.getKind() == AffineExprKind::Mul) {
        auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
        term = mul.getLHS();
        factor = c ? c.getValue() : 0;
      }
      if (isa<AffineConstantExpr>(term))
        return;
      auto dim = dyn_cast<AffineDimExpr>(term);
      if (!dim || factor <= 0 || ranges[dim.getPosition()] < 1) {
        linear = false;
        return;
      }
      int64_t size = sizes[dim.getPosition()];
      if (size == 0 || size > ranges[dim.getPosition()])
        size = ranges[dim.getPosition()];
      tiled |= size < ranges[dim.getPosition()];
      extent += factor * (size - 1);
    };
    SmallVector<AffineExpr> terms = {expr};
    while (!terms.empty()) {
      AffineExpr term = terms.pop_back_val();
      auto add = dyn_cast<AffineBinaryOpExpr>(term);
      if (add && add.getKind() == AffineExprKind::Add)
        terms.append({add.getLHS(), add.getRHS()});
      else
        addTerm(term);
    }
    if (!linear)
      return std::nullopt;
    shape.push_back(tiled ? extent : type.getDimSize(dimension));
  }
  return shape;
}

namespace {

/// Most elements the thread tiles' padded windows may copy together, per
/// kTilePadOverlapDenominator elements of the whole padded input (windows
/// overlap: MobileNetV2's 3x3 stride-2 stem reads 5 rows for 4, 1.23 times
/// the input; ResNet's 7x7 one 9 rows for 4, 2.2 times, more than its one
/// padded copy costs, which stays).
constexpr int64_t kTilePadOverlapNumerator = 3;
constexpr int64_t kTilePadOverlapDenominator = 2;

} // namespace

bool tilePadPays(int64_t tileElements, int64_t elementBytes, int64_t tiles,
                 int64_t paddedElements) {
  return tileElements * elementBytes <= kMaxTileScratchBytes &&
         tiles * tileElements * kTilePadOverlapDenominator <=
             paddedElements * kTilePadOverlapNumerator;
}

SmallVector<int64_t> computeForallTileSizes(linalg::LinalgOp op,
                                            int64_t targetTiles,
                                            RegisterTile registerTile,
                                            int64_t minColumns, int64_t minRows,
                                            ArrayRef<bool> whole,
                                            bool halfRegisters) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  SmallVector<int64_t> minSizes(ranges.size(), 1);
  // Tiles along loop i hold a whole number of multiples[i] iterations.
  SmallVector<int64_t> multiples(ranges.size(), 1);
  SmallVector<unsigned> order = llvm::to_vector(
      llvm::seq<unsigned>(0, static_cast<unsigned>(ranges.size())));
  // The innermost loop is the vector dimension: no thread tile narrower
  // than kMinInnermost elements (the lanes of a split row reduction stay
  // whole, and a 1 x N op is not cut into scalar strips).
  if (!ranges.empty())
    minSizes.back() = kMinInnermost;
  if (auto dims = aotc::contractionTileDims(op)) {
    auto [row, lane] = *dims;
    std::optional<unsigned> rowPanel = aotc::contractionPanelLoop(op, row);
    if (minRows == kMinContractionRows &&
        rightHandSideBytes(op, row, rowPanel) >= kMinTallRhsBytes)
      minRows = kTallTileRows;
    minSizes[row] = minRows;
    // Below the cache-block minimum, tiles hold whole register tiles.
    if (minRows < kMinContractionRows)
      multiples[row] = registerTile.rows;
    // Columns in panels: whole panels, as many as make the minimum columns.
    unsigned columns = lane;
    if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane)) {
      minSizes[lane] = ranges[lane];
      llvm::erase(order, lane);
      columns = *panel;
      minSizes[columns] = std::max<int64_t>(1, minColumns / ranges[lane]);
    } else {
      minSizes[lane] = minColumns;
      // Whole registers, when the columns are (784 Winograd tiles: not two
      // tiles of 392 = 24.5 registers, each ending in half a register);
      // with `halfRegisters`, half registers (the last resort before tiles
      // of rows, see distribute).
      SmallVector<int64_t> laneMultiples = {aotc::kContractionRegistersPerRow *
                                                registerTile.lanes,
                                            registerTile.lanes};
      if (halfRegisters)
        laneMultiples = {registerTile.lanes / 2};
      for (int64_t multiple : laneMultiples)
        if (ranges[lane] % multiple == 0) {
          multiples[lane] = multiple;
          break;
        }
    }
    // Rows in row panels: whole panels, as many as make the minimum rows.
    unsigned rows = row;
    if (rowPanel) {
      llvm::erase(order, row);
      rows = *rowPanel;
      minSizes[rows] = llvm::divideCeil(minRows, ranges[row]);
    }
    // Batch loops (outer) first, then rows, then columns.
    llvm::erase(order, rows);
    llvm::erase(order, columns);
    order.push_back(rows);
    order.push_back(columns);
  } else if (std::optional<unsigned> channel =
                 aotc::convolutionChannelRowLoop(op)) {
    // Whole register tiles (aotc-vectorize-convolutions): rows of output
    // channels, registers of grid rows, lanes never split.
    minSizes[*channel] = aotc::kConvolutionChannelRows;
    if (ranges[*channel] % aotc::kConvolutionChannelRows == 0)
      multiples[*channel] = aotc::kConvolutionChannelRows;
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    ArrayRef<AffineExpr> results = outMap.getResults();
    unsigned lane = cast<AffineDimExpr>(results.back()).getPosition();
    multiples[lane] = ranges[lane];
    if (results.size() >= 2) {
      unsigned gridRow =
          cast<AffineDimExpr>(results[results.size() - 2]).getPosition();
      // A row-aligned grid's rows stay whole (aotc-vectorize-convolutions
      // splits them into register tiles of three rows and the rest).
      if (gridRow != *channel)
        multiples[gridRow] =
            aotc::isRowAlignedConvolution(op)
                ? ranges[gridRow]
                : aotc::convolutionThreadRowMultiple(ranges[gridRow]);
    }
  } else if (std::optional<unsigned> lane =
                 aotc::convolutionChannelLaneLoop(op)) {
    // Whole register tiles (aotc-vectorize-convolutions): the lanes (a block
    // of output channels) whole, the pixels of an output row in whole rows
    // of register tiles; a row that splits into tiles and a remainder part
    // (aotc::channelLaneRowBulk) stays whole.
    multiples[*lane] = ranges[*lane];
    if (std::optional<unsigned> row =
            aotc::convolutionChannelLanePixelLoop(op)) {
      int64_t width = ranges[*row];
      multiples[*row] =
          aotc::channelLaneRowBulk(width, registerTile.registers) == width
              ? aotc::channelLaneRowTile(width, registerTile.registers)
              : width;
    }
  } else {
    // Transposes: read in square register tiles along both loops.
    for (unsigned minor : aotc::transposedInputLoops(op))
      minSizes[minor] = std::max(minSizes[minor], kMinTransposed);
  }
  SmallVector<bool> nonMonotonic = aotc::nonMonotonicLoops(op);
  int64_t tiles = 1;
  for (unsigned i : order) {
    int64_t range = ranges[i];
    if (tiles >= targetTiles)
      break;
    // A range that is no whole number of multiples has no static tiles of
    // whole multiples (1225 pixels in register tiles of 8 rows: tiles of
    // 408 would leave a last one of 1 row, of dynamic size, which no
    // register tile path vectorizes).
    if (iterators[i] != utils::IteratorType::parallel || range <= 1 ||
        nonMonotonic[i] || (!whole.empty() && whole[i]) ||
        range % multiples[i] != 0)
      continue;
    // Never more than the target: tiles stay static (divisors) and the
    // count stays bounded even for prime dimensions.
    int64_t limit = std::min(targetTiles / tiles,
                             std::max<int64_t>(1, range / minSizes[i]));
    int64_t count = largestDivisorAtMost(range / multiples[i], limit);
    if (count <= 1)
      continue;
    sizes[i] = range / count;
    tiles *= count;
  }
  return sizes;
}

SmallVector<linalg::LinalgOp> distributableOps(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> ops;
  for (Operation &op : func.getBody().getOps())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
      if (linalgOp.hasPureTensorSemantics() && !linalgOp.hasDynamicShape())
        ops.push_back(linalgOp);
  return ops;
}

llvm::MapVector<int64_t, SmallVector<linalg::LinalgOp>>
siblingGroups(ArrayRef<linalg::LinalgOp> ops) {
  llvm::MapVector<int64_t, SmallVector<linalg::LinalgOp>> groups;
  for (linalg::LinalgOp op : ops)
    if (auto group = op->getAttrOfType<IntegerAttr>(kSiblingPartsAttrName))
      groups[group.getInt()].push_back(op);
  return groups;
}

ThreadTiling ThreadTiling::forOps(ArrayRef<linalg::LinalgOp> ops,
                                  int64_t minWork, int64_t maxTiles,
                                  VectorRegisters registers) {
  ThreadTiling tiling{minWork, maxTiles, registers};
  tiling.regionsToJoin = llvm::any_of(
      ops, [&](linalg::LinalgOp op) { return workOf(op) >= minWork; });
  return tiling;
}

RegisterTile ThreadTiling::registerTile() const {
  return {contractionRows(registers), registerLanes(registers.bits, 32),
          registers};
}

int64_t ThreadTiling::minWorkOf(linalg::LinalgOp op) const {
  return regionsToJoin && op.getNumReductionLoops() == 0
             ? minWork / kNonReducingMinWorkDivisor
             : minWork;
}

int64_t ThreadTiling::tilesFor(int64_t work, bool contraction) const {
  return std::min<int64_t>(
      maxTiles, std::max<int64_t>(contraction ? 1 : 2, work / minWork));
}

/// `sizes` for `op`, unless they make a few tiles in an odd count, which
/// leave a thread idle for a whole tile on an even number of threads (3
/// tiles take as long as 4 on 2 threads): then the first of more tiles
/// (one more; twice as many; for a contraction then column tiles of half
/// the minimum; then one more tile along the same loops with row tiles of
/// half the minimum rows, in whole register tiles: MobileNetV2's 28 x 28
/// expansions onto 192 channels, 3 tiles of 64 rows, become 4 of 48; last
/// one tile fewer) that makes an even count, even when its tiles hold less
/// than min-work iterations (never more than max-tiles). Loops `whole`
/// marks stay untiled.
SmallVector<int64_t>
ThreadTiling::evenTileSizes(linalg::LinalgOp op, SmallVector<int64_t> sizes,
                            bool contraction, RegisterTile registerTile,
                            int64_t minColumns, int64_t minRows,
                            ArrayRef<bool> whole) const {
  int64_t count = tileCount(op, sizes);
  if (count <= 1 || count % 2 == 0 || count >= kMaxEvenedTiles)
    return sizes;
  int64_t more = std::min<int64_t>(maxTiles, count + 1);
  int64_t twice = std::min<int64_t>(maxTiles, 2 * count);
  struct Try {
    int64_t target, columns, rows;
    // The tiles must split the loops `sizes` splits, no other.
    bool sameLoops;
    // Fewest tiles taken (a smaller divisor of the loops than `target`
    // may come back).
    int64_t atLeast = 0;
  };
  SmallVector<Try> tries = {{more, minColumns, minRows, false},
                            {twice, minColumns, minRows, false}};
  if (contraction) {
    tries.push_back(
        {twice, std::max<int64_t>(1, minColumns / 2), minRows, false});
    // Fewer rows than 64 make the right-hand side's column block (in L2)
    // serve fewer rows: only instead of a thread left idle. Tiles along
    // other loops as well (two row tiles times five column tiles of a
    // 55 x 55 image instead of 11 column tiles) gained nothing.
    tries.push_back({more, minColumns,
                     std::max<int64_t>(registerTile.rows, minRows / 2), true});
  }
  // Last, fewer tiles along the same loops, at most a quarter fewer:
  // MobileNetV2's 14 x 14 expansions onto 576 channels, 9 tiles of 8 row
  // panels (72 panels: no even count from 10 up to the 18 its minimum
  // rows allow, none at half of them), become 8 tiles of 9. (13 tiles of
  // a loop of 26 would otherwise become 2, idling a third thread.)
  if (count > 2)
    tries.push_back({count - 1, minColumns, minRows, true,
                     /*atLeast=*/(3 * count + 3) / 4});
  for (const Try &t : tries) {
    SmallVector<int64_t> even = computeForallTileSizes(
        op, t.target, registerTile, t.columns, t.rows, whole);
    int64_t evenCount = tileCount(op, even);
    if (evenCount % 2 != 0 || evenCount < t.atLeast)
      continue;
    if (t.sameLoops &&
        llvm::any_of(llvm::zip_equal(sizes, even), [](auto pair) {
          return (std::get<0>(pair) == 0) != (std::get<1>(pair) == 0);
        }))
      continue;
    return even;
  }
  return sizes;
}

/// Thread tile sizes of `op` for about `targetTiles` tiles, before
/// evenTileSizes; for a contraction, when the minimums leave it whole:
/// column tiles of half the minimum, then of half registers (a 1x1
/// convolution onto 32 channels at 28 x 28: two tiles of 392 = 24.5
/// registers, rather than tiles of register-tile rows: a row tile reads the
/// whole right-hand side, the 602 KB image, half of it last written by the
/// other thread, a column tile its own columns of it), then tiles of row
/// panels, or of single column panels for fewer rows than two register
/// tiles (a classifier's 1 x 1280 x 1000 layer, matrix-vector: nothing is
/// reused across columns; 31 panels of 32 columns, a prime, have no tiles
/// of four panels), or two tiles of column panels for more columns than
/// rows (MobileNetV2's 960 -> 160 projection at 7 x 7 with 256-bit panels:
/// 49 pixels x 10 panels of 16; each half of the 614 KB of weights read
/// once, where each of eight tiles of six rows read all of them).
/// `minColumns` and `minRows` are set to the minimums used. None when the
/// tiles must be register-tile rows after the rows beyond the last whole
/// register tile are split off (splitRowRemainder, a rewrite left to the
/// caller).
std::optional<SmallVector<int64_t>>
ThreadTiling::plannedTileSizes(linalg::LinalgOp op, int64_t targetTiles,
                               int64_t &minColumns, int64_t &minRows) const {
  RegisterTile registerTile = this->registerTile();
  auto none = [](ArrayRef<int64_t> sizes) {
    return llvm::all_of(sizes, [](int64_t s) { return s == 0; });
  };
  SmallVector<int64_t> sizes =
      computeForallTileSizes(op, targetTiles, registerTile);
  std::optional<std::pair<unsigned, unsigned>> dims =
      aotc::contractionTileDims(op);
  if (!dims || !none(sizes))
    return sizes;
  sizes = computeForallTileSizes(op, targetTiles, registerTile,
                                 minColumns = kMinContractionHalfColumns);
  if (!none(sizes))
    return sizes;
  sizes = computeForallTileSizes(op, targetTiles, registerTile, minColumns,
                                 minRows, {}, /*halfRegisters=*/true);
  if (!none(sizes))
    return sizes;
  auto [row, lane] = *dims;
  int64_t registerRows = registerTile.rows;
  if (std::optional<unsigned> rowPanels = aotc::contractionPanelLoop(op, row)) {
    SmallVector<int64_t> panelTiles = computeForallTileSizes(
        op, targetTiles, registerTile, minColumns, minRows = registerRows);
    // One row panel (a classifier's 125th, split off for even tiles of the
    // other 124): tiles of whole register tiles of its columns, which it
    // would otherwise compute on one thread while the others wait
    // (SqueezeNet's: 5 tiles of 32 of its 160).
    if (!none(panelTiles) || op.getStaticLoopRanges()[*rowPanels] != 1)
      return panelTiles;
    return computeForallTileSizes(op, targetTiles, registerTile, minColumns = 1,
                                  minRows);
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = ranges[row];
  std::optional<unsigned> panels = aotc::contractionPanelLoop(op, lane);
  if (rows / registerRows >= 2) {
    // More columns than rows: the right-hand side is the larger operand,
    // and tiles of register-tile rows would each read all of it. Two
    // column tiles of whole panels read it once (each its half, which can
    // stay in the core's L2) and the rows twice.
    if (panels && ranges[*panels] * ranges[lane] > rows) {
      SmallVector<bool> whole(ranges.size(), true);
      whole[*panels] = false;
      SmallVector<int64_t> halves = computeForallTileSizes(
          op, std::min<int64_t>(targetTiles, 2), registerTile,
          /*minColumns=*/1, minRows, whole);
      if (!none(halves)) {
        minColumns = 1;
        return halves;
      }
    }
    return std::nullopt;
  }
  if (panels)
    return computeForallTileSizes(op, targetTiles, registerTile,
                                  minColumns = 1);
  return sizes;
}

/// A contraction whose thread tiles would be a few in an odd count along
/// one loop (3 tiles of 243 columns of a 27 x 27 image, 5 tiles of 25 row
/// panels of a 1000-channel classifier) leaves a thread idle for a whole
/// tile on an even number of threads (3 tiles take as long as 4 on 2):
/// split that loop where the bulk holds the nearest even count of tiles
/// of whole units (registers of columns, panels, register tiles of rows),
/// when what is left is less than half a tile, or a tile of columns (729 =
/// 704 + 25: two tiles of 352 columns; 125 = 124 + 1 panels: four tiles of
/// 31; 3025 = 2880 + 145: ten tiles of 288, not 11 of 275). Each part
/// computes its own init and activation (aotc::splitWithOwnInits,
/// aotc::splitElementwiseConsumer) and is distributed on its own. (With
/// less than half a tile of columns left only, SqueezeNet's 1x1 layers at
/// 55 x 55 kept 11 tiles, an odd count; split, they take 10 and a part.)
std::optional<LoopSplit> ThreadTiling::evenSplit(linalg::LinalgOp op) const {
  std::optional<std::pair<unsigned, unsigned>> dims =
      aotc::contractionTileDims(op);
  int64_t work = workOf(op);
  if (maxTiles < 2 || !dims || work < minWork)
    return std::nullopt;
  int64_t targetTiles = tilesFor(work, /*contraction=*/true);
  int64_t minColumns = kMinContractionColumns;
  int64_t minRows = kMinContractionRows;
  std::optional<SmallVector<int64_t>> planned =
      plannedTileSizes(op, targetTiles, minColumns, minRows);
  if (!planned)
    return std::nullopt;
  RegisterTile registerTile = this->registerTile();
  SmallVector<int64_t> sizes = evenTileSizes(op, *planned, /*contraction=*/true,
                                             registerTile, minColumns, minRows);
  int64_t count = tileCount(op, sizes);
  std::optional<unsigned> dim;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size != 0) {
      if (dim)
        return std::nullopt;
      dim = i;
    }
  if (!dim || count < 3 || count % 2 == 0 || count >= kMaxEvenedTiles ||
      aotc::nonMonotonicLoops(op)[*dim])
    return std::nullopt;
  auto [row, lane] = *dims;
  int64_t unit = 1;
  if (*dim == lane)
    unit = registerTile.lanes;
  else if (*dim == row)
    unit = registerTile.rows;
  int64_t range = op.getStaticLoopRanges()[*dim];
  int64_t bulk = 0;
  for (int64_t even : {count - 1, count + 1}) {
    int64_t step = even * unit;
    bulk = std::max(bulk, range / step * step);
  }
  int64_t rest = range - bulk;
  // Less than a tile left along the columns, less than half a tile along
  // rows or panels: the bulk's row tiles, sized again, need not stay
  // whole register tiles (832 = 13 x 64 rows: 784 + 48 would make 8
  // tiles of 98 rows).
  int64_t restTiles = *dim == lane ? 1 : 2;
  if (bulk == 0 || rest == 0 || restTiles * count * rest >= range)
    return std::nullopt;
  return LoopSplit{*dim, bulk};
}

/// Contractions keep their own rules (tiles of at least 64 rows).
std::optional<LoopSplit>
ThreadTiling::remainderSplit(linalg::LinalgOp op, int64_t targetTiles) const {
  if (targetTiles < 2 || aotc::contractionTileDims(op))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<bool> nonMonotonic = aotc::nonMonotonicLoops(op);
  int64_t tiles = 1;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    if (iterators[dim] != utils::IteratorType::parallel || range <= 1 ||
        nonMonotonic[dim])
      continue;
    int64_t count = std::min(targetTiles / tiles, range);
    int64_t divisor = largestDivisorAtMost(range, count);
    // After outer tiles, only a loop long enough for a small remainder
    // (109 rows for 21 tiles: 105 + 4; 3 window columns for 2 tiles would
    // leave a third of the work to a loop of its own).
    if (divisor * 2 <= count)
      return tiles == 1 || range >= 2 * count
                 ? std::optional(LoopSplit{static_cast<unsigned>(dim),
                                           range / count * count})
                 : std::nullopt;
    // A loop that tiles well; the next one matters only when this one,
    // tiled whole, leaves a few tiles in an odd count (a stem's 3 channel
    // blocks over 109 output rows: 3 tiles on 2 threads).
    tiles *= divisor;
    if (divisor != range || tiles % 2 == 0 || tiles >= kMaxEvenedTiles ||
        tiles >= targetTiles)
      return std::nullopt;
  }
  return std::nullopt;
}

/// Thread tiles for the parts of one op (aotc-peel-padded-windows: the
/// interior, then its border strips; aotc-winograd-convolutions: the rows
/// of a transform) along the loops they all span whole (a depthwise
/// convolution's channels, not the rows and columns the strips cut),
/// chosen for the interior (the first part) and the parts' total work:
/// every part then loops over the same tiles, so that one thread loop
/// computes them all (fuseBoxedParts) instead of one loop per part, the
/// small parts running sequentially (four transform rows of 8192
/// iterations each at 13 x 13: one loop of 32768, not four sequential
/// ones). None when the parts together hold less than min-work iterations,
/// or when these tiles are fewer
/// than half of those the interior alone would get (an image of 3
/// channels): the parts are then distributed one by one.
std::optional<SmallVector<int64_t>>
ThreadTiling::partTileSizes(ArrayRef<linalg::LinalgOp> parts) const {
  linalg::LinalgOp interior = parts.front();
  int64_t work = 0;
  for (linalg::LinalgOp part : parts)
    work += workOf(part);
  if (work < minWorkOf(interior) || aotc::contractionTileDims(interior))
    return std::nullopt;
  SmallVector<int64_t> ranges = interior.getStaticLoopRanges();
  SmallVector<bool> cut(ranges.size(), false);
  for (linalg::LinalgOp part : parts.drop_front())
    for (auto [i, range] : llvm::enumerate(part.getStaticLoopRanges()))
      cut[i] = cut[i] || range != ranges[i];
  RegisterTile registerTile = this->registerTile();
  int64_t targetTiles = tilesFor(work, /*contraction=*/false);
  auto sizesFor = [&](ArrayRef<bool> whole) {
    return evenTileSizes(interior,
                         computeForallTileSizes(interior, targetTiles,
                                                registerTile,
                                                kMinContractionColumns,
                                                kMinContractionRows, whole),
                         /*contraction=*/false, registerTile,
                         kMinContractionColumns, kMinContractionRows, whole);
  };
  SmallVector<int64_t> sizes = sizesFor(cut);
  int64_t tiles = tileCount(interior, sizes);
  if (tiles <= 1 || 2 * tiles < tileCount(interior, sizesFor({})))
    return std::nullopt;
  return sizes;
}

ThreadPlan ThreadTiling::plan(linalg::LinalgOp op, bool allowEvenSplit) const {
  ThreadPlan plan;
  if (allowEvenSplit)
    if (std::optional<LoopSplit> split = evenSplit(op)) {
      plan.kind = ThreadPlan::Kind::SplitEven;
      plan.split = *split;
      return plan;
    }
  int64_t work = workOf(op);
  if (work < minWorkOf(op))
    return plan;
  bool contraction = contractionTileDims(op).has_value();
  if (std::optional<LoopSplit> split =
          remainderSplit(op, tilesFor(work, contraction))) {
    plan.kind = ThreadPlan::Kind::SplitRemainder;
    plan.split = *split;
    return plan;
  }
  return tilePlan(op);
}

ThreadPlan ThreadTiling::tilePlan(linalg::LinalgOp op) const {
  ThreadPlan plan;
  int64_t work = workOf(op);
  if (work < minWorkOf(op))
    return plan;
  bool contraction = contractionTileDims(op).has_value();
  int64_t targetTiles = tilesFor(work, contraction);
  int64_t minColumns = kMinContractionColumns;
  int64_t minRows = kMinContractionRows;
  std::optional<SmallVector<int64_t>> planned =
      plannedTileSizes(op, targetTiles, minColumns, minRows);
  SmallVector<int64_t> sizes;
  if (planned) {
    sizes = evenTileSizes(op, std::move(*planned), contraction, registerTile(),
                          minColumns, minRows);
  } else {
    // A contraction too small for thread tiles of 64 rows or whole column
    // blocks (a 7 x 7 image's 49 pixels times 5 panels of output channels,
    // which would run on one thread): the rows beyond the last whole
    // register tile are split off into an op of their own (49 -> 48 + 1)
    // and the bulk is tiled by whole register tiles (each tile then reads
    // all of the right-hand side). plannedTileSizes gives none only when
    // the rows hold two register tiles or more.
    unsigned row = contractionTileDims(op)->first;
    int64_t rows = op.getStaticLoopRanges()[row];
    int64_t registerRows = registerTile().rows;
    int64_t bulk = rows / registerRows * registerRows;
    assert(bulk >= 2 * registerRows &&
           "no planned sizes only with two register tiles of rows");
    if (bulk != rows) {
      plan.kind = ThreadPlan::Kind::SplitRows;
      plan.split = {row, bulk};
      plan.targetTiles = targetTiles;
      plan.minColumns = minColumns;
      return plan;
    }
    sizes = rowTileSizes(op, targetTiles, minColumns);
  }
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return plan;
  plan.kind = ThreadPlan::Kind::Tiles;
  plan.sizes = std::move(sizes);
  return plan;
}

SmallVector<int64_t> ThreadTiling::rowTileSizes(linalg::LinalgOp bulk,
                                                int64_t targetTiles,
                                                int64_t minColumns) const {
  RegisterTile tile = registerTile();
  SmallVector<int64_t> sizes = computeForallTileSizes(
      bulk, targetTiles, tile, minColumns, /*minRows=*/tile.rows);
  return evenTileSizes(bulk, std::move(sizes), /*contraction=*/true, tile,
                       minColumns, /*minRows=*/tile.rows);
}

//===----------------------------------------------------------------------===//
// Thread plans on ops
//===----------------------------------------------------------------------===//

namespace {

constexpr std::pair<ThreadPlan::Kind, llvm::StringLiteral> kPlanNames[] = {
    {ThreadPlan::Kind::Sequential, "sequential"},
    {ThreadPlan::Kind::Tiles, "tiles"},
    {ThreadPlan::Kind::Parts, "parts"},
    {ThreadPlan::Kind::SplitEven, "split-even"},
    {ThreadPlan::Kind::SplitRemainder, "split-remainder"},
    {ThreadPlan::Kind::SplitRows, "split-rows"},
};

} // namespace

llvm::StringRef ThreadPlan::kindName(Kind kind) {
  return nameIn(kPlanNames, kind);
}

std::optional<ThreadPlan::Kind> ThreadPlan::kindNamed(llvm::StringRef name) {
  return valueNamed(kPlanNames, name);
}

namespace {

/// The record `name` on `op` when it was made for the op's current loop
/// ranges (its `ranges` field), else null.
DictionaryAttr recordOf(linalg::LinalgOp op, StringRef name) {
  auto dict = op->getAttrOfType<DictionaryAttr>(name);
  if (!dict)
    return {};
  auto ranges = dict.getAs<DenseI64ArrayAttr>("ranges");
  if (!ranges || ranges.asArrayRef() != ArrayRef(op.getStaticLoopRanges()))
    return {};
  return dict;
}

/// Field `key` of a record: one size per loop of `ranges`, each from
/// `least` up to the loop's range; none when it is absent or invalid.
std::optional<SmallVector<int64_t>> sizesIn(DictionaryAttr dict, StringRef key,
                                            ArrayRef<int64_t> ranges,
                                            int64_t least) {
  auto sizes = dict.getAs<DenseI64ArrayAttr>(key);
  if (!sizes || sizes.size() != static_cast<int64_t>(ranges.size()) ||
      llvm::any_of(llvm::zip_equal(sizes.asArrayRef(), ranges), [&](auto pair) {
        auto [size, range] = pair;
        return size < least || size > range;
      }))
    return std::nullopt;
  return llvm::to_vector(sizes.asArrayRef());
}

/// Field `split` = [loop, at] of a record, with 0 < at < the loop's range;
/// none when it is absent or invalid.
std::optional<LoopSplit> splitIn(DictionaryAttr dict,
                                 ArrayRef<int64_t> ranges) {
  auto split = dict.getAs<DenseI64ArrayAttr>("split");
  if (!split || split.size() != 2 || split[0] < 0 ||
      split[0] >= static_cast<int64_t>(ranges.size()) || split[1] <= 0 ||
      split[1] >= ranges[split[0]])
    return std::nullopt;
  return LoopSplit{static_cast<unsigned>(split[0]), split[1]};
}

/// The `split` field of a record.
NamedAttribute splitField(Builder &b, LoopSplit split) {
  return b.getNamedAttr(
      "split",
      b.getDenseI64ArrayAttr({static_cast<int64_t>(split.dim), split.at}));
}

/// The `ranges` field of a record made for `op`.
NamedAttribute rangesField(Builder &b, Operation *op) {
  return b.getNamedAttr(
      "ranges",
      b.getDenseI64ArrayAttr(cast<linalg::LinalgOp>(op).getStaticLoopRanges()));
}

} // namespace

void recordThreadPlan(Operation *op, const ThreadPlan &plan) {
  Builder b(op->getContext());
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("kind", b.getStringAttr(ThreadPlan::kindName(plan.kind))),
      rangesField(b, op)};
  switch (plan.kind) {
  case ThreadPlan::Kind::Sequential:
    break;
  case ThreadPlan::Kind::Tiles:
  case ThreadPlan::Kind::Parts:
    fields.push_back(
        b.getNamedAttr("threads", b.getDenseI64ArrayAttr(plan.sizes)));
    break;
  case ThreadPlan::Kind::SplitRows:
    fields.push_back(
        b.getNamedAttr("target_tiles", b.getI64IntegerAttr(plan.targetTiles)));
    fields.push_back(
        b.getNamedAttr("min_columns", b.getI64IntegerAttr(plan.minColumns)));
    [[fallthrough]];
  case ThreadPlan::Kind::SplitEven:
  case ThreadPlan::Kind::SplitRemainder:
    fields.push_back(splitField(b, plan.split));
    break;
  }
  op->setAttr(kTilesAttrName, b.getDictionaryAttr(fields));
}

std::optional<ThreadPlan> recordedThreadPlan(linalg::LinalgOp op) {
  DictionaryAttr dict = recordOf(op, kTilesAttrName);
  auto kindAttr = dict ? dict.getAs<StringAttr>("kind") : StringAttr();
  std::optional<ThreadPlan::Kind> kind =
      kindAttr ? ThreadPlan::kindNamed(kindAttr.getValue()) : std::nullopt;
  if (!kind)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ThreadPlan plan;
  plan.kind = *kind;
  switch (plan.kind) {
  case ThreadPlan::Kind::Sequential:
    return plan;
  case ThreadPlan::Kind::Tiles:
  case ThreadPlan::Kind::Parts:
    if (std::optional<SmallVector<int64_t>> sizes =
            sizesIn(dict, "threads", ranges, /*least=*/0)) {
      plan.sizes = std::move(*sizes);
      return plan;
    }
    return std::nullopt;
  case ThreadPlan::Kind::SplitRows: {
    auto targetTiles = dict.getAs<IntegerAttr>("target_tiles");
    auto minColumns = dict.getAs<IntegerAttr>("min_columns");
    if (!targetTiles || !minColumns)
      return std::nullopt;
    plan.targetTiles = targetTiles.getInt();
    plan.minColumns = minColumns.getInt();
    [[fallthrough]];
  }
  case ThreadPlan::Kind::SplitEven:
  case ThreadPlan::Kind::SplitRemainder:
    if (std::optional<LoopSplit> split = splitIn(dict, ranges)) {
      plan.split = *split;
      return plan;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Register tiles and cache blocks
//===----------------------------------------------------------------------===//

namespace {

/// Cache block of a contraction: at most cacheDepth reduction steps and
/// kCacheLanes columns, or as many more columns as a shallower reduction
/// leaves room for, so the right-hand block stays in L2 while every row of
/// the left-hand side streams past it.
constexpr int64_t kCacheLanes = 256;
/// Reduction steps of that block: 256 (256 x 256 f32 = 256 KiB, within the
/// 256 KiB to 512 KiB L2 of AVX2 cores), 512 with 512-bit registers (512
/// KiB, within the 1 MiB or more L2 of AVX-512 server cores and Zen 4 / 5):
/// a deeper block halves the passes over the output per reduction, and the
/// models' contractions of 257 to 512 reduced elements are no longer split,
/// so their bias and activation join the register tiles.
inline int64_t cacheDepth(int64_t vectorBits) {
  return vectorBits >= 512 ? 512 : 256;
}
/// Bytes of the rows' block that register tiles read again for each panel
/// (aotc::rereadRowBytesPerStep) at most: three quarters of the L1 data
/// cache, the rest for a panel next to it (24 KiB of 32 KiB); and the
/// fewest reduction steps that bound may allow for a block to be cut to it.
int64_t l1RowBlockBytes(const aotc::CpuTarget &target) {
  return target.l1Bytes * 3 / 4;
}
constexpr int64_t kMinRowBlockDepth = 128;

/// The largest divisor of `size` that is a multiple of `step` and at most
/// `limit`; `size` when there is none.
int64_t largestMultipleDivisorAtMost(int64_t size, int64_t step,
                                     int64_t limit) {
  for (int64_t d = limit / step * step; d >= step; d -= step)
    if (size % d == 0)
      return d;
  return size;
}

} // namespace

/// The innermost loop of `op` when it is a parallel loop along which a
/// vector reads and writes contiguous elements (not a contraction or a
/// transpose), with a range that is not a whole number of `lanes`.
std::optional<unsigned> partialRowLoop(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || aotc::contractionTileDims(op) ||
      !aotc::transposedInputLoops(op).empty())
    return std::nullopt;
  unsigned inner = ranges.size() - 1;
  if (!linalg::isParallelIterator(op.getIteratorTypesArray()[inner]) ||
      ShapedType::isDynamic(ranges[inner]) || ranges[inner] % lanes == 0)
    return std::nullopt;
  return inner;
}

/// The split of a transpose (an op reading an input through a permutation,
/// not a contraction) at the last whole register of its innermost or a
/// transposed loop longer than one register but not a whole number of
/// them: a 16 x 196 transpose (a 14 x 14 image's channel block) as 16 x
/// 192 in squares of 16 x 16 lanes and a 16 x 4 part, not 14 squares of
/// 16 x 14, which LLVM transposes with shuffles of part registers at a
/// third of the speed. Each part is planned on its own; none otherwise.
std::optional<LoopSplit> transposeSplit(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<unsigned> loops = aotc::transposedInputLoops(op);
  if (loops.empty() || aotc::contractionTileDims(op))
    return std::nullopt;
  loops.push_back(op.getNumLoops() - 1);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned loop : loops)
    if (!ShapedType::isDynamic(ranges[loop]) && ranges[loop] > lanes &&
        ranges[loop] % lanes != 0)
      return LoopSplit{loop, ranges[loop] / lanes * lanes};
  return std::nullopt;
}

/// Row panels a register tile of the contraction `op` spans (before
/// dividing the panels): more than one when its lanes are one register or
/// less on rows in row panels (the columns past the last whole panel of a
/// 13 x 13 image: 169 = 10 x 16 + 9), whose one-panel tile would leave too
/// few accumulators, too few FMA chains to hide the FMAs' latency: as many
/// panels as the accumulators of a full tile allow (2 x 5 rows with 256-bit
/// registers, 2 x 8 with 512-bit ones). 1 otherwise, or without row panels.
int64_t rowPanelSpan(linalg::LinalgOp op, int64_t lanes,
                     VectorRegisters registers) {
  auto [row, lane] = *aotc::contractionTileDims(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!aotc::contractionPanelLoop(op, row) ||
      largestDivisorAtMost(ranges[lane], kContractionRegistersPerRow * lanes) >
          lanes)
    return 1;
  int64_t rows = largestDivisorAtMost(
      ranges[row], aotc::contractionRowTile(ranges[row], registers));
  int64_t accumulators =
      aotc::contractionRows(registers) * kContractionRegistersPerRow;
  return std::max<int64_t>(1, accumulators / rows);
}

/// Register tile sizes for `op`: one vector register along the innermost
/// loop (a whole row of up to kWholeRowRegisters registers when it is not a
/// number of registers), a register accumulator block of
/// aotc::contractionRowTile rows x kContractionRegistersPerRow registers
/// for contractions (on `registers`), a square lanes x lanes
/// block for transposes, 1 elsewhere.
SmallVector<int64_t> registerTileSizes(linalg::LinalgOp op, int64_t lanes,
                                       VectorRegisters registers) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  if (ranges.empty())
    return sizes;
  if (auto dims = aotc::contractionTileDims(op)) {
    auto [row, lane] = *dims;
    sizes[row] = largestDivisorAtMost(
        ranges[row], aotc::contractionRowTile(ranges[row], registers));
    sizes[lane] =
        largestDivisorAtMost(ranges[lane], kContractionRegistersPerRow * lanes);
    int64_t accumulators =
        aotc::contractionRows(registers) * kContractionRegistersPerRow;
    // Lanes of one register or less on rows in row panels: the register
    // tile spans several row panels (rowPanelSpan).
    if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, row))
      sizes[*panel] = largestDivisorAtMost(ranges[*panel],
                                           rowPanelSpan(op, lanes, registers));
    // One row whose lanes are one column panel (the row past the last whole
    // register tile of 49 = 8 x 6 + 1 rows) would leave as few accumulators,
    // each FMA waiting on the one before: the register tile spans as many
    // column panels as the accumulators of a full one allow.
    if (std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane);
        panel && sizes[row] == 1 && sizes[lane] == ranges[lane]) {
      int64_t registers = llvm::divideCeil(sizes[lane], lanes);
      sizes[*panel] = largestDivisorAtMost(
          ranges[*panel], std::max<int64_t>(1, accumulators / registers));
    }
    return sizes;
  }
  unsigned inner = ranges.size() - 1;
  sizes[inner] = largestDivisorAtMost(ranges[inner], lanes);
  if (partialRowLoop(op, lanes) && ranges[inner] <= kWholeRowRegisters * lanes)
    sizes[inner] = ranges[inner];
  // Transposes: an input read along the lanes with a stride (its innermost
  // dimension is another parallel loop) would be gathered element by
  // element; a square tile reads whole rows of it instead and transposes
  // them in registers.
  for (unsigned minor : aotc::transposedInputLoops(op))
    sizes[minor] = largestDivisorAtMost(ranges[minor], lanes);
  return sizes;
}

/// Makes a generic that reads its init through an input as well (the same
/// value at the same indexing map: a residual add written in place on a
/// contraction's result) read the init's block argument instead, and drops
/// the input. Tiled on its own, the input's slices would be read from the
/// value before the tile loop's writes into the init, which bufferizes as a

/// Cache tile sizes of a contraction (0: loop not tiled): column blocks of
/// whole register tiles and reduction blocks; empty when the op fits.
SmallVector<int64_t> cacheTileSizes(linalg::LinalgOp op,
                                    ArrayRef<int64_t> registerSizes,
                                    int64_t vectorBits) {
  auto dims = aotc::contractionTileDims(op);
  if (!dims)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned lane = dims->second;
  unsigned depth = linalg::inferContractionDims(op)->k.back();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t blockDepth = cacheDepth(vectorBits);
  int64_t steps = largestDivisorAtMost(ranges[depth], blockDepth);
  // Register tiles that loop over the panels outside the rows read the
  // rows' block again for each panel: a block of fewer steps keeps it in L1
  // (MobileNetV2's 960 -> 320 projection on 7 x 7 pixels: 240 steps x 48
  // rows = 45 KiB, 120 steps = 22.5 KiB). Only for a reduction split
  // anyway (a whole one keeps its init in the register tiles, see below),
  // only to a divisor at least half the bound (1048 = 8 x 131 steps would
  // go to 8), and at most to half the steps: a deeper cut adds more passes
  // over the output than the L2 reads it saves cost (GEMM 1024^3 with a
  // 48 KiB L1: 512 -> 128 steps took 1.04x / 1.03x the time, 1 / 2
  // threads).
  if (int64_t perStep = aotc::rereadRowBytesPerStep(op);
      perStep && steps < ranges[depth]) {
    int64_t limit = l1RowBlockBytes(aotc::CpuTarget::of(op)) / perStep;
    if (steps > limit && limit >= kMinRowBlockDepth) {
      int64_t cut = largestDivisorAtMost(ranges[depth], limit);
      if (2 * cut >= limit && 2 * cut >= steps)
        steps = cut;
    }
  }
  // A shallow reduction (64 channels) fits wider blocks: fewer of them, and
  // none at all keeps the accumulators' fill or bias in their register
  // tiles (see runOnOperation) instead of a pass over the output before.
  int64_t columns = largestMultipleDivisorAtMost(
      ranges[lane], registerSizes[lane], kCacheLanes * blockDepth / steps);
  if (columns < ranges[lane])
    sizes[lane] = columns;
  // Panels (aotc-pack-contraction-operands): the lanes are one panel, the
  // column block is a number of panels along the panel loop just outside.
  std::optional<unsigned> panel = aotc::contractionPanelLoop(op, lane);
  if (panel && ranges[lane] <= registerSizes[lane]) {
    int64_t panels = std::max<int64_t>(1, kCacheLanes / ranges[lane]);
    int64_t block = largestMultipleDivisorAtMost(ranges[*panel],
                                                 registerSizes[*panel], panels);
    if (block < ranges[*panel])
      sizes[*panel] = block;
  }
  if (steps < ranges[depth] && steps > 1)
    sizes[depth] = steps;
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return {};
  return sizes;
}

/// True when a contraction's cache blocks (cacheTileSizes) split its
/// reduction and nothing else: one loop of reduction blocks around the
/// whole thread tile, whose first block can start its accumulators from
/// the init producer in registers (TileAndVectorizePass::tileAndVectorize).
bool splitsOnlyReduction(linalg::LinalgOp op, ArrayRef<int64_t> cacheSizes) {
  unsigned depth = linalg::inferContractionDims(op)->k.back();
  for (auto [dim, size] : llvm::enumerate(cacheSizes))
    if (size != 0 && dim != depth)
      return false;
  return !cacheSizes.empty() && cacheSizes[depth] != 0;
}

bool splitsOnlyParallelLoops(linalg::LinalgOp op,
                             ArrayRef<int64_t> cacheSizes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [dim, size] : llvm::enumerate(cacheSizes))
    if (size != 0 && size < ranges[dim] &&
        iterators[dim] != utils::IteratorType::parallel)
      return false;
  return true;
}

int64_t vectorLanesOf(linalg::LinalgOp op, int64_t vectorBits) {
  unsigned bits = widestElementBits(op);
  // No loop, no lanes: a rank-0 op computes one element (and upstream
  // vectorization turns its data-dependent tensor.extract into a
  // vector.gather of a scalar index, which does not verify).
  if (bits == 0 || op.getNumLoops() == 0 ||
      linalg::isaConvolutionOpInterface(op) ||
      failed(linalg::vectorizeOpPrecondition(op)))
    return 0;
  return registerLanes(vectorBits, bits);
}

RegisterPlan planRegisters(linalg::LinalgOp op, int64_t lanes,
                           VectorRegisters registers) {
  RegisterPlan plan;
  plan.lanes = lanes;
  // A longer row that is not a whole number of registers (a 12321-wide
  // flattened image): register tiles, then one part-register tile (instead
  // of 4107 vectors of 3 lanes, 3 being its largest divisor up to 16).
  if (std::optional<unsigned> inner = partialRowLoop(op, lanes)) {
    int64_t range = op.getStaticLoopRanges()[*inner];
    if (range > kWholeRowRegisters * lanes) {
      plan.split = LoopSplit{*inner, range / lanes * lanes};
      return plan;
    }
  }
  if (std::optional<LoopSplit> split = transposeSplit(op, lanes)) {
    plan.split = split;
    return plan;
  }
  plan.registers = registerTileSizes(op, lanes, registers);
  plan.cache = cacheTileSizes(op, plan.registers, registers.bits);
  return plan;
}

void recordRegisterPlan(Operation *op, const RegisterPlan &plan) {
  Builder b(op->getContext());
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("lanes", b.getI64IntegerAttr(plan.lanes)),
      rangesField(b, op)};
  if (plan.split) {
    fields.push_back(splitField(b, *plan.split));
  } else {
    fields.push_back(
        b.getNamedAttr("registers", b.getDenseI64ArrayAttr(plan.registers)));
    if (!plan.cache.empty())
      fields.push_back(
          b.getNamedAttr("cache", b.getDenseI64ArrayAttr(plan.cache)));
  }
  op->setAttr(kRegisterTilesAttrName, b.getDictionaryAttr(fields));
}

std::optional<RegisterPlan> recordedRegisterPlan(linalg::LinalgOp op) {
  DictionaryAttr dict = recordOf(op, kRegisterTilesAttrName);
  auto lanes = dict ? dict.getAs<IntegerAttr>("lanes") : IntegerAttr();
  if (!lanes || lanes.getInt() < 1)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  RegisterPlan plan;
  plan.lanes = lanes.getInt();
  if (dict.get("split")) {
    plan.split = splitIn(dict, ranges);
    return plan.split ? std::optional(plan) : std::nullopt;
  }
  std::optional<SmallVector<int64_t>> registers =
      sizesIn(dict, "registers", ranges, /*least=*/1);
  if (!registers)
    return std::nullopt;
  plan.registers = std::move(*registers);
  if (dict.get("cache")) {
    std::optional<SmallVector<int64_t>> cache =
        sizesIn(dict, "cache", ranges, /*least=*/0);
    if (!cache)
      return std::nullopt;
    plan.cache = std::move(*cache);
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

namespace {

/// Fewest rows for which packing a right-hand side computed at run time
/// pays: each packed element is then read by at least this many rows.
constexpr int64_t kMinRowsToPack = 64;
/// The same when the right-hand side's rows are a multiple of 4 KiB or
/// 2 KiB apart: a register tile's panel, one cache line per reduction step,
/// then falls into one or two of the 64 sets of a 32 KiB 8-way L1 (8 or 16
/// of its lines stay there) and every row tile reads it again from L2, so
/// fewer rows repay the copy: 32 with rows a multiple of 4 KiB apart (one
/// set), 48 with 2 KiB (two sets); 12 rows do not, nor do rows 3 KiB apart,
/// which spread over the sets.
constexpr int64_t kMinRowsToPackAliased4K = 32;
constexpr int64_t kMinRowsToPackAliased2K = 48;
/// Deepest reduction over a right-hand side computed at run time that is
/// read in place, unpacked: a register tile's columns over at most 128
/// steps (16 KiB of f32 with 32 lanes) stay in L1 once the first row tile
/// has read them, whatever the distance between its rows, so packing would
/// only add a copy of the whole operand (ResNet-18's Winograd contractions
/// over 64 and 128 input channels, MobileNetV2's 24 -> 144 1x1
/// convolution).
constexpr int64_t kMaxUnpackedDepth = 128;

/// Fewest output columns for which packing such a left-hand side pays:
/// two column blocks of aotc-tile-and-vectorize (256 columns each).
constexpr int64_t kMinColumnsToPackLhs = 512;

/// Fewest rows of a contraction for which its right-hand side ([..., K, N],
/// computed at run time, rows of `rowBytes`) is packed: fewer when its rows
/// alias in L1.
int64_t minRowsToPack(int64_t rowBytes, const CpuTarget &target) {
  if (rowBytes % target.l1SetStride() == 0)
    return kMinRowsToPackAliased4K;
  if (rowBytes % (target.l1SetStride() / 2) == 0)
    return kMinRowsToPackAliased2K;
  return kMinRowsToPack;
}

} // namespace

std::optional<bool> transposesLanes(int64_t rows, int64_t lanes,
                                    int64_t depth, VectorRegisters registers) {
  int64_t panel =
      kContractionRegistersPerRow * registerLanes(registers.bits, 32);
  // Few lanes, or a right-hand side that would be packed at run time at a
  // higher cost (K x N copied) than the two transposes (2 x M x N).
  bool fewLanes = lanes < 2 * panel;
  bool costlyPack = depth > 2 * rows;
  // Or lanes short of four panels by a remainder, on rows that only have
  // register tiles of fewer rows than the most: the remainder op would read
  // all the rows again for a column or so, and the rest run on the smaller
  // register tiles (MobileNetV2's 320 -> 1280 expansion at 7 x 7 with 256-bit
  // registers: 49 columns = 3 panels + 1, 1280 rows in tiles of 5, not 6).
  // Transposed, the remainder is a row inside each thread tile, which reads
  // the panels there from cache.
  bool partialLanes = lanes < 4 * panel && lanes % panel != 0 &&
                      contractionRowTile(rows, registers) <
                          contractionRows(registers);
  // The rows become the lanes: whole panels of them, at least two.
  if ((!fewLanes && !costlyPack && !partialLanes) || rows < 2 * panel ||
      rows % panel != 0)
    return std::nullopt;
  return fewLanes;
}

bool packsRuntimeRhs(int64_t rows, int64_t depth, int64_t rowBytes,
                     const CpuTarget &target) {
  return rows >= minRowsToPack(rowBytes, target) && depth > kMaxUnpackedDepth;
}

/// Either rows a whole multiple of the L1 set stride apart (K = 1024 f32
/// and multiples: a register tile's rows then fall in one L1 set and evict
/// each other), or rows that are a whole number of register tiles (one
/// stream instead of t; with rows left over, the split-off remainder reads
/// the whole right-hand side once more, outside the cache blocks of the
/// rest, 197 x 3072 x 768, which only the aliased rows repay); at least two
/// register tiles of rows; and a constant, or kMinColumnsToPackLhs output
/// columns (each row panel is read again for every column block).
bool packsLhs(int64_t rows, int64_t depth, int64_t columns, int64_t tile,
              bool constant, const CpuTarget &target) {
  bool aliased = (depth * 4) % target.l1SetStride() == 0;
  bool wholePanels = rows % tile == 0;
  if (rows < 2 * tile || (!aliased && !wholePanels))
    return false;
  return constant || columns >= kMinColumnsToPackLhs;
}


namespace {

constexpr std::pair<PackingPlan::Layout, llvm::StringLiteral> kLayoutNames[] = {
    {PackingPlan::Layout::None, "none"},
    {PackingPlan::Layout::CompileTime, "compile-time"},
    {PackingPlan::Layout::RunTime, "run-time"},
};

} // namespace

llvm::StringRef PackingPlan::layoutName(Layout layout) {
  return nameIn(kLayoutNames, layout);
}

std::optional<PackingPlan::Layout>
PackingPlan::layoutNamed(llvm::StringRef name) {
  return valueNamed(kLayoutNames, name);
}

void recordPackingPlan(Operation *op, const PackingPlan &plan) {
  Builder b(op->getContext());
  auto layout = [&](StringRef key, PackingPlan::Layout l) {
    return b.getNamedAttr(key,
                          b.getStringAttr(PackingPlan::layoutName(l)));
  };
  SmallVector<NamedAttribute> fields = {rangesField(b, op)};
  if (plan.transpose)
    fields.push_back(b.getNamedAttr("transpose", b.getUnitAttr()));
  else
    fields.append({layout("rhs", plan.rhs), layout("lhs", plan.lhs),
                   layout("remainder_lhs", plan.remainderLhs)});
  op->setAttr(kPackingAttrName, b.getDictionaryAttr(fields));
}

std::optional<PackingPlan> recordedPackingPlan(linalg::LinalgOp op) {
  DictionaryAttr dict = recordOf(op, kPackingAttrName);
  if (!dict)
    return std::nullopt;
  PackingPlan plan;
  if (dict.get("transpose")) {
    plan.transpose = true;
    return plan;
  }
  for (auto [key, field] :
       {std::pair{"rhs", &plan.rhs}, std::pair{"lhs", &plan.lhs},
        std::pair{"remainder_lhs", &plan.remainderLhs}}) {
    auto name = dict.getAs<StringAttr>(key);
    std::optional<PackingPlan::Layout> layout =
        name ? PackingPlan::layoutNamed(name.getValue()) : std::nullopt;
    if (!layout)
      return std::nullopt;
    *field = *layout;
  }
  return plan;
}

int64_t maskedAccessLanes(int64_t lanes, int64_t elementBits,
                          const CpuTarget &target) {
  // LLVM splits a vector whose lanes past the last whole register are not
  // a power of two into power-of-two pieces: a load of 14 floats is loads
  // of 8, 4 and 2 plus two inserts (MnasNet's 5x5 depthwise convolutions on
  // 28-wide rows, vectors of 14). AVX-512 loads any lanes of a register
  // under a mask in one instruction, for 32- and 64-bit elements (AVX2's
  // vmaskmov is slower than a load on AMD cores; Neon has none).
  if (!target.has("avx512f") || (elementBits != 32 && elementBits != 64))
    return 0;
  int64_t rest = lanes % std::max<int64_t>(1, target.vectorBits / elementBits);
  if (rest == 0 || llvm::isPowerOf2_64(rest))
    return 0;
  return lanes - rest + static_cast<int64_t>(llvm::PowerOf2Ceil(rest));
}

} // namespace aotc
