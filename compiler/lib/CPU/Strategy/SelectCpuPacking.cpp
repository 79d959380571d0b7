//===- SelectCpuPacking.cpp - Operand layouts per contraction -*- C++ -*-===//
//
// This file implements the aotc-select-cpu-packing pass: the packing
// decision of every contraction (aotc::planPacking), recorded as
// `aotc.packing` and appended to the strategy table.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Passes.h"
#include "aotc/CPU/Strategy/Table.h"
#include "aotc/CPU/Tiling/Packing.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Common/TilingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace aotc {
#define GEN_PASS_DEF_SELECTCPUPACKING
#include "aotc/CPU/Strategy/Passes.h.inc"
} // namespace aotc

using namespace mlir;
using aotc::PackingPlan;

namespace {

/// The decision column of the table: `packing:` and the layouts.
void printPlan(llvm::raw_ostream &os, const PackingPlan &plan) {
  os << "packing: ";
  if (plan.transpose) {
    os << "output transposed (rows as lanes; the result planned anew)\n";
    return;
  }
  os << "right-hand side " << PackingPlan::layoutName(plan.rhs)
     << ", left-hand side " << PackingPlan::layoutName(plan.lhs);
  if (plan.remainderLhs != PackingPlan::Layout::None)
    os << " (remainder columns: "
       << PackingPlan::layoutName(plan.remainderLhs) << ")";
  os << "\n";
}

struct SelectCpuPackingPass
    : aotc::impl::SelectCpuPackingBase<SelectCpuPackingPass> {
  using Base::Base;

  void runOnOperation() override {
    aotc::VectorRegisters registers =
        aotc::vectorRegistersOf(getOperation(), vectorBitsOption);
    auto decide = [&](linalg::LinalgOp op, llvm::raw_ostream *row) {
      if (!aotc::contractionTileDims(op))
        return false;
      PackingPlan plan = aotc::planPacking(op, registers);
      aotc::recordPackingPlan(op, plan);
      if (row)
        printPlan(*row, plan);
      return true;
    };
    if (failed(aotc::recordPerOp(getOperation(), table, decide)))
      return signalPassFailure();
  }
};

} // namespace
