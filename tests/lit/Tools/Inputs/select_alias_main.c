/* Runs Inputs/select_alias.mlir and compares with a scalar reference. */
#include "select_alias.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static float a[4096], b[4096], out[4096];
  for (int i = 0; i < 4096; ++i) {
    a[i] = 0.01f * (float)(i % 7);
    b[i] = 1.0f + 0.01f * (float)(i % 5);
  }
  int bad = 0;
  for (int c = 0; c < 2; ++c) {
    uint8_t cond = (uint8_t)c;
    void *pool = aligned_alloc(SELECT_ALIAS_POOL_ALIGNMENT,
                               SELECT_ALIAS_POOL_BYTES + 64);
    aot_status_t status = select_alias(a, b, &cond, out, pool,
                                       SELECT_ALIAS_POOL_BYTES, NULL);
    free(pool);
    if (status != AOT_OK) {
      printf("status %d\n", (int)status);
      return 1;
    }
    for (int i = 0; i < 4096; ++i) {
      int row = i / 64, col = i % 64;
      float dot = 0.0f;
      for (int k = 0; k < 64; ++k)
        dot += a[row * 64 + k] * b[k * 64 + col];
      float want = (c ? expf(a[i]) : logf(b[i])) + dot;
      if (fabsf(out[i] - want) > 1e-4f * fabsf(want) + 1e-5f) {
        if (bad < 3)
          printf("cond=%d i=%d: got %g, want %g\n", c, i, out[i], want);
        ++bad;
      }
    }
  }
  printf("mismatches: %d\n", bad);
  return bad != 0;
}
