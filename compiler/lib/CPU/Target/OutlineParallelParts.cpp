//===- OutlineParallelParts.cpp - Barrier-separated parts as calls -*- C++ -*-===//
//
// This file implements outlineParallelParts: the parts of a function
// between OpenMP barriers that hold loops become functions of their own.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/OutlineParallelParts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

namespace aotc {

namespace {

/// `value` when it is a direct call of the function `name`, else null.
llvm::CallInst *callOf(llvm::Value *value, llvm::StringRef name) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  return call && call->getCalledFunction() &&
                 call->getCalledFunction()->getName() == name
             ? call
             : nullptr;
}

/// Outlines the parts of `function`; returns how many it outlined.
unsigned outlineParts(llvm::Function &function) {
  llvm::SmallVector<llvm::CallInst *> barriers;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &inst : block)
      if (llvm::CallInst *barrier = callOf(&inst, "__kmpc_barrier"))
        barriers.push_back(barrier);
  if (barriers.empty())
    return 0;

  // Each barrier in a block of its own, which ends the part before it and
  // branches to the first block of the next part. The entry block (the
  // allocas, the captured values' loads) ends the part before the first one.
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> bounds;
  llvm::SmallVector<llvm::BasicBlock *> starts;
  llvm::BasicBlock &entry = function.getEntryBlock();
  bounds.insert(&entry);
  if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(entry.getTerminator()))
    if (branch->isUnconditional())
      starts.push_back(branch->getSuccessor(0));
  for (llvm::CallInst *barrier : barriers) {
    // The thread number the barrier alone reads goes with it (else each
    // part would return it through memory).
    llvm::Instruction *head = barrier;
    llvm::CallInst *thread =
        barrier->arg_size() == 2
            ? callOf(barrier->getArgOperand(1), "__kmpc_global_thread_num")
            : nullptr;
    if (thread && thread->hasOneUse()) {
      thread->moveBefore(barrier->getIterator());
      head = thread;
    }
    llvm::BasicBlock *block = barrier->getParent();
    if (&block->front() != head)
      block = block->splitBasicBlock(head);
    starts.push_back(
        block->splitBasicBlock(std::next(barrier->getIterator())));
    bounds.insert(block);
  }

  // A part: the blocks reached from its start without passing a bound or a
  // return (the function's exit stays where it is).
  llvm::DenseMap<llvm::BasicBlock *, unsigned> owner;
  llvm::SmallVector<llvm::SetVector<llvm::BasicBlock *>> parts(starts.size());
  llvm::SmallVector<bool> valid(starts.size(), true);
  for (unsigned index = 0; index < starts.size(); ++index) {
    llvm::SmallVector<llvm::BasicBlock *> work = {starts[index]};
    while (!work.empty()) {
      llvm::BasicBlock *block = work.pop_back_val();
      if (bounds.contains(block) ||
          llvm::isa<llvm::ReturnInst>(block->getTerminator()) ||
          !parts[index].insert(block))
        continue;
      // A block two parts reach (not a sequence of parts): neither moves.
      auto [it, inserted] = owner.try_emplace(block, index);
      if (!inserted) {
        valid[index] = false;
        valid[it->second] = false;
      }
      llvm::append_range(work, llvm::successors(block));
    }
  }

  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::SmallVector<unsigned> chosen;
  for (unsigned index = 0; index < starts.size(); ++index) {
    const llvm::SetVector<llvm::BasicBlock *> &part = parts[index];
    if (!valid[index] || part.empty())
      continue;
    // One way in: every edge from outside goes to the start.
    bool singleEntry = llvm::all_of(part, [&](llvm::BasicBlock *block) {
      return block == starts[index] ||
             llvm::all_of(llvm::predecessors(block),
                          [&](llvm::BasicBlock *pred) {
                            return part.contains(pred);
                          });
    });
    // Straight-line code is cheap where it is: only parts with a loop move.
    bool hasLoop = llvm::any_of(part, [&](llvm::BasicBlock *block) {
      return loops.getLoopFor(block) != nullptr;
    });
    if (singleEntry && hasLoop)
      chosen.push_back(index);
  }

  llvm::CodeExtractorAnalysisCache cache(function);
  unsigned outlined = 0;
  for (unsigned index : chosen) {
    llvm::CodeExtractor extractor(
        parts[index].getArrayRef(), /*DT=*/nullptr, /*AggregateArgs=*/false,
        /*BFI=*/nullptr, /*BPI=*/nullptr, /*AC=*/nullptr,
        /*AllowVarArgs=*/false, /*AllowAlloca=*/true,
        /*AllocationBlock=*/nullptr,
        /*Suffix=*/"region." + std::to_string(index));
    // Null when CodeExtractor finds the part not eligible.
    llvm::Function *part = extractor.extractCodeRegion(cache);
    if (!part)
      continue;
    // Inlined back, it would make the big function again.
    part->addFnAttr(llvm::Attribute::NoInline);
    ++outlined;
  }
  return outlined;
}

} // namespace

unsigned outlineParallelParts(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  unsigned outlined = 0;
  for (llvm::Function *function : functions)
    outlined += outlineParts(*function);
  return outlined;
}

} // namespace aotc
