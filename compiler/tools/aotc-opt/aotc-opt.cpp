//===- aotc-opt.cpp - Run aotc passes and pipelines ----------*- C++ -*-===//
//
// This file implements aotc-opt, the mlir-opt of this project: every
// upstream dialect and pass plus the aotc passes and pipelines, for lit tests.
//
//===----------------------------------------------------------------------===//

#include "aotc/Pipelines/Pipelines.h"
#include "aotc/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  aotc::registerAotcPasses();
  aotc::registerPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "aotc optimizer driver\n", registry));
}
