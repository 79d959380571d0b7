//===- MergeGpuModules.cpp - One gpu.module for all kernels ---*- C++ -*-===//
//
// This file implements the aotc-merge-gpu-modules pass: the kernels that
// gpu-kernel-outlining put in one gpu.module each move into a single module,
// so that the artifact embeds (and the runtime loads) one device image.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_MERGEGPUMODULES
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kMergedName = "aotc_kernels";

struct MergeGpuModulesPass
    : aotc::impl::MergeGpuModulesBase<MergeGpuModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty())
      return;
    if (module.lookupSymbol(kMergedName)) {
      module.emitError("symbol '") << kMergedName << "' is already defined";
      return signalPassFailure();
    }
    OpBuilder b(gpuModules.front());
    auto merged = gpu::GPUModuleOp::create(b, gpuModules.front().getLoc(),
                                           kMergedName);
    SymbolTable mergedSymbols(merged);
    // Outlining names every kernel after its function: a kernel takes the
    // (unique) name of its module instead.
    llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> renamed;
    MLIRContext *ctx = &getContext();
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      auto kernels = llvm::to_vector(gpuModule.getOps<gpu::GPUFuncOp>());
      for (gpu::GPUFuncOp kernel : kernels) {
        std::string name = gpuModule.getName().str();
        if (kernels.size() > 1)
          name += "_" + kernel.getName().str();
        renamed[SymbolRefAttr::get(
            gpuModule.getNameAttr(),
            {FlatSymbolRefAttr::get(kernel.getNameAttr())})] =
            SymbolRefAttr::get(ctx, kMergedName,
                               {FlatSymbolRefAttr::get(ctx, name)});
        SymbolTable::setSymbolName(kernel, name);
      }
    }
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      for (Operation &op :
           llvm::make_early_inc_range(gpuModule.getBody()->getOperations())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol) {
          op.emitError("unexpected op in an outlined gpu.module");
          return signalPassFailure();
        }
        // Globals used by several kernels were copied into each module.
        if (Operation *existing = mergedSymbols.lookup(symbol.getName())) {
          if (!isa<gpu::GPUFuncOp>(op) &&
              OperationEquivalence::isEquivalentTo(
                  existing, &op, OperationEquivalence::ignoreValueEquivalence,
                  nullptr, OperationEquivalence::IgnoreLocations)) {
            op.erase();
            continue;
          }
          op.emitError("symbol '")
              << symbol.getName() << "' is defined differently by two kernels";
          return signalPassFailure();
        }
        op.moveBefore(merged.getBody(), merged.getBody()->end());
        mergedSymbols.insert(&op);
      }
    }
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = renamed.find(launch.getKernel());
      if (it == renamed.end()) {
        launch.emitError("launch of an unknown kernel");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(it->second);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (gpu::GPUModuleOp gpuModule : gpuModules)
      gpuModule.erase();
  }
};

} // namespace
