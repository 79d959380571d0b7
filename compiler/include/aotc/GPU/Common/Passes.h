//===- Passes.h - aotc GPU/Common passes ------------------------*- C++ -*-===//
//
// This file declares the passes of GPU mapping shared by CUDA and HIP,
// generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_COMMON_PASSES_H
#define AOTC_GPU_COMMON_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/GPU/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/GPU/Common/Passes.h.inc"

} // namespace aotc

#endif // AOTC_GPU_COMMON_PASSES_H
