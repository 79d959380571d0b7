//===- StageExternOutputs.cpp - Outputs held past extern calls -*- C++ -*-===//
//
// This file implements the aotc-stage-extern-outputs pass: an entry point
// that calls extern kernels gets one pool slot per output after its planned
// scratch buffers, recorded as `aotc.pool` `output_staging`. The entry
// point computes its outputs there and copies them to the caller's buffers
// once every kernel returned AOT_OK (aotc-emit-entry-points), so that a
// failing kernel leaves the outputs untouched.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_STAGEEXTERNOUTPUTS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct StageExternOutputsPass
    : aotc::impl::StageExternOutputsBase<StageExternOutputsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<std::optional<aotc::EntryPointSignature>> read =
        aotc::readEntryPoint(func);
    if (failed(read))
      return signalPassFailure();
    std::optional<aotc::EntryPointSignature> &sig = *read;
    auto pool = func->getAttrOfType<DictionaryAttr>(aotc::kPoolAttrName);
    if (!sig || func.isExternal() || !pool || sig->outputs.empty())
      return;
    bool callsExtern = false;
    func.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      callsExtern |= callee && callee->hasAttr(aotc::kExternAttrName);
    });
    // Outputs sized by symbolic dimensions have no fixed slot: they are
    // written in place, as without extern kernels.
    if (!callsExtern || !sig->symbols.empty())
      return;
    if (pool.get("output_staging")) {
      func.emitError("the memory plan has output staging slots already");
      return signalPassFailure();
    }
    func->setAttr(aotc::kPoolAttrName,
                  aotc::appendPoolSlots(pool, *sig, sig->outputs,
                                        "output_staging"));
  }
};

} // namespace
