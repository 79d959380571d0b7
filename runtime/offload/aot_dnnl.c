/*===- aot_dnnl.c - Offloaded convolution on oneDNN ---------------*- C -*-===*
 *
 * The kernel of aot_runtime_dnnl (aot_runtime_dnnl.h): one oneDNN
 * convolution primitive on the caller's plain NCHW / OIHW buffers. Each call
 * builds its engine, primitive and stream and destroys them before it
 * returns; oneDNN's own primitive cache makes building the same primitive
 * again cheap. The attributes are the JSON objects aotc's ONNX importer
 * writes (aot_offload_attributes.h reads them).
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_runtime_dnnl.h"
#include "aot_offload_attributes.h"

#include <dnnl.h>
#include <dnnl_version.h>

/* The OpenMP runtime oneDNN runs on, when it is one (its thread count is
 * the calling thread's OpenMP setting, set for the call and restored). */
extern void omp_set_num_threads(int) __attribute__((weak));
extern int omp_get_max_threads(void) __attribute__((weak));

#if DNNL_VERSION_MAJOR >= 3
typedef dnnl_memory_desc_t aot_dnnl_md_t; /* a handle */
#define AOT_DNNL_MD(md) (md)
#else
typedef dnnl_memory_desc_t aot_dnnl_md_t; /* a struct */
#define AOT_DNNL_MD(md) (&(md))
#endif

/* A plain (row-major) f32 memory descriptor. */
static dnnl_status_t plain_md(aot_dnnl_md_t *md, int rank,
                              const dnnl_dims_t dims) {
  static const dnnl_format_tag_t tags[] = {
      dnnl_format_tag_undef, dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd, dnnl_abcde};
#if DNNL_VERSION_MAJOR >= 3
  return dnnl_memory_desc_create_with_tag(md, rank, dims, dnnl_f32, tags[rank]);
#else
  return dnnl_memory_desc_init_by_tag(md, rank, dims, dnnl_f32, tags[rank]);
#endif
}

static void destroy_md(aot_dnnl_md_t *md) {
#if DNNL_VERSION_MAJOR >= 3
  if (*md)
    dnnl_memory_desc_destroy(*md);
#else
  (void)md;
#endif
}

/* What one convolution call holds, released by release(). */
typedef struct call_t {
  aot_dnnl_md_t md[4]; /* src, weights, bias, dst */
  dnnl_engine_t engine;
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t primitive;
  dnnl_stream_t stream;
  dnnl_memory_t memory[4];
} call_t;

static void release(call_t *c) {
  for (int i = 0; i < 4; ++i) {
    if (c->memory[i])
      dnnl_memory_destroy(c->memory[i]);
    destroy_md(&c->md[i]);
  }
  if (c->stream)
    dnnl_stream_destroy(c->stream);
  if (c->primitive)
    dnnl_primitive_destroy(c->primitive);
  if (c->pd)
    dnnl_primitive_desc_destroy(c->pd);
  if (c->engine)
    dnnl_engine_destroy(c->engine);
}

static dnnl_status_t create_pd(call_t *c, int bias, const dnnl_dims_t strides,
                               const dnnl_dims_t dilates,
                               const dnnl_dims_t pad_l,
                               const dnnl_dims_t pad_r) {
#if DNNL_VERSION_MAJOR >= 3
  return dnnl_convolution_forward_primitive_desc_create(
      &c->pd, c->engine, dnnl_forward_inference, dnnl_convolution_direct,
      c->md[0], c->md[1], bias ? c->md[2] : NULL, c->md[3], strides, dilates,
      pad_l, pad_r, NULL);
#else
  dnnl_convolution_desc_t desc;
  dnnl_status_t status = dnnl_dilated_convolution_forward_desc_init(
      &desc, dnnl_forward_inference, dnnl_convolution_direct, &c->md[0],
      &c->md[1], bias ? &c->md[2] : NULL, &c->md[3], strides, dilates, pad_l,
      pad_r);
  if (status != dnnl_success)
    return status;
  return dnnl_primitive_desc_create(&c->pd, &desc, NULL, c->engine, NULL);
#endif
}

static aot_status_t run(call_t *c, const aot_extern_tensor_t *inputs,
                        int32_t num_inputs, const aot_extern_tensor_t *y,
                        long group, const long strides[2], const long pads[4],
                        const long dilations[2], int threads) {
  const int64_t *xs = inputs[0].shape, *ws = inputs[1].shape;
  int bias = num_inputs == 3;
  dnnl_dims_t x_dims = {xs[0], xs[1], xs[2], xs[3]};
  dnnl_dims_t y_dims = {y->shape[0], y->shape[1], y->shape[2], y->shape[3]};
  /* ONNX's M x C/group x KH x KW is oneDNN's goihw with o = M / group. */
  dnnl_dims_t w_dims = {group, ws[0] / group, ws[1], ws[2], ws[3]};
  dnnl_dims_t b_dims = {ws[0]};
  int w_rank = 5;
  if (group == 1) {
    for (int i = 0; i < 4; ++i)
      w_dims[i] = ws[i];
    w_rank = 4;
  }
  /* oneDNN counts a dilation of d as d - 1 skipped elements. */
  dnnl_dims_t s = {strides[0], strides[1]},
              d = {dilations[0] - 1, dilations[1] - 1},
              pad_l = {pads[0], pads[1]}, pad_r = {pads[2], pads[3]};
  if (dnnl_engine_create(&c->engine, dnnl_cpu, 0) != dnnl_success ||
      plain_md(&c->md[0], 4, x_dims) != dnnl_success ||
      plain_md(&c->md[1], w_rank, w_dims) != dnnl_success ||
      (bias && plain_md(&c->md[2], 1, b_dims) != dnnl_success) ||
      plain_md(&c->md[3], 4, y_dims) != dnnl_success)
    return AOT_ERROR_INTERNAL;
  dnnl_status_t status = create_pd(c, bias, s, d, pad_l, pad_r);
  if (status == dnnl_invalid_arguments || status == dnnl_unimplemented)
    return AOT_ERROR_SHAPE;
  void *data[4] = {inputs[0].data, inputs[1].data, bias ? inputs[2].data : NULL,
                   y->data};
  static const int args[4] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS,
                              DNNL_ARG_DST};
  dnnl_exec_arg_t exec[4];
  int count = 0;
  if (status != dnnl_success ||
      dnnl_primitive_create(&c->primitive, c->pd) != dnnl_success ||
      dnnl_stream_create(&c->stream, c->engine, dnnl_stream_default_flags) !=
          dnnl_success)
    return AOT_ERROR_INTERNAL;
  for (int i = 0; i < 4; ++i) {
    if (!data[i])
      continue;
    if (dnnl_memory_create(&c->memory[i], AOT_DNNL_MD(c->md[i]), c->engine,
                           data[i]) != dnnl_success)
      return AOT_ERROR_INTERNAL;
    exec[count].arg = args[i];
    exec[count++].memory = c->memory[i];
  }
  int saved = 0;
  if (threads > 0 && omp_set_num_threads && omp_get_max_threads) {
    saved = omp_get_max_threads();
    omp_set_num_threads(threads);
  }
  status = dnnl_primitive_execute(c->primitive, c->stream, count, exec);
  if (status == dnnl_success)
    status = dnnl_stream_wait(c->stream);
  if (saved > 0)
    omp_set_num_threads(saved);
  return status == dnnl_success ? AOT_OK : AOT_ERROR_INTERNAL;
}

aot_status_t aot_dnnl_conv2d_f32(const aot_extern_tensor_t *inputs,
                                 int32_t num_inputs,
                                 const aot_extern_tensor_t *outputs,
                                 int32_t num_outputs, const char *attributes,
                                 void *scratch, size_t scratch_bytes,
                                 aot_stream_t stream) {
  (void)scratch;
  (void)scratch_bytes;
  long strides[2], pads[4], dilations[2];
  long group = (long)aot_offload_number(attributes, "group", 1);
  if (!aot_offload_conv2d(inputs, num_inputs, outputs, num_outputs, attributes,
                          strides, pads, dilations) ||
      group < 1)
    return AOT_ERROR_INVALID_ARGUMENT;
  const int64_t *xs = inputs[0].shape, *ws = inputs[1].shape;
  const int64_t *ys = outputs[0].shape;
  if (ws[0] % group || xs[1] != ws[1] * group || ys[0] != xs[0] ||
      ys[1] != ws[0] || (num_inputs == 3 && inputs[2].shape[0] != ws[0]))
    return AOT_ERROR_SHAPE;
  call_t c = {0};
  aot_status_t status = run(&c, inputs, num_inputs, &outputs[0], group, strides,
                            pads, dilations, aot_offload_threads(stream));
  release(&c);
  return status;
}
