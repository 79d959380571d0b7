/*===- kernels.c - Extern kernels of calls.mlir (extern_test.py) --*- C -*-===*
 *
 * Each kernel checks what the object hands it (counts, dtypes, shapes,
 * attributes, scratch, stream) against calls.mlir and returns
 * AOT_ERROR_INVALID_ARGUMENT with a description in extern_test_problem when
 * something differs. extern_test_fail_swish / _rowdot make a kernel return
 * that status instead; extern_test_calls counts the calls of each.
 *
 * Includes the generated calls.h: its prototypes must match these.
 *
 *===----------------------------------------------------------------------===*/

#include "calls.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char extern_test_problem[256];
int32_t extern_test_fail_swish, extern_test_fail_rowdot;
int32_t extern_test_calls[2];
/* The num_threads the stream must carry, 0 for any positive count. */
int32_t extern_test_threads;

static aot_status_t problem(const char *what) {
  snprintf(extern_test_problem, sizeof extern_test_problem, "%s", what);
  return AOT_ERROR_INVALID_ARGUMENT;
}

static int is_tensor(const aot_extern_tensor_t *t, int32_t dtype,
                     int32_t rank, int64_t d0, int64_t d1) {
  if (!t->data || t->dtype != dtype || t->rank != rank || !t->shape)
    return 0;
  if (t->shape[0] != d0 || (rank > 1 && t->shape[1] != d1))
    return 0;
  return 1;
}

static int good_stream(aot_stream_t stream) {
  const aot_cpu_stream_t *s = (const aot_cpu_stream_t *)stream;
  if (!s || s->struct_size != sizeof(aot_cpu_stream_t) || s->num_threads < 1)
    return 0;
  return extern_test_threads == 0 || s->num_threads == extern_test_threads;
}

aot_status_t swish_kernel(const aot_extern_tensor_t *inputs,
                          int32_t num_inputs,
                          const aot_extern_tensor_t *outputs,
                          int32_t num_outputs, const char *attributes,
                          void *scratch, size_t scratch_bytes,
                          aot_stream_t stream) {
  ++extern_test_calls[0];
  if (extern_test_fail_swish)
    return extern_test_fail_swish;
  if (num_inputs != 1 || num_outputs != 1)
    return problem("swish_kernel: operand counts");
  if (!is_tensor(&inputs[0], AOT_DTYPE_F32, 2, 4, 8) ||
      !is_tensor(&outputs[0], AOT_DTYPE_F32, 2, 4, 8))
    return problem("swish_kernel: tensor descriptions");
  if (!attributes || strcmp(attributes, "{\"beta\": 1.5}") != 0)
    return problem("swish_kernel: attributes");
  if (!scratch || scratch_bytes != 256 || (uintptr_t)scratch % 64 != 0)
    return problem("swish_kernel: scratch");
  if (!good_stream(stream))
    return problem("swish_kernel: stream");
  memset(scratch, 0xff, scratch_bytes); /* it is the kernel's to write */
  const float *x = (const float *)inputs[0].data;
  float *y = (float *)outputs[0].data;
  for (int i = 0; i < 32; ++i)
    y[i] = x[i] / (1.0f + expf(-1.5f * x[i]));
  return AOT_OK;
}

aot_status_t rowdot_kernel(const aot_extern_tensor_t *inputs,
                           int32_t num_inputs,
                           const aot_extern_tensor_t *outputs,
                           int32_t num_outputs, const char *attributes,
                           void *scratch, size_t scratch_bytes,
                           aot_stream_t stream) {
  ++extern_test_calls[1];
  /* A kernel that fails after writing part of its outputs (the entry
   * point's outputs r and q). */
  if (extern_test_fail_rowdot) {
    if (num_outputs == 2 && outputs[0].data && outputs[1].data) {
      ((float *)outputs[0].data)[0] = -1.0f;
      ((int64_t *)outputs[1].data)[0] = -1;
    }
    return extern_test_fail_rowdot;
  }
  if (num_inputs != 2 || num_outputs != 2)
    return problem("rowdot_kernel: operand counts");
  if (!is_tensor(&inputs[0], AOT_DTYPE_F32, 2, 4, 8) ||
      !is_tensor(&inputs[1], AOT_DTYPE_I32, 1, 8, 0) ||
      !is_tensor(&outputs[0], AOT_DTYPE_F32, 1, 4, 0) ||
      !is_tensor(&outputs[1], AOT_DTYPE_I64, 2, 4, 8))
    return problem("rowdot_kernel: tensor descriptions");
  if (!attributes || strcmp(attributes, "{}") != 0)
    return problem("rowdot_kernel: attributes");
  if (scratch || scratch_bytes != 0)
    return problem("rowdot_kernel: scratch");
  if (!good_stream(stream))
    return problem("rowdot_kernel: stream");
  const float *t = (const float *)inputs[0].data;
  const int32_t *idx = (const int32_t *)inputs[1].data;
  float *r = (float *)outputs[0].data;
  int64_t *q = (int64_t *)outputs[1].data;
  for (int i = 0; i < 4; ++i) {
    float sum = 0.0f;
    for (int j = 0; j < 8; ++j) {
      sum += t[i * 8 + j] * (float)idx[j];
      q[i * 8 + j] = (int64_t)(i + 1) * idx[j];
    }
    r[i] = sum;
  }
  return AOT_OK;
}
