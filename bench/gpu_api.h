//===- gpu_api.h - CUDA or HIP runtime API for bench_gpu -------*- C++ -*-===//
//
// bench_gpu.cpp is one program for both GPU vendors: it calls the gpu*
// names below, which are the CUDA runtime API's (cuda_runtime.h) or, with
// AOTC_BENCH_HIP=1, the HIP runtime API's (hip/hip_runtime_api.h, host code
// only, libamdhip64). Only what the benchmark uses.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_BENCH_GPU_API_H
#define AOTC_BENCH_GPU_API_H

#ifndef AOTC_BENCH_HIP
#define AOTC_BENCH_HIP 0
#endif

#if AOTC_BENCH_HIP
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#define GPU_API(name) hip##name
#define GPU_PICK(cuda, hip) hip
#else
#include <cuda_runtime.h>
#define GPU_API(name) cuda##name
#define GPU_PICK(cuda, hip) cuda
#endif

using gpuError_t = GPU_API(Error_t);
using gpuStream_t = GPU_API(Stream_t);
using gpuEvent_t = GPU_API(Event_t);
using gpuDeviceProp = GPU_PICK(cudaDeviceProp, hipDeviceProp_t);
constexpr gpuError_t gpuSuccess = GPU_API(Success);
constexpr auto gpuMemcpyHostToDevice = GPU_API(MemcpyHostToDevice);
constexpr auto gpuMemcpyDeviceToHost = GPU_API(MemcpyDeviceToHost);
constexpr auto gpuMemcpyDeviceToDevice = GPU_API(MemcpyDeviceToDevice);
constexpr unsigned gpuStreamNonBlocking = GPU_API(StreamNonBlocking);
constexpr auto gpuAttrMultiProcessorCount =
    GPU_PICK(cudaDevAttrMultiProcessorCount,
             hipDeviceAttributeMultiprocessorCount);
constexpr auto gpuAttrClockRate =
    GPU_PICK(cudaDevAttrClockRate, hipDeviceAttributeClockRate);
constexpr auto gpuAttrMemoryClockRate =
    GPU_PICK(cudaDevAttrMemoryClockRate, hipDeviceAttributeMemoryClockRate);
constexpr auto gpuAttrMemoryBusWidth =
    GPU_PICK(cudaDevAttrGlobalMemoryBusWidth,
             hipDeviceAttributeMemoryBusWidth);
constexpr auto gpuAttrComputeCapabilityMajor =
    GPU_PICK(cudaDevAttrComputeCapabilityMajor,
             hipDeviceAttributeComputeCapabilityMajor);
constexpr auto gpuAttrComputeCapabilityMinor =
    GPU_PICK(cudaDevAttrComputeCapabilityMinor,
             hipDeviceAttributeComputeCapabilityMinor);

#define gpuMalloc GPU_API(Malloc)
#define gpuFree GPU_API(Free)
#define gpuMemcpy GPU_API(Memcpy)
#define gpuMemcpyAsync GPU_API(MemcpyAsync)
#define gpuGetErrorString GPU_API(GetErrorString)
#define gpuGetDeviceCount GPU_API(GetDeviceCount)
#define gpuGetDevice GPU_API(GetDevice)
#define gpuDeviceGetAttribute GPU_API(DeviceGetAttribute)
#define gpuGetDeviceProperties GPU_API(GetDeviceProperties)
#define gpuStreamCreateWithFlags GPU_API(StreamCreateWithFlags)
#define gpuStreamSynchronize GPU_API(StreamSynchronize)
#define gpuStreamDestroy GPU_API(StreamDestroy)
#define gpuEventCreate GPU_API(EventCreate)
#define gpuEventRecord GPU_API(EventRecord)
#define gpuEventSynchronize GPU_API(EventSynchronize)
#define gpuEventElapsedTime GPU_API(EventElapsedTime)
#define gpuEventDestroy GPU_API(EventDestroy)

#endif // AOTC_BENCH_GPU_API_H
