/*===- aot_runtime_blas.h - Library offload to a CBLAS ------------*- C -*-===*
 *
 * The kernels of aot_runtime_blas, which objects compiled with
 * `aotc --offload conv=openblas` / `--offload matmul=openblas` call through
 * the extern-kernel contract (aot_extern.h). They compute with the CBLAS
 * the program links (OpenBLAS, or any library with cblas_sgemm); with
 * OpenBLAS, its thread count is set to the call's.
 *
 * aot_blas_gemm_f32: inputs A, B[, C]; attributes transA, transB, alpha,
 *   beta (ONNX Gemm; MatMul is transA = transB = 0, alpha = 1, beta = 0).
 *   Y = alpha op(A) op(B) + beta C, C of N, 1 x N or M x N elements.
 * aot_blas_conv2d_f32: inputs X (N x C x H x W), W (M x C x KH x KW)[, B
 *   (M)]; attributes strides, pads (top, left, bottom, right), dilations.
 *   Each image is unfolded into the scratch (C KH KW x OH OW floats; none
 *   for a 1x1, stride-1, unpadded convolution) and multiplied by W.
 *
 * Plain C99; functions are only ever added.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_RUNTIME_BLAS_H
#define AOT_ABI_AOT_RUNTIME_BLAS_H

#include "aot_abi/aot_extern.h"

#ifdef __cplusplus
extern "C" {
#endif

aot_status_t aot_blas_gemm_f32(const aot_extern_tensor_t *inputs,
                               int32_t num_inputs,
                               const aot_extern_tensor_t *outputs,
                               int32_t num_outputs, const char *attributes,
                               void *scratch, size_t scratch_bytes,
                               aot_stream_t stream);

aot_status_t aot_blas_conv2d_f32(const aot_extern_tensor_t *inputs,
                                 int32_t num_inputs,
                                 const aot_extern_tensor_t *outputs,
                                 int32_t num_outputs, const char *attributes,
                                 void *scratch, size_t scratch_bytes,
                                 aot_stream_t stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_RUNTIME_BLAS_H */
