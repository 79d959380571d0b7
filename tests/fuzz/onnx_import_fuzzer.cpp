//===- onnx_import_fuzzer.cpp - libFuzzer target: the ONNX importer -------===//
//
// Bytes -> ModelProto -> checks -> import -> MLIR verification, as `aotc
// model.onnx` does before its pipelines. Any outcome but a crash is fine: a
// diagnostic (swallowed here) and a null module for bad input, a module
// that verifies for good input. A module that fails verification is a bug
// (the importer built invalid IR) and aborts.
//
//===----------------------------------------------------------------------===//

#include "aotc/Frontend/ONNX/ONNXImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

/// The model file: the importer reads a path (external data is resolved
/// next to it), so each input is written to one file per process.
const std::string &modelPath() {
  static const std::string path = [] {
    const char *dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/aotc_onnx_fuzz_" +
           std::to_string(getpid()) + ".onnx";
  }();
  return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(modelPath(), ec);
    if (ec)
      std::abort();
    os.write(reinterpret_cast<const char *>(data), size);
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  aotc::ONNXImportOptions options;
  options.functionName = "fuzz";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      aotc::importONNXModel(context, modelPath(), options);
  // Removed after each input: libFuzzer's exits (-runs, -max_total_time)
  // skip atexit handlers. After a crash the file is left behind (libFuzzer
  // writes the input as crash-* too).
  std::remove(modelPath().c_str());
  if (module && mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "the importer built a module that does not "
                         "verify\n");
    std::abort();
  }
  return 0;
}
