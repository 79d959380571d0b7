//===- SelectCpuTiles.cpp - Thread tiles per op ---------------*- C++ -*-===//
//
// This file implements the aotc-select-cpu-tiles pass: the thread-tile
// decision of every op directly in a function body, made by the strategy's
// functions (aotc/CPU/Strategy/Tiles.h), recorded as `aotc.tiles` and
// appended to the strategy table.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Passes.h"
#include "aotc/CPU/Strategy/Table.h"
#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace aotc {
#define GEN_PASS_DEF_SELECTCPUTILES
#include "aotc/CPU/Strategy/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::ThreadPlan;

namespace {

/// The decision column of the table: `threads:`, the kind and its details.
void printPlan(llvm::raw_ostream &os, linalg::LinalgOp op,
               const ThreadPlan &plan, int64_t minWork) {
  os << "threads: " << ThreadPlan::kindName(plan.kind);
  switch (plan.kind) {
  case ThreadPlan::Kind::Sequential:
    os << " (" << aotc::workOf(op) << " iterations";
    if (aotc::workOf(op) < minWork)
      os << " < min-work " << minWork;
    else
      os << ": no loop splits into tiles of the minimum sizes";
    os << ")";
    break;
  case ThreadPlan::Kind::Tiles:
  case ThreadPlan::Kind::Parts:
    os << " [";
    llvm::interleave(plan.sizes, os, ",");
    os << "] (" << aotc::tileCount(op, plan.sizes) << " tiles)";
    break;
  case ThreadPlan::Kind::SplitEven:
  case ThreadPlan::Kind::SplitRemainder:
  case ThreadPlan::Kind::SplitRows:
    os << " loop " << plan.split.dim << " at " << plan.split.at;
    break;
  }
  // The layouts aotc-pack-contraction-operands gave a contraction's
  // operands (aotc::packsRuntimeRhs, aotc::packsLhs).
  if (std::optional<std::pair<unsigned, unsigned>> dims =
          aotc::contractionTileDims(op)) {
    if (aotc::contractionPanelLoop(op, dims->second))
      os << "; right-hand side in column panels";
    if (aotc::contractionPanelLoop(op, dims->first))
      os << "; left-hand side in row panels";
  }
  os << "\n";
}

struct SelectCpuTilesPass : aotc::impl::SelectCpuTilesBase<SelectCpuTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    aotc::VectorRegisters registers =
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    std::string rows;
    llvm::raw_string_ostream out(rows);
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      SmallVector<linalg::LinalgOp> ops = aotc::distributableOps(func);
      aotc::ThreadTiling tiling =
          aotc::ThreadTiling::forOps(ops, minWork, maxTiles, registers);
      // The parts of one op share tiles when the interior has the work for
      // it.
      llvm::DenseMap<Operation *, SmallVector<int64_t>> partSizes;
      for (auto &[group, parts] : aotc::siblingGroups(ops))
        if (std::optional<SmallVector<int64_t>> sizes =
                tiling.partTileSizes(parts))
          for (linalg::LinalgOp part : parts)
            partSizes[part] = *sizes;
      for (linalg::LinalgOp op : ops) {
        ThreadPlan plan;
        if (auto it = partSizes.find(op); it != partSizes.end()) {
          plan.kind = ThreadPlan::Kind::Parts;
          plan.sizes = it->second;
        } else {
          plan = tiling.plan(op);
        }
        aotc::recordThreadPlan(op, plan);
        if (!table.empty()) {
          aotc::printOpColumns(out, func, op);
          printPlan(out, op, plan, tiling.minWorkOf(op));
        }
      }
    }
    if (!table.empty() &&
        failed(aotc::writeStrategyTable(getOperation(), table, rows,
                                        /*append=*/true)))
      return signalPassFailure();
  }
};

} // namespace
