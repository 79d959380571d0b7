/*===- aot_cpu.c - What the CPU running an object offers ---------*- C -*-===*
 *
 * aot_cpu_sve_vector_bits(), which the entry points of an object compiled
 * for one SVE vector length (aotc --sve-vector-bits) call before any work:
 * code generated for one length computes wrong results on another, so they
 * return AOT_ERROR_NO_DEVICE unless the CPU's length is the code's.
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_runtime_cpu.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* HWCAP_SVE of the Linux arm64 ABI (asm/hwcap.h). */
#define AOT_HWCAP_SVE (1UL << 22)

/* RDVL needs SVE: called only once the kernel reports it. */
__attribute__((target("sve"))) static int32_t sve_vector_bytes(void) {
  int64_t bytes;
  __asm__ volatile("rdvl %0, #1" : "=r"(bytes));
  return (int32_t)bytes;
}

int32_t aot_cpu_sve_vector_bits(void) {
  if (!(getauxval(AT_HWCAP) & AOT_HWCAP_SVE))
    return 0;
  return sve_vector_bytes() * 8;
}
#else
int32_t aot_cpu_sve_vector_bits(void) { return 0; }
#endif
