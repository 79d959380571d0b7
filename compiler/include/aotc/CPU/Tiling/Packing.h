//===- Packing.h - The packing decision of a contraction -----*- C++ -*-===//
//
// This file declares aotc::planPacking: what aotc-pack-contraction-operands
// does with one contraction, from the layouts it can rewrite and the
// strategy's packing rules (aotc/CPU/Strategy/Tiles.h). aotc-select-cpu-
// packing records it on the op; the pass carries it out.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TILING_PACKING_H
#define AOTC_CPU_TILING_PACKING_H

#include "aotc/CPU/Strategy/Tiles.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace aotc {

/// The packing decision for `op` on `registers`: all None
/// for an op the pass cannot rewrite (not a static f32 contraction with two
/// inputs, one init and one reduction loop, or operands in other layouts).
/// With `allowTranspose` false (a contraction already computed transposed)
/// the output is never transposed.
PackingPlan planPacking(mlir::linalg::LinalgOp op, VectorRegisters registers,
                        bool allowTranspose = true);

} // namespace aotc

#endif // AOTC_CPU_TILING_PACKING_H
