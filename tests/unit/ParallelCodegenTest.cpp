//===- ParallelCodegenTest.cpp - Code generated in parts -------*- C++ -*-===//
//
// aotc::codegenParts (how many parts a module's code is generated in) on
// modules of known sizes and kinds, and aotc::emitObjectInParts on a module
// whose functions share a local constant: each part's object is generated
// on its own thread, the joined object defines every function once, with
// the size it has when the module is generated whole, and the constant
// once; only the public function is global.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/ParallelCodegen.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace {

constexpr const char *kTriple = "x86_64-unknown-linux-gnu";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context,
                                    const std::string &ir) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(ir, error, context);
  if (!module)
    error.print("ParallelCodegenTest", llvm::errs());
  return module;
}

/// A module of `functions` functions of `adds` additions each.
std::unique_ptr<llvm::Module> sized(llvm::LLVMContext &context,
                                    const std::string &triple,
                                    unsigned functions, unsigned adds) {
  auto module = std::make_unique<llvm::Module>("sized", context);
  module->setTargetTriple(llvm::Triple(triple));
  llvm::IRBuilder<> builder(context);
  llvm::Type *i64 = builder.getInt64Ty();
  for (unsigned f = 0; f < functions; ++f) {
    auto *function = llvm::Function::Create(
        llvm::FunctionType::get(i64, {i64}, false),
        llvm::GlobalValue::ExternalLinkage, "f" + std::to_string(f), *module);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", function));
    llvm::Value *value = function->getArg(0);
    for (unsigned a = 0; a < adds; ++a)
      value = builder.CreateAdd(value, value);
    builder.CreateRet(value);
  }
  return module;
}

TEST(ParallelCodegen, PartsFollowTheModuleSize) {
  llvm::LLVMContext context;
  const unsigned per = aotc::kCodegenPartInstructions;
  // Instructions: functions x (adds + 1 return).
  EXPECT_EQ(aotc::codegenParts(*sized(context, kTriple, 1, 10)), 1u);
  EXPECT_EQ(aotc::codegenParts(*sized(context, kTriple, 2, per - 2)), 1u);
  EXPECT_EQ(aotc::codegenParts(*sized(context, kTriple, 2, per)), 2u);
  EXPECT_EQ(aotc::codegenParts(*sized(context, kTriple, 6, per)), 4u);
  EXPECT_EQ(aotc::codegenParts(*sized(context, kTriple, 20, per)),
            aotc::kMaxCodegenParts);
  // A requested count wins over the size.
  EXPECT_EQ(aotc::codegenParts(*sized(context, kTriple, 1, 10), 3), 3u);
}

TEST(ParallelCodegen, OnePartWhenTheModuleCannotBeSplit) {
  llvm::LLVMContext context;
  const unsigned per = aotc::kCodegenPartInstructions;
  // Mach-O: no ELF object to join.
  EXPECT_EQ(aotc::codegenParts(
                *sized(context, "x86_64-apple-macosx14.0.0", 4, per), 2),
            1u);
  // Constructors (an appending global) stay in one module.
  auto withConstructors = sized(context, kTriple, 4, per);
  llvm::Function *constructor = withConstructors->getFunction("f0");
  llvm::appendToGlobalCtors(*withConstructors, constructor, 0);
  EXPECT_EQ(aotc::codegenParts(*withConstructors), 1u);
}

/// Object code of `module` for x86-64 (thread-safe: a machine per call).
llvm::Expected<std::string> emit(llvm::Module &module) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::string error;
  llvm::Triple triple(kTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "x86-64-v3", "", llvm::TargetOptions(), llvm::Reloc::PIC_));
  module.setDataLayout(machine->createDataLayout());
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("cannot emit an object");
  pm.run(module);
  return std::string(bytes.begin(), bytes.end());
}

/// name -> (size, global binding) of the symbols of `kind` `object`
/// defines.
std::map<std::string, std::tuple<uint64_t, bool>>
definedSymbols(const std::string &object,
               llvm::object::SymbolRef::Type kind =
                   llvm::object::SymbolRef::ST_Function) {
  std::map<std::string, std::tuple<uint64_t, bool>> functions;
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "object"));
  EXPECT_TRUE(static_cast<bool>(file));
  if (!file) {
    llvm::consumeError(file.takeError());
    return functions;
  }
  auto *elf = llvm::cast<llvm::object::ELFObjectFileBase>(file->get());
  for (llvm::object::ELFSymbolRef symbol : elf->symbols()) {
    auto type = symbol.getType();
    auto name = symbol.getName();
    auto flags = symbol.getFlags();
    if (!type || !name || !flags ||
        *type != kind ||
        (*flags & llvm::object::SymbolRef::SF_Undefined))
      continue;
    functions[name->str()] = {symbol.getSize(),
                              bool(*flags & llvm::object::SymbolRef::SF_Global)};
  }
  return functions;
}

const char *kModule = R"(
  target triple = "x86_64-unknown-linux-gnu"
  @table = internal constant [8 x float] [float 1.0, float 2.0, float 3.0,
      float 4.0, float 5.0, float 6.0, float 7.0, float 8.0]
  define internal void @scale(ptr %p, i64 %n) noinline {
  entry:
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %next, %loop ]
    %k = and i64 %i, 7
    %t = getelementptr float, ptr @table, i64 %k
    %f = load float, ptr %t
    %q = getelementptr float, ptr %p, i64 %i
    %x = load float, ptr %q
    %y = fmul float %x, %f
    store float %y, ptr %q
    %next = add i64 %i, 1
    %done = icmp eq i64 %next, %n
    br i1 %done, label %exit, label %loop
  exit:
    ret void
  }
  define internal float @shift(ptr %p) noinline {
    %t = getelementptr float, ptr @table, i64 3
    %f = load float, ptr %t
    %x = load float, ptr %p
    %y = fadd float %x, %f
    ret float %y
  }
  define internal float @first(ptr %p) noinline {
    %x = load float, ptr %p
    %f = load float, ptr @table
    %y = fsub float %x, %f
    ret float %y
  }
  define float @entry(ptr %p, i64 %n) {
    call void @scale(ptr %p, i64 %n)
    %s = call float @shift(ptr %p)
    %r = call float @first(ptr %p)
    %sum = fadd float %s, %r
    ret float %sum
  }
)";

TEST(ParallelCodegen, PartsJoinIntoTheWholeModulesFunctions) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> whole = parse(context, kModule);
  ASSERT_TRUE(whole);
  auto expected = emit(*whole);
  ASSERT_TRUE(static_cast<bool>(expected)) << toString(expected.takeError());

  std::unique_ptr<llvm::Module> module = parse(context, kModule);
  ASSERT_TRUE(module);
  // Each part once: 0 the variables, 1-3 the functions.
  std::array<std::atomic<int>, 4> calls{};
  auto counted = [&](llvm::Module &part,
                     unsigned index) -> llvm::Expected<std::string> {
    if (index < calls.size())
      ++calls[index];
    return emit(part);
  };
  auto joined = aotc::emitObjectInParts(*module, 3, counted,
                                        AOTC_LLVM_TOOLS_DIR "/ld.lld");
  for (const std::atomic<int> &count : calls)
    EXPECT_EQ(count.load(), 1);
  ASSERT_TRUE(static_cast<bool>(joined)) << toString(joined.takeError());

  auto functions = definedSymbols(*joined);
  EXPECT_EQ(functions, definedSymbols(*expected));
  ASSERT_EQ(functions.size(), 4u);
  EXPECT_TRUE(std::get<1>(functions["entry"]));
  for (const char *local : {"scale", "shift", "first"})
    EXPECT_FALSE(std::get<1>(functions[local])) << local;
  // The constant the functions share: defined once (in the variables'
  // part), local, with its size.
  auto data = definedSymbols(*joined, llvm::object::SymbolRef::ST_Data);
  ASSERT_EQ(data.count("table"), 1u);
  EXPECT_EQ(data["table"], std::make_tuple(uint64_t(32), false));
}

TEST(ParallelCodegen, AMissingLinkerIsAnError) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, kModule);
  ASSERT_TRUE(module);
  auto joined =
      aotc::emitObjectInParts(
          *module, 2,
          [](llvm::Module &part, unsigned) { return emit(part); },
          "/nonexistent/ld.lld");
  ASSERT_FALSE(static_cast<bool>(joined));
  EXPECT_NE(toString(joined.takeError()).find("/nonexistent/ld.lld"),
            std::string::npos);
}

} // namespace
