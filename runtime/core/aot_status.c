/*===- aot_status.c - Names of the aot_status_t codes ------------*- C -*-===*
 *
 * This file implements aot_status_string(), the one function of the ABI that
 * lives in the runtime rather than in a compiled object. Every string is a
 * static literal: callers never free it, and it stays valid for the life of
 * the process. Unknown codes (including negative ones, and codes from a newer
 * ABI) map to one fixed string, so the function never returns NULL.
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_abi.h"

const char *aot_status_string(aot_status_t status) {
  /* A switch rather than a table indexed by the code: no bounds arithmetic
   * on an untrusted value, and -Wswitch-style review when codes are added. */
  switch (status) {
  case AOT_OK:
    return "AOT_OK: success";
  case AOT_ERROR_INVALID_ARGUMENT:
    return "AOT_ERROR_INVALID_ARGUMENT: a NULL or misaligned pointer, or an "
           "invalid stream";
  case AOT_ERROR_POOL_TOO_SMALL:
    return "AOT_ERROR_POOL_TOO_SMALL: pool_bytes is below the size stated in "
           "the generated header";
  case AOT_ERROR_SHAPE:
    return "AOT_ERROR_SHAPE: a tensor dimension breaks a shape guard";
  case AOT_ERROR_NO_DEVICE:
    return "AOT_ERROR_NO_DEVICE: no GPU driver or device is available, or "
           "the CPU lacks the SVE vector length the code was compiled for";
  case AOT_ERROR_DEVICE:
    return "AOT_ERROR_DEVICE: the GPU driver or runtime reported a failure";
  case AOT_ERROR_INTERNAL:
    return "AOT_ERROR_INTERNAL: internal error in the compiled code or runtime";
  default:
    return "unknown aot_status_t";
  }
}
