//===- fake_cublas.cpp - cuBLAS on the fake driver's memory -----*- C++ -*-===//
//
// The cuBLAS functions aot_runtime_cublas calls, computed on the host: the
// fake driver's "device" memory is host memory (fake_driver.h), so a CUDA
// object offloading its GEMMs to cuBLAS runs end to end without a GPU and
// its outputs can be compared with PyTorch (offload_cublas_test.py). Each
// call is recorded on the handle's stream ("cublas copy", "cublas gemm").
// Also exported for that test: fake_install() and fake_stream(), the
// fake driver's installation and the caller's stream.
//
//===----------------------------------------------------------------------===//

#include "fake_driver.h"

#include <cublas_v2.h>

namespace {

/// One handle: the stream it is bound to.
struct Handle {
  void *stream = nullptr;
};

float element(const float *m, int ld, bool transposed, int row, int col) {
  // Column-major, as cuBLAS reads it.
  return transposed ? m[col + row * ld] : m[row + col * ld];
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate(cublasHandle_t *handle) {
  *handle = reinterpret_cast<cublasHandle_t>(new Handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  delete reinterpret_cast<Handle *>(handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  reinterpret_cast<Handle *>(handle)->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasScopy(cublasHandle_t handle, int n, const float *x,
                           int incx, float *y, int incy) {
  fake::onStream(reinterpret_cast<Handle *>(handle)->stream, "cublas copy");
  for (int i = 0; i < n; ++i)
    y[i * incy] = x[i * incx];
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, int k,
                           const float *alpha, const float *a, int lda,
                           const float *b, int ldb, const float *beta, float *c,
                           int ldc) {
  fake::onStream(reinterpret_cast<Handle *>(handle)->stream, "cublas gemm");
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p)
        sum += element(a, lda, transa != CUBLAS_OP_N, i, p) *
               element(b, ldb, transb != CUBLAS_OP_N, p, j);
      float &out = c[i + j * ldc];
      out = *alpha * sum + (*beta != 0.0f ? *beta * out : 0.0f);
    }
  return CUBLAS_STATUS_SUCCESS;
}

void fake_install() { fake::install(); }
void *fake_stream() { return fake::callerStream(); }
/// The recorded stream work so far, ";"-separated.
const char *fake_events() {
  static std::string text;
  text.clear();
  for (const std::string &event : fake::record().events)
    text += event + ";";
  return text.c_str();
}
int fake_foreign_stream() { return fake::record().foreignStream; }

} // extern "C"
