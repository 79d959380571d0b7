//===- VerifyGpuKernels.cpp - Every kernel op has a GPU lowering -*- C++ -*-===//
//
// This file implements the aotc-verify-gpu-kernels pass: after the kernel
// conversion to NVVM (or ROCDL), an op of any other dialect left in a
// gpu.module has no GPU lowering. It is reported at the op's source location
// before serialization, whose own message would not name the cause.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/Passes.h"

namespace aotc {
#define GEN_PASS_DEF_VERIFYGPUKERNELS
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct VerifyGpuKernelsPass
    : aotc::impl::VerifyGpuKernelsBase<VerifyGpuKernelsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    WalkResult result = module.walk([&](Operation *op) {
      if (op == module)
        return WalkResult::advance();
      StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace()
                                           : StringRef();
      if (llvm::is_contained({"llvm", "nvvm", "rocdl"}, dialect))
        return WalkResult::advance();
      op->emitError("'") << op->getName()
                         << "' has no GPU lowering (in kernel code)";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
