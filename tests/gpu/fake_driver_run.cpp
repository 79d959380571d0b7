//===- fake_driver_run.cpp - A GPU entry point on a fake driver -*- C++ -*-===//
//
// Runs the host side of an aotc-compiled GPU object (the e2e program mlp,
// weights hoisted to host data) against an in-process fake of the CUDA
// driver or of the HIP runtime (the runtime's test seam; fake_cuda.cpp or
// fake_hip.cpp is linked in), so that the generated code, the runtime and
// their protocol are exercised together without a GPU. The fake keeps
// "device" memory in host memory and executes no kernel; it records what the
// generated code asks of it (fake_driver.h). Checked here, over two calls of
// the entry point on one stream:
//   - both calls return AOT_OK; the module is loaded once, from an image
//     with the target's magic (fatbin, clang offload bundle);
//   - the first call fills the module's hoisted globals (each through
//     cuModuleGetGlobal / hipModuleGetGlobal and one synchronous
//     cuMemcpyHtoD / hipMemcpyHtoD, before any launch), the second fills
//     nothing; the fake accepts synchronous copies only into globals;
//   - every launch and every async copy is on the caller's stream;
//   - host tensors: the input is copied in before the first launch, the
//     output out after the last, and the stream is synchronised once per
//     call;
//   - device tensors (built with AOT_FAKE_DEVICE_TENSORS=1, the object with
//     --on-device-tensors): each call is kernel launches and nothing else,
//     no copy of an input or output either way and no synchronisation (the
//     weights' one-time upload at module load is the only copy);
//   - both calls issue the same work; no module unload, no failure text.
// The bytes of every filled global are written to OUT_DIR/<name>.bin for
// check_fake_driver_run.py, which compares them with the program's weights
// as its NumPy generator makes them.
//
// Usage: fake_driver_run OUT_DIR
//
//===----------------------------------------------------------------------===//

#include "fake_driver.h"
#include "mlp.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef AOT_FAKE_DEVICE_TENSORS
#define AOT_FAKE_DEVICE_TENSORS 0
#endif

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

namespace {

int gFailures = 0;
void expect(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++gFailures;
  }
}

/// The events of one host-tensor call: input copies, launches, output
/// copies, one synchronisation, in that order.
void expectHostTensorCall(const std::vector<std::string> &events) {
  size_t i = 0;
  while (i < events.size() && events[i] == "htod")
    ++i;
  expect(i >= 1, "the call copies its input in first");
  size_t launches = i;
  while (i < events.size() && events[i] == "launch")
    ++i;
  expect(i > launches, "the call launches kernels after the input copy");
  size_t copies = i;
  while (i < events.size() && events[i] == "dtoh")
    ++i;
  expect(i > copies, "the call copies its output out after the launches");
  expect(i + 1 == events.size() && events[i] == "sync",
         "the call ends with one synchronisation of the stream");
}

/// The events of one device-tensor call: launches only.
void expectDeviceTensorCall(const std::vector<std::string> &events) {
  expect(!events.empty(), "the call launches kernels");
  for (const std::string &event : events)
    if (event != "launch") {
      std::fprintf(stderr, "FAIL: a device-tensor call issues '%s'\n",
                   event.c_str());
      ++gFailures;
    }
}

/// Writes the bytes of every filled global to DIR/<name>.bin.
bool writeGlobals(const char *dir,
                  const std::map<std::string, size_t> &filled) {
  for (const auto &[name, bytes] : filled) {
    std::string path = std::string(dir) + "/" + name + ".bin";
    FILE *file = std::fopen(path.c_str(), "wb");
    bool written =
        file && std::fwrite(fake::record().globals[name].data(), 1, bytes,
                            file) == bytes;
    if (file)
      std::fclose(file);
    if (!written) {
      std::fprintf(stderr, "FAIL: cannot write %s\n", path.c_str());
      return false;
    }
  }
  return true;
}

/// The number of elements of a tensor of the model.
size_t elements(const aot_tensor_info_t &tensor) {
  size_t count = 1;
  for (int i = 0; i < tensor.rank; ++i)
    count *= static_cast<size_t>(tensor.shape[i]);
  return count;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fake_driver_run OUT_DIR\n");
    return 2;
  }
  constexpr bool deviceTensors = AOT_FAKE_DEVICE_TENSORS != 0;
  fake::install();
  fake::Record &record = fake::record();

  const aot_model_info_t *info = mlp_info();
  // Host memory stands for the device's: the fake copies with memcpy and
  // never reads the tensors of a device-tensor call.
  std::vector<float> x(elements(info->inputs[0]), 1.0f);
  std::vector<float> y(elements(info->outputs[0]), 0.0f);
  size_t alignment = info->pool_alignment;
  void *pool = std::aligned_alloc(
      alignment, (info->pool_bytes + alignment - 1) / alignment * alignment);
  aot_stream_t stream = fake::callerStream();

  expect(mlp(x.data(), y.data(), pool, info->pool_bytes, stream) == AOT_OK,
         "first call returns AOT_OK");
  std::vector<std::string> first = record.events;
  std::map<std::string, size_t> filled = record.filled;
  int firstSyncs = record.syncs;
  record.events.clear();
  record.filled.clear();
  expect(mlp(x.data(), y.data(), pool, info->pool_bytes, stream) == AOT_OK,
         "second call returns AOT_OK");

  expect(record.loads == 1, "the module is loaded once");
  expect(!record.foreignImage, "the module image has the target's magic");
  expect(record.unloads == 0, "no module is unloaded");
  expect(!filled.empty(), "the first call fills the hoisted globals");
  expect(!record.filledAfterLaunch, "the globals are filled before launches");
  expect(record.filled.empty(), "the second call fills nothing");
  expect(!record.foreignStream, "all work is on the caller's stream");
  if (deviceTensors) {
    expect(record.syncs == 0, "no synchronisation with device tensors");
    expectDeviceTensorCall(first);
    expectDeviceTensorCall(record.events);
  } else {
    expect(firstSyncs == 1 && record.syncs == 2,
           "one synchronisation per call");
    expectHostTensorCall(first);
    expectHostTensorCall(record.events);
  }
  expect(first == record.events, "both calls issue the same work");
  expect(fake::lastError()[0] == '\0', "no failure was recorded");
  if (!writeGlobals(argv[1], filled))
    return 1;

  size_t launches = 0;
  for (const std::string &event : first)
    launches += event == "launch";
  std::printf("fake driver (%s, %s tensors): 1 module load, %zu globals "
              "filled, %zu launches per call on the caller's stream, %s\n",
              info->target, deviceTensors ? "device" : "host", filled.size(),
              launches,
              deviceTensors ? "no copies, no sync" : "1 sync per call");
  std::free(pool);
  fake::uninstall();
  return gFailures ? 1 : 0;
}
