//===- GPUPipelines.cpp - aotc pipelines of the GPU targets --*- C++ -*-===//
//
// This file implements the GPU stages. Upstream passes are added by their
// registered names, aotc passes through their generated constructors, as in
// Pipelines.cpp.
//
//===----------------------------------------------------------------------===//

#include "aotc/Pipelines/GPUPipelines.h"
#include "aotc/ABI/Passes.h"
#include "aotc/Common/Passes.h"
#include "aotc/GPU/CUDA/Passes.h"
#include "aotc/GPU/Common/Passes.h"
#include "aotc/GPU/HIP/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

namespace aotc {

/// Appends upstream passes written in the textual pipeline syntax.
static void addPasses(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("aotc: invalid built-in pipeline: " + pipeline);
}

void buildGPUTensorPipeline(OpPassManager &pm, const GPUTensorOptions &) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // Composite ops to linalg primitives; elementwise chains fused into single
  // generics (one kernel each).
  fpm.addPass(createDecomposeOps());
  addPasses(fpm, "linalg-fuse-elementwise-ops,canonicalize,cse");
  // One destination per consumer, in-place updates of dead temporaries.
  fpm.addPass(createPrivatizeInits());
  fpm.addPass(createReuseDeadInputs());
  addPasses(fpm, "canonicalize");
}

void buildGPUKernelPipeline(OpPassManager &pm,
                            const GPUKernelOptions &options) {
  // f16/bf16 matmuls to kernels on matrix instructions (tensor cores, MFMA)
  // where every chip has them.
  if (!options.matrixUnits.empty()) {
    GpuMmaContractionsOptions mma;
    mma.target = options.matrixUnits;
    mma.wgmma = options.wgmma;
    pm.nest<func::FuncOp>().addPass(createGpuMmaContractions(mma));
  }
  // Other contractions (matmul, convolution) to kernels tiled through
  // workgroup memory; every other op to loops over blocks x threads, then
  // gpu.launch regions.
  if (options.tileContractions)
    pm.nest<func::FuncOp>().addPass(createTileGpuContractions());
  // Row reductions to block-level trees through workgroup memory.
  if (options.blockReductions)
    pm.nest<func::FuncOp>().addPass(createGpuBlockReductions());
  MapToGpuOptions map;
  map.blockSize = options.blockSize;
  pm.nest<func::FuncOp>().addPass(createMapToGpu(map));
  addPasses(pm, "func.func(convert-parallel-loops-to-gpu),canonicalize");
  // Kernels outlined (global constants are copied into the device module)
  // into one gpu.module.
  addPasses(pm, "gpu-kernel-outlining");
  pm.addPass(createMergeGpuModules());
  // Host tensors travel through the pool.
  if (!options.onDeviceTensors)
    pm.nest<func::FuncOp>().addPass(createReserveTensorStaging());
}

/// Host code to the LLVM dialect (entry points take bare pointers), then the
/// ABI wrappers around the thin runtime.
static void addHostLowering(OpPassManager &pm, StringRef runtime,
                            StringRef target, bool onDeviceTensors) {
  addPasses(pm, "finalize-memref-to-llvm,convert-arith-to-llvm,"
                "convert-index-to-llvm,convert-cf-to-llvm,convert-ub-to-llvm,"
                "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},"
                "gpu-to-llvm,reconcile-unrealized-casts,canonicalize");
  EmitGpuEntryPointsOptions emit;
  emit.runtime = runtime.str();
  emit.target = target.str();
  emit.onDeviceTensors = onDeviceTensors;
  pm.addPass(createEmitGpuEntryPoints(emit));
  // Weights (host data) as flat arrays, as on the CPU target.
  pm.addPass(createFlattenConstantGlobals());
}

void buildCUDADevicePipeline(OpPassManager &pm,
                             const CUDADeviceOptions &options) {
  // Weights keep their bytes once, in host data; the runtime fills the
  // device globals when it loads the module.
  pm.addPass(createHoistDeviceConstants());
  // One NVVM target per chip; PTX 8.0 is the first that knows sm_90.
  // Kernels with a wgmma variant: a module clone for sm_90a keeps it, the
  // module of every other chip the mma.sync body.
  AttachCudaTargetsOptions attach;
  attach.chips.assign(options.chips.begin(), options.chips.end());
  pm.addPass(createAttachCudaTargets(attach));
  // bf16 nvgpu.mma.sync, which upstream does not lower, to nvvm.mma.sync.
  pm.nest<gpu::GPUModuleOp>().addPass(createLowerBf16MmaSync());
  // Index arithmetic and structured control flow to the CFG form both sides
  // lower from; kernels to NVVM (math through libdevice, nvgpu.mma.sync to
  // nvvm.mma.sync; wgmma.mma_async, which has no intrinsic, to inline PTX).
  addPasses(pm, "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
                "gpu.module(convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,"
                "convert-nvvm-to-llvm,canonicalize,cse,"
                "reconcile-unrealized-casts)");
  pm.nest<gpu::GPUModuleOp>().addPass(createVerifyGpuKernels());
  // PTX per chip, in-process through LLVM's NVPTX backend (libdevice from
  // the toolkit for math functions).
  addPasses(pm, "gpu-module-to-binary{format=isa toolkit=" +
                    options.toolkitPath + "}");
}

void buildCUDALoweringPipeline(OpPassManager &pm,
                               const CUDALoweringOptions &options) {
  // SASS per chip + PTX of the newest in one fatbin, through the toolkit.
  LinkCudaFatbinOptions link;
  link.toolkitPath = options.toolkitPath;
  pm.addPass(createLinkCudaFatbin(link));
  addHostLowering(pm, "cuda", options.target, options.onDeviceTensors);
}

void buildHIPDevicePipeline(OpPassManager &pm,
                            const HIPDeviceOptions &options) {
  // Weights once, in host data (as for CUDA).
  pm.addPass(createHoistDeviceConstants());
  // One ROCDL target per chip; kernels to ROCDL (math through the ROCm
  // device libraries' ocml; tanh, which becomes an LLVM intrinsic the
  // AMDGPU backend cannot lower, is first expanded into exp).
  for (const std::string &chip : options.chips)
    addPasses(pm, "rocdl-attach-target{O=3 chip=" + chip + "}");
  // amdgpu.mfma lowers for the oldest chip (the chips of one bundle that
  // run MFMA kernels share the intrinsics aotc uses).
  addPasses(pm, "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
                "gpu.module(math-expand-ops{ops=tanh},"
                "convert-gpu-to-rocdl{chipset=" +
                    (options.chips.empty() ? std::string("gfx000")
                                           : options.chips.front()) +
                    "},"
                "canonicalize,cse,"
                "reconcile-unrealized-casts)");
  pm.nest<gpu::GPUModuleOp>().addPass(createVerifyGpuKernels());
  // A code object per chip, in-process (AMDGPU backend), linked by lld.
  addPasses(pm, "gpu-module-to-binary{format=bin toolkit=" + options.rocmPath +
                    "}");
}

void buildHIPLoweringPipeline(OpPassManager &pm,
                              const HIPLoweringOptions &options) {
  // Every chip's code object in one offload bundle.
  pm.addPass(createLinkHipBundle());
  addHostLowering(pm, "hip", options.target, options.onDeviceTensors);
}

void registerGPUPipelines() {
  PassPipelineRegistration<GPUTensorOptions>(
      "aotc-gpu-tensor", "aotc GPU tensor stage: decomposition and fusion",
      buildGPUTensorPipeline);
  PassPipelineRegistration<GPUKernelOptions>(
      "aotc-gpu-kernels", "aotc GPU kernel stage: loops to outlined kernels",
      buildGPUKernelPipeline);
  PassPipelineRegistration<CUDADeviceOptions>(
      "aotc-cuda-device", "aotc CUDA kernels: NVVM, PTX per chip",
      buildCUDADevicePipeline);
  PassPipelineRegistration<CUDALoweringOptions>(
      "aotc-cuda-lowering",
      "aotc CUDA lowering: fatbin, host code calling aot_runtime_cuda",
      buildCUDALoweringPipeline);
  PassPipelineRegistration<HIPDeviceOptions>(
      "aotc-hip-device", "aotc HIP kernels: ROCDL, a code object per chip",
      buildHIPDevicePipeline);
  PassPipelineRegistration<HIPLoweringOptions>(
      "aotc-hip-lowering",
      "aotc HIP lowering: offload bundle, host code calling aot_runtime_hip",
      buildHIPLoweringPipeline);
}

} // namespace aotc
