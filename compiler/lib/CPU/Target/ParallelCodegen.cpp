//===- ParallelCodegen.cpp - Object code on several threads ---*- C++ -*-===//
//
// This file implements emitObjectInParts: a large module's code generated
// in parts on threads and joined by ld.lld into one relocatable object.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/ParallelCodegen.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/ObjCopy/ELF/ELFConfig.h"
#include "llvm/ObjCopy/ELF/ELFObjcopy.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <optional>

namespace aotc {

unsigned codegenParts(const llvm::Module &module, unsigned requested) {
  if (!llvm::Triple(module.getTargetTriple()).isOSBinFormatELF() ||
      !module.alias_empty() || !module.ifunc_empty())
    return 1;
  for (const llvm::GlobalVariable &global : module.globals())
    if (global.hasAppendingLinkage())
      return 1;
  // Each thread reads the whole module's bitcode, variables included:
  // beyond kMaxSplitVariableBytes of them (weights), reading them costs
  // more than the threads save.
  const llvm::DataLayout &layout = module.getDataLayout();
  uint64_t variableBytes = 0;
  for (const llvm::GlobalVariable &global : module.globals())
    if (!global.isDeclaration())
      variableBytes += layout.getTypeAllocSize(global.getValueType());
  if (variableBytes > kMaxSplitVariableBytes)
    return 1;
  if (requested > 0)
    return requested;
  uint64_t parts = 1;
  while (parts < kMaxCodegenParts &&
         module.getInstructionCount() >= 2 * parts * kCodegenPartInstructions)
    parts *= 2;
  return static_cast<unsigned>(parts);
}

namespace {

/// The part of each definition of `module`.
llvm::DenseMap<const llvm::GlobalValue *, unsigned>
assignParts(const llvm::Module &module, unsigned parts) {
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> owner;
  // Largest first, to the lightest part (ties: the module's order, then the
  // lowest part), so that the parts take about the same time.
  auto place = [&](auto definitions, auto size) {
    llvm::SmallVector<std::pair<uint64_t, size_t>> order;
    for (auto [index, definition] : llvm::enumerate(definitions))
      order.push_back({size(definition), index});
    llvm::sort(order, [](auto a, auto b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    llvm::SmallVector<uint64_t> load(parts, 0);
    for (auto [bytes, index] : order) {
      unsigned lightest = std::min_element(load.begin(), load.end()) -
                          load.begin();
      owner[definitions[index]] = lightest;
      load[lightest] += bytes;
    }
  };
  llvm::SmallVector<const llvm::Function *> functions;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  place(functions, [](const llvm::Function *function) {
    return uint64_t(function->getInstructionCount());
  });
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::SmallVector<const llvm::GlobalVariable *> variables;
  for (const llvm::GlobalVariable &variable : module.globals())
    if (!variable.isDeclaration())
      variables.push_back(&variable);
  place(variables, [&](const llvm::GlobalVariable *variable) {
    return uint64_t(layout.getTypeAllocSize(variable->getValueType()));
  });
  return owner;
}

/// Writes `bytes` to a new temporary file whose path is appended to
/// `paths` (and removed by `removers`).
llvm::Error writeTemporary(llvm::StringRef bytes,
                           llvm::SmallVectorImpl<std::string> &paths,
                           std::vector<std::unique_ptr<llvm::FileRemover>>
                               &removers) {
  int fd;
  llvm::SmallString<128> path;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("aotc-part", "o", fd, path))
    return llvm::createStringError(error, "cannot create a temporary file");
  removers.push_back(std::make_unique<llvm::FileRemover>(path));
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << bytes;
  os.close();
  if (os.has_error())
    return llvm::createStringError(os.error(), "cannot write '" + path + "'");
  paths.push_back(path.str().str());
  return llvm::Error::success();
}

/// Leaves `module` with the definitions `owner` gives to `part`; the others
/// become declarations.
void keepPart(llvm::Module &module, const llvm::StringMap<unsigned> &owner,
              unsigned part) {
  auto other = [&](const llvm::GlobalValue &value) {
    auto it = owner.find(value.getName());
    return it != owner.end() && it->second != part;
  };
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && other(function))
      function.deleteBody();
  for (llvm::GlobalVariable &variable : module.globals())
    if (!variable.isDeclaration() && other(variable)) {
      variable.setInitializer(nullptr);
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
}

} // namespace

llvm::Expected<std::string> joinObjects(llvm::ArrayRef<std::string> objects,
                                        llvm::StringRef lld) {
  std::vector<std::unique_ptr<llvm::FileRemover>> removers;
  llvm::SmallVector<std::string> inputs;
  for (const std::string &object : objects)
    if (llvm::Error error = writeTemporary(object, inputs, removers))
      return std::move(error);
  llvm::SmallVector<std::string> output;
  if (llvm::Error error = writeTemporary("", output, removers))
    return std::move(error);
  llvm::SmallVector<std::string> diagnostics;
  if (llvm::Error error = writeTemporary("", diagnostics, removers))
    return std::move(error);

  llvm::SmallVector<llvm::StringRef> args = {lld, "-r", "-o", output[0]};
  llvm::append_range(args, inputs);
  std::string message;
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(diagnostics[0]),
      llvm::StringRef(diagnostics[0])};
  int status = llvm::sys::ExecuteAndWait(lld, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    auto log = llvm::MemoryBuffer::getFile(diagnostics[0]);
    return llvm::createStringError(
        "joining the object's parts with '" + lld + "' failed: " +
        (message.empty() && log ? (*log)->getBuffer().str() : message));
  }

  auto buffer = llvm::MemoryBuffer::getFile(output[0]);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + output[0] + "'");
  auto binary =
      llvm::object::ObjectFile::createObjectFile((*buffer)->getMemBufferRef());
  if (!binary)
    return binary.takeError();
  auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(binary->get());
  if (!elf)
    return llvm::createStringError("the joined object is not ELF");
  // The symbols the parts shared are local again, as in one module's object.
  llvm::objcopy::CommonConfig common;
  llvm::objcopy::ELFConfig elfConfig;
  elfConfig.LocalizeHidden = true;
  std::string result;
  llvm::raw_string_ostream out(result);
  if (llvm::Error error =
          llvm::objcopy::elf::executeObjcopyOnBinary(common, elfConfig, *elf,
                                                     out))
    return std::move(error);
  return result;
}

llvm::Expected<std::string> emitObjectInParts(
    llvm::Module &module, unsigned parts,
    llvm::function_ref<llvm::Expected<std::string>(llvm::Module &)>
        emitObject,
    llvm::StringRef lld) {
  // What one part defines and another uses becomes a hidden global (local
  // again after the join).
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasLocalLinkage())
      continue;
    if (!value.hasName())
      value.setName("__aotc_unnamed");
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  // The part of each definition, by name: the names are what the threads'
  // copies share.
  llvm::StringMap<unsigned> owner;
  for (auto [value, part] : assignParts(module, parts))
    owner[value->getName()] = part;

  // Modules of one context cannot be compiled on several threads: each
  // thread reads the module's bitcode into its own and drops the bodies and
  // initializers of the other parts. (Cloning the parts instead changes the
  // order of uses, and with it some of the code generated.)
  llvm::SmallString<0> bitcode;
  {
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(module, os, /*ShouldPreserveUseListOrder=*/true);
  }
  llvm::SmallVector<std::optional<llvm::Expected<std::string>>> objects(parts);
  {
    llvm::DefaultThreadPool pool(llvm::optimal_concurrency(parts));
    for (unsigned index = 0; index < parts; ++index)
      pool.async([&, index] {
        llvm::LLVMContext context;
        auto part = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(bitcode, "module"), context);
        if (!part) {
          objects[index] = part.takeError();
          return;
        }
        keepPart(**part, owner, index);
        objects[index] = emitObject(**part);
      });
    pool.wait();
  }
  llvm::SmallVector<std::string> compiled;
  llvm::Error errors = llvm::Error::success();
  for (std::optional<llvm::Expected<std::string>> &object : objects) {
    if (*object)
      compiled.push_back(std::move(**object));
    else
      errors = llvm::joinErrors(std::move(errors), object->takeError());
  }
  if (errors)
    return std::move(errors);
  return joinObjects(compiled, lld);
}

} // namespace aotc
