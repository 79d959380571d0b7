//===- HIPTarget.cpp - AMD GPU target ------------------------*- C++ -*-===//
//
// This file implements the HIP target: kernels through MLIR's ROCDL target,
// LLVM's AMDGPU backend, lld and the ROCm device libraries (Debian's
// rocm-device-libs) into one embedded offload bundle; host code (argument
// checks, copies, launches through aot_runtime_hip) emitted for the host CPU
// like the CPU target's.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/GPUChips.h"
#include "aotc/Pipelines/GPUPipelines.h"
#include "aotc/Target/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace aotc {

namespace {

/// MLIR's ROCDL serializer looks for `<rocm>/llvm/bin/ld.lld` and
/// `<rocm>/amdgcn/bitcode`. Distributions install them elsewhere: this
/// private directory of links lays them out that way for one compilation.
class RocmLayout {
public:
  ~RocmLayout() {
    if (root.empty())
      return;
    for (const char *path : {"llvm/bin/ld.lld", "llvm/bin", "llvm",
                             "amdgcn/bitcode", "amdgcn", ""}) {
      llvm::SmallString<256> full(root);
      llvm::sys::path::append(full, path);
      llvm::sys::fs::remove(full);
    }
  }

  llvm::Error create(llvm::StringRef lld, llvm::StringRef bitcode) {
    llvm::SmallString<256> prefix;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, prefix);
    llvm::sys::path::append(prefix, "aotc-rocm");
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory(prefix, root))
      return llvm::createStringError("cannot create a temporary directory: " +
                                     ec.message());
    llvm::SmallString<256> bin(root), amdgcn(root);
    llvm::sys::path::append(bin, "llvm", "bin");
    llvm::sys::path::append(amdgcn, "amdgcn");
    llvm::SmallString<256> lldLink(bin), bitcodeLink(amdgcn);
    llvm::sys::path::append(lldLink, "ld.lld");
    llvm::sys::path::append(bitcodeLink, "bitcode");
    if (llvm::sys::fs::create_directories(bin) ||
        llvm::sys::fs::create_directories(amdgcn) ||
        llvm::sys::fs::create_link(lld, lldLink) ||
        llvm::sys::fs::create_link(bitcode, bitcodeLink))
      return llvm::createStringError("cannot lay out the ROCm directory in '" +
                                     root + "'");
    return llvm::Error::success();
  }

  llvm::StringRef path() const { return root; }

private:
  llvm::SmallString<256> root;
};

class HIPTarget : public Target {
public:
  HIPTarget(std::unique_ptr<Target> host, std::vector<std::string> chips,
            std::unique_ptr<RocmLayout> rocm, bool onDeviceTensors)
      : host(std::move(host)), chips(std::move(chips)), rocm(std::move(rocm)),
        onDeviceTensors(onDeviceTensors) {}

  std::string infoString() const override {
    return "hip:" + llvm::join(chips, ",");
  }

  int64_t vectorBits() const override { return 32; }

  /// Kernels outlined and compiled to a code object for every chip.
  void buildKernelPipeline(OpPassManager &pm) const override {
    GPUKernelOptions kernels;
    kernels.onDeviceTensors = onDeviceTensors;
    // MFMA 16x16x16 f16 / bf16_1k on every chip of the bundle (CDNA2, CDNA3).
    if (llvm::all_of(chips, [](llvm::StringRef chip) {
          return llvm::is_contained(
              {"gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"}, chip);
        }))
      kernels.matrixUnits = "amdgpu";
    buildGPUKernelPipeline(pm, kernels);
    HIPDeviceOptions device;
    device.chips = chips;
    device.rocmPath = rocm->path().str();
    buildHIPDevicePipeline(pm, device);
  }

  void buildLoweringPipeline(OpPassManager &pm) const override {
    HIPLoweringOptions options;
    options.onDeviceTensors = onDeviceTensors;
    options.target = infoString();
    buildHIPLoweringPipeline(pm, options);
  }

  /// The bundle is already inside the host module (a global).
  llvm::Expected<TargetArtifacts> emit(ModuleOp module, bool wantIR,
                                       bool wantAssembly) const override {
    return host->emit(module, wantIR, wantAssembly);
  }

private:
  std::unique_ptr<Target> host;
  std::vector<std::string> chips;
  std::unique_ptr<RocmLayout> rocm;
  bool onDeviceTensors;
};

} // namespace

llvm::Expected<std::unique_ptr<Target>>
createHIPTarget(const GPUTargetOptions &options) {
  auto host = createCPUTarget(options.host);
  if (!host)
    return host.takeError();

  static constexpr llvm::StringRef kDefaults[] = {"gfx90a", "gfx942"};
  auto selected = selectGPUChips({"amdgcn-amd-amdhsa", "AMDGPU", "HIP", "gfx",
                                  "gfxNNN, e.g. gfx90a, gfx942", kDefaults},
                                 options.chips);
  if (!selected)
    return selected.takeError();
  std::vector<std::string> chips = std::move(*selected);

  // The linker and the device libraries are needed before any work.
  llvm::SmallString<256> lld(options.lldPath);
  if (!llvm::sys::fs::can_execute(lld))
    return llvm::createStringError("the linker '" + lld +
                                   "' for AMDGPU code objects is missing");
  llvm::SmallString<256> ocml(options.toolkitPath);
  llvm::sys::path::append(ocml, "ocml.bc");
  if (!llvm::sys::fs::exists(ocml))
    return llvm::createStringError(
        "ROCm device libraries not found: no '" + ocml +
        "' (install rocm-device-libs, or set --rocm-device-libs or "
        "AOTC_ROCM_DEVICE_LIBS)");
  auto rocm = std::make_unique<RocmLayout>();
  if (llvm::Error e = rocm->create(lld, options.toolkitPath))
    return std::move(e);
  return std::make_unique<HIPTarget>(std::move(*host), std::move(chips),
                                     std::move(rocm), options.onDeviceTensors);
}

} // namespace aotc
