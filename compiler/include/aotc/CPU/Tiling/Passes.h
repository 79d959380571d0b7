//===- Passes.h - aotc CPU/Tiling passes ------------------------*- C++ -*-===//
//
// This file declares the passes of CPU threads, cache blocks, register tiles
// and packing, generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TILING_PASSES_H
#define AOTC_CPU_TILING_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/CPU/Tiling/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/CPU/Tiling/Passes.h.inc"

} // namespace aotc

#endif // AOTC_CPU_TILING_PASSES_H
