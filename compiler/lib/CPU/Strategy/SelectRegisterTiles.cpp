//===- SelectRegisterTiles.cpp - Register tiles per op --------*- C++ -*-===//
//
// This file implements the aotc-select-register-tiles pass: the
// register-level decision of every op aotc-tile-and-vectorize vectorizes,
// made by the strategy's functions (aotc/CPU/Strategy/Tiles.h), recorded as
// `aotc.register_tiles` and appended to the strategy table.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Passes.h"
#include "aotc/CPU/Strategy/Table.h"
#include "aotc/CPU/Strategy/Tiles.h"
#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace aotc {
#define GEN_PASS_DEF_SELECTREGISTERTILES
#include "aotc/CPU/Strategy/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The decision column of the table: `registers:` and the sizes.
void printPlan(llvm::raw_ostream &os, const aotc::RegisterPlan &plan) {
  os << "registers: ";
  if (plan.split) {
    os << "split loop " << plan.split->dim << " at " << plan.split->at
       << " (whole registers, then a part register)";
  } else {
    os << "[";
    llvm::interleave(plan.registers, os, ",");
    os << "]";
    if (!plan.cache.empty()) {
      os << " cache [";
      llvm::interleave(plan.cache, os, ",");
      os << "]";
    }
  }
  os << " (" << plan.lanes << " lanes)\n";
}

struct SelectRegisterTilesPass
    : aotc::impl::SelectRegisterTilesBase<SelectRegisterTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    aotc::VectorRegisters registers =
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    auto decide = [&](linalg::LinalgOp op, llvm::raw_ostream *row) {
      if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
        return false;
      int64_t lanes = aotc::vectorLanesOf(op, registers.bits);
      if (!lanes)
        return false;
      aotc::RegisterPlan plan = aotc::planRegisters(op, lanes, registers);
      aotc::recordRegisterPlan(op, plan);
      if (row)
        printPlan(*row, plan);
      return true;
    };
    if (failed(aotc::recordPerOp(getOperation(), table, decide)))
      return signalPassFailure();
  }
};

} // namespace
