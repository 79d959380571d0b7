/*===- unsharp_mask_main.c - C99 driver for the unsharp_mask sample -*- C -*-===*
 *
 * This file shows the smallest complete use of an aotc artifact from C:
 *
 *   1. include the generated header (it pulls in aot_abi/aot_abi.h),
 *   2. allocate the scratch pool with the size and alignment it states,
 *   3. call the entry point, once with the default stream (NULL: OpenMP picks
 *      the thread count) and once with an aot_cpu_stream_t asking for 2
 *      threads,
 *   4. check the status and compare with a reference computed here by a
 *      deliberately naive loop nest (direct 3x3 stencil, not separable, no
 *      padding buffer), so a shared mistake is unlikely.
 *
 * Exit status: 0 when both calls match the reference, 1 otherwise.
 *
 *===----------------------------------------------------------------------===*/

/* The driver is C99 but uses two library functions from later standards:
 * aligned_alloc (C11; glibc declares it for C99 code under _ISOC11_SOURCE)
 * and clock_gettime (POSIX). Both macros must precede every #include. */
#define _ISOC11_SOURCE
#define _POSIX_C_SOURCE 199309L

#include "unsharp_mask.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { H = 1080, W = 1920, C = 3 };
#define NUM_ELEMENTS ((size_t)H * W * C)

/* Tolerance for f32 outputs (docs/contracts.md). The model's arithmetic is
 * exact in f32, so the observed error is expected to be 0. */
#define RTOL 1e-4
#define ATOL 1e-5

/*===----------------------------------------------------------------------===*
 * Input and reference
 *===----------------------------------------------------------------------===*/

/* A deterministic synthetic HWC image: smooth gradients, hard-edged blocks
 * (where sharpening overshoots and the clamp matters) and a little LCG noise.
 * Every byte value 0..255 occurs, including those >= 128 that a signed read
 * would get wrong. */
static void makeImage(unsigned char *img) {
  unsigned state = 12345u;
  int h, w;
  for (h = 0; h < H; ++h) {
    for (w = 0; w < W; ++w) {
      unsigned char *px = img + ((size_t)h * W + w) * C;
      int block = ((h / 60) + (w / 80)) & 1;
      unsigned noise;
      state = state * 1664525u + 1013904223u;
      noise = (state >> 24) & 0x1fu;
      px[0] = (unsigned char)((w * 255) / (W - 1));
      px[1] = (unsigned char)(block ? 230u + (noise & 0x0fu) : noise);
      px[2] = (unsigned char)(((h * 255) / (H - 1) + noise) & 0xffu);
    }
  }
}

/* out = clamp(x + 1.5 * (x - blur), 0, 255), blur = the 3x3 binomial kernel
 * [1 2 1; 2 4 2; 1 2 1] / 16 with zero padding, evaluated directly. */
static void referenceUnsharpMask(const unsigned char *img, float *out) {
  static const float kKernel[3][3] = {
      {1.0f, 2.0f, 1.0f}, {2.0f, 4.0f, 2.0f}, {1.0f, 2.0f, 1.0f}};
  int h, w, c, dh, dw;
  for (h = 0; h < H; ++h)
    for (w = 0; w < W; ++w)
      for (c = 0; c < C; ++c) {
        float sum = 0.0f, x, sharp;
        for (dh = -1; dh <= 1; ++dh)
          for (dw = -1; dw <= 1; ++dw) {
            int hh = h + dh, ww = w + dw;
            if (hh < 0 || hh >= H || ww < 0 || ww >= W)
              continue; /* zero padding */
            sum += kKernel[dh + 1][dw + 1] *
                   (float)img[((size_t)hh * W + ww) * C + c];
          }
        x = (float)img[((size_t)h * W + w) * C + c];
        sharp = x + 1.5f * (x - sum / 16.0f);
        out[((size_t)h * W + w) * C + c] =
            sharp < 0.0f ? 0.0f : (sharp > 255.0f ? 255.0f : sharp);
      }
}

/* Returns the largest absolute error and counts elements outside
 * ATOL + RTOL * |ref| (NaN counts as a mismatch). */
static double compare(const float *got, const float *ref, size_t *bad) {
  double maxErr = 0.0;
  size_t i;
  *bad = 0;
  for (i = 0; i < NUM_ELEMENTS; ++i) {
    double err = fabs((double)got[i] - (double)ref[i]);
    if (!(err <= ATOL + RTOL * fabs((double)ref[i])))
      ++*bad;
    if (err > maxErr || err != err)
      maxErr = err;
  }
  return maxErr;
}

static double nowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/*===----------------------------------------------------------------------===*
 * Driver
 *===----------------------------------------------------------------------===*/

/* Calls the model, prints timing and accuracy; returns 1 on a match. */
static int runOnce(const char *label, const unsigned char *img, float *out,
                   const float *ref, void *pool, aot_stream_t stream) {
  double t0, t1, maxErr;
  size_t bad;
  aot_status_t st;

  /* Untimed warm-up: the first call pays for OpenMP thread start-up and for
   * the first touch of every pool page. The i8 input is raw bytes; the model
   * reads them as unsigned. */
  st = unsharp_mask((const int8_t *)img, out, pool, UNSHARP_MASK_POOL_BYTES,
                    stream);

  /* Poison the output so a call that silently writes nothing cannot pass. */
  memset(out, 0xff, NUM_ELEMENTS * sizeof(float)); /* all-ones bits: NaN */

  t0 = nowMs();
  if (st == AOT_OK)
    st = unsharp_mask((const int8_t *)img, out, pool, UNSHARP_MASK_POOL_BYTES,
                      stream);
  t1 = nowMs();
  if (st != AOT_OK) {
    printf("[%s] unsharp_mask failed: %d (%s)\n", label, (int)st,
           aot_status_string(st));
    return 0;
  }

  maxErr = compare(out, ref, &bad);
  printf("[%s] %.2f ms, out[0,0,:] = %.4f %.4f %.4f, out[540,960,:] = %.4f "
         "%.4f %.4f, out[1079,1919,2] = %.4f\n",
         label, t1 - t0, out[0], out[1], out[2],
         out[((size_t)540 * W + 960) * C + 0],
         out[((size_t)540 * W + 960) * C + 1],
         out[((size_t)540 * W + 960) * C + 2], out[NUM_ELEMENTS - 1]);
  printf("[%s] max abs error %g, %lu of %lu outside tolerance: %s\n", label,
         maxErr, (unsigned long)bad, (unsigned long)NUM_ELEMENTS,
         bad == 0 ? "MATCH" : "MISMATCH");
  return bad == 0;
}

int main(void) {
  /* aligned_alloc wants a size that is a multiple of the alignment. A pool
   * of 0 bytes may be NULL; one block keeps the code path uniform. */
  const size_t align = UNSHARP_MASK_POOL_ALIGNMENT;
  const size_t poolAlloc =
      UNSHARP_MASK_POOL_BYTES == 0
          ? align
          : (UNSHARP_MASK_POOL_BYTES + align - 1) / align * align;
  unsigned char *img = (unsigned char *)malloc(NUM_ELEMENTS);
  float *out = (float *)malloc(NUM_ELEMENTS * sizeof(float));
  float *ref = (float *)malloc(NUM_ELEMENTS * sizeof(float));
  void *pool = aligned_alloc(align, poolAlloc);
  aot_cpu_stream_t twoThreads;
  double t0, t1;
  int ok = 1;

  if (!img || !out || !ref || !pool) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  printf("unsharp_mask: image u8[%d,%d,%d] -> sharpened f32[%d,%d,%d], "
         "pool %lu bytes (alignment %u)\n",
         H, W, C, H, W, C, (unsigned long)UNSHARP_MASK_POOL_BYTES,
         (unsigned)UNSHARP_MASK_POOL_ALIGNMENT);

  makeImage(img);
  t0 = nowMs();
  referenceUnsharpMask(img, ref);
  t1 = nowMs();
  printf("[reference] %.2f ms (naive C loops)\n", t1 - t0);

  /* Default execution settings. */
  ok &= runOnce("stream=NULL", img, out, ref, pool, NULL);

  /* Explicit settings: struct_size versions the struct. */
  twoThreads.struct_size = (uint32_t)sizeof(aot_cpu_stream_t);
  twoThreads.num_threads = 2;
  ok &= runOnce("2 threads", img, out, ref, pool, &twoThreads);

  free(pool);
  free(ref);
  free(out);
  free(img);
  printf("%s\n", ok ? "MATCH" : "MISMATCH");
  return ok ? 0 : 1;
}
