//===- aotc-opt.cpp - Run aotc passes and pipelines ----------*- C++ -*-===//
//
// This file implements aotc-opt, the mlir-opt of this project: every
// upstream dialect and pass plus the aotc passes (the test-only ones too)
// and pipelines, for lit tests.
//
//===----------------------------------------------------------------------===//

#include "aotc/Pipelines/GPUPipelines.h"
#include "aotc/Pipelines/Pipelines.h"
#include "aotc/Test/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  aotc::registerAotcPasses();
  aotc::registerAotcTestPasses();
  aotc::registerPipelines();
  aotc::registerGPUPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary serializes device modules through LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "aotc optimizer driver\n", registry));
}
