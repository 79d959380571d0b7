//===- Table.cpp - The strategy table -------------------------*- C++ -*-===//
//
// This file implements the helpers that write the strategy table.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Strategy/Table.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir;

namespace aotc {

void printOpColumns(llvm::raw_ostream &os, func::FuncOp func,
                    linalg::LinalgOp op) {
  os << "@" << func.getSymName() << "\t";
  op->getLoc().print(os);
  os << "\t" << op->getName() << "\t[";
  llvm::interleave(op.getStaticLoopRanges(), os, ",");
  os << "]\t";
}

LogicalResult writeStrategyTable(Operation *anchor, llvm::StringRef path,
                                 llvm::StringRef rows, bool append) {
  if (path == "-") {
    llvm::outs() << rows;
    return success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(
      path, ec, append ? llvm::sys::fs::OF_Append : llvm::sys::fs::OF_None);
  if (ec)
    return anchor->emitError() << "cannot write the strategy table '" << path
                               << "': " << ec.message();
  os << rows;
  return success();
}

LogicalResult recordPerOp(
    ModuleOp module, llvm::StringRef path,
    llvm::function_ref<bool(linalg::LinalgOp, llvm::raw_ostream *)> decide) {
  std::string rows;
  llvm::raw_string_ostream out(rows);
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    func.walk([&](linalg::LinalgOp op) {
      std::string row;
      llvm::raw_string_ostream decision(row);
      if (decide(op, path.empty() ? nullptr : &decision) && !path.empty()) {
        printOpColumns(out, func, op);
        out << row;
      }
    });
  }
  if (path.empty())
    return success();
  return writeStrategyTable(module, path, rows, /*append=*/true);
}

} // namespace aotc
