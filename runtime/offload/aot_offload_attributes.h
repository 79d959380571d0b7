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

/* The call's thread count: the CPU stream's num_threads, or 0 when the
 * stream leaves it to the library. */
static inline int aot_offload_threads(aot_stream_t stream) {
  const aot_cpu_stream_t *s = (const aot_cpu_stream_t *)stream;
  return s && s->struct_size == sizeof(aot_cpu_stream_t) && s->num_threads > 0
             ? (int)s->num_threads
             : 0;
}

#endif /* AOT_RUNTIME_OFFLOAD_AOT_OFFLOAD_ATTRIBUTES_H */
