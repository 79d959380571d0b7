/*===- gpu_runtime_no_device.c - GPU runtime without a device ----*- C -*-===*
 *
 * A tiny C program (the ctest gpu_runtime_no_device) that links
 * aot_runtime_cuda and aot_runtime_hip together, as a user program would,
 * and calls every entry point of aot_runtime_gpu.h through the real
 * (dlopen) path. It prints each status with aot_status_string and the
 * runtime's diagnostic text.
 *
 * Exit code: 0 when every call returns AOT_OK or AOT_ERROR_NO_DEVICE
 * consistently for a back end (no driver or no device here: expect
 * AOT_ERROR_NO_DEVICE; the image is not a real module, so on a machine with
 * a GPU get_function returns AOT_ERROR_DEVICE, which is also accepted for
 * it), 1 otherwise. It must never crash. Also compiled as strict C99:
 * aot_runtime_gpu.h is a C99 header.
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_runtime_gpu.h"
/* Included twice on purpose: the include guard must hold. */
#include "aot_abi/aot_runtime_gpu.h"

#include <stdio.h>
#include <string.h>

/* C99 has no static_assert; a negative array size fails the compile. */
#define GPU_CHECK(name, cond) typedef char gpu_check_##name[(cond) ? 1 : -1]
GPU_CHECK(version, AOT_RUNTIME_GPU_VERSION == 2);
/* The layout the code generator emits as a zero-filled global. */
GPU_CHECK(cache_size, sizeof(aot_gpu_module_cache_t) ==
                          8 + 2 * AOT_GPU_MODULE_CACHE_SLOTS * sizeof(void *));
GPU_CHECK(cache_count_first, offsetof(aot_gpu_module_cache_t, count) == 0);

/* Zero-initialised, as the generated object holds it. */
static aot_gpu_module_cache_t cuda_cache;
static aot_gpu_module_cache_t hip_cache;
static const unsigned char kImage[16] = {0};
/* A global to fill, as a generated object declares its weights. */
static const float kWeights[4] = {1, 2, 3, 4};
static const aot_gpu_global_init_t kGlobals[1] = {
    {"weights", kWeights, sizeof(kWeights)}};

static int report(const char *backend, const char *what, aot_status_t status,
                  const char *detail, int allow_device_error) {
  printf("%-4s %-22s -> %s\n     %s\n", backend, what,
         aot_status_string(status), detail);
  if (status == AOT_OK || status == AOT_ERROR_NO_DEVICE)
    return 0;
  if (allow_device_error && status == AOT_ERROR_DEVICE)
    return 0;
  return 1;
}

/* NULL globals with a non-zero count is an argument error whatever the
 * driver: 0 if so (and *function was reset), 1 otherwise. */
static int expect_invalid(const char *backend, aot_status_t status,
                          const char *detail, const void *function) {
  printf("%-4s %-22s -> %s\n     %s\n", backend, "NULL globals",
         aot_status_string(status), detail);
  if (status == AOT_ERROR_INVALID_ARGUMENT && function == NULL)
    return 0;
  printf("%s: NULL globals with num_globals 1 is not "
         "AOT_ERROR_INVALID_ARGUMENT\n",
         backend);
  return 1;
}

int main(void) {
  int failures = 0;
  void *function = (void *)&cuda_cache; /* must be reset to NULL on error */
  float host[4] = {0, 0, 0, 0};
  aot_status_t status;
  int no_device_everywhere = 1;

  /* CUDA */
  status = aot_cuda_get_function(&cuda_cache, kImage, "kernel", &function);
  failures += report("cuda", "get_function", status, aot_cuda_last_error(), 1);
  if (status != AOT_OK && function != NULL) {
    printf("cuda get_function left *function set on error\n");
    ++failures;
  }
  no_device_everywhere &= status == AOT_ERROR_NO_DEVICE;
  function = (void *)&cuda_cache;
  status = aot_cuda_get_function_with_globals(&cuda_cache, kImage, kGlobals, 1,
                                              "kernel", &function);
  failures += report("cuda", "get_function_with_globals", status,
                     aot_cuda_last_error(), 1);
  if (status != AOT_OK && function != NULL) {
    printf("cuda get_function_with_globals left *function set on error\n");
    ++failures;
  }
  no_device_everywhere &= status == AOT_ERROR_NO_DEVICE;
  function = (void *)&cuda_cache;
  failures +=
      expect_invalid("cuda",
                     aot_cuda_get_function_with_globals(
                         &cuda_cache, kImage, NULL, 1, "kernel", &function),
                     aot_cuda_last_error(), function);
  if (status == AOT_ERROR_NO_DEVICE) {
    /* Without a driver every call fails the same way, without crashing. */
    status = aot_cuda_launch(&cuda_cache, 1, 1, 1, 1, 1, 1, 0, NULL, NULL);
    failures += report("cuda", "launch", status, aot_cuda_last_error(), 0);
    status = aot_cuda_memcpy_htod_async(host, host, sizeof(host), NULL);
    failures +=
        report("cuda", "memcpy_htod_async", status, aot_cuda_last_error(), 0);
    status = aot_cuda_memcpy_dtoh_async(host, host, sizeof(host), NULL);
    failures +=
        report("cuda", "memcpy_dtoh_async", status, aot_cuda_last_error(), 0);
    status = aot_cuda_stream_synchronize(NULL);
    failures +=
        report("cuda", "stream_synchronize", status, aot_cuda_last_error(), 0);
    no_device_everywhere &= status == AOT_ERROR_NO_DEVICE;
  }

  /* HIP */
  function = (void *)&hip_cache;
  status = aot_hip_get_function(&hip_cache, kImage, "kernel", &function);
  failures += report("hip", "get_function", status, aot_hip_last_error(), 1);
  if (status != AOT_OK && function != NULL) {
    printf("hip get_function left *function set on error\n");
    ++failures;
  }
  no_device_everywhere &= status == AOT_ERROR_NO_DEVICE;
  function = (void *)&hip_cache;
  status = aot_hip_get_function_with_globals(&hip_cache, kImage, kGlobals, 1,
                                             "kernel", &function);
  failures += report("hip", "get_function_with_globals", status,
                     aot_hip_last_error(), 1);
  if (status != AOT_OK && function != NULL) {
    printf("hip get_function_with_globals left *function set on error\n");
    ++failures;
  }
  no_device_everywhere &= status == AOT_ERROR_NO_DEVICE;
  function = (void *)&hip_cache;
  failures +=
      expect_invalid("hip",
                     aot_hip_get_function_with_globals(&hip_cache, kImage, NULL,
                                                       1, "kernel", &function),
                     aot_hip_last_error(), function);
  if (status == AOT_ERROR_NO_DEVICE) {
    status = aot_hip_launch(&hip_cache, 1, 1, 1, 1, 1, 1, 0, NULL, NULL);
    failures += report("hip", "launch", status, aot_hip_last_error(), 0);
    status = aot_hip_memcpy_htod_async(host, host, sizeof(host), NULL);
    failures +=
        report("hip", "memcpy_htod_async", status, aot_hip_last_error(), 0);
    status = aot_hip_memcpy_dtoh_async(host, host, sizeof(host), NULL);
    failures +=
        report("hip", "memcpy_dtoh_async", status, aot_hip_last_error(), 0);
    status = aot_hip_stream_synchronize(NULL);
    failures +=
        report("hip", "stream_synchronize", status, aot_hip_last_error(), 0);
    no_device_everywhere &= status == AOT_ERROR_NO_DEVICE;
  }

  printf("%s\n", no_device_everywhere
                     ? "no GPU: every call returned AOT_ERROR_NO_DEVICE"
                     : "a GPU driver is present");
  return failures ? 1 : 0;
}
