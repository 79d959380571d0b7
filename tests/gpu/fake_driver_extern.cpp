//===- fake_driver_extern.cpp - Extern kernels on a fake driver -*- C++ -*-===//
//
// Runs the host side of extern_calls.mlir compiled for a GPU target against
// the fake CUDA driver or HIP runtime (fake_driver.h; fake_cuda.cpp or
// fake_hip.cpp is linked in), with the two extern kernels it calls defined
// here. No kernel of aotc's runs (the fake executes none), so the kernels
// check what they are given rather than compute:
//   - both are called once per call, in program order, on the caller's
//     stream, after the launch that computes their input and before the
//     launch that reads their output; host tensors: after the input copy,
//     before the output copies and the one synchronisation;
//   - every tensor, dtype, rank, shape, the attributes' JSON and the
//     scratch (128 bytes, 64-aligned) are the contract's; every buffer is
//     device memory: inside the pool (the constant weights too: copied
//     there first, not host data), or with device tensors the caller's
//     output pointer itself; scale_kernel's output is bias_kernel's input;
//   - what bias_kernel writes into its output (result0) is what the caller
//     gets back (host tensors: through the output copy);
//   - a failing scale_kernel: the entry point returns its status, nothing
//     after it runs (no bias_kernel, no launch, no output copy) and the
//     caller's outputs are untouched.
//
// Usage: fake_driver_extern
//
//===----------------------------------------------------------------------===//

#include "ext.h"
#include "fake_driver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef AOT_FAKE_DEVICE_TENSORS
#define AOT_FAKE_DEVICE_TENSORS 0
#endif

namespace {

constexpr bool kDeviceTensors = AOT_FAKE_DEVICE_TENSORS != 0;

int gFailures = 0;
void expect(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++gFailures;
  }
}

/// The caller's buffers, which the kernels compare their pointers with.
struct Call {
  const unsigned char *pool = nullptr;
  size_t poolBytes = 0;
  float *result0 = nullptr;
  const void *scaleOutput = nullptr; // what scale_kernel was given
  bool failScale = false;
} gCall;

bool inPool(const void *p, size_t bytes) {
  auto *q = static_cast<const unsigned char *>(p);
  return q >= gCall.pool && q + bytes <= gCall.pool + gCall.poolBytes;
}

bool isTensor(const aot_extern_tensor_t &t, std::vector<int64_t> shape) {
  if (t.dtype != AOT_DTYPE_F32 || t.rank != static_cast<int32_t>(shape.size()))
    return false;
  for (size_t d = 0; d < shape.size(); ++d)
    if (t.shape[d] != shape[d])
      return false;
  return reinterpret_cast<uintptr_t>(t.data) % 64 == 0;
}

} // namespace

extern "C" aot_status_t
scale_kernel(const aot_extern_tensor_t *inputs, int32_t num_inputs,
             const aot_extern_tensor_t *outputs, int32_t num_outputs,
             const char *attributes, void *scratch, size_t scratch_bytes,
             aot_stream_t stream) {
  fake::onStream(stream, "extern scale_kernel");
  expect(num_inputs == 1 && num_outputs == 1,
         "scale_kernel: one input, one output");
  expect(isTensor(inputs[0], {8, 16}) && isTensor(outputs[0], {8, 16}),
         "scale_kernel: f32[8,16] tensors, 64-aligned");
  expect(inPool(inputs[0].data, 512) && inPool(outputs[0].data, 512),
         "scale_kernel: its tensors are device buffers of the pool");
  expect(inputs[0].data != outputs[0].data,
         "scale_kernel: its output is a buffer of its own");
  expect(std::strcmp(attributes, "{\"factor\": 3}") == 0,
         "scale_kernel: its attributes");
  expect(scratch && scratch_bytes == 128 && inPool(scratch, 128) &&
             reinterpret_cast<uintptr_t>(scratch) % 64 == 0,
         "scale_kernel: 128 bytes of 64-aligned scratch in the pool");
  gCall.scaleOutput = outputs[0].data;
  return gCall.failScale ? AOT_ERROR_DEVICE : AOT_OK;
}

extern "C" aot_status_t bias_kernel(const aot_extern_tensor_t *inputs,
                                    int32_t num_inputs,
                                    const aot_extern_tensor_t *outputs,
                                    int32_t num_outputs, const char *attributes,
                                    void *scratch, size_t scratch_bytes,
                                    aot_stream_t stream) {
  fake::onStream(stream, "extern bias_kernel");
  expect(num_inputs == 2 && num_outputs == 1,
         "bias_kernel: two inputs, one output");
  expect(isTensor(inputs[0], {16}) && isTensor(inputs[1], {8, 16}) &&
             isTensor(outputs[0], {8, 16}),
         "bias_kernel: f32[16], f32[8,16] -> f32[8,16], 64-aligned");
  expect(inPool(inputs[0].data, 64),
         "bias_kernel: the constant weights are a device copy in the pool");
  expect(inputs[1].data == gCall.scaleOutput,
         "bias_kernel: its input is scale_kernel's output");
  if (kDeviceTensors)
    expect(outputs[0].data == gCall.result0,
           "bias_kernel: with device tensors, it writes the caller's "
           "result0");
  else
    expect(inPool(outputs[0].data, 512),
           "bias_kernel: with host tensors, it writes result0's pool slot");
  expect(std::strcmp(attributes, "{}") == 0 && !scratch && scratch_bytes == 0,
         "bias_kernel: no attributes, no scratch");
  auto *out = static_cast<float *>(outputs[0].data);
  for (int i = 0; i < 8 * 16; ++i)
    out[i] = 100.0f + static_cast<float>(i);
  return AOT_OK;
}

namespace {

/// The events of one call other than launches, and whether a launch comes
/// before the first extern kernel and after the last.
struct Summary {
  std::vector<std::string> others;
  bool launchBefore = false, launchAfter = false;
};

Summary summarize(const std::vector<std::string> &events) {
  Summary s;
  bool externSeen = false;
  for (const std::string &event : events) {
    if (event != "launch") {
      s.others.push_back(event);
      externSeen |= event.rfind("extern ", 0) == 0;
      continue;
    }
    if (!externSeen)
      s.launchBefore = true;
  }
  // A launch after the last extern kernel.
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (it->rfind("extern ", 0) == 0)
      break;
    s.launchAfter |= *it == "launch";
  }
  return s;
}

} // namespace

int main() {
  fake::install();
  fake::Record &record = fake::record();
  const aot_model_info_t *info = ext_info();
  std::vector<float> x(8 * 16, 1.0f), y0(8 * 16, 0.0f), y1(8 * 16, 0.0f);
  size_t alignment = info->pool_alignment;
  void *pool = std::aligned_alloc(
      alignment, (info->pool_bytes + alignment - 1) / alignment * alignment);
  gCall.pool = static_cast<const unsigned char *>(pool);
  gCall.poolBytes = info->pool_bytes;
  gCall.result0 = y0.data();
  aot_stream_t stream = fake::callerStream();

  // A call that succeeds.
  expect(ext(x.data(), y0.data(), y1.data(), pool, info->pool_bytes, stream) ==
             AOT_OK,
         "the call returns AOT_OK");
  Summary ok = summarize(record.events);
  size_t events = record.events.size();
  std::vector<std::string> expected =
      kDeviceTensors ? std::vector<std::string>{"extern scale_kernel",
                                                "extern bias_kernel"}
                     : std::vector<std::string>{"htod",
                                                "extern scale_kernel",
                                                "extern bias_kernel",
                                                "dtoh",
                                                "dtoh",
                                                "sync"};
  expect(ok.others == expected,
         kDeviceTensors
             ? "the call runs both kernels in order and copies nothing"
             : "the call copies in, runs both kernels in order, copies out, "
               "synchronises once");
  expect(ok.launchBefore && ok.launchAfter,
         "aotc's kernels run before and after the extern kernels");
  expect(!record.foreignStream, "all work is on the caller's stream");
  bool written = true;
  for (int i = 0; i < 8 * 16; ++i)
    written &= y0[i] == 100.0f + static_cast<float>(i);
  expect(written, "result0 is what bias_kernel wrote");

  // A failing scale_kernel.
  record.events.clear();
  std::fill(y0.begin(), y0.end(), -1.0f);
  std::fill(y1.begin(), y1.end(), -1.0f);
  gCall.failScale = true;
  expect(ext(x.data(), y0.data(), y1.data(), pool, info->pool_bytes, stream) ==
             AOT_ERROR_DEVICE,
         "a failing kernel's status is the entry point's");
  Summary failed = summarize(record.events);
  expect(!failed.others.empty() &&
             failed.others.back() == "extern scale_kernel" &&
             !failed.launchAfter,
         "nothing runs after the failing kernel");
  bool untouched = true;
  for (int i = 0; i < 8 * 16; ++i)
    untouched &= y0[i] == -1.0f && y1[i] == -1.0f;
  expect(untouched, "the outputs are untouched after the failure");

  std::printf("fake driver (%s, %s tensors): %zu events per call, extern "
              "kernels on the caller's stream with device buffers; a failing "
              "kernel stops the call\n",
              info->target, kDeviceTensors ? "device" : "host", events);
  std::free(pool);
  fake::uninstall();
  return gFailures ? 1 : 0;
}
