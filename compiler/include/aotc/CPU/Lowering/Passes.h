//===- Passes.h - aotc CPU/Lowering passes ----------------------*- C++ -*-===//
//
// This file declares the passes of CPU vector, math and store lowering,
// generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_LOWERING_PASSES_H
#define AOTC_CPU_LOWERING_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/CPU/Lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/CPU/Lowering/Passes.h.inc"

} // namespace aotc

#endif // AOTC_CPU_LOWERING_PASSES_H
