//===- Target.h - The interface every aotc target implements -*- C++ -*-===//
//
// This file declares the target interface: the pipeline hook that lowers the
// bufferized, planned program to the LLVM dialect, and the emission of LLVM
// IR, assembly and a relocatable object, all in-process.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TARGET_TARGET_H
#define AOTC_TARGET_TARGET_H

#include "aotc/Common/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace aotc {

/// What the compiler produces from one LLVM-dialect module.
struct TargetArtifacts {
  std::string llvmIR;   ///< textual LLVM IR after optimization
  std::string assembly; ///< when requested
  std::string object;   ///< relocatable object file bytes
  /// How long each phase of `emit` took (name, milliseconds), in order,
  /// for `aotc -v`; a target may leave it empty.
  std::vector<std::pair<std::string, double>> phases;
};

/// One compilation target (cpu, cuda, hip).
class Target {
public:
  virtual ~Target();
  /// The string stored in aot_model_info_t::target ("cpu", "cuda:sm_80").
  virtual std::string infoString() const = 0;
  /// Vector register width used by the tensor stage.
  virtual int64_t vectorBits() const = 0;
  /// The machine model of the CPU code (aotc.cpu_target); null for targets
  /// whose tensor stage does not read it.
  virtual const CpuTarget *cpuTarget() const { return nullptr; }
  /// Stage between bufferization and lowering (GPU targets: loops to
  /// kernels, pool slots of host tensors); nothing by default.
  virtual void buildKernelPipeline(mlir::OpPassManager &pm) const {}
  /// Lowers bufferized, planned IR to the LLVM dialect (plus ABI wrappers).
  virtual void buildLoweringPipeline(mlir::OpPassManager &pm) const = 0;
  /// Translates, optimizes and emits machine code; the textual IR and the
  /// assembly are produced only when asked for (they can be large: weights).
  virtual llvm::Expected<TargetArtifacts>
  emit(mlir::ModuleOp module, bool wantIR, bool wantAssembly) const = 0;
};

/// Options of the CPU target (user flags `--mtriple`, `--mcpu`).
struct CPUTargetOptions {
  std::string triple; ///< empty: the host
  std::string cpu;    ///< empty: the host CPU ("native")
  std::string features;
  /// Cache figures overriding those of the CPU (0: the CPU's).
  CacheFigures caches;
  /// A sanitizer that instruments the generated code ("address" or
  /// "thread"; empty: none). The object then needs that sanitizer's runtime
  /// (link with -fsanitize=...).
  std::string sanitize;
  /// AArch64 SVE: the vector length in bits to generate code for (0: Neon's
  /// fixed 128 bits).
  unsigned sveVectorBits = 0;
  /// ld.lld, which joins the objects of a large module's parts generated on
  /// several threads; without it (empty, or not there) code is generated
  /// on one thread.
  std::string lldPath;
  /// The parts to generate the object's code in (0: by the module's size;
  /// see aotc::codegenParts).
  unsigned codegenParts = 0;
};

/// Creates the CPU target, or an error naming the unknown triple or CPU.
llvm::Expected<std::unique_ptr<Target>>
createCPUTarget(const CPUTargetOptions &options);

/// Options of the GPU targets (user flags `--chip`, `--cuda-path`,
/// `--rocm-device-libs`, `--on-device-tensors`).
struct GPUTargetOptions {
  std::vector<std::string> chips; ///< empty: the target's defaults
  /// CUDA: the toolkit (bin/ptxas, bin/fatbinary); HIP: the directory of
  /// the ROCm device library bitcode (ocml.bc, ...).
  std::string toolkitPath;
  std::string lldPath;          ///< HIP: ld.lld for AMDGPU code objects
  bool onDeviceTensors = false; ///< tensors are device pointers
  CPUTargetOptions host;        ///< machine of the host code
};

/// Creates the CUDA target, or an error naming the unknown chip or the
/// missing toolkit tool.
llvm::Expected<std::unique_ptr<Target>>
createCUDATarget(const GPUTargetOptions &options);

/// Creates the HIP target, or an error naming the unknown chip, the missing
/// linker or device libraries.
llvm::Expected<std::unique_ptr<Target>>
createHIPTarget(const GPUTargetOptions &options);

} // namespace aotc

#endif // AOTC_TARGET_TARGET_H
