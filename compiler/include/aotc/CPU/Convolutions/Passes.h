//===- Passes.h - aotc CPU/Convolutions passes ------------------*- C++ -*-===//
//
// This file declares the passes of CPU convolution paths, generated from
// Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_CONVOLUTIONS_PASSES_H
#define AOTC_CPU_CONVOLUTIONS_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/CPU/Convolutions/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/CPU/Convolutions/Passes.h.inc"

} // namespace aotc

#endif // AOTC_CPU_CONVOLUTIONS_PASSES_H
