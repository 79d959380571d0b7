//===- Passes.h - aotc CPU/OpenMP passes ------------------------*- C++ -*-===//
//
// This file declares the passes of CPU OpenMP regions and thread loops,
// generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_OPENMP_PASSES_H
#define AOTC_CPU_OPENMP_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/CPU/OpenMP/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/CPU/OpenMP/Passes.h.inc"

} // namespace aotc

#endif // AOTC_CPU_OPENMP_PASSES_H
