/*===- aot_cublas.c - Offloaded GEMM on cuBLAS --------------------*- C -*-===*
 *
 * The kernel of aot_runtime_cublas (aot_runtime_cublas.h): ONNX Gemm and
 * MatMul on row-major device buffers as one cublasSgemm on the caller's
 * stream (the row-major product is the column-major one with the operands
 * swapped), the bias first copied into the output with cublasScopy. Only
 * the cuBLAS API is used: no CUDA runtime. The handles are kept per stream
 * and thread (cublasCreate allocates and cublasDestroy synchronises the
 * device, so neither belongs in a call). The attributes are the JSON
 * objects aotc's ONNX importer writes (aot_offload_attributes.h).
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_runtime_cublas.h"
#include "aot_offload_attributes.h"

#include <cublas_v2.h>
#include <pthread.h>

enum { kMaxHandles = 64 };

static struct {
  void *stream;
  pthread_t thread;
  cublasHandle_t handle;
} handles[kMaxHandles];
static int numHandles;
static pthread_mutex_t handlesLock = PTHREAD_MUTEX_INITIALIZER;

/* This thread's handle for `stream`, made on first use; NULL on failure. */
static cublasHandle_t handle_for(void *stream) {
  cublasHandle_t handle = NULL;
  pthread_t self = pthread_self();
  pthread_mutex_lock(&handlesLock);
  for (int i = 0; i < numHandles && !handle; ++i)
    if (handles[i].stream == stream && pthread_equal(handles[i].thread, self))
      handle = handles[i].handle;
  if (!handle && numHandles < kMaxHandles &&
      cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS) {
    if (cublasSetStream(handle, (cudaStream_t)stream) !=
        CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(handle);
      handle = NULL;
    } else {
      handles[numHandles].stream = stream;
      handles[numHandles].thread = self;
      handles[numHandles++].handle = handle;
    }
  }
  pthread_mutex_unlock(&handlesLock);
  return handle;
}

void aot_cublas_release_handles(void) {
  pthread_mutex_lock(&handlesLock);
  for (int i = 0; i < numHandles; ++i)
    cublasDestroy(handles[i].handle);
  numHandles = 0;
  pthread_mutex_unlock(&handlesLock);
}

aot_status_t aot_cublas_gemm_f32(const aot_extern_tensor_t *inputs,
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
  cublasHandle_t handle = handle_for(stream);
  if (!handle)
    return AOT_ERROR_DEVICE;
  int64_t m = g.m, n = g.n;
  float *out = (float *)outputs[0].data;
  /* Y = C first (a row copied, then doubled down the rows), then
   * Y = alpha op(A) op(B) + beta Y. */
  float accumulate = 0.0f;
  if (g.bias_elements) {
    if (cublasScopy(handle, (int)g.bias_elements, (const float *)inputs[2].data,
                    1, out, 1) != CUBLAS_STATUS_SUCCESS)
      return AOT_ERROR_DEVICE;
    for (int64_t rows = g.bias_elements / n; rows < m; rows *= 2) {
      int64_t copied = rows < m - rows ? rows : m - rows;
      if (cublasScopy(handle, (int)(copied * n), out, 1, out + rows * n, 1) !=
          CUBLAS_STATUS_SUCCESS)
        return AOT_ERROR_DEVICE;
    }
    accumulate = g.beta;
  }
  /* Row-major Y = op(A) op(B) is column-major Y^T = op(B)^T op(A)^T, and a
   * row-major matrix read column-major is its transpose. */
  cublasStatus_t gemm = cublasSgemm(
      handle, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N,
      g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n, (int)m, (int)g.k, &g.alpha,
      (const float *)inputs[1].data, (int)g.ldb, (const float *)inputs[0].data,
      (int)g.lda, &accumulate, out, (int)n);
  return gemm == CUBLAS_STATUS_SUCCESS ? AOT_OK : AOT_ERROR_DEVICE;
}
