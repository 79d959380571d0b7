//===- SelectCpuStrategy.cpp - One path per op ----------------*- C++ -*-===//
//
// This file implements the aotc-select-cpu-strategy pass: the convolution
// path of every windowed op, chosen in one place from the paths'
// preconditions and recorded as `aotc.strategy`, plus the strategy table
// that `aotc --dump-dir` writes.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/CPU/Strategy/Passes.h"
#include "aotc/CPU/Strategy/Table.h"
#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/Support/raw_ostream.h"

namespace aotc {
#define GEN_PASS_DEF_SELECTCPUSTRATEGY
#include "aotc/CPU/Strategy/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::ConvolutionPath;

namespace {

/// Why each path is taken, one line each (the strategy table's last column;
/// docs/architecture.md has the full rules).
llvm::StringRef reasonOf(ConvolutionPath path) {
  switch (path) {
  case ConvolutionPath::PointwiseMatmul:
    return "1x1 window, stride 1: a contraction over input channels";
  case ConvolutionPath::Winograd:
    return "3x3 stride 1 (dilated: on its phase images), enough channels "
           "and tiles: 36 products per 4x4 tile or 16 per 2x2 instead of "
           "144 or 36";
  case ConvolutionPath::ChannelLanes:
    return "output channels fill register panels and the reduction is deep "
           "(or a wide depthwise window on narrow rows): direct, channels "
           "as lanes";
  case ConvolutionPath::Im2col:
    return "the column copy pays: one contraction over C x kh x kw";
  case ConvolutionPath::StridePhases:
    return "column stride 2: even and odd columns as two stride-1 "
           "convolutions";
  case ConvolutionPath::FlatImage:
    return "stride 1 over input channels: whole registers of the flattened "
           "image";
  case ConvolutionPath::FlatDepthwise:
    return "small depthwise images: every channel's flattened image at once";
  case ConvolutionPath::PeeledWindows:
    return "padded windows: the interior reads the input in place, border "
           "strips apart";
  case ConvolutionPath::ColumnPhases:
    return "column stride 2, padded in each thread tile: the tile's buffer "
           "as even and odd columns, each tap one register";
  case ConvolutionPath::Direct:
    return "no path above applies: direct register tiles of the window, "
           "a padded input padded in each thread tile";
  case ConvolutionPath::Generic:
    return "--strategy=generic";
  }
  return "";
}

/// The kind of an op no convolution path concerns, for the table.
llvm::StringRef kindOf(linalg::LinalgOp op) {
  if (linalg::isaContractionOpInterface(op))
    return "contraction";
  if (op.getNumReductionLoops() > 0)
    return "reduction";
  return "elementwise";
}

struct SelectCpuStrategyPass
    : aotc::impl::SelectCpuStrategyBase<SelectCpuStrategyPass> {
  using Base::Base;

  /// The vector register file: the option's width when set, else the
  /// module's CpuTarget's (aotc::vectorRegistersOf).
  aotc::VectorRegisters registers;

  void runOnOperation() override {
    registers = aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    // 1. One path per op, recorded on it, function by function.
    std::string rows;
    llvm::raw_string_ostream out(rows);
    getOperation().walk([&](func::FuncOp func) {
      aotc::ThreadTiling tiling = aotc::ThreadTiling::forOps(
          aotc::distributableOps(func), minWork, maxTiles, registers);
      func.walk([&](linalg::LinalgOp op) {
        std::optional<ConvolutionPath> path = select(op, tiling);
        if (path)
          aotc::recordPath(op, *path);
        printRow(out, func, op, path);
      });
    });
    // 2. The table, when asked for.
    if (!table.empty() &&
        failed(aotc::writeStrategyTable(getOperation(), table, rows,
                                        /*append=*/false)))
      return signalPassFailure();
  }

  /// The first path whose precondition holds, in the order of preference
  /// (the order the passes carrying them out run in); Direct for other
  /// windowed ops; none for ops no convolution path concerns. `tiling`:
  /// the thread tiles the ops will get.
  std::optional<ConvolutionPath> select(linalg::LinalgOp op,
                                        const aotc::ThreadTiling &tiling) {
    bool windowed = aotc::isWindowedOp(op);
    auto first = [&]() -> std::optional<ConvolutionPath> {
      if (aotc::canUsePointwiseMatmul(op))
        return ConvolutionPath::PointwiseMatmul;
      if (winograd && aotc::canUseWinograd(op, winogradMinChannels))
        return ConvolutionPath::Winograd;
      if (aotc::canUseChannelLanes(op, registers))
        return ConvolutionPath::ChannelLanes;
      if (aotc::canUseIm2col(op, registers.bits))
        return ConvolutionPath::Im2col;
      if (aotc::canUseStridePhases(op))
        return ConvolutionPath::StridePhases;
      if (aotc::canUseFlatImage(op))
        return ConvolutionPath::FlatImage;
      if (aotc::canUseFlatDepthwise(op, registers.bits))
        return ConvolutionPath::FlatDepthwise;
      bool phases = aotc::canUseColumnPhases(op, tiling);
      if (aotc::canUsePeeledWindows(op, registers.bits, phases))
        return ConvolutionPath::PeeledWindows;
      if (phases)
        return ConvolutionPath::ColumnPhases;
      if (windowed)
        return ConvolutionPath::Direct;
      return std::nullopt;
    }();
    if (generic && first)
      return ConvolutionPath::Generic;
    return first;
  }

  /// function, location, op, loop ranges, path or kind, reason.
  void printRow(llvm::raw_ostream &os, func::FuncOp func, linalg::LinalgOp op,
                std::optional<ConvolutionPath> path) {
    aotc::printOpColumns(os, func, op);
    if (path)
      os << aotc::pathName(*path) << "\t" << reasonOf(*path);
    else
      os << kindOf(op) << "\t-";
    os << "\n";
  }
};

} // namespace
