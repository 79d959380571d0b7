//===- TsanWideAccesses.h - Wide and masked accesses for TSan ---*- C++ -*-===//
//
// An LLVM function pass that reports the vector accesses ThreadSanitizer's
// own instrumentation skips (wider than 16 bytes, masked, gathers and
// scatters) to the TSan runtime by range. Run it right before
// ThreadSanitizerPass.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TARGET_TSANWIDEACCESSES_H
#define AOTC_CPU_TARGET_TSANWIDEACCESSES_H

#include "llvm/IR/PassManager.h"

namespace aotc {

struct TsanWideAccessesPass : llvm::PassInfoMixin<TsanWideAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace aotc

#endif // AOTC_CPU_TARGET_TSANWIDEACCESSES_H
