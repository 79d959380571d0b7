/* Compiles against the header generated for Inputs/model.mlir (--name=net):
   the prototype takes const inputs, then outputs, pool, size and stream. */
#include "net.h"

aot_status_t call_net(const float *x, const float *w, const float *b, float *y,
                      int32_t *sums, void *pool) {
  aot_status_t (*entry)(const float *, const float *, const float *, float *,
                        int32_t *, void *, size_t, aot_stream_t) = net;
  const aot_model_info_t *info = net_info();
  (void)info;
  return entry(x, w, b, y, sums, pool, NET_POOL_BYTES, (aot_stream_t)0);
}

typedef char pool_alignment_is_64[NET_POOL_ALIGNMENT == 64u ? 1 : -1];
