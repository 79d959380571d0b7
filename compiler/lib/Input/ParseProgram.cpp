//===- ParseProgram.cpp - Parse an MLIR program, never crash --*- C++ -*-===//
//
// This file implements aotc::parseProgram (see ParseProgram.h).
//
//===----------------------------------------------------------------------===//

#include "aotc/Input/ParseProgram.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <algorithm>
#include <cstdint>
#include <optional>

using namespace mlir;

namespace {

/// Deepest bracket nesting a program may have. The upstream parser recurses
/// once or more per level of (), [], {} and <> with no limit of its own, so
/// 20,000 nested regions overflowed the 8 MiB stack; real programs nest a
/// few dozen levels at most.
constexpr int kMaxNesting = 256;

/// The position where `text` first nests brackets deeper than kMaxNesting,
/// if it does. Comments (`//` to the end of the line) and string literals
/// are skipped, and so are the `>` of `->`, `>=` and `<=` (not brackets).
std::optional<size_t> tooDeep(llvm::StringRef text) {
  int depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    if (c == '/' && next == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      continue;
    }
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if ((c == '-' && next == '>') || ((c == '<' || c == '>') && next == '=')) {
      ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting)
        return i;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      depth = std::max(0, depth - 1);
    }
  }
  return std::nullopt;
}

/// Stack for the parse: 256 bytes per byte of text, between 8 MiB and
/// 1 GiB (reserved address space; only what the parse touches is used).
/// The parser also recurses without brackets, once per binary operator of
/// an affine expression (`d0 + d0 + ...`): 50,000 terms (250 KB) took
/// most of 8 MiB, so about 40 bytes of stack per byte of text; 256 leaves
/// room for sanitizer builds, whose frames are larger.
unsigned parseStackBytes(size_t textBytes) {
  uint64_t bytes = uint64_t(textBytes) * 256;
  return static_cast<unsigned>(
      std::clamp<uint64_t>(bytes, uint64_t(8) << 20, uint64_t(1) << 30));
}

} // namespace

namespace aotc {

OwningOpRef<ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr,
                                   MLIRContext *context, bool *crashed) {
  if (crashed)
    *crashed = false;
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (std::optional<size_t> at = tooDeep(buffer->getBuffer())) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *at));
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                  line, column))
        << "brackets nest deeper than " << kMaxNesting << " levels";
    return nullptr;
  }
  // The recovery handlers replace the process's signal handlers for the
  // parse only (a crash later still prints LLVM's stack trace).
  llvm::CrashRecoveryContext::Enable();
  // Errors the parser reported before it crashed (seen, then passed on to
  // the caller's handlers).
  bool reported = false;
  DiagnosticEngine::HandlerID counter =
      context->getDiagEngine().registerHandler([&](Diagnostic &diagnostic) {
        reported |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
        return failure();
      });
  OwningOpRef<ModuleOp> module;
  bool parsed;
  {
    llvm::CrashRecoveryContext guard;
    parsed = guard.RunSafelyOnThread(
        [&] { module = parseSourceFile<ModuleOp>(sourceMgr, context); },
        parseStackBytes(buffer->getBufferSize()));
  }
  llvm::CrashRecoveryContext::Disable();
  context->getDiagEngine().eraseHandler(counter);
  if (parsed)
    return module;
  if (crashed)
    *crashed = true;
  // What the crashed parse built is in an unknown state: leak it. The
  // parser's own error, when it gave one before crashing, is the one the
  // user sees.
  (void)module.release();
  if (reported)
    return nullptr;
  emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(), 1, 1))
      << "malformed input: the MLIR parser crashed on it (an attribute or "
         "op the text does not spell correctly)";
  return nullptr;
}

} // namespace aotc
