/*===- aot_cuda_driver.h - CUDA driver table (internal, tests) ---*- C -*-===*
 *
 * Private to the runtime and its unit tests; generated code never includes
 * it. It declares the few CUDA driver API types and values the runtime needs
 * (so nothing here requires cuda.h: handles are opaque pointers, results are
 * ints with the values of cuda.h's CUresult), the table of driver entry points
 * that aot_cuda.c calls through, and two test seams.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_RUNTIME_CUDA_AOT_CUDA_DRIVER_H
#define AOT_RUNTIME_CUDA_AOT_CUDA_DRIVER_H

#include "aot_abi/aot_runtime_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int aot_cu_result_t;                   /* CUresult */
typedef int aot_cu_device_t;                   /* CUdevice */
typedef void *aot_cu_context_t;                /* CUcontext */
typedef void *aot_cu_module_t;                 /* CUmodule */
typedef void *aot_cu_function_t;               /* CUfunction */
typedef void *aot_cu_stream_t;                 /* CUstream */
typedef unsigned long long aot_cu_deviceptr_t; /* CUdeviceptr (64-bit) */

/** The CUresult values the runtime tells apart (same numbers as cuda.h). */
enum {
  AOT_CUDA_SUCCESS = 0,
  AOT_CUDA_ERROR_INVALID_VALUE = 1,
  AOT_CUDA_ERROR_NOT_INITIALIZED = 3,
  AOT_CUDA_ERROR_STUB_LIBRARY = 34, /* libcuda.so stub, no real driver */
  AOT_CUDA_ERROR_NO_DEVICE = 100,
  AOT_CUDA_ERROR_INVALID_IMAGE = 200,
  AOT_CUDA_ERROR_NOT_FOUND = 500,
  AOT_CUDA_ERROR_LAUNCH_FAILED = 719
};

/** Every driver entry point the runtime uses, and nothing else: no
 *  allocation, no stream or context creation. Each member is named after the
 *  driver symbol it is loaded from (see aot_cuda_load_driver_table). */
typedef struct aot_cuda_driver_t {
  aot_cu_result_t (*init)(unsigned int flags);     /* cuInit */
  aot_cu_result_t (*device_get_count)(int *count); /* cuDeviceGetCount */
  aot_cu_result_t (*device_get)(aot_cu_device_t *device,
                                int ordinal); /* cuDeviceGet */
  aot_cu_result_t (*device_primary_ctx_retain)(
      aot_cu_context_t *context,
      aot_cu_device_t device); /* cuDevicePrimaryCtxRetain */
  aot_cu_result_t (*ctx_get_current)(aot_cu_context_t *context);
  aot_cu_result_t (*ctx_set_current)(aot_cu_context_t context);
  aot_cu_result_t (*module_load_data)(aot_cu_module_t *module,
                                      const void *image); /* cuModuleLoadData */
  aot_cu_result_t (*module_get_function)(aot_cu_function_t *function,
                                         aot_cu_module_t module,
                                         const char *name);
  aot_cu_result_t (*module_get_global)(aot_cu_deviceptr_t *global,
                                       size_t *bytes, aot_cu_module_t module,
                                       const char *name); /* _v2 */
  aot_cu_result_t (*memcpy_htod)(aot_cu_deviceptr_t dst, const void *src,
                                 size_t bytes); /* cuMemcpyHtoD_v2 */
  aot_cu_result_t (*module_unload)(aot_cu_module_t module); /* cuModuleUnload */
  aot_cu_result_t (*launch_kernel)(aot_cu_function_t function,
                                   unsigned int grid_x, unsigned int grid_y,
                                   unsigned int grid_z, unsigned int block_x,
                                   unsigned int block_y, unsigned int block_z,
                                   unsigned int shared_bytes,
                                   aot_cu_stream_t stream, void **params,
                                   void **extra); /* cuLaunchKernel */
  aot_cu_result_t (*memcpy_htod_async)(aot_cu_deviceptr_t dst, const void *src,
                                       size_t bytes,
                                       aot_cu_stream_t stream); /* _v2 */
  aot_cu_result_t (*memcpy_dtoh_async)(void *dst, aot_cu_deviceptr_t src,
                                       size_t bytes,
                                       aot_cu_stream_t stream); /* _v2 */
  aot_cu_result_t (*stream_synchronize)(aot_cu_stream_t stream);
  aot_cu_result_t (*get_error_name)(aot_cu_result_t error, const char **name);
  aot_cu_result_t (*get_error_string)(aot_cu_result_t error,
                                      const char **message);
} aot_cuda_driver_t;

/** Looks a symbol up in `handle` (dlsym in production). */
typedef void *(*aot_cuda_resolve_fn)(void *handle, const char *symbol);

/** Fills *table with `resolve(handle, "<symbol>")` for every member above
 *  (cuInit, cuDeviceGetCount, cuDeviceGet, cuDevicePrimaryCtxRetain,
 *  cuCtxGetCurrent, cuCtxSetCurrent, cuModuleLoadData, cuModuleGetFunction,
 *  cuModuleGetGlobal_v2, cuMemcpyHtoD_v2, cuModuleUnload, cuLaunchKernel,
 *  cuMemcpyHtoDAsync_v2, cuMemcpyDtoHAsync_v2, cuStreamSynchronize,
 *  cuGetErrorName, cuGetErrorString). Returns NULL on success, or the name
 *  of the first symbol that did not resolve. This is the code the dlopen
 *  path runs; tests call it with a recording resolver. */
const char *aot_cuda_load_driver_table(aot_cuda_resolve_fn resolve,
                                       void *handle, aot_cuda_driver_t *table);

/** TEST ONLY. Makes the runtime use `table` (borrowed: it must outlive every
 *  later aot_cuda_* call) instead of dlopen'ing libcuda.so.1, and forgets
 *  all driver state: whether the driver was initialised (cuInit runs again
 *  on the next call, through `table`) and the retained primary context.
 *  NULL restores the real driver (dlopen on next use; a handle opened
 *  earlier is reused). Module caches are not touched: use fresh caches.
 *  Not thread-safe: call it while no other thread is in the runtime. */
void aot_cuda_set_driver_for_testing(const aot_cuda_driver_t *table);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_RUNTIME_CUDA_AOT_CUDA_DRIVER_H */
