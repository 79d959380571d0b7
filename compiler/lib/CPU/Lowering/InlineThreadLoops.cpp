//===- InlineThreadLoops.cpp - Thread loops back in place -----*- C++ -*-===//
//
// This file implements the aotc-inline-thread-loops pass, the inverse of
// aotc-outline-thread-loops: each call of a function marked
// aotc.thread_loop becomes that function's body, and the functions are
// erased.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_INLINETHREADLOOPS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct InlineThreadLoopsPass
    : aotc::impl::InlineThreadLoopsBase<InlineThreadLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> outlined;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func->hasAttr(aotc::kThreadLoopAttrName))
        continue;
      if (func.isExternal() || !func.getBody().hasOneBlock() ||
          func.getNumResults() != 0) {
        func.emitError("aotc-inline-thread-loops: a thread loop's function "
                       "must have one block and no results");
        return signalPassFailure();
      }
      outlined.push_back(func);
    }
    if (outlined.empty())
      return;

    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && callee->hasAttr(aotc::kThreadLoopAttrName))
        calls.emplace_back(call, callee);
    });
    for (auto [call, callee] : calls) {
      IRMapping mapping;
      mapping.map(callee.getArguments(), call.getOperands());
      OpBuilder b(call);
      for (Operation &op : callee.front().without_terminator())
        b.clone(op, mapping);
      call->erase();
    }

    // Any reference left (a pass in between took the function's address):
    // the function cannot go.
    llvm::DenseSet<StringAttr> names;
    for (func::FuncOp func : outlined)
      names.insert(func.getSymNameAttr());
    if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion())) {
      for (const SymbolTable::SymbolUse &use : *uses) {
        if (names.contains(use.getSymbolRef().getRootReference())) {
          use.getUser()->emitError(
              "aotc-inline-thread-loops: a thread loop's function is still "
              "referenced after its calls were inlined");
          return signalPassFailure();
        }
      }
    }
    for (func::FuncOp func : outlined)
      func->erase();
  }
};

} // namespace
