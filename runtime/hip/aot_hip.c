/*===- aot_hip.c - HIP runtime for aotc-generated code -----------*- C -*-===*
 *
 * This file implements the aot_hip_* functions of aot_runtime_gpu.h on top of
 * the HIP module API, loaded at run time: dlopen of libamdhip64.so (then
 * .so.7, .so.6, .so.5) and dlsym of the fourteen entry points in
 * aot_hip_driver_t. Nothing links against libamdhip64, and nothing needs the
 * HIP headers to build.
 *
 * Global state (all of it guarded by g_mutex for writes):
 *   - the library: tried once per process (dlopen, dlsym, hipInit(0),
 *     hipGetDeviceCount); success or failure is published with a release
 *     store (aot_gpu_driver_once_t) and remembered.
 *   - module loads (see aot_gpu_common.h): serialised on the same mutex,
 *     and so are the synchronous copies that fill a module's globals.
 *     The cache key is the calling thread's device (hipGetDevice) + 1; HIP
 *     loads modules into that device's primary context.
 * The library handle is never dlclose'd; loaded modules are never unloaded,
 * except one whose globals could not be filled (unloaded before anything
 * is published).
 *
 * Per thread: the text of the last failure (aot_hip_last_error).
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "gpu/aot_gpu_common.h"
#include "hip/aot_hip_driver.h"

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
static const aot_hip_driver_t *g_driver;
/* The table filled by dlsym, and the test seam's replacement for it. */
static aot_hip_driver_t g_real_table;
static const aot_hip_driver_t *g_test_table;
/* The dlopen handle, kept for the life of the process. */
static void *g_library;

static _Thread_local char t_last_error[AOT_GPU_ERROR_TEXT_BYTES];

/* The library names tried, in order. */
static const char *const kLibraryNames[] = {
    "libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
    "libamdhip64.so.5"};

/*===----------------------------------------------------------------------===*/
/* Errors */
/*===----------------------------------------------------------------------===*/

static aot_status_t map_result(aot_hip_error_t result) {
  switch (result) {
  case AOT_HIP_SUCCESS:
    return AOT_OK;
  case AOT_HIP_ERROR_NO_DEVICE:
  case AOT_HIP_ERROR_INSUFFICIENT_DRIVER:
    return AOT_ERROR_NO_DEVICE;
  default:
    return AOT_ERROR_DEVICE;
  }
}

static void set_error_text(const char *text) {
  snprintf(t_last_error, sizeof(t_last_error), "%s", text);
}

/* Records "<function>: <NAME> (<code>): <message>" for this thread and maps
 * the result. Requires g_driver (set before the first HIP call). */
static aot_status_t fail(const char *function, aot_hip_error_t result) {
  const char *name =
      g_driver->get_error_name ? g_driver->get_error_name(result) : NULL;
  const char *message =
      g_driver->get_error_string ? g_driver->get_error_string(result) : NULL;
  snprintf(t_last_error, sizeof(t_last_error), "%s: %s (%d): %s", function,
           name ? name : "unknown hipError_t", result,
           message ? message : "no description");
  return map_result(result);
}

const char *aot_hip_last_error(void) { return t_last_error; }

/*===----------------------------------------------------------------------===*/
/* Library loading */
/*===----------------------------------------------------------------------===*/

#define LOAD(member, symbol)                                                   \
  do {                                                                         \
    void *address = resolve(handle, symbol);                                   \
    if (!address)                                                              \
      return symbol;                                                           \
    AOT_GPU_STORE_SYMBOL(&table->member, address);                             \
  } while (0)

const char *aot_hip_load_driver_table(aot_hip_resolve_fn resolve, void *handle,
                                      aot_hip_driver_t *table) {
  memset(table, 0, sizeof(*table));
  LOAD(init, "hipInit");
  LOAD(get_device_count, "hipGetDeviceCount");
  LOAD(get_device, "hipGetDevice");
  LOAD(module_load_data, "hipModuleLoadData");
  LOAD(module_get_function, "hipModuleGetFunction");
  LOAD(module_get_global, "hipModuleGetGlobal");
  LOAD(memcpy_htod, "hipMemcpyHtoD");
  LOAD(module_unload, "hipModuleUnload");
  LOAD(module_launch_kernel, "hipModuleLaunchKernel");
  LOAD(memcpy_htod_async, "hipMemcpyHtoDAsync");
  LOAD(memcpy_dtoh_async, "hipMemcpyDtoHAsync");
  LOAD(stream_synchronize, "hipStreamSynchronize");
  LOAD(get_error_name, "hipGetErrorName");
  LOAD(get_error_string, "hipGetErrorString");
  return NULL;
}

#undef LOAD

static void *resolve_with_dlsym(void *handle, const char *symbol) {
  return dlsym(handle, symbol);
}

/* The one attempt to bring HIP up (g_mutex held, state UNTRIED). */
static void init_driver_locked(void) {
  const aot_hip_driver_t *driver = g_test_table;
  aot_hip_error_t result;
  char text[AOT_GPU_ERROR_TEXT_BYTES];
  int count = 0;
  size_t i;
  if (!driver) {
    for (i = 0;
         !g_library && i < sizeof(kLibraryNames) / sizeof(*kLibraryNames); ++i)
      g_library = dlopen(kLibraryNames[i], RTLD_NOW | RTLD_LOCAL);
    if (!g_library) {
      const char *why = dlerror();
      snprintf(text, sizeof(text),
               "dlopen(\"libamdhip64.so\", .so.7, .so.6, .so.5) failed: %s",
               why ? why : "unknown error");
      aot_gpu_driver_failed(&g_once, AOT_ERROR_NO_DEVICE, text);
      return;
    }
    const char *missing =
        aot_hip_load_driver_table(resolve_with_dlsym, g_library, &g_real_table);
    if (missing) {
      snprintf(text, sizeof(text), "libamdhip64 has no symbol %s", missing);
      aot_gpu_driver_failed(&g_once, AOT_ERROR_NO_DEVICE, text);
      return;
    }
    driver = &g_real_table;
  }
  g_driver = driver;
  result = driver->init(0);
  if (result != AOT_HIP_SUCCESS) {
    aot_status_t status = fail("hipInit", result);
    /* ROCm 5 (Debian's 5.2.3) reports a machine without an AMD GPU as
     * hipErrorInvalidDevice from hipInit. */
    if (result == AOT_HIP_ERROR_INVALID_DEVICE)
      status = AOT_ERROR_NO_DEVICE;
    aot_gpu_driver_failed(&g_once, status, t_last_error);
    return;
  }
  result = driver->get_device_count(&count);
  if (result != AOT_HIP_SUCCESS) {
    aot_status_t status = fail("hipGetDeviceCount", result);
    aot_gpu_driver_failed(&g_once, status, t_last_error);
    return;
  }
  if (count <= 0) {
    aot_gpu_driver_failed(&g_once, AOT_ERROR_NO_DEVICE,
                          "hipGetDeviceCount: no HIP device");
    return;
  }
  aot_gpu_driver_ready(&g_once);
}

/* AOT_OK once HIP is usable; otherwise the remembered failure. */
static aot_status_t ensure_driver(void) {
  return aot_gpu_driver_ensure(&g_once, &g_mutex, init_driver_locked,
                               t_last_error, sizeof(t_last_error));
}

/* Copies each of `globals` into the global of that name in `module` (on
 * the current device): hipModuleGetGlobal, a size check, then a synchronous
 * hipMemcpyHtoD. A global of zero bytes is only looked up. */
static aot_status_t fill_globals(aot_hip_module_t module,
                                 const aot_gpu_global_init_t *globals,
                                 uint32_t num_globals) {
  char function[AOT_GPU_ERROR_TEXT_BYTES];
  uint32_t i;
  for (i = 0; i < num_globals; ++i) {
    aot_hip_deviceptr_t global = NULL;
    size_t size = 0;
    void *data;
    aot_hip_error_t result =
        g_driver->module_get_global(&global, &size, module, globals[i].name);
    if (result != AOT_HIP_SUCCESS) {
      snprintf(function, sizeof(function), "hipModuleGetGlobal(\"%s\")",
               globals[i].name);
      return fail(function, result);
    }
    if ((uint64_t)size < globals[i].bytes) {
      aot_gpu_global_size_error(t_last_error, sizeof(t_last_error),
                                "hipModuleGetGlobal", globals[i].name, size,
                                globals[i].bytes);
      return AOT_ERROR_DEVICE;
    }
    if (!globals[i].bytes)
      continue;
    /* hipMemcpyHtoD takes a non-const source it never writes; bytes <= size,
     * so it fits in a size_t. */
    memcpy(&data, &globals[i].data, sizeof(data));
    result = g_driver->memcpy_htod(global, data, (size_t)globals[i].bytes);
    if (result != AOT_HIP_SUCCESS) {
      snprintf(function, sizeof(function), "hipMemcpyHtoD(\"%s\")",
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
  aot_hip_module_t loaded = NULL;
  aot_status_t status;
  aot_hip_error_t result = g_driver->module_load_data(&loaded, image);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipModuleLoadData", result);
  if (!loaded) {
    set_error_text("hipModuleLoadData: returned a NULL module");
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

aot_status_t aot_hip_get_function(aot_gpu_module_cache_t *cache,
                                  const void *image, const char *kernel_name,
                                  void **function) {
  return aot_hip_get_function_with_globals(cache, image, NULL, 0, kernel_name,
                                           function);
}

aot_status_t aot_hip_get_function_with_globals(
    aot_gpu_module_cache_t *cache, const void *image,
    const aot_gpu_global_init_t *globals, uint32_t num_globals,
    const char *kernel_name, void **function) {
  int device = -1;
  void *module = NULL;
  aot_hip_function_t found = NULL;
  aot_hip_error_t result;
  aot_status_t status;
  if (function)
    *function = NULL;
  if (!cache || !image || !kernel_name || !function) {
    set_error_text("aot_hip_get_function: NULL argument");
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  if (!aot_gpu_globals_valid(globals, num_globals)) {
    set_error_text("aot_hip_get_function_with_globals: NULL globals, or a "
                   "global with a NULL name or data");
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  if ((status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->get_device(&device);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipGetDevice", result);
  if (device < 0) {
    set_error_text("hipGetDevice: negative device ordinal");
    return AOT_ERROR_DEVICE;
  }
  status =
      aot_gpu_cache_get(cache, &g_mutex, (const void *)((uintptr_t)device + 1),
                        image, globals, num_globals, load_module, &module);
  if (status == AOT_ERROR_INTERNAL)
    set_error_text("aot_hip_get_function: the module cache is full (more "
                   "than AOT_GPU_MODULE_CACHE_SLOTS devices)");
  if (status != AOT_OK)
    return status;
  result = g_driver->module_get_function(&found, module, kernel_name);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipModuleGetFunction", result);
  *function = found;
  return AOT_OK;
}

aot_status_t aot_hip_launch(void *function, uint32_t grid_x, uint32_t grid_y,
                            uint32_t grid_z, uint32_t block_x, uint32_t block_y,
                            uint32_t block_z, uint32_t shared_bytes,
                            aot_stream_t stream, void **args) {
  aot_hip_error_t result;
  aot_status_t status;
  if (!function || !grid_x || !grid_y || !grid_z || !block_x || !block_y ||
      !block_z) {
    set_error_text("aot_hip_launch: NULL function or zero grid/block size");
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  if ((status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->module_launch_kernel(function, grid_x, grid_y, grid_z,
                                          block_x, block_y, block_z,
                                          shared_bytes, stream, args, NULL);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipModuleLaunchKernel", result);
  return AOT_OK;
}

aot_status_t aot_hip_memcpy_htod_async(void *dst_device, const void *src_host,
                                       size_t bytes, aot_stream_t stream) {
  aot_hip_error_t result;
  aot_status_t status;
  void *src;
  if ((status = aot_gpu_check_copy("aot_hip_memcpy_htod_async", dst_device,
                                   src_host, bytes, t_last_error,
                                   sizeof(t_last_error))) != AOT_OK ||
      !bytes || (status = ensure_driver()) != AOT_OK)
    return status;
  /* hipMemcpyHtoDAsync takes a non-const source it never writes. */
  memcpy(&src, &src_host, sizeof(src));
  result = g_driver->memcpy_htod_async(dst_device, src, bytes, stream);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipMemcpyHtoDAsync", result);
  return AOT_OK;
}

aot_status_t aot_hip_memcpy_dtoh_async(void *dst_host, const void *src_device,
                                       size_t bytes, aot_stream_t stream) {
  aot_hip_error_t result;
  aot_status_t status;
  void *src;
  if ((status = aot_gpu_check_copy("aot_hip_memcpy_dtoh_async", dst_host,
                                   src_device, bytes, t_last_error,
                                   sizeof(t_last_error))) != AOT_OK ||
      !bytes || (status = ensure_driver()) != AOT_OK)
    return status;
  memcpy(&src, &src_device, sizeof(src));
  result = g_driver->memcpy_dtoh_async(dst_host, src, bytes, stream);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipMemcpyDtoHAsync", result);
  return AOT_OK;
}

aot_status_t aot_hip_stream_synchronize(aot_stream_t stream) {
  aot_hip_error_t result;
  aot_status_t status;
  if ((status = ensure_driver()) != AOT_OK)
    return status;
  result = g_driver->stream_synchronize(stream);
  if (result != AOT_HIP_SUCCESS)
    return fail("hipStreamSynchronize", result);
  return AOT_OK;
}

/*===----------------------------------------------------------------------===*/
/* Test seam */
/*===----------------------------------------------------------------------===*/

void aot_hip_set_driver_for_testing(const aot_hip_driver_t *table) {
  pthread_mutex_lock(&g_mutex);
  g_test_table = table;
  g_driver = NULL;
  aot_gpu_driver_reset(&g_once);
  pthread_mutex_unlock(&g_mutex);
}
