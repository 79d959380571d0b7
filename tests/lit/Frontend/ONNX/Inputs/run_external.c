/* Calls the model of external-data.test (y = x + W, W = [[1,2,3],[4,5,6]]
 * read from weights.bin at compile time) and prints y. */
#define _ISOC11_SOURCE
#include "ext.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const float x[6] = {10, 20, 30, 40, 50, 60};
  float y[6] = {0};
  void *pool = NULL;
  aot_status_t status;
  int i;
  if (EXT_POOL_BYTES > 0)
    pool = aligned_alloc(EXT_POOL_ALIGNMENT,
                         (EXT_POOL_BYTES + EXT_POOL_ALIGNMENT - 1) /
                             EXT_POOL_ALIGNMENT * EXT_POOL_ALIGNMENT);
  status = ext(x, y, pool, EXT_POOL_BYTES, NULL);
  printf("status %d\n", (int)status);
  for (i = 0; i < 6; ++i)
    printf("%g\n", y[i]);
  free(pool);
  return status != AOT_OK;
}
