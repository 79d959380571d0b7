/*===- unsharp_mask_hip.c - HIP driver for the unsharp_mask sample -*- C -*-===*
 *
 * The unsharp_mask model compiled with `aotc --target=hip`, used the way a
 * HIP application would:
 *
 *   1. load the HIP runtime (with dlopen, so this program builds and starts
 *      on machines without ROCm) and pick device 0,
 *   2. allocate the scratch pool in device memory (hipMalloc: 256-byte
 *      aligned, more than UNSHARP_MASK_POOL_ALIGNMENT) and create a stream,
 *   3. call the entry point with host tensors: it copies them through the
 *      pool on that stream and synchronizes before returning,
 *   4. compare with a reference computed here by naive loops.
 *
 * Without a HIP runtime or device there is nothing to run on: the program
 * shows that the model itself reports AOT_ERROR_NO_DEVICE (called with a host
 * pool, which it never touches then), and exits 77, ctest's "skipped".
 *
 * Exit status: 0 on a match, 1 on a mismatch or failure, 77 without a GPU.
 *
 *===----------------------------------------------------------------------===*/

#define _ISOC11_SOURCE

#include "unsharp_mask.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H = 1080, W = 1920, C = 3, EXIT_NO_GPU = 77 };
#define NUM_ELEMENTS ((size_t)H * W * C)
#define RTOL 1e-4 /* docs/contracts.md, f32 */
#define ATOL 1e-5

/*===----------------------------------------------------------------------===*
 * The few HIP runtime entry points this program uses (hip_runtime_api.h types
 * reduced to what the ABI needs: hipError_t is int, streams are pointers).
 *===----------------------------------------------------------------------===*/

typedef struct {
  int (*hipGetDeviceCount)(int *);
  int (*hipSetDevice)(int);
  int (*hipMalloc)(void **, size_t);
  int (*hipFree)(void *);
  int (*hipStreamCreate)(void **);
  int (*hipStreamDestroy)(void *);
} Runtime;

/* Loads libamdhip64 and selects device 0; 0 if there is no runtime or no
 * device. */
static int loadRuntime(Runtime *r) {
  static const char *const libraries[] = {"libamdhip64.so", "libamdhip64.so.7",
                                          "libamdhip64.so.6", "libamdhip64.so.5"};
  static const char *const names[] = {"hipGetDeviceCount", "hipSetDevice",
                                      "hipMalloc",         "hipFree",
                                      "hipStreamCreate",   "hipStreamDestroy"};
  void *lib = NULL;
  void **slots = (void **)r;
  size_t i;
  int count = 0;
  for (i = 0; !lib && i < sizeof libraries / sizeof libraries[0]; ++i)
    lib = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return 0;
  for (i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (!(slots[i] = dlsym(lib, names[i])))
      return 0;
  return r->hipGetDeviceCount(&count) == 0 && count > 0 &&
         r->hipSetDevice(0) == 0;
}

/*===----------------------------------------------------------------------===*
 * Input and reference (as in unsharp_mask_main.c)
 *===----------------------------------------------------------------------===*/

static void makeImage(unsigned char *img) {
  unsigned state = 12345u;
  size_t i;
  for (i = 0; i < NUM_ELEMENTS; ++i) {
    state = state * 1664525u + 1013904223u;
    img[i] = (unsigned char)(state >> 24);
  }
}

/* clamp(x + 1.5 * (x - blur), 0, 255), blur = [1 2 1; 2 4 2; 1 2 1] / 16,
 * zero padding. */
static void reference(const unsigned char *img, float *out) {
  static const float k[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
  int h, w, c, dh, dw;
  for (h = 0; h < H; ++h)
    for (w = 0; w < W; ++w)
      for (c = 0; c < C; ++c) {
        float sum = 0.0f, x, sharp;
        for (dh = -1; dh <= 1; ++dh)
          for (dw = -1; dw <= 1; ++dw) {
            int hh = h + dh, ww = w + dw;
            if (hh >= 0 && hh < H && ww >= 0 && ww < W)
              sum += k[dh + 1][dw + 1] * (float)img[((size_t)hh * W + ww) * C + c];
          }
        x = (float)img[((size_t)h * W + w) * C + c];
        sharp = x + 1.5f * (x - sum / 16.0f);
        out[((size_t)h * W + w) * C + c] =
            sharp < 0.0f ? 0.0f : (sharp > 255.0f ? 255.0f : sharp);
      }
}

int main(void) {
  Runtime hip;
  void *pool = NULL;
  void *stream = NULL;
  unsigned char *img = (unsigned char *)malloc(NUM_ELEMENTS);
  float *out = (float *)malloc(NUM_ELEMENTS * sizeof(float));
  float *ref = (float *)malloc(NUM_ELEMENTS * sizeof(float));
  aot_status_t st;
  size_t i, bad = 0;
  double maxErr = 0.0;

  if (!img || !out || !ref) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  printf("unsharp_mask (%s): pool %lu bytes of device memory\n",
         unsharp_mask_info()->target, (unsigned long)UNSHARP_MASK_POOL_BYTES);
  makeImage(img);
  memset(out, 0xff, NUM_ELEMENTS * sizeof(float)); /* NaN: must be written */

  if (!loadRuntime(&hip)) {
    /* No GPU: the model says so itself and writes nothing. */
    void *hostPool = aligned_alloc(
        UNSHARP_MASK_POOL_ALIGNMENT,
        (UNSHARP_MASK_POOL_BYTES + UNSHARP_MASK_POOL_ALIGNMENT - 1) /
            UNSHARP_MASK_POOL_ALIGNMENT * UNSHARP_MASK_POOL_ALIGNMENT);
    unsigned char poison[sizeof(float)];
    memset(poison, 0xff, sizeof poison);
    st = unsharp_mask((const int8_t *)img, out, hostPool,
                      UNSHARP_MASK_POOL_BYTES, NULL);
    printf("no HIP runtime or device: unsharp_mask returned %d (%s), output "
           "%s\n",
           (int)st, aot_status_string(st),
           memcmp(out, poison, sizeof poison) == 0 ? "untouched" : "WRITTEN");
    free(hostPool);
    return st == AOT_ERROR_NO_DEVICE ? EXIT_NO_GPU : 1;
  }

  if (hip.hipMalloc(&pool, UNSHARP_MASK_POOL_BYTES) != 0 ||
      hip.hipStreamCreate(&stream) != 0) {
    fprintf(stderr, "cannot allocate the pool or create a stream\n");
    return 1;
  }
  st = unsharp_mask((const int8_t *)img, out, pool, UNSHARP_MASK_POOL_BYTES,
                    stream);
  hip.hipStreamDestroy(stream);
  hip.hipFree(pool);
  if (st != AOT_OK) {
    printf("unsharp_mask failed: %d (%s)\n", (int)st, aot_status_string(st));
    return 1;
  }
  reference(img, ref);
  for (i = 0; i < NUM_ELEMENTS; ++i) {
    double err = fabs((double)out[i] - (double)ref[i]);
    if (!(err <= ATOL + RTOL * fabs((double)ref[i])))
      ++bad;
    if (err > maxErr || err != err)
      maxErr = err;
  }
  printf("max abs error %g, %lu of %lu outside tolerance: %s\n", maxErr,
         (unsigned long)bad, (unsigned long)NUM_ELEMENTS,
         bad == 0 ? "MATCH" : "MISMATCH");
  free(ref);
  free(out);
  free(img);
  return bad == 0 ? 0 : 1;
}
