//===- Passes.h - aotc GPU/CUDA passes --------------------------*- C++ -*-===//
//
// This file declares the passes of the CUDA target's passes, generated from
// Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_CUDA_PASSES_H
#define AOTC_GPU_CUDA_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/GPU/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/GPU/CUDA/Passes.h.inc"

} // namespace aotc

#endif // AOTC_GPU_CUDA_PASSES_H
