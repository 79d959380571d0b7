/*===- aot_raw_runner.c - Call a compiled entry point on raw files -*- C -*-===*
 *
 * A C99 driver for objects compiled for another CPU and run under an
 * emulator (tests/cross/run_cross.py): it learns the entry point's tensors
 * from ENTRY_info(), reads input i from DIR/input_i.bin (raw, row-major),
 * calls ENTRY with a pool of the size and alignment the info asks for and
 * 2 threads, and writes output i to DIR/output_i.bin. Built with
 * -DAOT_ENTRY=<entry name>.
 *
 * Exit status: 0 on success, 1 on any error (the status text on stderr).
 *
 *===----------------------------------------------------------------------===*/
#define _ISOC11_SOURCE
#include "aot_abi/aot_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef AOT_ENTRY
#error "build with -DAOT_ENTRY=<entry point>"
#endif
#define AOT_CAT2(a, b) a##b
#define AOT_CAT(a, b) AOT_CAT2(a, b)

/* The entry point's parameters depend on its tensors (their element types
 * are in NAME.h, not included here): it is called through a pointer of
 * the same shape with untyped tensor pointers, passed alike on the
 * supported ABIs (x86-64, AArch64). */
typedef void *p;
const aot_model_info_t *AOT_CAT(AOT_ENTRY, _info)(void);
aot_status_t AOT_ENTRY(void);
#define CALL(...)                                                              \
  ((aot_status_t(*)(__VA_ARGS__, void *, size_t, aot_stream_t))(void (*)(     \
      void))AOT_ENTRY)

enum { MAX_TENSORS = 8 }; /* inputs + outputs: at most 16 */

static size_t elementBytes(int32_t dtype) {
  switch (dtype) {
  case AOT_DTYPE_F64: case AOT_DTYPE_I64: return 8;
  case AOT_DTYPE_F32: case AOT_DTYPE_I32: return 4;
  case AOT_DTYPE_F16: case AOT_DTYPE_BF16: case AOT_DTYPE_I16: return 2;
  default: return 1;
  }
}

static size_t tensorBytes(const aot_tensor_info_t *t) {
  size_t bytes = elementBytes(t->dtype);
  int32_t d;
  for (d = 0; d < t->rank; ++d)
    bytes *= (size_t)t->shape[d];
  return bytes;
}

static int transfer(const char *dir, const char *kind, int index, void *data,
                    size_t bytes, int reading) {
  char path[4096];
  FILE *f;
  size_t done;
  snprintf(path, sizeof path, "%s/%s_%d.bin", dir, kind, index);
  f = fopen(path, reading ? "rb" : "wb");
  if (!f) {
    fprintf(stderr, "error: cannot open '%s'\n", path);
    return 1;
  }
  done = reading ? fread(data, 1, bytes, f) : fwrite(data, 1, bytes, f);
  fclose(f);
  if (done != bytes) {
    fprintf(stderr, "error: '%s': %zu of %zu bytes\n", path, done, bytes);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const aot_model_info_t *info = AOT_CAT(AOT_ENTRY, _info)();
  p args[2 * MAX_TENSORS];
  /* (the call below casts the entry point to its shape) */
  int count = info->num_inputs + info->num_outputs, i;
  size_t alignment = info->pool_alignment > 64 ? info->pool_alignment : 64;
  size_t poolBytes = (size_t)info->pool_bytes;
  void *pool = aligned_alloc(alignment, (poolBytes + alignment - 1) /
                                            alignment * alignment + alignment);
  aot_cpu_stream_t stream = {sizeof(aot_cpu_stream_t), 2};
  aot_status_t status;
  if (argc != 2 || count > 2 * MAX_TENSORS || !pool) {
    fprintf(stderr, "usage: %s DIR (at most %d tensors)\n", argv[0],
            2 * MAX_TENSORS);
    return 1;
  }
  for (i = 0; i < count; ++i) {
    const aot_tensor_info_t *t = i < info->num_inputs
                                     ? &info->inputs[i]
                                     : &info->outputs[i - info->num_inputs];
    size_t bytes = tensorBytes(t);
    args[i] = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    if (!args[i])
      return 1;
    if (i < info->num_inputs &&
        transfer(argv[1], "input", i, args[i], bytes, 1))
      return 1;
  }
#define A(k) args[k]
#define TAIL pool, poolBytes, &stream
  switch (count) {
  case 2:
    status = CALL(p, p)(
        A(0), A(1), TAIL);
    break;
  case 3:
    status = CALL(p, p, p)(
        A(0), A(1), A(2), TAIL);
    break;
  case 4:
    status = CALL(p, p, p, p)(
        A(0), A(1), A(2), A(3), TAIL);
    break;
  case 5:
    status = CALL(p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), TAIL);
    break;
  case 6:
    status = CALL(p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), TAIL);
    break;
  case 7:
    status = CALL(p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), TAIL);
    break;
  case 8:
    status = CALL(p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), TAIL);
    break;
  case 9:
    status = CALL(p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), TAIL);
    break;
  case 10:
    status = CALL(p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), TAIL);
    break;
  case 11:
    status = CALL(p, p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), TAIL);
    break;
  case 12:
    status = CALL(p, p, p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), TAIL);
    break;
  case 13:
    status = CALL(p, p, p, p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), TAIL);
    break;
  case 14:
    status = CALL(p, p, p, p, p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), TAIL);
    break;
  case 15:
    status = CALL(p, p, p, p, p, p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14), TAIL);
    break;
  case 16:
    status = CALL(p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p)(
        A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14), A(15), TAIL);
    break;
  default:
    fprintf(stderr, "error: %d tensors: the runner calls 2 to 16\n", count);
    return 1;
  }
#undef TAIL
#undef A
  if (status != AOT_OK) {
    fprintf(stderr, "error: %s\n", aot_status_string(status));
    return 1;
  }
  for (i = info->num_inputs; i < count; ++i)
    if (transfer(argv[1], "output", i - info->num_inputs, args[i],
                 tensorBytes(&info->outputs[i - info->num_inputs]), 0))
      return 1;
  return 0;
}
