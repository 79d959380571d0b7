//===- Passes.h - aotc Common passes ----------------------------*- C++ -*-===//
//
// This file declares the passes of target-neutral tensor and buffer passes,
// generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_COMMON_PASSES_H
#define AOTC_COMMON_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/Common/Passes.h.inc"

} // namespace aotc

#endif // AOTC_COMMON_PASSES_H
