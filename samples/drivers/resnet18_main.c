/*===- resnet18_main.c - Classify an image with the compiled resnet18 -*- C -*-===*
 *
 * A C99 program that uses the resnet18 model compiled by aotc from ONNX
 * (tests/models: `aotc resnet18.onnx --name=resnet18`, header resnet18.h):
 *
 *   resnet18_c [IMAGE.f32] [--expect-top5 FILE]
 *
 *   IMAGE.f32   the input tensor [1,3,224,224] as raw little-endian f32
 *               (already normalised, NCHW); without it, a deterministic
 *               synthetic image is used.
 *   --expect-top5 FILE
 *               FILE holds 5 class indices (whitespace-separated, best
 *               first, e.g. PyTorch's); exit 1 unless the top-5 is the same.
 *
 * It checks the model's self-description (resnet18_info()) against the
 * shapes it assumes, allocates the pool the header asks for, calls the
 * model and prints the 5 best class indices with their scores.
 *
 * Exit status: 0 on success, 1 on any error or mismatch.
 *
 *===----------------------------------------------------------------------===*/

/* aligned_alloc is C11 (glibc declares it for C99 code under _ISOC11_SOURCE),
 * clock_gettime is POSIX; both macros must precede every #include. */
#define _ISOC11_SOURCE
#define _POSIX_C_SOURCE 199309L

#include "resnet18.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 1, C = 3, H = 224, W = 224, NUM_CLASSES = 1000, TOP = 5 };
#define NUM_INPUTS ((size_t)N * C * H * W)

/*===----------------------------------------------------------------------===*
 * Input
 *===----------------------------------------------------------------------===*/

/* Reads exactly NUM_INPUTS little-endian f32 values from `path`. */
static int readImage(const char *path, float *image) {
  FILE *f = fopen(path, "rb");
  unsigned char bytes[4];
  size_t i;
  if (!f) {
    fprintf(stderr, "error: cannot open '%s'\n", path);
    return 1;
  }
  for (i = 0; i < NUM_INPUTS; ++i) {
    uint32_t bits;
    if (fread(bytes, 1, 4, f) != 4) {
      fprintf(stderr, "error: '%s' is shorter than %lu floats\n", path,
              (unsigned long)NUM_INPUTS);
      fclose(f);
      return 1;
    }
    bits = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
           (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    memcpy(&image[i], &bits, sizeof bits);
  }
  if (fread(bytes, 1, 1, f) != 0) {
    fprintf(stderr, "error: '%s' is longer than %lu floats\n", path,
            (unsigned long)NUM_INPUTS);
    fclose(f);
    return 1;
  }
  fclose(f);
  return 0;
}

/* A deterministic synthetic image in the range of a normalised photo
 * (about [-2, 2]): a per-channel gradient, a checkerboard and LCG noise. */
static void makeImage(float *image) {
  unsigned state = 2024u;
  int c, h, w;
  for (c = 0; c < C; ++c)
    for (h = 0; h < H; ++h)
      for (w = 0; w < W; ++w) {
        float gradient = (float)((c + 1) * (h + w)) / (float)(3 * (H + W));
        float checker = (((h / 28) + (w / 28)) & 1) ? 0.5f : -0.5f;
        float noise;
        state = state * 1664525u + 1013904223u;
        noise = (float)(state >> 8) / 16777216.0f - 0.5f;
        image[((size_t)c * H + h) * W + w] =
            2.0f * gradient - 1.0f + checker + 0.5f * noise;
      }
}

/*===----------------------------------------------------------------------===*
 * Checks and top-5
 *===----------------------------------------------------------------------===*/

/* The shapes this program assumes, checked against the model's own
 * description. */
static int checkInfo(void) {
  static const int64_t inShape[4] = {N, C, H, W};
  const aot_model_info_t *info = resnet18_info();
  if (info->abi_version != AOT_ABI_VERSION || info->num_inputs != 1 ||
      info->num_outputs != 1 || info->inputs[0].dtype != AOT_DTYPE_F32 ||
      info->inputs[0].rank != 4 ||
      memcmp(info->inputs[0].shape, inShape, sizeof inShape) != 0 ||
      info->outputs[0].dtype != AOT_DTYPE_F32 || info->outputs[0].rank != 2 ||
      info->outputs[0].shape[0] != 1 ||
      info->outputs[0].shape[1] != NUM_CLASSES) {
    fprintf(stderr, "error: the compiled model is not f32[1,3,224,224] -> "
                    "f32[1,1000]\n");
    return 1;
  }
  return 0;
}

/* The indices of the TOP largest scores, best first (ties: lower index). */
static void topK(const float *scores, int *top) {
  int k, i;
  for (k = 0; k < TOP; ++k) {
    int best = -1;
    for (i = 0; i < NUM_CLASSES; ++i) {
      int taken = 0, j;
      for (j = 0; j < k; ++j)
        taken |= top[j] == i;
      if (!taken && (best < 0 || scores[i] > scores[best]))
        best = i;
    }
    top[k] = best;
  }
}

static int readExpected(const char *path, int *expected) {
  FILE *f = fopen(path, "r");
  int k;
  if (!f) {
    fprintf(stderr, "error: cannot open '%s'\n", path);
    return 1;
  }
  for (k = 0; k < TOP; ++k)
    if (fscanf(f, "%d", &expected[k]) != 1) {
      fprintf(stderr, "error: '%s' does not hold %d class indices\n", path,
              TOP);
      fclose(f);
      return 1;
    }
  fclose(f);
  return 0;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/*===----------------------------------------------------------------------===*
 * main
 *===----------------------------------------------------------------------===*/

int main(int argc, char **argv) {
  const char *imagePath = NULL, *expectPath = NULL;
  float *image, scores[NUM_CLASSES];
  void *pool = NULL;
  int top[TOP], expected[TOP], k, i, failed = 0;
  aot_status_t status;
  double start;

  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--expect-top5") == 0 && i + 1 < argc)
      expectPath = argv[++i];
    else if (argv[i][0] != '-' && !imagePath)
      imagePath = argv[i];
    else {
      fprintf(stderr, "usage: %s [IMAGE.f32] [--expect-top5 FILE]\n", argv[0]);
      return 1;
    }
  }
  if (checkInfo() != 0)
    return 1;

  image = (float *)malloc(NUM_INPUTS * sizeof(float));
  if (!image) {
    fprintf(stderr, "error: out of memory\n");
    return 1;
  }
  if (imagePath) {
    if (readImage(imagePath, image) != 0) {
      free(image);
      return 1;
    }
  } else {
    makeImage(image);
  }

  /* The pool: exactly the size and alignment the header states (the size
   * is rounded up to a multiple of the alignment, as aligned_alloc needs). */
  if (RESNET18_POOL_BYTES > 0) {
    size_t a = RESNET18_POOL_ALIGNMENT;
    pool = aligned_alloc(a, (RESNET18_POOL_BYTES + a - 1) / a * a);
    if (!pool) {
      fprintf(stderr, "error: cannot allocate the %lu-byte pool\n",
              (unsigned long)RESNET18_POOL_BYTES);
      free(image);
      return 1;
    }
  }

  start = seconds();
  status = resnet18(image, scores, pool, RESNET18_POOL_BYTES, NULL);
  if (status != AOT_OK) {
    fprintf(stderr, "error: resnet18 returned %d (%s)\n", (int)status,
            aot_status_string(status));
    free(pool);
    free(image);
    return 1;
  }
  printf("resnet18 on %s: %.1f ms, pool %lu bytes\n",
         imagePath ? imagePath : "a synthetic image",
         1e3 * (seconds() - start), (unsigned long)RESNET18_POOL_BYTES);

  topK(scores, top);
  printf("rank  class  score\n");
  for (k = 0; k < TOP; ++k)
    printf("%4d  %5d  %.6f\n", k + 1, top[k], scores[top[k]]);

  if (expectPath) {
    if (readExpected(expectPath, expected) != 0) {
      failed = 1;
    } else {
      for (k = 0; k < TOP; ++k)
        failed |= top[k] != expected[k];
      printf("expected top-5:");
      for (k = 0; k < TOP; ++k)
        printf(" %d", expected[k]);
      printf(" -> %s\n", failed ? "MISMATCH" : "ok");
    }
  }
  free(pool);
  free(image);
  return failed;
}
