//===- GPUPipelines.h - aotc pipelines of the GPU targets ----*- C++ -*-===//
//
// This file declares the stages of the CUDA and HIP targets (docs/gpu.md):
// a tensor stage without CPU vectorization, the kernel stage that maps loops
// to blocks and threads and outlines kernels, and the lowerings of kernels
// (NVVM + ptxas/fatbinary, ROCDL + lld) and host code (thin runtime calls).
// The frontend and bufferization stages are those of Pipelines.h.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_PIPELINES_GPUPIPELINES_H
#define AOTC_PIPELINES_GPUPIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace aotc {

/// GPU tensor stage: decomposition and elementwise fusion only (threads and
/// blocks are assigned after bufferization).
struct GPUTensorOptions : mlir::PassPipelineOptions<GPUTensorOptions> {};
void buildGPUTensorPipeline(mlir::OpPassManager &pm,
                            const GPUTensorOptions &options);

/// Kernel stage: loops to gpu.launch, outlined into one gpu.module, and the
/// pool slots of host tensors.
struct GPUKernelOptions : mlir::PassPipelineOptions<GPUKernelOptions> {
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block"),
                            llvm::cl::init(256)};
  Option<bool> onDeviceTensors{
      *this, "on-device-tensors",
      llvm::cl::desc("Inputs and outputs are device pointers"),
      llvm::cl::init(false)};
  Option<bool> tileContractions{
      *this, "tile-contractions",
      llvm::cl::desc("Tile contractions through workgroup memory "
                     "(aotc-tile-gpu-contractions)"),
      llvm::cl::init(true)};
  Option<std::string> matrixUnits{
      *this, "matrix-units",
      llvm::cl::desc("f16/bf16 matmuls on matrix instructions "
                     "(aotc-gpu-mma-contractions): nvgpu, amdgpu or empty "
                     "(none)"),
      llvm::cl::init("")};
  Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("With matrix-units=nvgpu: also a wgmma variant of each "
                     "matrix kernel, for sm_90a (fatbins with sm_90)"),
      llvm::cl::init(false)};
  Option<bool> blockReductions{
      *this, "block-reductions",
      llvm::cl::desc("Row reductions as block-level trees "
                     "(aotc-gpu-block-reductions)"),
      llvm::cl::init(true)};
};
void buildGPUKernelPipeline(mlir::OpPassManager &pm,
                            const GPUKernelOptions &options);

/// CUDA kernels: one NVVM target per chip, kernels to NVVM, PTX per chip in
/// a gpu.binary.
struct CUDADeviceOptions : mlir::PassPipelineOptions<CUDADeviceOptions> {
  ListOption<std::string> chips{*this, "chips",
                                llvm::cl::desc("SM architectures (sm_80,...)")};
  Option<std::string> toolkitPath{
      *this, "toolkit-path",
      llvm::cl::desc("CUDA toolkit directory (libdevice)"),
      llvm::cl::init("/usr/local/cuda")};
};
void buildCUDADevicePipeline(mlir::OpPassManager &pm,
                             const CUDADeviceOptions &options);

/// Lowering of the CUDA target: the per-chip PTX into one fatbin, host code
/// to the LLVM dialect calling aot_runtime_cuda.
struct CUDALoweringOptions : mlir::PassPipelineOptions<CUDALoweringOptions> {
  Option<std::string> toolkitPath{
      *this, "toolkit-path",
      llvm::cl::desc("CUDA toolkit directory (ptxas, fatbinary)"),
      llvm::cl::init("/usr/local/cuda")};
  Option<bool> onDeviceTensors{
      *this, "on-device-tensors",
      llvm::cl::desc("Inputs and outputs are device pointers"),
      llvm::cl::init(false)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target string of the info struct"),
                             llvm::cl::init("cuda")};
};
void buildCUDALoweringPipeline(mlir::OpPassManager &pm,
                               const CUDALoweringOptions &options);

/// HIP kernels: one ROCDL target per chip, kernels to ROCDL, an AMDGPU code
/// object per chip (LLVM's AMDGPU backend, lld, ROCm device libraries) in a
/// gpu.binary.
struct HIPDeviceOptions : mlir::PassPipelineOptions<HIPDeviceOptions> {
  ListOption<std::string> chips{*this, "chips",
                                llvm::cl::desc("AMDGPU chips (gfx90a,...)")};
  Option<std::string> rocmPath{
      *this, "rocm-path",
      llvm::cl::desc("Directory holding llvm/bin/ld.lld and amdgcn/bitcode"),
      llvm::cl::init("")};
};
void buildHIPDevicePipeline(mlir::OpPassManager &pm,
                            const HIPDeviceOptions &options);

/// Lowering of the HIP target: the per-chip code objects into one offload
/// bundle, host code to the LLVM dialect calling aot_runtime_hip.
struct HIPLoweringOptions : mlir::PassPipelineOptions<HIPLoweringOptions> {
  Option<bool> onDeviceTensors{
      *this, "on-device-tensors",
      llvm::cl::desc("Inputs and outputs are device pointers"),
      llvm::cl::init(false)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target string of the info struct"),
                             llvm::cl::init("hip")};
};
void buildHIPLoweringPipeline(mlir::OpPassManager &pm,
                              const HIPLoweringOptions &options);

/// Registers the pipelines above as aotc-gpu-tensor, aotc-gpu-kernels,
/// aotc-cuda-device, aotc-cuda-lowering, aotc-hip-device and
/// aotc-hip-lowering.
void registerGPUPipelines();

} // namespace aotc

#endif // AOTC_PIPELINES_GPUPIPELINES_H
