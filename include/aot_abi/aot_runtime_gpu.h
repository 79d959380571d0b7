/*===- aot_runtime_gpu.h - GPU runtime called by generated code --*- C -*-===*
 *
 * The small C API that aotc-generated CUDA and HIP objects call to load their
 * embedded device module, launch kernels and move data. It is implemented by
 * two static libraries, aot_runtime_cuda and aot_runtime_hip, which load the
 * GPU driver at run time (dlopen of libcuda.so.1 / libamdhip64.so): neither
 * has a link-time or build-time dependency on a GPU toolkit, and on a machine
 * without a driver or device every function returns AOT_ERROR_NO_DEVICE.
 *
 * What the runtime never does: allocate device or host memory, create or
 * destroy a stream, create a context, or synchronise unless asked to
 * (aot_*_stream_synchronize). The caller's pool and stream are used as given.
 *
 * Versioning: AOT_RUNTIME_GPU_VERSION is bumped on any change to a signature
 * or to aot_gpu_module_cache_t; functions are only ever added.
 *
 * Plain C99, no dependency besides aot_abi.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_RUNTIME_GPU_H
#define AOT_ABI_AOT_RUNTIME_GPU_H

#include "aot_abi/aot_abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_RUNTIME_GPU_VERSION 2

/*===----------------------------------------------------------------------===*
 * Module cache
 *===----------------------------------------------------------------------===*/

/** How many distinct contexts (CUDA) or devices (HIP) one module cache can
 *  serve. A further one makes aot_*_get_function return AOT_ERROR_INTERNAL. */
#define AOT_GPU_MODULE_CACHE_SLOTS 8

/** The per-module load cache. Ownership: the generated object owns one
 *  zero-initialised static instance per embedded device module (all-zero is
 *  the valid empty state; no init or destroy call exists). The runtime writes
 *  it, the owner never does. Loaded modules stay loaded for the life of the
 *  process (the driver frees them at exit).
 *
 *  Thread safety: any number of threads may call aot_*_get_function on the
 *  same cache at once. Lookups are lock-free (an acquire load of `count`,
 *  then a scan of the published slots); a miss takes a process-wide mutex,
 *  re-checks and loads, so each (context, module) pair is loaded exactly
 *  once. Slots are append-only: once published, a slot never changes.
 *
 *  Keys: the CUcontext (CUDA) or the device ordinal + 1 (HIP). A context that
 *  is destroyed while the process keeps running leaves a stale slot, and a
 *  new context at the same address would reuse the stale module: contexts
 *  are assumed to live as long as the process (true of primary contexts).
 *
 *  Layout (for the code generator): 8 + 2 * AOT_GPU_MODULE_CACHE_SLOTS
 *  pointers, i.e. 136 bytes aligned to 8 on LP64; emit it as a zero-filled,
 *  writable, internal global. */
typedef struct aot_gpu_module_cache_t {
  uint32_t count;    /* published slots, written last with release order */
  uint32_t reserved; /* zero */
  void *keys[AOT_GPU_MODULE_CACHE_SLOTS];
  void *modules[AOT_GPU_MODULE_CACHE_SLOTS]; /* CUmodule / hipModule_t */
} aot_gpu_module_cache_t;

/** A global variable of a device module that the runtime fills from host
 *  memory when it loads the module (once per CUDA context / HIP device):
 *  aotc keeps large constants (weights) once, in the object's host read-only
 *  data, instead of in the code object of every chip, and declares them in
 *  the device module as uninitialised globals of the same size.
 *  Ownership: `name` and `data` are borrowed for the life of the process
 *  (read-only data of the generated object). */
typedef struct aot_gpu_global_init_t {
  const char *name; /* the global's symbol in the device module */
  const void *data; /* host bytes to copy into it */
  uint64_t bytes;   /* how many; the device global has at least this many */
} aot_gpu_global_init_t;

/*===----------------------------------------------------------------------===*
 * CUDA (library aot_runtime_cuda; driver API from libcuda.so.1)
 *===----------------------------------------------------------------------===*/

/* Thread safety: every function may be called from any number of threads at
 * once. get_function is the only one with shared state (the driver, once per
 * process, and the cache); launch, the copies and synchronize only forward to
 * the driver.
 *
 * Context policy: every call runs in the calling thread's current CUDA
 * context. If the thread has none, aot_cuda_get_function retains the primary
 * context of device 0 (once per process, never released) and makes it current
 * on the calling thread, as the CUDA runtime API would. aot_cuda_launch and
 * the copies must run on a thread whose current context is the one the
 * function was loaded in (the generated code calls get_function first, on the
 * same thread, which guarantees it). */

/** Returns in *function the CUfunction `kernel_name` of `image` (a cubin,
 *  PTX or fatbin, as accepted by cuModuleLoadData) in the current context,
 *  loading `image` into that context on first use and caching it in *cache.
 *  `image` and `kernel_name` are borrowed (the image must stay valid while
 *  the module may still be loaded, i.e. for the life of the process; it is
 *  read-only data in the generated object). *function is owned by the
 *  driver's module; the caller never frees it. On error *function is NULL.
 *  Errors: AOT_ERROR_INVALID_ARGUMENT (a NULL argument), AOT_ERROR_NO_DEVICE
 *  (no driver library, no device), AOT_ERROR_DEVICE (any other driver
 *  failure, e.g. the image does not load or has no such kernel),
 *  AOT_ERROR_INTERNAL (the cache has no free slot for another context). */
aot_status_t aot_cuda_get_function(aot_gpu_module_cache_t *cache,
                                   const void *image, const char *kernel_name,
                                   void **function);

/** aot_cuda_get_function for a module with globals to fill: when this call
 *  loads `image` into the current context (its first use there), it copies
 *  each of the `num_globals` entries of `globals` into the module's global
 *  of that name (cuModuleGetGlobal, then a synchronous cuMemcpyHtoD: the one
 *  copy the runtime makes that is not on the caller's stream, once per
 *  context) before publishing the module in *cache; later calls find it
 *  loaded and copy nothing. If a global is missing, smaller than `bytes`,
 *  or its copy fails, the module is unloaded again, nothing is published
 *  and the status is AOT_ERROR_DEVICE (missing/small: the text names the
 *  global), so a later call retries. `globals` may be NULL when
 *  `num_globals` is 0 (then this is aot_cuda_get_function); otherwise NULL
 *  is AOT_ERROR_INVALID_ARGUMENT, as are entries with a NULL name, or NULL
 *  data and `bytes` > 0 (a global of 0 bytes is only looked up). */
aot_status_t aot_cuda_get_function_with_globals(
    aot_gpu_module_cache_t *cache, const void *image,
    const aot_gpu_global_init_t *globals, uint32_t num_globals,
    const char *kernel_name, void **function);
/** Enqueues `function` on `stream` (a CUstream; NULL is the legacy default
 *  stream) with the given grid and block sizes, dynamic shared memory bytes
 *  and kernel arguments (`args[i]` points at the i-th argument, as for
 *  cuLaunchKernel; may be NULL for a kernel without parameters). Returns
 *  without synchronising. A zero grid or block dimension is
 *  AOT_ERROR_INVALID_ARGUMENT; driver failures are AOT_ERROR_DEVICE. */
aot_status_t aot_cuda_launch(void *function, uint32_t grid_x, uint32_t grid_y,
                             uint32_t grid_z, uint32_t block_x,
                             uint32_t block_y, uint32_t block_z,
                             uint32_t shared_bytes, aot_stream_t stream,
                             void **args);

/** Enqueues a host-to-device copy of `bytes` bytes on `stream`. `dst_device`
 *  is a device pointer (e.g. inside the caller's pool). Zero bytes is a
 *  no-op returning AOT_OK; NULL pointers with bytes > 0 are
 *  AOT_ERROR_INVALID_ARGUMENT. The host buffer must stay valid until the
 *  stream reaches the copy. */
aot_status_t aot_cuda_memcpy_htod_async(void *dst_device, const void *src_host,
                                        size_t bytes, aot_stream_t stream);

/** Enqueues a device-to-host copy; same rules as the host-to-device copy. */
aot_status_t aot_cuda_memcpy_dtoh_async(void *dst_host, const void *src_device,
                                        size_t bytes, aot_stream_t stream);

/** Waits until every operation enqueued on `stream` has completed. */
aot_status_t aot_cuda_stream_synchronize(aot_stream_t stream);

/** A description of the last failure of an aot_cuda_* call on the calling
 *  thread ("cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (719): <driver text>",
 *  or why the driver could not be loaded), or "" if there was none. Never
 *  NULL. The buffer is thread-local and owned by the runtime: the pointer
 *  stays valid until the thread exits, and its text is replaced by the
 *  thread's next failure (successful calls leave it as it is). */
const char *aot_cuda_last_error(void);

/*===----------------------------------------------------------------------===*
 * HIP (library aot_runtime_hip; libamdhip64.so, .so.7, .so.6, .so.5)
 *===----------------------------------------------------------------------===*/

/* Device policy: every call runs on the calling thread's current HIP device
 * (hipGetDevice; device 0 unless the caller chose another with
 * hipSetDevice). Modules are cached per device, in the device's primary
 * context. The functions mirror the CUDA ones above, with hipFunction_t,
 * hipStream_t (NULL is the null stream) and hipModuleLoadData images (a code
 * object or an offload bundle). */

aot_status_t aot_hip_get_function(aot_gpu_module_cache_t *cache,
                                  const void *image, const char *kernel_name,
                                  void **function);
/** As aot_cuda_get_function_with_globals (hipModuleGetGlobal, hipMemcpyHtoD,
 *  hipModuleUnload on failure). */
aot_status_t aot_hip_get_function_with_globals(
    aot_gpu_module_cache_t *cache, const void *image,
    const aot_gpu_global_init_t *globals, uint32_t num_globals,
    const char *kernel_name, void **function);
aot_status_t aot_hip_launch(void *function, uint32_t grid_x, uint32_t grid_y,
                            uint32_t grid_z, uint32_t block_x, uint32_t block_y,
                            uint32_t block_z, uint32_t shared_bytes,
                            aot_stream_t stream, void **args);
aot_status_t aot_hip_memcpy_htod_async(void *dst_device, const void *src_host,
                                       size_t bytes, aot_stream_t stream);
aot_status_t aot_hip_memcpy_dtoh_async(void *dst_host, const void *src_device,
                                       size_t bytes, aot_stream_t stream);
aot_status_t aot_hip_stream_synchronize(aot_stream_t stream);
const char *aot_hip_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_RUNTIME_GPU_H */
