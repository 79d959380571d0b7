//===- OutlineThreadLoops.cpp - Thread loops as functions -----*- C++ -*-===//
//
// This file implements the aotc-outline-thread-loops pass: each top-level
// thread loop (scf.forall without results in a function's entry block)
// moves into a private function of its own, called where it was, so that
// the function passes of vector lowering run on the loops in parallel.
// The values it uses that ops free of memory effects and regions compute
// in the entry block are recomputed in the new function; the others become
// its arguments. aotc-inline-thread-loops undoes it.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace aotc {
#define GEN_PASS_DEF_OUTLINETHREADLOOPS
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Whether `op` of `block` may be recomputed in the outlined function:
/// no memory effects (nor unknown ones) and no regions.
bool isRecomputable(Operation *op, Block *block) {
  return op->getBlock() == block && op->getNumRegions() == 0 &&
         isMemoryEffectFree(op);
}

/// The ops of `block` the loop's operands and captured values need
/// recomputed, and the values that become arguments: each in block order
/// (the block's arguments before its ops' results).
void splitCaptures(scf::ForallOp loop, SmallVectorImpl<Operation *> &slice,
                   SmallVectorImpl<Value> &arguments) {
  Block *block = loop->getBlock();
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(loop->getRegions(), used);
  used.insert(loop->getOperands().begin(), loop->getOperands().end());

  llvm::SmallPtrSet<Operation *, 16> inSlice;
  llvm::SetVector<Value> passed;
  SmallVector<Value> worklist(used.begin(), used.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || !isRecomputable(def, block)) {
      passed.insert(value);
      continue;
    }
    if (!inSlice.insert(def).second)
      continue;
    slice.push_back(def);
    worklist.append(def->operand_begin(), def->operand_end());
  }
  llvm::sort(slice, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  arguments.assign(passed.begin(), passed.end());
  llvm::sort(arguments, [](Value a, Value b) {
    auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
    if (argA || argB)
      return argA && (!argB || argA.getArgNumber() < argB.getArgNumber());
    Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
    if (defA == defB)
      return cast<OpResult>(a).getResultNumber() <
             cast<OpResult>(b).getResultNumber();
    return defA->isBeforeInBlock(defB);
  });
}

struct OutlineThreadLoopsPass
    : aotc::impl::OutlineThreadLoopsBase<OutlineThreadLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || func->hasAttr(aotc::kThreadLoopAttrName))
        continue;
      SmallVector<scf::ForallOp> loops;
      for (auto loop : func.front().getOps<scf::ForallOp>())
        if (loop->getNumResults() == 0)
          loops.push_back(loop);
      Operation *last = func;
      for (auto [index, loop] : llvm::enumerate(loops))
        last = outline(symbols, func, last, loop, index);
    }
  }

  /// Moves `loop` of `parent` into a new function placed after `after`;
  /// returns it.
  func::FuncOp outline(SymbolTable &symbols, func::FuncOp parent,
                       Operation *after, scf::ForallOp loop, size_t index) {
    SmallVector<Operation *> slice;
    SmallVector<Value> arguments;
    splitCaptures(loop, slice, arguments);

    Location loc = loop.getLoc();
    OpBuilder b(parent);
    b.setInsertionPointAfter(after);
    auto callee = func::FuncOp::create(
        b, loc, (parent.getSymName() + "__thread_loop" + Twine(index)).str(),
        b.getFunctionType(ValueRange(arguments).getTypes(), {}));
    callee.setPrivate();
    callee->setAttr(aotc::kThreadLoopAttrName, b.getUnitAttr());
    // Renamed if the name is taken.
    symbols.insert(callee);

    Block *body = callee.addEntryBlock();
    IRMapping mapping;
    mapping.map(ValueRange(arguments), body->getArguments());
    b.setInsertionPointToStart(body);
    for (Operation *op : slice)
      b.clone(*op, mapping);
    b.clone(*loop, mapping);
    func::ReturnOp::create(b, loc);

    b.setInsertionPoint(loop);
    func::CallOp::create(b, loc, callee, arguments);
    loop->erase();
    return callee;
  }
};

} // namespace
