/*===- aot_extern.h - Kernels the user provides to aotc objects --*- C -*-===*
 *
 * An aotc object can call functions it does not compile: an MLIR program's
 * `func.func private @name(tensor...) -> tensor...` declarations. Each call
 * becomes a call of the C symbol `name` with the signature below; the
 * generated header declares every symbol the object needs, and the program
 * that links the object defines them.
 *
 * The contract of one call:
 * - inputs[i] / outputs[j] describe the call's operands and results in
 *   order: row-major, contiguous, aligned to at least their element size.
 *   Inputs are read-only. Outputs are buffers of the caller's pool (or the
 *   entry point's outputs) that the kernel fills completely.
 * - attributes is a NUL-terminated JSON object ("{}" when there are none).
 * - scratch holds scratch_bytes of the caller's pool for the kernel alone
 *   (NULL when 0 bytes were asked for), aligned to 64 bytes.
 * - stream is the entry point's stream as the object runs it: on CPU an
 *   aot_cpu_stream_t * whose num_threads is the call's thread count. The
 *   kernel is called from one thread, outside any OpenMP parallel region.
 * - On CUDA / HIP objects, every data pointer (inputs, outputs, scratch) is
 *   device memory, and stream is the caller's CUstream / hipStream_t. The
 *   kernel is called on the host, in program order between the object's
 *   own kernel launches on that stream: it enqueues its work on the same
 *   stream and returns (the data are not ready when it is called, only
 *   when the stream reaches its work).
 * - A status other than AOT_OK is returned by the entry point unchanged,
 *   nothing after the call runs, and the entry point's outputs are as they
 *   were (docs/abi.md: not with symbolic dimensions or device tensors).
 *
 * Versioning: AOT_EXTERN_VERSION is bumped on any change to these types;
 * fields are only ever appended. Plain C99, no dependency besides
 * aot_abi.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_EXTERN_H
#define AOT_ABI_AOT_EXTERN_H

#include "aot_abi/aot_abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_EXTERN_VERSION 1

/** One operand or result of an extern call. */
typedef struct aot_extern_tensor_t {
  void *data;
  int32_t dtype; /* AOT_DTYPE_* */
  int32_t rank;
  const int64_t *shape; /* rank dimensions */
} aot_extern_tensor_t;

/** The signature of every extern kernel. */
typedef aot_status_t (*aot_extern_fn_t)(
    const aot_extern_tensor_t *inputs, int32_t num_inputs,
    const aot_extern_tensor_t *outputs, int32_t num_outputs,
    const char *attributes, void *scratch, size_t scratch_bytes,
    aot_stream_t stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_EXTERN_H */
