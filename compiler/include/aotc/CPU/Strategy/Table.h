//===- Table.h - The strategy table ---------------------------*- C++ -*-===//
//
// This file declares the helpers that write the strategy table (`aotc
// --dump-dir` writes it as NAME.strategy.txt): one tab-separated line per
// linalg op and decision, written by aotc-select-cpu-strategy (the paths)
// and appended to by aotc-select-cpu-packing, aotc-select-cpu-tiles and
// aotc-select-register-tiles.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_STRATEGY_TABLE_H
#define AOTC_CPU_STRATEGY_TABLE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
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

/// Calls `decide` on every linalg op of `module`'s functions; `decide`
/// records its decision on the op and, given a stream, prints the table's
/// decision column (with the newline), and returns false for an op it
/// leaves alone. The rows are appended to the table `path` unless it is
/// empty.
mlir::LogicalResult recordPerOp(
    mlir::ModuleOp module, llvm::StringRef path,
    llvm::function_ref<bool(mlir::linalg::LinalgOp, llvm::raw_ostream *)>
        decide);

} // namespace aotc

#endif // AOTC_CPU_STRATEGY_TABLE_H
