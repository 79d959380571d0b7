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
  if (requested > 0)
    return requested;
  uint64_t parts = 1;
  while (parts < kMaxCodegenParts &&
         module.getInstructionCount() >= 2 * parts * kCodegenPartInstructions)
    parts *= 2;
  return static_cast<unsigned>(parts);
}

namespace {

/// The part of each function `module` defines: largest first, to the part
/// with the fewest instructions so far (ties: the module's order, then the
/// lowest part), so that the parts take about the same time.
llvm::DenseMap<const llvm::Function *, unsigned>
assignParts(const llvm::Module &module, unsigned parts) {
  llvm::SmallVector<const llvm::Function *> functions;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  llvm::SmallVector<std::pair<uint64_t, size_t>> order;
  for (auto [index, function] : llvm::enumerate(functions))
    order.push_back({function->getInstructionCount(), index});
  llvm::sort(order, [](auto a, auto b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  llvm::DenseMap<const llvm::Function *, unsigned> owner;
  llvm::SmallVector<uint64_t> load(parts, 0);
  for (auto [size, index] : order) {
    const llvm::Function *function = functions[index];
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    owner[function] = lightest;
    load[lightest] += size;
  }
  return owner;
}

/// Temporary files, removed when this is destroyed.
class TemporaryFiles {
public:
  /// The path of a new temporary file holding `bytes`.
  llvm::Expected<std::string> write(llvm::StringRef bytes) {
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
      return llvm::createStringError(os.error(),
                                     "cannot write '" + path + "'");
    return path.str().str();
  }

private:
  std::vector<std::unique_ptr<llvm::FileRemover>> removers;
};

/// Leaves `module` with the function bodies `owner` gives to `part`; the
/// other functions become declarations.
void keepPart(llvm::Module &module, const llvm::StringMap<unsigned> &owner,
              unsigned part) {
  for (llvm::Function &function : module) {
    auto it = owner.find(function.getName());
    if (!function.isDeclaration() && it != owner.end() && it->second != part)
      function.deleteBody();
  }
}

} // namespace

llvm::Expected<std::string> joinObjects(llvm::ArrayRef<std::string> objects,
                                        llvm::StringRef lld) {
  TemporaryFiles files;
  llvm::SmallVector<std::string> inputs;
  for (const std::string &object : objects) {
    auto input = files.write(object);
    if (!input)
      return input.takeError();
    inputs.push_back(std::move(*input));
  }
  auto output = files.write("");
  if (!output)
    return output.takeError();
  auto diagnostics = files.write("");
  if (!diagnostics)
    return diagnostics.takeError();

  llvm::SmallVector<llvm::StringRef> args = {lld, "-r", "-o", *output};
  llvm::append_range(args, inputs);
  std::string message;
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(*diagnostics),
      llvm::StringRef(*diagnostics)};
  int status = llvm::sys::ExecuteAndWait(lld, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    auto log = llvm::MemoryBuffer::getFile(*diagnostics);
    return llvm::createStringError(
        "joining the object's parts with '" + lld + "' failed: " +
        (message.empty() && log ? (*log)->getBuffer().str() : message));
  }

  auto buffer = llvm::MemoryBuffer::getFile(*output);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + *output + "'");
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
    llvm::function_ref<llvm::Expected<std::string>(llvm::Module &, unsigned)>
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
  // The part of each function, by name: the names are what the threads'
  // copies share.
  llvm::StringMap<unsigned> owner;
  for (auto [function, part] : assignParts(module, parts))
    owner[function->getName()] = part;

  // Modules of one context cannot be compiled on several threads: each
  // thread reads the module's bitcode into its own and drops the bodies of
  // the other parts' functions. (Cloning the parts instead changes the
  // order of uses, and with it some of the code generated.) The variables
  // (the weights) are left out of the bitcode as declarations, with the
  // alignment their definitions get, so that the code is the same; their
  // data is generated from this module, on this thread, meanwhile.
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::SmallVector<std::pair<llvm::GlobalVariable *, llvm::Constant *>>
      initializers;
  for (llvm::GlobalVariable &variable : module.globals()) {
    if (variable.isDeclaration())
      continue;
    if (!variable.getAlign())
      variable.setAlignment(layout.getPreferredAlign(&variable));
    initializers.push_back({&variable, variable.getInitializer()});
    variable.setInitializer(nullptr);
  }
  llvm::SmallString<0> bitcode;
  {
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(module, os, /*ShouldPreserveUseListOrder=*/true);
  }
  for (auto [variable, initializer] : initializers)
    variable->setInitializer(initializer);
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.deleteBody();

  // Part 0 is the data; parts 1.. the functions.
  llvm::SmallVector<std::optional<llvm::Expected<std::string>>> objects(
      parts + 1);
  {
    llvm::DefaultThreadPool pool(llvm::optimal_concurrency(parts));
    for (unsigned index = 0; index < parts; ++index)
      pool.async([&, index] {
        llvm::LLVMContext context;
        auto part = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(bitcode, "module"), context);
        if (!part) {
          objects[index + 1] = part.takeError();
          return;
        }
        keepPart(**part, owner, index);
        objects[index + 1] = emitObject(**part, index + 1);
      });
    objects[0] = emitObject(module, 0);
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
