//===- Emitters.h - Generated header, manifest and reports ---*- C++ -*-===//
//
// This file declares the text artifacts aotc writes next to the object: the
// C header, the JSON manifest (docs/abi.md), the
// memory report, the memory plot and the Python loader.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_EMIT_EMITTERS_H
#define AOTC_EMIT_EMITTERS_H

#include "aotc/ABI/EntryPoint.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace aotc {

/// What the generated files are named after and built for.
struct ArtifactInfo {
  std::string name;   ///< --name: file stem
  std::string target; ///< aot_model_info_t::target
  /// The sanitizer the code is instrumented with (`--sanitize`), or empty.
  std::string sanitize;
  /// The C symbols of the extern kernels the object calls (aot_extern.h).
  std::vector<std::string> externSymbols;
};

/// The C header declaring every entry point of the artifact.
std::string emitHeader(const ArtifactInfo &info,
                       llvm::ArrayRef<EntryPointSignature> entries);

/// The machine-readable manifest (`N.json`).
llvm::json::Value emitManifest(const ArtifactInfo &info,
                               llvm::ArrayRef<EntryPointSignature> entries);

/// The `--memory-report` document: pool size, lower bound and every buffer.
llvm::json::Value emitMemoryReport(const ArtifactInfo &info,
                                   llvm::ArrayRef<EntryPointSignature> entries);

/// The `--memory-plot` picture (SVG): per entry point, each planned buffer
/// as a box of its lifetime (x) and pool bytes (y), the pool size and the
/// lower bound as lines, the largest buffers labelled with their size.
std::string emitMemoryPlot(const ArtifactInfo &info,
                           llvm::ArrayRef<EntryPointSignature> entries);

/// `svg` rendered as PNG bytes by the SVG renderer `rsvgConvert` (librsvg's
/// rsvg-convert, run as a subprocess on temporary files).
llvm::Expected<std::string> renderPng(llvm::StringRef svg,
                                      llvm::StringRef rsvgConvert);

/// The `--emit=python` loader `N.py` (compiler/lib/ABI/python_loader.py):
/// a standalone ctypes + NumPy module whose Model calls one entry point of
/// `libN.so` with NumPy arrays or torch tensors.
std::string emitPythonLoader(const ArtifactInfo &info,
                             llvm::ArrayRef<EntryPointSignature> entries);

} // namespace aotc

#endif // AOTC_EMIT_EMITTERS_H
