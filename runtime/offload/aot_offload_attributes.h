/*===- aot_offload_attributes.h - What the offload adapters share -*- C -*-===*
 *
 * Readers of the attributes aotc's ONNX importer writes for the library
 * offload kernels (aot_runtime_blas, aot_runtime_dnnl): flat JSON objects
 * whose values are numbers or arrays of numbers, taken by key. Private to
 * the runtime's adapters; not installed.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_RUNTIME_OFFLOAD_AOT_OFFLOAD_ATTRIBUTES_H
#define AOT_RUNTIME_OFFLOAD_AOT_OFFLOAD_ATTRIBUTES_H

#include "aot_abi/aot_extern.h"

#include <stdlib.h>
#include <string.h>

/* The text after `"key":` in `json`, or NULL. */
static inline const char *aot_offload_value_of(const char *json,
                                               const char *key) {
  size_t length = strlen(key);
  for (const char *at = json ? strchr(json, '"') : NULL; at;
       at = strchr(at + 1, '"'))
    if (strncmp(at + 1, key, length) == 0 && at[length + 1] == '"' &&
        at[length + 2] == ':')
      return at + length + 3;
  return NULL;
}

static inline double aot_offload_number(const char *json, const char *key,
                                        double otherwise) {
  const char *at = aot_offload_value_of(json, key);
  return at ? strtod(at, NULL) : otherwise;
}

/* The `count` integers of the array at `key`: 1, or 0 when it has another
 * length or is missing. */
static inline int aot_offload_integers(const char *json, const char *key,
                                       long *values, int count) {
  const char *at = aot_offload_value_of(json, key);
  if (!at || *at != '[')
    return 0;
  ++at;
  for (int i = 0; i < count; ++i) {
    char *end;
    values[i] = strtol(at, &end, 10);
    if (end == at)
      return 0;
    at = end;
    if (*at == ',')
      ++at;
  }
  return *at == ']';
}

static inline int aot_offload_is_f32(const aot_extern_tensor_t *t,
                                     int32_t rank) {
  return t->data && t->dtype == AOT_DTYPE_F32 && t->rank == rank;
}

/* One Gemm / MatMul call (aot_blas_gemm_f32, aot_cublas_gemm_f32): Y (m x
 * n) = alpha op(A) op(B) + beta C, C (bias_elements: n or m n; 0 when
 * there is none or beta is 0) broadcast over the rows. */
typedef struct aot_offload_gemm_t {
  int trans_a, trans_b;
  float alpha, beta;
  int64_t m, n, k, lda, ldb, bias_elements;
} aot_offload_gemm_t;

/* Reads the call's operands and attributes into *g: AOT_OK,
 * AOT_ERROR_INVALID_ARGUMENT for operands of other counts, dtypes or ranks,
 * AOT_ERROR_SHAPE for shapes that do not multiply. */
static inline aot_status_t
aot_offload_gemm(const aot_extern_tensor_t *inputs, int32_t num_inputs,
                 const aot_extern_tensor_t *outputs, int32_t num_outputs,
                 const char *attributes, aot_offload_gemm_t *g) {
  if (num_inputs < 2 || num_inputs > 3 || num_outputs != 1 ||
      !aot_offload_is_f32(&inputs[0], 2) ||
      !aot_offload_is_f32(&inputs[1], 2) || !aot_offload_is_f32(&outputs[0], 2))
    return AOT_ERROR_INVALID_ARGUMENT;
  g->trans_a = aot_offload_number(attributes, "transA", 0) != 0;
  g->trans_b = aot_offload_number(attributes, "transB", 0) != 0;
  g->alpha = (float)aot_offload_number(attributes, "alpha", 1);
  g->beta = (float)aot_offload_number(attributes, "beta", 0);
  const int64_t *a = inputs[0].shape, *b = inputs[1].shape;
  g->m = outputs[0].shape[0];
  g->n = outputs[0].shape[1];
  g->k = g->trans_a ? a[0] : a[1];
  g->lda = a[1];
  g->ldb = b[1];
  if ((g->trans_a ? a[1] : a[0]) != g->m ||
      (g->trans_b ? b[1] : b[0]) != g->k || (g->trans_b ? b[0] : b[1]) != g->n)
    return AOT_ERROR_SHAPE;
  g->bias_elements = 0;
  if (num_inputs == 3 && g->beta != 0.0f) {
    const aot_extern_tensor_t *c = &inputs[2];
    int64_t elements = 1;
    for (int32_t d = 0; d < c->rank; ++d)
      elements *= c->shape[d];
    if (c->dtype != AOT_DTYPE_F32 || !c->data ||
        (elements != g->n && elements != g->m * g->n))
      return AOT_ERROR_SHAPE;
    g->bias_elements = elements;
  }
  return AOT_OK;
}

/* One 2-D convolution call (aot_blas_conv2d_f32, aot_dnnl_conv2d_f32): X,
 * W and Y f32 of rank 4, an optional bias of rank 1, and the attributes'
 * strides, pads (top, left, bottom, right) and dilations. 1 when the call
 * is one, else 0. */
static inline int aot_offload_conv2d(const aot_extern_tensor_t *inputs,
                                     int32_t num_inputs,
                                     const aot_extern_tensor_t *outputs,
                                     int32_t num_outputs,
                                     const char *attributes, long strides[2],
                                     long pads[4], long dilations[2]) {
  return num_inputs >= 2 && num_inputs <= 3 && num_outputs == 1 &&
         aot_offload_is_f32(&inputs[0], 4) &&
         aot_offload_is_f32(&inputs[1], 4) &&
         aot_offload_is_f32(&outputs[0], 4) &&
         (num_inputs == 2 || aot_offload_is_f32(&inputs[2], 1)) &&
         aot_offload_integers(attributes, "strides", strides, 2) &&
         aot_offload_integers(attributes, "pads", pads, 4) &&
         aot_offload_integers(attributes, "dilations", dilations, 2);
}

/* The call's thread count: the CPU stream's num_threads, or 0 when the
 * stream leaves it to the library. */
static inline int aot_offload_threads(aot_stream_t stream) {
  const aot_cpu_stream_t *s = (const aot_cpu_stream_t *)stream;
  return s && s->struct_size == sizeof(aot_cpu_stream_t) && s->num_threads > 0
             ? (int)s->num_threads
             : 0;
}

#endif /* AOT_RUNTIME_OFFLOAD_AOT_OFFLOAD_ATTRIBUTES_H */
