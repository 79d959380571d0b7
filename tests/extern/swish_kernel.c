/*===- swish_kernel.c - custom::Swish of onnx_extern_test.py ------*- C -*-===*
 *
 * y = x * sigmoid(beta * x) over a float tensor of any shape, beta read from
 * the node's attributes ({"beta": ..., "name": "swish"}). Checks the
 * scratch that --extern-scratch asks for (1024 bytes, 64-aligned) and the
 * stream; returns AOT_ERROR_INVALID_ARGUMENT otherwise, with the reason in
 * swish_problem. swish_fail makes it return that status instead;
 * swish_calls counts its calls.
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_extern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char swish_problem[256];
int32_t swish_fail, swish_calls;

static aot_status_t problem(const char *what) {
  snprintf(swish_problem, sizeof swish_problem, "%s", what);
  return AOT_ERROR_INVALID_ARGUMENT;
}

aot_status_t swish_kernel(const aot_extern_tensor_t *inputs,
                          int32_t num_inputs,
                          const aot_extern_tensor_t *outputs,
                          int32_t num_outputs, const char *attributes,
                          void *scratch, size_t scratch_bytes,
                          aot_stream_t stream) {
  ++swish_calls;
  if (swish_fail)
    return swish_fail;
  if (num_inputs != 1 || num_outputs != 1)
    return problem("operand counts");
  const aot_extern_tensor_t *x = &inputs[0], *y = &outputs[0];
  if (x->dtype != AOT_DTYPE_F32 || y->dtype != AOT_DTYPE_F32 ||
      x->rank != y->rank || x->rank != 4)
    return problem("dtypes or ranks");
  size_t count = 1;
  for (int32_t d = 0; d < x->rank; ++d) {
    if (x->shape[d] != y->shape[d])
      return problem("shapes differ");
    count *= (size_t)x->shape[d];
  }
  const char *beta_at = attributes ? strstr(attributes, "\"beta\":") : NULL;
  if (!beta_at || !strstr(attributes, "\"name\":\"swish\""))
    return problem("attributes");
  float beta = strtof(beta_at + strlen("\"beta\":"), NULL);
  if (!scratch || scratch_bytes != 1024 || (uintptr_t)scratch % 64 != 0)
    return problem("scratch");
  memset(scratch, 0, scratch_bytes);
  const aot_cpu_stream_t *s = (const aot_cpu_stream_t *)stream;
  if (!s || s->struct_size != sizeof(aot_cpu_stream_t) || s->num_threads < 1)
    return problem("stream");
  const float *in = (const float *)x->data;
  float *out = (float *)y->data;
  for (size_t i = 0; i < count; ++i)
    out[i] = in[i] / (1.0f + expf(-beta * in[i]));
  return AOT_OK;
}
