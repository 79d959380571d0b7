/*===- abi_c99_check.c - aot_abi.h compiles as strict C99 ---------*- C -*-===*
 *
 * This file checks that the public ABI header is clean, dependency-free C99:
 * it is compiled with -std=c99 -pedantic -Werror -Wall -Wextra, and the
 * resulting tiny program exercises every declaration once so that a typo in
 * a name or type fails the build rather than a user's.
 *
 *===----------------------------------------------------------------------===*/

#include "aot_abi/aot_abi.h"
/* Included twice on purpose: the include guard must hold. */
#include "aot_abi/aot_abi.h"

/* C99 has no static_assert; a negative array size fails the compile. */
#define ABI_CHECK(name, cond) typedef char abi_check_##name[(cond) ? 1 : -1]

ABI_CHECK(version, AOT_ABI_VERSION == 1);
ABI_CHECK(status_is_32_bit, sizeof(aot_status_t) == 4);
ABI_CHECK(stream_is_pointer, sizeof(aot_stream_t) == sizeof(void *));
ABI_CHECK(version_first, offsetof(aot_model_info_t, abi_version) == 0);
ABI_CHECK(struct_size_first, offsetof(aot_cpu_stream_t, struct_size) == 0);

static const int64_t kShape[2] = {2, 3};
static const aot_tensor_info_t kInputs[1] = {{"x", AOT_DTYPE_F32, 2, kShape}};
static const aot_tensor_info_t kOutputs[1] = {
    {"y", AOT_DTYPE_BOOL, 2, kShape}};

int main(void) {
  aot_model_info_t info;
  aot_cpu_stream_t cpu;
  aot_stream_t stream;
  const char *s;
  int codes[7];
  int i, failures = 0;

  codes[0] = AOT_OK;
  codes[1] = AOT_ERROR_INVALID_ARGUMENT;
  codes[2] = AOT_ERROR_POOL_TOO_SMALL;
  codes[3] = AOT_ERROR_SHAPE;
  codes[4] = AOT_ERROR_NO_DEVICE;
  codes[5] = AOT_ERROR_DEVICE;
  codes[6] = AOT_ERROR_INTERNAL;

  info.abi_version = AOT_ABI_VERSION;
  info.name = "check";
  info.target = "cpu";
  info.num_inputs = 1;
  info.num_outputs = 1;
  info.inputs = kInputs;
  info.outputs = kOutputs;
  info.pool_bytes = 0u;
  info.pool_alignment = 64u;

  cpu.struct_size = (uint32_t)sizeof(aot_cpu_stream_t);
  cpu.num_threads = 2;
  stream = &cpu;
  (void)stream;

  for (i = 0; i < 7; ++i) {
    s = aot_status_string((aot_status_t)codes[i]);
    if (s == NULL || s[0] == '\0')
      ++failures;
  }
  s = aot_status_string((aot_status_t)-1);
  if (s == NULL)
    ++failures;
  if (info.inputs[0].shape[1] != 3 || info.outputs[0].dtype != AOT_DTYPE_BOOL)
    ++failures;
  return failures == 0 ? 0 : 1;
}
