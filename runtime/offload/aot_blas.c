/*===- aot_blas.c - Offloaded GEMM and convolution on a CBLAS ----*- C -*-===*
 *
 * The kernels of aot_runtime_blas (aot_runtime_blas.h). The attributes are
 * the JSON objects aotc's ONNX importer writes for them
 * (aot_offload_attributes.h reads them).
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_runtime_blas.h"
#include "aot_offload_attributes.h"

#include <cblas.h>

/* OpenBLAS's thread count, when the CBLAS linked is OpenBLAS. */
extern void openblas_set_num_threads(int) __attribute__((weak));

static void use_threads(aot_stream_t stream) {
  int threads = aot_offload_threads(stream);
  if (openblas_set_num_threads && threads > 0)
    openblas_set_num_threads(threads);
}

aot_status_t aot_blas_gemm_f32(const aot_extern_tensor_t *inputs,
                               int32_t num_inputs,
                               const aot_extern_tensor_t *outputs,
                               int32_t num_outputs, const char *attributes,
                               void *scratch, size_t scratch_bytes,
                               aot_stream_t stream) {
  (void)scratch;
  (void)scratch_bytes;
  aot_offload_gemm_t g;
  aot_status_t status = aot_offload_gemm(inputs, num_inputs, outputs,
                                         num_outputs, attributes, &g);
  if (status != AOT_OK)
    return status;
  int64_t m = g.m, n = g.n;
  float *out = (float *)outputs[0].data;
  /* Y = beta C first (broadcast rows), then Y += alpha op(A) op(B). */
  float accumulate = 0.0f;
  if (g.bias_elements) {
    const float *bias = (const float *)inputs[2].data;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        out[i * n + j] = g.beta * bias[g.bias_elements == n ? j : i * n + j];
    accumulate = 1.0f;
  }
  use_threads(stream);
  cblas_sgemm(CblasRowMajor, g.trans_a ? CblasTrans : CblasNoTrans,
              g.trans_b ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)g.k,
              g.alpha, (const float *)inputs[0].data, (int)g.lda,
              (const float *)inputs[1].data, (int)g.ldb, accumulate, out,
              (int)n);
  return AOT_OK;
}

aot_status_t aot_blas_conv2d_f32(const aot_extern_tensor_t *inputs,
                                 int32_t num_inputs,
                                 const aot_extern_tensor_t *outputs,
                                 int32_t num_outputs, const char *attributes,
                                 void *scratch, size_t scratch_bytes,
                                 aot_stream_t stream) {
  long strides[2], pads[4], dilations[2];
  if (!aot_offload_conv2d(inputs, num_inputs, outputs, num_outputs, attributes,
                          strides, pads, dilations))
    return AOT_ERROR_INVALID_ARGUMENT;
  const int64_t *xs = inputs[0].shape, *ws = inputs[1].shape;
  const int64_t *ys = outputs[0].shape;
  int64_t batch = xs[0], channels = xs[1], height = xs[2], width = xs[3];
  int64_t filters = ws[0], kh = ws[2], kw = ws[3];
  int64_t oh = ys[2], ow = ys[3], pixels = oh * ow;
  int64_t rows = channels * kh * kw;
  if (ws[1] != channels || ys[0] != batch || ys[1] != filters)
    return AOT_ERROR_SHAPE;
  int direct = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 &&
               !pads[0] && !pads[1] && !pads[2] && !pads[3];
  if (!direct && (!scratch || scratch_bytes < (size_t)(rows * pixels) * 4))
    return AOT_ERROR_INVALID_ARGUMENT;
  const float *x = (const float *)inputs[0].data;
  const float *w = (const float *)inputs[1].data;
  const float *bias = num_inputs == 3 ? (const float *)inputs[2].data : NULL;
  float *y = (float *)outputs[0].data;
  float *columns = (float *)scratch;
  use_threads(stream);
  for (int64_t n = 0; n < batch; ++n) {
    const float *image = x + n * channels * height * width;
    float *out = y + n * filters * pixels;
    const float *operand = image;
    if (!direct) {
      /* columns[(c, i, j)][(p, q)] = image[c][p s0 - top + i d0]
       *                                     [q s1 - left + j d1], 0 outside */
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            float *row = columns + ((c * kh + i) * kw + j) * pixels;
            for (int64_t p = 0; p < oh; ++p) {
              int64_t r = p * strides[0] - pads[0] + i * dilations[0];
              for (int64_t q = 0; q < ow; ++q) {
                int64_t s = q * strides[1] - pads[1] + j * dilations[1];
                row[p * ow + q] = r >= 0 && r < height && s >= 0 && s < width
                                      ? image[(c * height + r) * width + s]
                                      : 0.0f;
              }
            }
          }
      operand = columns;
    }
    float accumulate = 0.0f;
    if (bias) {
      for (int64_t m = 0; m < filters; ++m)
        for (int64_t p = 0; p < pixels; ++p)
          out[m * pixels + p] = bias[m];
      accumulate = 1.0f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)filters,
                (int)pixels, (int)rows, 1.0f, w, (int)rows, operand,
                (int)pixels, accumulate, out, (int)pixels);
  }
  return AOT_OK;
}
