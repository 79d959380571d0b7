//===- TsanWideAccessesTest.cpp - Wide accesses reported to TSan ----------===//
//
// aotc::TsanWideAccessesPass on hand-written LLVM IR: each access
// ThreadSanitizerPass skips gets its range call, with the bytes the access
// touches; accesses TSan checks itself and functions not compiled for TSan
// are left alone.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/TsanWideAccesses.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

/// One inserted call: the callee and its size operand (a constant, or -1
/// for a `select %bit, N, 0`, whose N is `selected`).
struct RangeCall {
  std::string callee;
  int64_t bytes;
  int64_t selected;
  bool operator==(const RangeCall &o) const {
    return callee == o.callee && bytes == o.bytes && selected == o.selected;
  }
};

std::ostream &operator<<(std::ostream &os, const RangeCall &c) {
  return os << c.callee << "(" << c.bytes << ", " << c.selected << ")";
}

/// Runs the pass on function @f of `ir`; returns the range calls it has.
std::vector<RangeCall> rangeCalls(const char *ir) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(ir, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  if (!module)
    return {};
  llvm::FunctionAnalysisManager fam;
  llvm::PassBuilder builder;
  builder.registerFunctionAnalyses(fam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(aotc::TsanWideAccessesPass());
  fpm.run(*module->getFunction("f"), fam);

  std::vector<RangeCall> calls;
  for (llvm::Instruction &inst : module->getFunction("f")->getEntryBlock()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (!call || !call->getCalledFunction() ||
        !call->getCalledFunction()->getName().starts_with("__tsan_"))
      continue;
    llvm::Value *size = call->getArgOperand(1);
    RangeCall c{call->getCalledFunction()->getName().str(), -1, -1};
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(size))
      c.bytes = constant->getSExtValue();
    else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(size))
      c.selected =
          llvm::cast<llvm::ConstantInt>(select->getTrueValue())->getSExtValue();
    calls.push_back(c);
  }
  return calls;
}

TEST(TsanWideAccesses, WideLoadAndStoreAsOneRange) {
  auto calls = rangeCalls(R"(
    define void @f(ptr %p, ptr %q) sanitize_thread {
      %v = load <16 x float>, ptr %p
      store <16 x float> %v, ptr %q
      %w = load <4 x float>, ptr %p
      store <4 x float> %w, ptr %q
      ret void
    })");
  // 16-byte accesses are ThreadSanitizerPass's own.
  std::vector<RangeCall> expected = {{"__tsan_read_range", 64, -1},
                                     {"__tsan_write_range", 64, -1}};
  EXPECT_EQ(calls, expected);
}

TEST(TsanWideAccesses, MaskedStoreLaneByLane) {
  auto calls = rangeCalls(R"(
    declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, <4 x i1>)
    define void @f(<4 x double> %v, ptr %p, <4 x i1> %m) sanitize_thread {
      call void @llvm.masked.store.v4f64.p0(<4 x double> %v, ptr align 8 %p, <4 x i1> %m)
      ret void
    })");
  std::vector<RangeCall> expected(4, {"__tsan_write_range", -1, 8});
  EXPECT_EQ(calls, expected);
}

TEST(TsanWideAccesses, MaskedLoadAndGatherLaneByLane) {
  auto calls = rangeCalls(R"(
    declare <2 x i32> @llvm.masked.load.v2i32.p0(ptr, <2 x i1>, <2 x i32>)
    declare <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr>, <2 x i1>, <2 x float>)
    define void @f(ptr %p, <2 x ptr> %ps, <2 x i1> %m) sanitize_thread {
      %a = call <2 x i32> @llvm.masked.load.v2i32.p0(ptr align 4 %p, <2 x i1> %m, <2 x i32> zeroinitializer)
      %b = call <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr> align 4 %ps, <2 x i1> %m, <2 x float> zeroinitializer)
      ret void
    })");
  std::vector<RangeCall> expected(4, {"__tsan_read_range", -1, 4});
  EXPECT_EQ(calls, expected);
}

TEST(TsanWideAccesses, LeadingConstantMaskAsOneRange) {
  // A row's part register (aotc-mask-partial-vectors): the 14 leading lanes
  // of 16 as one range. A constant mask with a gap, and a gather, stay lane
  // by lane (each lane's size folded: 4 bytes or none).
  auto calls = rangeCalls(R"(
    declare <16 x float> @llvm.masked.load.v16f32.p0(ptr, <16 x i1>, <16 x float>)
    declare <4 x float> @llvm.masked.load.v4f32.p0(ptr, <4 x i1>, <4 x float>)
    declare <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr>, <2 x i1>, <2 x float>)
    define void @f(ptr %p, <2 x ptr> %ps) sanitize_thread {
      %a = call <16 x float> @llvm.masked.load.v16f32.p0(ptr align 4 %p, <16 x i1> <i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 1, i1 0, i1 0>, <16 x float> poison)
      %b = call <4 x float> @llvm.masked.load.v4f32.p0(ptr align 4 %p, <4 x i1> <i1 1, i1 0, i1 1, i1 0>, <4 x float> poison)
      %c = call <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr> align 4 %ps, <2 x i1> <i1 1, i1 0>, <2 x float> poison)
      ret void
    })");
  std::vector<RangeCall> expected = {
      {"__tsan_read_range", 56, -1}, {"__tsan_read_range", 4, -1},
      {"__tsan_read_range", 0, -1},  {"__tsan_read_range", 4, -1},
      {"__tsan_read_range", 0, -1},  {"__tsan_read_range", 4, -1},
      {"__tsan_read_range", 0, -1}};
  EXPECT_EQ(calls, expected);
}

TEST(TsanWideAccesses, FunctionsWithoutTsanUntouched) {
  auto calls = rangeCalls(R"(
    define void @f(ptr %p, ptr %q) {
      %v = load <16 x float>, ptr %p
      store <16 x float> %v, ptr %q
      ret void
    })");
  EXPECT_TRUE(calls.empty());
}

} // namespace
