//===- RegisterRemainders.h - Contractions in whole tiles ----*- C++ -*-===//
//
// This file declares the split of contractions into parts of whole
// register tiles, which aotc-split-register-remainders runs before the
// register tiles are chosen (aotc-select-register-tiles) and
// aotc-tile-and-vectorize runs again for a function given to it alone.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TILING_REGISTERREMAINDERS_H
#define AOTC_CPU_TILING_REGISTERREMAINDERS_H

#include "aotc/Common/CpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>

namespace aotc {

/// Splits every static contraction on tensors in `func` that
/// aotc-tile-and-vectorize vectorizes into parts of whole register tiles of
/// `registers` (a no-op on a function already split).
void splitRegisterRemainders(mlir::func::FuncOp func,
                             VectorRegisters registers);

} // namespace aotc

#endif // AOTC_CPU_TILING_REGISTERREMAINDERS_H
