/* Compiles against the header generated for Inputs/two-entry-points.mlir. */
#include "pair.h"

aot_status_t call_both(const float *in, float *out, const int32_t *a,
                       const int32_t *b, uint8_t *mask) {
  aot_cpu_stream_t stream = {sizeof(aot_cpu_stream_t), 2};
  aot_status_t s = scale(in, out, 0, SCALE_POOL_BYTES, &stream);
  if (s != AOT_OK)
    return s;
  return compare(a, b, mask, 0, COMPARE_POOL_BYTES, &stream) +
         (aot_status_t)(scale_info()->num_inputs + compare_info()->num_inputs);
}
