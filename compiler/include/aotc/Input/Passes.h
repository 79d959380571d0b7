//===- Passes.h - aotc Input passes -----------------------------*- C++ -*-===//
//
// This file declares the passes of input verification and entry point
// signatures, generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_INPUT_PASSES_H
#define AOTC_INPUT_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/Input/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/Input/Passes.h.inc"

} // namespace aotc

#endif // AOTC_INPUT_PASSES_H
