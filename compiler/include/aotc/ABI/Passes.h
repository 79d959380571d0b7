//===- Passes.h - aotc ABI passes -------------------------------*- C++ -*-===//
//
// This file declares the passes of the C ABI: entry point wrappers, header and
// manifest, generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_ABI_PASSES_H
#define AOTC_ABI_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/ABI/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/ABI/Passes.h.inc"

} // namespace aotc

#endif // AOTC_ABI_PASSES_H
