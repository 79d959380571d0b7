//===- ParseProgram.h - Parse an MLIR program, never crash ----*- C++ -*-===//
//
// This file declares aotc::parseProgram, the MLIR input path's parser: the
// upstream parser with a guard around it, so that a parser crash on
// malformed text becomes one error instead of a crash of the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_INPUT_PARSEPROGRAM_H
#define AOTC_INPUT_PARSEPROGRAM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace aotc {

/// The module the main buffer of `sourceMgr` holds, or null after a
/// diagnostic. Text whose brackets nest deeper than 256 levels is refused
/// before parsing (the upstream parser recurses per level and would
/// overflow the stack), and the parse runs on a thread whose stack grows
/// with the text (it also recurses once per operator of an affine
/// expression). Some upstream op parsers dereference a null attribute on
/// malformed text (linalg.reduce's `dimensions = <not an array>`); the parse
/// runs inside an llvm::CrashRecoveryContext, and a crash there ends the
/// parse with the error the parser reported before it (linalg.reduce's
/// "expected '['"), or, when it reported none, with an error at the start
/// of the file.
/// `crashed`, when given, tells whether the parser crashed: the context may
/// then hold half-built state and must not be used (or destroyed) again.
mlir::OwningOpRef<mlir::ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr,
                                               mlir::MLIRContext *context,
                                               bool *crashed = nullptr);

} // namespace aotc

#endif // AOTC_INPUT_PARSEPROGRAM_H
