/*===- aot_hip_driver.h - HIP runtime table (internal, tests) ----*- C -*-===*
 *
 * Private to the runtime and its unit tests; generated code never includes
 * it. It declares the few HIP types and values the runtime needs (so nothing
 * here requires hip_runtime_api.h: handles are opaque pointers, results are
 * ints with the values of hipError_t), the table of HIP entry points that
 * aot_hip.c calls through, and two test seams.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_RUNTIME_HIP_AOT_HIP_DRIVER_H
#define AOT_RUNTIME_HIP_AOT_HIP_DRIVER_H

#include "aot_abi/aot_runtime_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int aot_hip_error_t;       /* hipError_t */
typedef void *aot_hip_module_t;    /* hipModule_t */
typedef void *aot_hip_function_t;  /* hipFunction_t */
typedef void *aot_hip_stream_t;    /* hipStream_t */
typedef void *aot_hip_deviceptr_t; /* hipDeviceptr_t */

/** The hipError_t values the runtime tells apart (same numbers as HIP). */
enum {
  AOT_HIP_SUCCESS = 0,
  AOT_HIP_ERROR_INVALID_VALUE = 1,
  AOT_HIP_ERROR_INSUFFICIENT_DRIVER = 35,
  AOT_HIP_ERROR_NO_DEVICE = 100,
  AOT_HIP_ERROR_INVALID_DEVICE = 101,
  AOT_HIP_ERROR_INVALID_IMAGE = 200,
  AOT_HIP_ERROR_NOT_FOUND = 500,
  AOT_HIP_ERROR_LAUNCH_FAILURE = 719
};

/** Every HIP entry point the runtime uses, and nothing else: no allocation,
 *  no stream or context creation. Members are named after the symbols they
 *  are loaded from (see aot_hip_load_driver_table). */
typedef struct aot_hip_driver_t {
  aot_hip_error_t (*init)(unsigned int flags);     /* hipInit */
  aot_hip_error_t (*get_device_count)(int *count); /* hipGetDeviceCount */
  aot_hip_error_t (*get_device)(int *device);      /* hipGetDevice */
  aot_hip_error_t (*module_load_data)(aot_hip_module_t *module,
                                      const void *image);
  aot_hip_error_t (*module_get_function)(aot_hip_function_t *function,
                                         aot_hip_module_t module,
                                         const char *name);
  aot_hip_error_t (*module_get_global)(aot_hip_deviceptr_t *global,
                                       size_t *bytes, aot_hip_module_t module,
                                       const char *name);
  aot_hip_error_t (*memcpy_htod)(aot_hip_deviceptr_t dst, void *src,
                                 size_t bytes); /* hipMemcpyHtoD */
  aot_hip_error_t (*module_unload)(aot_hip_module_t module);
  aot_hip_error_t (*module_launch_kernel)(
      aot_hip_function_t function, unsigned int grid_x, unsigned int grid_y,
      unsigned int grid_z, unsigned int block_x, unsigned int block_y,
      unsigned int block_z, unsigned int shared_bytes, aot_hip_stream_t stream,
      void **params, void **extra); /* hipModuleLaunchKernel */
  aot_hip_error_t (*memcpy_htod_async)(aot_hip_deviceptr_t dst, void *src,
                                       size_t bytes, aot_hip_stream_t stream);
  aot_hip_error_t (*memcpy_dtoh_async)(void *dst, aot_hip_deviceptr_t src,
                                       size_t bytes, aot_hip_stream_t stream);
  aot_hip_error_t (*stream_synchronize)(aot_hip_stream_t stream);
  const char *(*get_error_name)(aot_hip_error_t error); /* hipGetErrorName */
  const char *(*get_error_string)(aot_hip_error_t error);
} aot_hip_driver_t;

/** Looks a symbol up in `handle` (dlsym in production). */
typedef void *(*aot_hip_resolve_fn)(void *handle, const char *symbol);

/** Fills *table with `resolve(handle, "<symbol>")` for every member above
 *  (hipInit, hipGetDeviceCount, hipGetDevice, hipModuleLoadData,
 *  hipModuleGetFunction, hipModuleGetGlobal, hipMemcpyHtoD, hipModuleUnload,
 *  hipModuleLaunchKernel, hipMemcpyHtoDAsync, hipMemcpyDtoHAsync,
 *  hipStreamSynchronize, hipGetErrorName, hipGetErrorString). Returns NULL
 *  on success, or the name of the first symbol that did not resolve. */
const char *aot_hip_load_driver_table(aot_hip_resolve_fn resolve, void *handle,
                                      aot_hip_driver_t *table);

/** TEST ONLY. Makes the runtime use `table` (borrowed: it must outlive every
 *  later aot_hip_* call) instead of dlopen'ing libamdhip64, and forgets
 *  whether the driver was initialised (hipInit runs again on next use). NULL
 *  restores the real library. Module caches are not touched: use fresh ones.
 *  Not thread-safe: call it while no other thread is in the runtime. */
void aot_hip_set_driver_for_testing(const aot_hip_driver_t *table);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_RUNTIME_HIP_AOT_HIP_DRIVER_H */
