/*===- aot_runtime_cpu.h - CPU runtime called by generated code --*- C -*-===*
 *
 * The functions of aot_runtime that aotc-generated CPU objects call besides
 * aot_status_string(). Plain C99; functions are only ever added.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_RUNTIME_CPU_H
#define AOT_ABI_AOT_RUNTIME_CPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The SVE vector length of the calling CPU in bits, 0 when it has no SVE
 *  (or is not an AArch64 Linux CPU). Called by the entry points of objects
 *  compiled with aotc --sve-vector-bits. */
int32_t aot_cpu_sve_vector_bits(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_RUNTIME_CPU_H */
