//===- CUDATarget.cpp - NVIDIA GPU target --------------------*- C++ -*-===//
//
// This file implements the CUDA target: kernels through MLIR's NVVM target
// and the CUDA toolkit's ptxas/fatbinary into one embedded fatbin, host code
// (argument checks, copies, launches through aot_runtime_cuda) emitted for
// the host CPU like the CPU target's.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/GPUChips.h"
#include "aotc/Pipelines/GPUPipelines.h"
#include "aotc/Target/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;

namespace aotc {

namespace {

class CUDATarget : public Target {
public:
  CUDATarget(std::unique_ptr<Target> host, std::vector<std::string> chips,
             std::string toolkitPath, bool onDeviceTensors)
      : host(std::move(host)), chips(std::move(chips)),
        toolkitPath(std::move(toolkitPath)),
        onDeviceTensors(onDeviceTensors) {}

  std::string infoString() const override {
    return "cuda:" + llvm::join(chips, ",");
  }

  int64_t vectorBits() const override { return 32; }

  /// Kernels outlined and compiled to PTX for every chip (the dump of this
  /// stage holds the PTX that ptxas assembles next).
  void buildKernelPipeline(OpPassManager &pm) const override {
    GPUKernelOptions kernels;
    kernels.onDeviceTensors = onDeviceTensors;
    // mma.sync m16n8k16 needs sm_80 or newer on every chip of the fatbin.
    if (llvm::all_of(chips, [](llvm::StringRef chip) {
          unsigned sm = 0;
          return !chip.drop_front(3).take_while(llvm::isDigit).getAsInteger(
                     10, sm) &&
                 sm >= 80;
        }))
      kernels.matrixUnits = "nvgpu";
    // wgmma (sm_90a) for the SASS of sm_90, mma.sync for the other chips.
    kernels.wgmma = !kernels.matrixUnits.empty() &&
                    llvm::is_contained(chips, std::string("sm_90"));
    buildGPUKernelPipeline(pm, kernels);
    CUDADeviceOptions device;
    device.chips = chips;
    device.toolkitPath = toolkitPath;
    buildCUDADevicePipeline(pm, device);
  }

  void buildLoweringPipeline(OpPassManager &pm) const override {
    CUDALoweringOptions options;
    options.toolkitPath = toolkitPath;
    options.onDeviceTensors = onDeviceTensors;
    options.target = infoString();
    buildCUDALoweringPipeline(pm, options);
  }

  /// The device image is already inside the host module (a global): the
  /// host code is emitted like the CPU target's.
  llvm::Expected<TargetArtifacts> emit(ModuleOp module, bool wantIR,
                                       bool wantAssembly) const override {
    return host->emit(module, wantIR, wantAssembly);
  }

private:
  std::unique_ptr<Target> host;
  std::vector<std::string> chips;
  std::string toolkitPath;
  bool onDeviceTensors;
};

/// The real chips (sm_XX, sm_XXa, sm_XXf) the toolkit's ptxas accepts for
/// --gpu-name, read from the "Allowed values" list of `ptxas --help`; empty
/// when that list cannot be read (ptxas then reports a chip it rejects).
std::vector<std::string> ptxasChips(llvm::StringRef ptxas) {
  llvm::SmallString<128> help;
  if (llvm::sys::fs::createTemporaryFile("aotc-ptxas", "txt", help))
    return {};
  llvm::FileRemover remove(help);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, help.str(),
                                                help.str()};
  if (llvm::sys::ExecuteAndWait(ptxas, {ptxas, "--help"}, std::nullopt,
                                redirects, /*SecondsToWait=*/30) != 0)
    return {};
  auto buffer = llvm::MemoryBuffer::getFile(help);
  if (!buffer)
    return {};
  llvm::StringRef text = (*buffer)->getBuffer();
  size_t start = text.find("--gpu-name");
  if (start == llvm::StringRef::npos)
    return {};
  text = text.drop_front(start);
  size_t list = text.find("Allowed values for this option:");
  size_t end = text.find("Default value:");
  if (list == llvm::StringRef::npos || end == llvm::StringRef::npos ||
      end < list)
    return {};
  std::vector<std::string> chips;
  llvm::SmallVector<llvm::StringRef> values;
  text.slice(list, end).split(values, '\'');
  for (size_t i = 1; i < values.size(); i += 2)
    if (values[i].starts_with("sm_"))
      chips.push_back(values[i].str());
  // By SM number, then suffix: sm_75, ..., sm_90, sm_90a, sm_100, ...
  llvm::sort(chips, [](llvm::StringRef a, llvm::StringRef b) {
    unsigned x = 0, y = 0;
    a = a.drop_front(3);
    b = b.drop_front(3);
    a.consumeInteger(10, x);
    b.consumeInteger(10, y);
    return std::make_pair(x, a) < std::make_pair(y, b);
  });
  return chips;
}

} // namespace

llvm::Expected<std::unique_ptr<Target>>
createCUDATarget(const GPUTargetOptions &options) {
  // The host target first: it initializes every LLVM backend.
  auto host = createCPUTarget(options.host);
  if (!host)
    return host.takeError();

  static constexpr llvm::StringRef kDefaults[] = {"sm_80", "sm_90"};
  auto selected = selectGPUChips({"nvptx64-nvidia-cuda", "NVPTX", "CUDA", "sm_",
                                  "sm_XX, e.g. sm_80, sm_90", kDefaults},
                                 options.chips);
  if (!selected)
    return selected.takeError();
  std::vector<std::string> chips = std::move(*selected);

  // The toolkit's assembler and packager are needed before any work.
  for (llvm::StringRef tool : {"ptxas", "fatbinary"}) {
    llvm::SmallString<256> path(options.toolkitPath);
    llvm::sys::path::append(path, "bin", tool);
    if (!llvm::sys::fs::can_execute(path))
      return llvm::createStringError(
          "CUDA toolkit tool '" + tool + "' not found at '" + path +
          "' (set --cuda-path or AOTC_CUDA_PATH)");
  }
  // A chip LLVM knows but this toolkit's ptxas does not (sm_70 for CUDA 13)
  // is rejected before any work.
  llvm::SmallString<256> ptxas(options.toolkitPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  std::vector<std::string> accepted = ptxasChips(ptxas);
  for (const std::string &chip : chips)
    if (!accepted.empty() && !llvm::is_contained(accepted, chip))
      return llvm::createStringError(
          "CUDA chip '" + chip + "' is not supported by the CUDA toolkit at '" +
          options.toolkitPath + "' (its ptxas accepts " +
          llvm::join(accepted, ", ") + ")");
  // NVVM links the toolkit's libdevice for math functions (erf, exp, ...);
  // without it MLIR's serializer reports the path and ptxas then fails on
  // the unresolved __nv_* calls, after the work. Checked up front instead.
  llvm::SmallString<256> libdevice(options.toolkitPath);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (!llvm::sys::fs::is_regular_file(libdevice))
    return llvm::createStringError(
        "CUDA toolkit at '" + options.toolkitPath + "' has no libdevice ('" +
        libdevice + "') (set --cuda-path or AOTC_CUDA_PATH)");
  return std::make_unique<CUDATarget>(std::move(*host), std::move(chips),
                                      options.toolkitPath,
                                      options.onDeviceTensors);
}

} // namespace aotc
