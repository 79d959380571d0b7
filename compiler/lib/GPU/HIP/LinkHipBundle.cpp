//===- LinkHipBundle.cpp - Per-chip code objects to one bundle -*- C++ -*-===//
//
// This file implements the aotc-link-hip-bundle pass: the AMDGPU code
// objects that MLIR's ROCDL target produced for each requested chip are
// packed into one clang offload bundle, the image hipModuleLoadData picks
// the running GPU's code object from.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/HIP/Passes.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/Support/EndianStream.h"
#include "llvm/Support/MathExtras.h"

namespace aotc {
#define GEN_PASS_DEF_LINKHIPBUNDLE
#include "aotc/GPU/HIP/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Bundle layout (clang-offload-bundler, uncompressed): the magic, the entry
/// count, then per entry its offset, size, triple length and triple (all
/// little-endian u64), then the code objects.
constexpr llvm::StringLiteral kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
/// Code objects start at a page boundary, as clang's bundler places them.
constexpr uint64_t kPayloadAlignment = 4096;

struct LinkHipBundlePass : aotc::impl::LinkHipBundleBase<LinkHipBundlePass> {
  void runOnOperation() override {
    for (auto binary : llvm::to_vector(getOperation().getOps<gpu::BinaryOp>()))
      if (failed(link(binary)))
        return signalPassFailure();
  }

  LogicalResult link(gpu::BinaryOp binary) {
    // (triple, code object); the host entry is empty, as clang writes it.
    SmallVector<std::pair<std::string, StringRef>> entries = {
        {"host-x86_64-unknown-linux-gnu", StringRef()}};
    Attribute first;
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      auto target = dyn_cast<ROCDL::ROCDLTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Binary)
        return binary.emitError("expected code objects of ROCDL targets");
      if (!first)
        first = target;
      entries.push_back({"hipv4-amdgcn-amd-amdhsa--" + target.getChip().str(),
                         object.getObject().getValue()});
    }
    if (!first)
      return binary.emitError("no code object to bundle");

    uint64_t headerBytes = kBundleMagic.size() + 8;
    for (const auto &[triple, code] : entries)
      headerBytes += 24 + triple.size();
    std::string bundle;
    llvm::raw_string_ostream os(bundle);
    llvm::support::endian::Writer out(os, llvm::endianness::little);
    os << kBundleMagic;
    out.write<uint64_t>(entries.size());
    uint64_t offset = llvm::alignTo(headerBytes, kPayloadAlignment);
    SmallVector<uint64_t> offsets;
    for (const auto &[triple, code] : entries) {
      offsets.push_back(code.empty() ? 0 : offset);
      out.write<uint64_t>(offsets.back());
      out.write<uint64_t>(code.size());
      out.write<uint64_t>(triple.size());
      os << triple;
      if (!code.empty())
        offset = llvm::alignTo(offset + code.size(), kPayloadAlignment);
    }
    for (auto [entry, at] : llvm::zip_equal(entries, offsets)) {
      if (entry.second.empty())
        continue;
      bundle.resize(at, '\0');
      os << entry.second;
    }
    MLIRContext *ctx = &getContext();
    auto object = gpu::ObjectAttr::get(ctx, first, gpu::CompilationTarget::Binary,
                                       StringAttr::get(ctx, bundle), nullptr,
                                       nullptr);
    binary.setObjectsAttr(ArrayAttr::get(ctx, {object}));
    return success();
  }
};

} // namespace
