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

#include "llvm/Support/MathExtras.h"

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
    std::optional<aotc::EntryPointSignature> sig = aotc::readEntryPoint(func);
    if (!sig || func.isExternal())
      return;
    auto pool = func->getAttrOfType<DictionaryAttr>(aotc::kPoolAttrName);
    if (!pool || pool.get("staging")) {
      func.emitError("expected a memory plan without staging slots");
      return signalPassFailure();
    }
    uint64_t alignment = sig->poolAlignment;
    uint64_t end = llvm::alignTo(sig->poolBytes, alignment);
    uint64_t staged = 0;
    SmallVector<int64_t> offsets;
    for (const aotc::TensorSignature &t :
         llvm::concat<const aotc::TensorSignature>(sig->inputs, sig->outputs)) {
      int64_t bytes = aotc::dtypeBytes(t.dtype);
      for (int64_t d : t.shape)
        bytes *= d;
      offsets.push_back(end);
      staged += bytes;
      end = llvm::alignTo(end + bytes, alignment);
    }
    Builder b(&getContext());
    NamedAttrList attrs(pool);
    attrs.set("bytes", b.getI64IntegerAttr(end));
    attrs.set("lower_bound",
              b.getI64IntegerAttr(sig->poolLowerBound + staged));
    attrs.set("staging", b.getDenseI64ArrayAttr(offsets));
    func->setAttr(aotc::kPoolAttrName, attrs.getDictionary(&getContext()));
  }
};

} // namespace
