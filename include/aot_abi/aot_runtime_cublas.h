/*===- aot_runtime_cublas.h - Library offload to cuBLAS -----------*- C -*-===*
 *
 * The kernel of aot_runtime_cublas, which CUDA objects compiled with
 * `aotc --target=cuda --offload matmul=cublas` call through the
 * extern-kernel contract (aot_extern.h): device buffers, the caller's
 * CUstream. It computes with the cuBLAS the program links (-lcublas; the
 * CUDA runtime is not needed).
 *
 * aot_cublas_gemm_f32: inputs A, B[, C]; attributes transA, transB, alpha,
 *   beta (ONNX Gemm; MatMul is transA = transB = 0, alpha = 1, beta = 0).
 *   Y = alpha op(A) op(B) + beta C, C of N, 1 x N or M x N elements: C is
 *   copied into Y (cublasScopy), then one cublasSgemm, all enqueued on the
 *   stream. Returns AOT_ERROR_DEVICE when cuBLAS fails.
 *
 * Handles: cublasCreate allocates and cublasDestroy synchronises the
 * device, so the library keeps one handle per stream and calling thread
 * (up to 64), made on its first call and bound to that stream. Before
 * destroying a stream it used, or to free them,
 * aot_cublas_release_handles() destroys them all (no call may run
 * meanwhile).
 *
 * Plain C99; functions are only ever added.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_RUNTIME_CUBLAS_H
#define AOT_ABI_AOT_RUNTIME_CUBLAS_H

#include "aot_abi/aot_extern.h"

#ifdef __cplusplus
extern "C" {
#endif

aot_status_t aot_cublas_gemm_f32(const aot_extern_tensor_t *inputs,
                                 int32_t num_inputs,
                                 const aot_extern_tensor_t *outputs,
                                 int32_t num_outputs, const char *attributes,
                                 void *scratch, size_t scratch_bytes,
                                 aot_stream_t stream);

/** Destroys the cuBLAS handles aot_cublas_gemm_f32 made. */
void aot_cublas_release_handles(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_RUNTIME_CUBLAS_H */
