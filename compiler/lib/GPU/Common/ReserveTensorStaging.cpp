//===- ReserveTensorStaging.cpp - Pool slots for host tensors -*- C++ -*-===//
//
// This file implements the aotc-reserve-tensor-staging pass: on GPU targets
// with host tensors, each input and output gets an aligned slot in the
// device pool after the planned scratch buffers, which the entry point
// copies the tensor through.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/GPU/Common/Passes.h"


namespace aotc {
#define GEN_PASS_DEF_RESERVETENSORSTAGING
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct ReserveTensorStagingPass
    : aotc::impl::ReserveTensorStagingBase<ReserveTensorStagingPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<std::optional<aotc::EntryPointSignature>> read =
        aotc::readEntryPoint(func);
    if (failed(read))
      return signalPassFailure();
    std::optional<aotc::EntryPointSignature> &sig = *read;
    if (!sig || func.isExternal())
      return;
    auto pool = func->getAttrOfType<DictionaryAttr>(aotc::kPoolAttrName);
    if (!pool || pool.get("staging")) {
      func.emitError("expected a memory plan without staging slots");
      return signalPassFailure();
    }
    SmallVector<aotc::TensorSignature> tensors(sig->inputs.begin(),
                                               sig->inputs.end());
    llvm::append_range(tensors, sig->outputs);
    func->setAttr(aotc::kPoolAttrName,
                  aotc::appendPoolSlots(pool, *sig, tensors, "staging"));
  }
};

} // namespace
