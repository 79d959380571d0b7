//===- Passes.h - aotc GPU/HIP passes ---------------------------*- C++ -*-===//
//
// This file declares the passes of the HIP target's passes, generated from
// Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_HIP_PASSES_H
#define AOTC_GPU_HIP_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/GPU/HIP/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/GPU/HIP/Passes.h.inc"

} // namespace aotc

#endif // AOTC_GPU_HIP_PASSES_H
