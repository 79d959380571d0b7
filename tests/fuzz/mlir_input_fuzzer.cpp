//===- mlir_input_fuzzer.cpp - libFuzzer target: the MLIR input path ------===//
//
// Text -> parse (aotc::parseProgram) -> verify -> aotc's frontend pipeline
// (input checks, TOSA to linalg, entry points), as `aotc program.mlir` does
// before its tensor stage. Parse and pipeline errors are fine (diagnostics
// are swallowed); a crash is a finding. Each input gets a context of its
// own (dialects load as the text names them): a parse that crashed inside
// upstream MLIR and was recovered leaves its context unusable, and aotc
// exits after one anyway.
//
//===----------------------------------------------------------------------===//

#include "aotc/Input/ParseProgram.h"
#include "aotc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <memory>

namespace {

const mlir::DialectRegistry &fuzzRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    // The pipelines name upstream passes textually, as in aotc's main.
    mlir::registerAllPasses();
    aotc::registerAotcPasses();
    auto *r = new mlir::DialectRegistry();
    mlir::registerAllDialects(*r);
    mlir::registerAllExtensions(*r);
    return r;
  }();
  return *registry;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = std::make_unique<mlir::MLIRContext>(
      fuzzRegistry(), mlir::MLIRContext::Threading::DISABLED);
  context->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  bool crashed = false;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      aotc::parseProgram(sourceMgr, context.get(), &crashed);
  if (crashed) {
    (void)context.release(); // half-built state: never touched again
    return 0;
  }
  if (!module)
    return 0;
  mlir::PassManager pm(context.get());
  aotc::FrontendOptions frontend;
  frontend.entryName = "fuzz";
  aotc::buildFrontendPipeline(pm, frontend);
  (void)pm.run(*module);
  return 0;
}
