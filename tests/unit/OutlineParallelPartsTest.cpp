//===- OutlineParallelPartsTest.cpp - Parts between barriers as calls -----===//
//
// aotc::outlineParallelParts on hand-written LLVM IR shaped like an OpenMP
// parallel region's function: the parts between barriers that hold a loop
// become noinline functions called in the same order, straight-line parts
// and parts that are not a sequence stay, and the module still verifies.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/OutlineParallelParts.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

/// The declarations every test module shares.
const char *kDeclarations = R"(
  declare i32 @__kmpc_global_thread_num(ptr)
  declare void @__kmpc_barrier(ptr, i32)
  @loc = private constant i32 0
)";

/// Block `name` and a loop that scales `%p`'s first `%n` floats by
/// `factor`, then branches to `next`.
std::string loop(const std::string &name, const std::string &next,
                 const std::string &factor) {
  return name + ":\n  br label %" + name + ".body\n" + name + ".body:\n" +
         "  %" + name + ".i = phi i64 [ 0, %" + name + " ], [ %" + name +
         ".j, %" + name + ".body ]\n" + "  %" + name +
         ".a = getelementptr float, ptr %p, i64 %" + name + ".i\n" + "  %" +
         name + ".v = load float, ptr %" + name + ".a\n" + "  %" + name +
         ".w = fmul float %" + name + ".v, " + factor + "\n" +
         "  store float %" + name + ".w, ptr %" + name + ".a\n" + "  %" +
         name + ".j = add i64 %" + name + ".i, 1\n" + "  %" + name +
         ".c = icmp slt i64 %" + name + ".j, %n\n" + "  br i1 %" + name +
         ".c, label %" + name + ".body, label %" + next + "\n";
}

/// Block `name`: a barrier (with its thread number), then `next`.
std::string barrier(const std::string &name, const std::string &next) {
  return name + ":\n  %" + name + ".t = call i32 @__kmpc_global_thread_num(" +
         "ptr @loc)\n  call void @__kmpc_barrier(ptr @loc, i32 %" + name +
         ".t)\n  br label %" + next + "\n";
}

/// @f after outlineParallelParts.
struct Outlined {
  unsigned count = 0;
  /// The calls @f makes, in block order: "barrier" or the callee's name.
  std::vector<std::string> calls;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

/// Outlines @f(%p, %n), whose entry branches to `body`'s block %first.
Outlined outline(const std::string &body) {
  Outlined result;
  result.context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic error;
  std::string ir = std::string(kDeclarations) +
                   "define void @f(ptr %p, i64 %n) {\nentry:\n" +
                   "  %slot = alloca i32\n  br label %first\n" + body + "}\n";
  result.module = llvm::parseAssemblyString(ir, error, *result.context);
  EXPECT_TRUE(result.module) << error.getMessage().str() << "\n" << ir;
  if (!result.module)
    return result;
  result.count = aotc::outlineParallelParts(*result.module);
  std::string message;
  llvm::raw_string_ostream os(message);
  EXPECT_FALSE(llvm::verifyModule(*result.module, &os)) << message;
  for (llvm::BasicBlock &block : *result.module->getFunction("f"))
    for (llvm::Instruction &inst : block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
        llvm::StringRef callee = call->getCalledFunction()->getName();
        if (callee == "__kmpc_barrier")
          result.calls.push_back("barrier");
        else if (callee != "__kmpc_global_thread_num")
          result.calls.push_back(callee.str());
      }
  return result;
}

TEST(OutlineParallelParts, LoopsBetweenBarriersBecomeNoinlineCalls) {
  // The first barrier's thread number is taken before the loop.
  Outlined r = outline("first:\n"
                       "  %t = call i32 @__kmpc_global_thread_num(ptr @loc)\n"
                       "  br label %l1\n" +
                       loop("l1", "b1", "2.0") +
                       "b1:\n  call void @__kmpc_barrier(ptr @loc, i32 %t)\n"
                       "  br label %l2\n" +
                       loop("l2", "b2", "3.0") +
                       barrier("b2", "tail") + "tail:\n  ret void\n");
  ASSERT_TRUE(r.module);
  EXPECT_EQ(r.count, 2u);
  ASSERT_EQ(r.calls, (std::vector<std::string>{"f.region.0", "barrier",
                                                "f.region.1", "barrier"}));
  for (unsigned i : {0u, 2u}) {
    llvm::Function *part = r.module->getFunction(r.calls[i]);
    ASSERT_TRUE(part) << r.calls[i];
    EXPECT_TRUE(part->hasFnAttribute(llvm::Attribute::NoInline));
    // Inputs only (the pointer and the count): the thread number went with
    // its barrier, nothing is returned through memory.
    EXPECT_EQ(part->arg_size(), 2u);
    EXPECT_TRUE(part->getReturnType()->isVoidTy());
  }
  // Each part kept its own loop: the first scales by 2, the second by 3.
  auto scales = [&](unsigned i, double factor) {
    for (llvm::BasicBlock &block : *r.module->getFunction(r.calls[i]))
      for (llvm::Instruction &inst : block)
        if (inst.getOpcode() == llvm::Instruction::FMul)
          return llvm::cast<llvm::ConstantFP>(inst.getOperand(1))
                     ->isExactlyValue(factor);
    return false;
  };
  EXPECT_TRUE(scales(0, 2.0));
  EXPECT_TRUE(scales(2, 3.0));
}

TEST(OutlineParallelParts, StraightLinePartsStay) {
  Outlined r = outline(
      "first:\n  store i32 1, ptr %slot\n  br label %b1\n" +
      barrier("b1", "l2") + loop("l2", "b2", "3.0") + barrier("b2", "tail") +
      "tail:\n  %x = load i32, ptr %slot\n  store i32 %x, ptr %p\n"
      "  ret void\n");
  ASSERT_TRUE(r.module);
  EXPECT_EQ(r.count, 1u);
  // Named after its place: part 1, after the straight-line part 0.
  EXPECT_EQ(r.calls,
            (std::vector<std::string>{"barrier", "f.region.1", "barrier"}));
}

TEST(OutlineParallelParts, ValuesUsedAfterTheirPartAreReturned) {
  // %l1.j (the trip count reached) is read after the barrier: the part
  // hands it back, and the module stays valid.
  Outlined r = outline("first:\n  br label %l1\n" + loop("l1", "b1", "2.0") +
                       barrier("b1", "tail") +
                       "tail:\n  %f = sitofp i64 %l1.j to float\n"
                       "  store float %f, ptr %p\n  ret void\n");
  ASSERT_TRUE(r.module);
  EXPECT_EQ(r.count, 1u);
}

TEST(OutlineParallelParts, PartsNotInSequenceStay) {
  // The first part may skip the barrier into the second: the blocks after
  // the barrier are reached from both parts, so neither moves.
  Outlined r = outline(
      "first:\n  %skip = icmp eq i64 %n, 0\n"
      "  br i1 %skip, label %l2, label %l1\n" +
      loop("l1", "b1", "2.0") + barrier("b1", "l2") +
      loop("l2", "tail", "3.0") + "tail:\n  ret void\n");
  ASSERT_TRUE(r.module);
  EXPECT_EQ(r.count, 0u);
  EXPECT_EQ(r.calls, std::vector<std::string>{"barrier"});
}

TEST(OutlineParallelParts, FunctionsWithoutBarriersStay) {
  Outlined r = outline("first:\n  br label %l1\n" + loop("l1", "tail", "2.0") +
                       "tail:\n  ret void\n");
  ASSERT_TRUE(r.module);
  EXPECT_EQ(r.count, 0u);
  EXPECT_TRUE(r.calls.empty());
}

} // namespace
