//===- Table.h - The strategy table ---------------------------*- C++ -*-===//
//
// This file declares the helpers that write the strategy table (`aotc
// --dump-dir` writes it as NAME.strategy.txt): one tab-separated line per
// linalg op and decision, written by aotc-select-cpu-strategy (the paths)
// and appended to by aotc-select-cpu-tiles (the thread tiles).
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_STRATEGY_TABLE_H
#define AOTC_CPU_STRATEGY_TABLE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/raw_ostream.h"

namespace aotc {

/// The columns naming an op: `@function`, location, op name, loop ranges,
/// each followed by a tab.
void printOpColumns(llvm::raw_ostream &os, mlir::func::FuncOp func,
                    mlir::linalg::LinalgOp op);

/// Writes `rows` to the table `path` ('-': stdout), replacing the file or
/// appending to it; an error on `anchor` when the file cannot be written.
mlir::LogicalResult writeStrategyTable(mlir::Operation *anchor,
                                       llvm::StringRef path,
                                       llvm::StringRef rows, bool append);

} // namespace aotc

#endif // AOTC_CPU_STRATEGY_TABLE_H
