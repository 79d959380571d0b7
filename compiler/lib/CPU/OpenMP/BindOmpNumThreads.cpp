//===- BindOmpNumThreads.cpp - Thread count from the caller ---*- C++ -*-===//
//
// This file implements the aotc-bind-omp-num-threads pass: the thread count
// of every parallel region of an entry point comes from a new i32 argument,
// which the ABI wrapper fills from the caller's aot_cpu_stream_t.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/OpenMP/Passes.h"

namespace aotc {
#define GEN_PASS_DEF_BINDOMPNUMTHREADS
#include "aotc/CPU/OpenMP/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct BindOmpNumThreadsPass
    : aotc::impl::BindOmpNumThreadsBase<BindOmpNumThreadsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(aotc::kEntryAttrName) || func.isExternal())
      return;
    OpBuilder b(&getContext());
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(
            index, b.getI32Type(),
            b.getDictionaryAttr({b.getNamedAttr(aotc::kTensorNameAttrName,
                                                b.getStringAttr("num_threads"))}),
            func.getLoc())))
      return signalPassFailure();
    Value numThreads = func.getArgument(index);
    func.walk([&](omp::ParallelOp parallel) {
      parallel.getNumThreadsMutable().assign(numThreads);
    });
  }
};

} // namespace
