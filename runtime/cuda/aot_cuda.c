/*===- aot_cuda.c - CUDA runtime for aotc-generated code ---------*- C -*-===*
 *
 * This file implements the aot_cuda_* functions of aot_runtime_gpu.h on top of
 * the CUDA driver API, loaded at run time: dlopen("libcuda.so.1") and dlsym of
 * the seventeen entry points in aot_cuda_driver_t. Nothing links against
 * libcuda, and nothing needs cuda.h to build.
 *
 * Global state (all of it guarded by g_mutex for writes):
 *   - the driver: tried once per process (dlopen, dlsym, cuInit(0),
 *     cuDeviceGetCount). Success or failure is published with a release
 *     store (aot_gpu_driver_once_t), so later calls take one acquire load; a
 *     failure is remembered (AOT_ERROR_NO_DEVICE on a machine without a
 *     driver or device costs one load per call, not a dlopen).
 *   - the primary context of device 0, retained at most once per process,
 *     only if a thread calls in without a current context; never released.
 *   - module loads (see aot_gpu_common.h): serialised on the same mutex,
 *     and so are the synchronous copies that fill a module's globals.
 * The library handle is never dlclose'd; loaded modules are never unloaded,
 * except one whose globals could not be filled (unloaded before anything
 * is published).
 *
 * Per thread: the text of the last failure (aot_cuda_last_error).
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "cuda/aot_cuda_driver.h"
#include "gpu/aot_gpu_common.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/*===----------------------------------------------------------------------===*/
/* State */
/*===----------------------------------------------------------------------===*/

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
/* The one attempt to bring the driver up, and its outcome. */
static aot_gpu_driver_once_t g_once;
/* The table in use; valid once READY. */
static const aot_cuda_driver_t *g_driver;
/* The table filled by dlsym, and the test seam's replacement for it. */
static aot_cuda_driver_t g_real_table;
static const aot_cuda_driver_t *g_test_table;
/* The dlopen handle, kept for the life of the process. */
static void *g_library;
/* The retained primary context of device 0, or NULL; atomic. */
static aot_cu_context_t g_primary_context;

static _Thread_local char t_last_error[AOT_GPU_ERROR_TEXT_BYTES];

/*===----------------------------------------------------------------------===*/
/* Errors */
/*===----------------------------------------------------------------------===*/

static aot_status_t map_result(aot_cu_result_t result) {
  switch (result) {
  case AOT_CUDA_SUCCESS:
    return AOT_OK;
  case AOT_CUDA_ERROR_NO_DEVICE:
  case AOT_CUDA_ERROR_STUB_LIBRARY:
    return AOT_ERROR_NO_DEVICE;
  default:
    return AOT_ERROR_DEVICE;
  }
}

/* Names for the codes this file tells apart, for drivers that cannot name
 * them (the libcuda.so stub's cuGetErrorName fails). */
static const char *known_name(aot_cu_result_t result) {
  switch (result) {
  case AOT_CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY";
  case AOT_CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  default:
    return "unknown CUresult";
  }
}

static void set_error_text(const char *text) {
  snprintf(t_last_error, sizeof(t_last_error), "%s", text);
}

/* Records "<function>: <NAME> (<code>): <message>" for this thread and maps
 * the result. Requires g_driver (set before the first driver call). */
static aot_status_t fail(const char *function, aot_cu_result_t result) {
  const char *name = NULL, *message = NULL;
  if (!g_driver->get_error_name ||
      g_driver->get_error_name(result, &name) != AOT_CUDA_SUCCESS || !name)
    name = known_name(result);
  if (!g_driver->get_error_string ||
      g_driver->get_error_string(result, &message) != AOT_CUDA_SUCCESS ||
      !message)
    message = "no description";
  snprintf(t_last_error, sizeof(t_last_error), "%s: %s (%d): %s", function,
           name, result, message);
  return map_result(result);
}

const char *aot_cuda_last_error(void) { return t_last_error; }

/*===----------------------------------------------------------------------===*/
/* Driver loading */
/*===----------------------------------------------------------------------===*/

#define LOAD(member, symbol)                                                   \
  do {                                                                         \
    void *address = resolve(handle, symbol);                                   \
    if (!address)                                                              \
      return symbol;                                                           \
    AOT_GPU_STORE_SYMBOL(&table->member, address);                             \
  } while (0)

const char *aot_cuda_load_driver_table(aot_cuda_resolve_fn resolve,
                                       void *handle, aot_cuda_driver_t *table) {
  memset(table, 0, sizeof(*table));
  LOAD(init, "cuInit");
  LOAD(device_get_count, "cuDeviceGetCount");
  LOAD(device_get, "cuDeviceGet");
  LOAD(device_primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  LOAD(ctx_get_current, "cuCtxGetCurrent");
  LOAD(ctx_set_current, "cuCtxSetCurrent");
  LOAD(module_load_data, "cuModuleLoadData");
  LOAD(module_get_function, "cuModuleGetFunction");
  /* cuda.h maps these names, and the two async copies below, to the _v2
   * (64-bit CUdeviceptr and size_t) entry points. */
  LOAD(module_get_global, "cuModuleGetGlobal_v2");
  LOAD(memcpy_htod, "cuMemcpyHtoD_v2");
  LOAD(module_unload, "cuModuleUnload");
  LOAD(launch_kernel, "cuLaunchKernel");
  LOAD(memcpy_htod_async, "cuMemcpyHtoDAsync_v2");
  LOAD(memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2");
  LOAD(stream_synchronize, "cuStreamSynchronize");
  LOAD(get_error_name, "cuGetErrorName");
  LOAD(get_error_string, "cuGetErrorString");
  return NULL;
}

#undef LOAD

static void *resolve_with_dlsym(void *handle, const char *symbol) {
  return dlsym(handle, symbol);
}

/* The one attempt to bring the driver up (g_mutex held, state UNTRIED). */
static void init_driver_locked(void) {
  const aot_cuda_driver_t *driver = g_test_table;
  aot_cu_result_t result;
  char text[AOT_GPU_ERROR_TEXT_BYTES];
  int count = 0;
  if (!driver) {
    if (!g_library)
      g_library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!g_library) {
      const char *why = dlerror();
      snprintf(text, sizeof(text), "dlopen(\"libcuda.so.1\") failed: %s",
               why ? why : "unknown error");
      aot_gpu_driver_failed(&g_once, AOT_ERROR_NO_DEVICE, text);
      return;
    }
    const char *missing = aot_cuda_load_driver_table(resolve_with_dlsym,
                                                     g_library, &g_real_table);
    if (missing) {
      snprintf(text, sizeof(text), "libcuda.so.1 has no symbol %s", missing);
      aot_gpu_driver_failed(&g_once, AOT_ERROR_NO_DEVICE, text);
      return;
    }
    driver = &g_real_table;
  }
  g_driver = driver;
  result = driver->init(0);
  if (result != AOT_CUDA_SUCCESS) {
    aot_status_t status = fail("cuInit", result);
    aot_gpu_driver_failed(&g_once, status, t_last_error);
    return;
  }
  result = driver->device_get_count(&count);
  if (result != AOT_CUDA_SUCCESS) {
    aot_status_t status = fail("cuDeviceGetCount", result);
    aot_gpu_driver_failed(&g_once, status, t_last_error);
    return;
  }
  if (count <= 0) {
    aot_gpu_driver_failed(&g_once, AOT_ERROR_NO_DEVICE,
                          "cuDeviceGetCount: no CUDA device");
    return;
  }
  aot_gpu_driver_ready(&g_once);
}

/* AOT_OK once the driver is usable; otherwise the remembered failure. */
static aot_status_t ensure_driver(void) {
  return aot_gpu_driver_ensure(&g_once, &g_mutex, init_driver_locked,
                               t_last_error, sizeof(t_last_error));
}

/*===----------------------------------------------------------------------===*/
/* Contexts and modules */
/*===----------------------------------------------------------------------===*/

/* The calling thread's current context; if there is none, the primary
 * context of device 0 (retained once per process) made current. */
static aot_status_t current_context(aot_cu_context_t *context) {
  aot_cu_context_t current = NULL;
  aot_cu_result_t result = g_driver->ctx_get_current(&current);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuCtxGetCurrent", result);
  if (current) {
    *context = current;
    return AOT_OK;
  }
  current = __atomic_load_n(&g_primary_context, __ATOMIC_ACQUIRE);
  if (!current) {
    aot_status_t status = AOT_OK;
    pthread_mutex_lock(&g_mutex);
    current = __atomic_load_n(&g_primary_context, __ATOMIC_RELAXED);
    if (!current) {
      aot_cu_device_t device = 0;
      result = g_driver->device_get(&device, 0);
      if (result != AOT_CUDA_SUCCESS)
        status = fail("cuDeviceGet", result);
      if (status == AOT_OK) {
        result = g_driver->device_primary_ctx_retain(&current, device);
        if (result != AOT_CUDA_SUCCESS)
          status = fail("cuDevicePrimaryCtxRetain", result);
        else
          __atomic_store_n(&g_primary_context, current, __ATOMIC_RELEASE);
      }
    }
    pthread_mutex_unlock(&g_mutex);
    if (status != AOT_OK)
      return status;
  }
  result = g_driver->ctx_set_current(current);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuCtxSetCurrent", result);
  *context = current;
  return AOT_OK;
}

/* Copies each of `globals` into the global of that name in `module` (in
 * the current context): cuModuleGetGlobal, a size check, then a synchronous
 * cuMemcpyHtoD. A global of zero bytes is only looked up. */
static aot_status_t fill_globals(aot_cu_module_t module,
                                 const aot_gpu_global_init_t *globals,
                                 uint32_t num_globals) {
  char function[AOT_GPU_ERROR_TEXT_BYTES];
  uint32_t i;
  for (i = 0; i < num_globals; ++i) {
    aot_cu_deviceptr_t global = 0;
    size_t size = 0;
    aot_cu_result_t result =
        g_driver->module_get_global(&global, &size, module, globals[i].name);
    if (result != AOT_CUDA_SUCCESS) {
      snprintf(function, sizeof(function), "cuModuleGetGlobal(\"%s\")",
               globals[i].name);
      return fail(function, result);
    }
    if ((uint64_t)size < globals[i].bytes) {
      aot_gpu_global_size_error(t_last_error, sizeof(t_last_error),
                                "cuModuleGetGlobal", globals[i].name, size,
                                globals[i].bytes);
      return AOT_ERROR_DEVICE;
    }
    if (!globals[i].bytes)
      continue;
    /* bytes <= size, so it fits in a size_t. */
    result = g_driver->memcpy_htod(global, globals[i].data,
                                   (size_t)globals[i].bytes);
    if (result != AOT_CUDA_SUCCESS) {
      snprintf(function, sizeof(function), "cuMemcpyHtoD_v2(\"%s\")",
               globals[i].name);
      return fail(function, result);
    }
  }
  return AOT_OK;
}

/* aot_gpu_load_module_fn: runs with g_mutex held by aot_gpu_cache_get. */
static aot_status_t load_module(const void *image,
                                const aot_gpu_global_init_t *globals,
                                uint32_t num_globals, void **module) {
  aot_cu_module_t loaded = NULL;
  aot_status_t status;
  aot_cu_result_t result = g_driver->module_load_data(&loaded, image);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuModuleLoadData", result);
  if (!loaded) {
    set_error_text("cuModuleLoadData: returned a NULL module");
    return AOT_ERROR_DEVICE;
  }
  status = fill_globals(loaded, globals, num_globals);
  if (status != AOT_OK) {
    /* The error text stays the fill's; an unload failure would only leak
     * the module. */
    (void)g_driver->module_unload(loaded);
    /* Any failure to fill the globals is AOT_ERROR_DEVICE (the image does
     * not match its globals), whatever the driver's code maps to. */
    return AOT_ERROR_DEVICE;
  }
  *module = loaded;
  return AOT_OK;
}

/*===----------------------------------------------------------------------===*/
/* Public API */
/*===----------------------------------------------------------------------===*/

aot_status_t aot_cuda_get_function(aot_gpu_module_cache_t *cache,
                                   const void *image, const char *kernel_name,
                                   void **function) {
  return aot_cuda_get_function_with_globals(cache, image, NULL, 0, kernel_name,
                                            function);
}

aot_status_t aot_cuda_get_function_with_globals(
    aot_gpu_module_cache_t *cache, const void *image,
    const aot_gpu_global_init_t *globals, uint32_t num_globals,
    const char *kernel_name, void **function) {
  aot_cu_context_t context = NULL;
  void *module = NULL;
  aot_cu_function_t found = NULL;
  aot_cu_result_t result;
  aot_status_t status;
  if (function)
    *function = NULL;
  if (!cache || !image || !kernel_name || !function) {
    set_error_text("aot_cuda_get_function: NULL argument");
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  if (!aot_gpu_globals_valid(globals, num_globals)) {
    set_error_text("aot_cuda_get_function_with_globals: NULL globals, or a "
                   "global with a NULL name or data");
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  if ((status = ensure_driver()) != AOT_OK)
    return status;
  if ((status = current_context(&context)) != AOT_OK)
    return status;
  status = aot_gpu_cache_get(cache, &g_mutex, context, image, globals,
                             num_globals, load_module, &module);
  if (status == AOT_ERROR_INTERNAL)
    set_error_text("aot_cuda_get_function: the module cache is full (more "
                   "than AOT_GPU_MODULE_CACHE_SLOTS contexts)");
  if (status != AOT_OK)
    return status;
  result = g_driver->module_get_function(&found, module, kernel_name);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuModuleGetFunction", result);
  *function = found;
  return AOT_OK;
}

aot_status_t aot_cuda_launch(void *function, uint32_t grid_x, uint32_t grid_y,
                             uint32_t grid_z, uint32_t block_x,
                             uint32_t block_y, uint32_t block_z,
                             uint32_t shared_bytes, aot_stream_t stream,
                             void **args) {
  aot_cu_result_t result;
  aot_status_t status;
  if (!function || !grid_x || !grid_y || !grid_z || !block_x || !block_y ||
      !block_z) {
    set_error_text("aot_cuda_launch: NULL function or zero grid/block size");
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  if ((status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->launch_kernel(function, grid_x, grid_y, grid_z, block_x,
                                   block_y, block_z, shared_bytes, stream, args,
                                   NULL);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuLaunchKernel", result);
  return AOT_OK;
}

aot_status_t aot_cuda_memcpy_htod_async(void *dst_device, const void *src_host,
                                        size_t bytes, aot_stream_t stream) {
  aot_cu_result_t result;
  aot_status_t status;
  if ((status = aot_gpu_check_copy("aot_cuda_memcpy_htod_async", dst_device,
                                   src_host, bytes, t_last_error,
                                   sizeof(t_last_error))) != AOT_OK ||
      !bytes || (status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->memcpy_htod_async(
      (aot_cu_deviceptr_t)(uintptr_t)dst_device, src_host, bytes, stream);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuMemcpyHtoDAsync_v2", result);
  return AOT_OK;
}

aot_status_t aot_cuda_memcpy_dtoh_async(void *dst_host, const void *src_device,
                                        size_t bytes, aot_stream_t stream) {
  aot_cu_result_t result;
  aot_status_t status;
  if ((status = aot_gpu_check_copy("aot_cuda_memcpy_dtoh_async", dst_host,
                                   src_device, bytes, t_last_error,
                                   sizeof(t_last_error))) != AOT_OK ||
      !bytes || (status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->memcpy_dtoh_async(
      dst_host, (aot_cu_deviceptr_t)(uintptr_t)src_device, bytes, stream);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuMemcpyDtoHAsync_v2", result);
  return AOT_OK;
}

aot_status_t aot_cuda_stream_synchronize(aot_stream_t stream) {
  aot_cu_result_t result;
  aot_status_t status;
  if ((status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->stream_synchronize(stream);
  if (result != AOT_CUDA_SUCCESS)
    return fail("cuStreamSynchronize", result);
  return AOT_OK;
}

/*===----------------------------------------------------------------------===*/
/* Test seam */
/*===----------------------------------------------------------------------===*/

void aot_cuda_set_driver_for_testing(const aot_cuda_driver_t *table) {
  pthread_mutex_lock(&g_mutex);
  g_test_table = table;
  g_driver = NULL;
  __atomic_store_n(&g_primary_context, NULL, __ATOMIC_RELEASE);
  aot_gpu_driver_reset(&g_once);
  pthread_mutex_unlock(&g_mutex);
}
