/*===- aot_abi.h - The aotc artifact ABI --------------------------*- C -*-===*
 *
 * The public, dependency-free C99 contract between code compiled by aotc and
 * its callers. Generic loaders (Python ctypes, other languages) rely on the
 * names, values and field order below: fields are only ever appended, and
 * every change bumps AOT_ABI_VERSION.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_ABI_H
#define AOT_ABI_AOT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_ABI_VERSION 1

/** Every entry point returns one of the codes below. */
typedef int32_t aot_status_t;
enum {
  AOT_OK = 0,
  AOT_ERROR_INVALID_ARGUMENT = 1, /* NULL or misaligned pointer, bad stream */
  AOT_ERROR_POOL_TOO_SMALL = 2,   /* pool_bytes below the header's figure */
  AOT_ERROR_SHAPE = 3,            /* a dimension breaks a guard */
  AOT_ERROR_NO_DEVICE = 4,        /* no GPU driver or device; a CPU without
                                     the code's SVE vector length */
  AOT_ERROR_DEVICE = 5,           /* driver/runtime failure */
  AOT_ERROR_INTERNAL = 6
};

/** CUstream (CUDA), hipStream_t (HIP), or NULL / aot_cpu_stream_t* (CPU). */
typedef void *aot_stream_t;

/** CPU "stream": execution settings for one call. num_threads <= 0 means
 *  the OpenMP default. struct_size must be sizeof(aot_cpu_stream_t). */
typedef struct aot_cpu_stream_t {
  uint32_t struct_size;
  int32_t num_threads;
} aot_cpu_stream_t;

enum {
  AOT_DTYPE_F32 = 1,
  AOT_DTYPE_F64 = 2,
  AOT_DTYPE_F16 = 3,
  AOT_DTYPE_BF16 = 4,
  AOT_DTYPE_I8 = 5,
  AOT_DTYPE_U8 = 6,
  AOT_DTYPE_I16 = 7,
  AOT_DTYPE_I32 = 8,
  AOT_DTYPE_I64 = 9,
  AOT_DTYPE_BOOL = 10 /* one byte per element, 0 or 1 */
};

/** One input or output of an entry point. */
typedef struct aot_tensor_info_t {
  const char *name;
  int32_t dtype;
  int32_t rank;
  const int64_t *shape; /* -1 marks a symbolic dimension */
} aot_tensor_info_t;

/** Self-description of one entry point, returned by NAME_info(). */
typedef struct aot_model_info_t {
  uint32_t abi_version;
  const char *name;
  const char *target; /* "cpu", "cuda:sm_80,sm_90", "hip:gfx942" */
  int32_t num_inputs, num_outputs;
  const aot_tensor_info_t *inputs, *outputs;
  uint64_t pool_bytes; /* for symbolic dims: at the declared bound */
  uint32_t pool_alignment;
} aot_model_info_t;

/** A static, human-readable name for every status code (never NULL). */
const char *aot_status_string(aot_status_t status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_ABI_H */
