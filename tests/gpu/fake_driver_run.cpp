//===- fake_driver_run.cpp - A CUDA entry point on a fake driver -*- C++ -*-===//
//
// Runs the host side of an aotc-compiled CUDA object (the e2e program mlp,
// weights hoisted to host data) against an in-process fake of the CUDA
// driver (the runtime's test seam), so that the generated code, the runtime
// and their protocol are exercised together without a GPU. The fake keeps
// "device" memory in host memory and executes no kernel; it records what the
// generated code asks of it. Checked here, over two calls of the entry point
// on one stream:
//   - both calls return AOT_OK; the module is loaded once, in one context;
//   - the first call fills the module's hoisted globals (each through
//     cuModuleGetGlobal and one cuMemcpyHtoD), the second fills nothing;
//   - every launch and every async copy is on the caller's stream; host
//     tensors: the input is copied in before the first launch, the output
//     out after the last, and the stream is synchronised once per call;
//   - nothing else: no module unload, no failure text.
// The bytes of every filled global are written to OUT_DIR/<name>.bin for
// check_fake_driver_run.py, which compares them with the program's weights
// as its NumPy generator makes them.
//
// Usage: fake_driver_run OUT_DIR
//
//===----------------------------------------------------------------------===//

#include "cuda/aot_cuda_driver.h"
#include "mlp.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

/// What the generated code and the runtime did to the fake driver.
struct Record {
  int loads = 0, unloads = 0, syncs = 0;
  std::map<std::string, std::vector<uint8_t>> globals; // device memory
  std::map<std::string, size_t> filled;                // name -> bytes
  std::vector<std::string> events; // "htod", "launch", "dtoh", "sync"
  bool foreignStream = false;
};

Record gRecord;
aot_cu_stream_t gStream = reinterpret_cast<aot_cu_stream_t>(0x5eed);
constexpr size_t kGlobalBytes = 1 << 20;
int gModule, gFunction, gContext;

aot_cu_result_t ok() { return AOT_CUDA_SUCCESS; }
void onStream(aot_cu_stream_t stream) {
  if (stream != gStream)
    gRecord.foreignStream = true;
}

aot_cu_result_t init(unsigned) { return ok(); }
aot_cu_result_t deviceGetCount(int *count) {
  *count = 1;
  return ok();
}
aot_cu_result_t deviceGet(aot_cu_device_t *device, int) {
  *device = 0;
  return ok();
}
aot_cu_result_t primaryCtxRetain(aot_cu_context_t *context, aot_cu_device_t) {
  *context = &gContext;
  return ok();
}
aot_cu_result_t ctxGetCurrent(aot_cu_context_t *context) {
  *context = &gContext;
  return ok();
}
aot_cu_result_t ctxSetCurrent(aot_cu_context_t) { return ok(); }
aot_cu_result_t moduleLoadData(aot_cu_module_t *module, const void *) {
  ++gRecord.loads;
  *module = &gModule;
  return ok();
}
aot_cu_result_t moduleGetFunction(aot_cu_function_t *function,
                                  aot_cu_module_t, const char *) {
  *function = &gFunction;
  return ok();
}
aot_cu_result_t moduleGetGlobal(aot_cu_deviceptr_t *global, size_t *bytes,
                                aot_cu_module_t, const char *name) {
  std::vector<uint8_t> &memory = gRecord.globals[name];
  memory.resize(kGlobalBytes);
  *global = reinterpret_cast<aot_cu_deviceptr_t>(memory.data());
  *bytes = memory.size();
  return ok();
}
aot_cu_result_t memcpyHtoD(aot_cu_deviceptr_t dst, const void *src,
                           size_t bytes) {
  for (auto &[name, memory] : gRecord.globals)
    if (reinterpret_cast<aot_cu_deviceptr_t>(memory.data()) == dst) {
      std::memcpy(memory.data(), src, bytes);
      gRecord.filled[name] = bytes;
      return ok();
    }
  return AOT_CUDA_ERROR_INVALID_VALUE; // not a global's address
}
aot_cu_result_t moduleUnload(aot_cu_module_t) {
  ++gRecord.unloads;
  return ok();
}
aot_cu_result_t launchKernel(aot_cu_function_t, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned,
                             aot_cu_stream_t stream, void **, void **) {
  onStream(stream);
  gRecord.events.push_back("launch");
  return ok();
}
aot_cu_result_t memcpyHtoDAsync(aot_cu_deviceptr_t dst, const void *src,
                                size_t bytes, aot_cu_stream_t stream) {
  onStream(stream);
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  gRecord.events.push_back("htod");
  return ok();
}
aot_cu_result_t memcpyDtoHAsync(void *dst, aot_cu_deviceptr_t src,
                                size_t bytes, aot_cu_stream_t stream) {
  onStream(stream);
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  gRecord.events.push_back("dtoh");
  return ok();
}
aot_cu_result_t streamSynchronize(aot_cu_stream_t stream) {
  onStream(stream);
  ++gRecord.syncs;
  gRecord.events.push_back("sync");
  return ok();
}
aot_cu_result_t errorName(aot_cu_result_t, const char **name) {
  *name = "FAKE_ERROR";
  return ok();
}
aot_cu_result_t errorString(aot_cu_result_t, const char **text) {
  *text = "fake driver";
  return ok();
}

int gFailures = 0;
void expect(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++gFailures;
  }
}

/// The events of one host-tensor call: input copies, launches, output
/// copies, one synchronisation, in that order.
void expectCallShape(const std::vector<std::string> &events) {
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

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fake_driver_run OUT_DIR\n");
    return 2;
  }
  aot_cuda_driver_t table = {};
  table.init = init;
  table.device_get_count = deviceGetCount;
  table.device_get = deviceGet;
  table.device_primary_ctx_retain = primaryCtxRetain;
  table.ctx_get_current = ctxGetCurrent;
  table.ctx_set_current = ctxSetCurrent;
  table.module_load_data = moduleLoadData;
  table.module_get_function = moduleGetFunction;
  table.module_get_global = moduleGetGlobal;
  table.memcpy_htod = memcpyHtoD;
  table.module_unload = moduleUnload;
  table.launch_kernel = launchKernel;
  table.memcpy_htod_async = memcpyHtoDAsync;
  table.memcpy_dtoh_async = memcpyDtoHAsync;
  table.stream_synchronize = streamSynchronize;
  table.get_error_name = errorName;
  table.get_error_string = errorString;
  aot_cuda_set_driver_for_testing(&table);

  const aot_model_info_t *info = mlp_info();
  size_t in = 1, out = 1;
  for (int i = 0; i < info->inputs[0].rank; ++i)
    in *= static_cast<size_t>(info->inputs[0].shape[i]);
  for (int i = 0; i < info->outputs[0].rank; ++i)
    out *= static_cast<size_t>(info->outputs[0].shape[i]);
  std::vector<float> x(in, 1.0f), y(out, 0.0f);
  // The "device" pool is host memory here (the fake copies with memcpy).
  void *pool = std::aligned_alloc(MLP_POOL_ALIGNMENT,
                                  (MLP_POOL_BYTES + MLP_POOL_ALIGNMENT - 1) /
                                      MLP_POOL_ALIGNMENT * MLP_POOL_ALIGNMENT);

  expect(mlp(x.data(), y.data(), pool, MLP_POOL_BYTES, gStream) == AOT_OK,
         "first call returns AOT_OK");
  std::vector<std::string> first = gRecord.events;
  std::map<std::string, size_t> filled = gRecord.filled;
  gRecord.events.clear();
  gRecord.filled.clear();
  expect(mlp(x.data(), y.data(), pool, MLP_POOL_BYTES, gStream) == AOT_OK,
         "second call returns AOT_OK");

  expect(gRecord.loads == 1, "the module is loaded once");
  expect(gRecord.unloads == 0, "no module is unloaded");
  expect(!filled.empty(), "the first call fills the hoisted globals");
  expect(gRecord.filled.empty(), "the second call fills nothing");
  expect(!gRecord.foreignStream, "all work is on the caller's stream");
  expect(gRecord.syncs == 2, "one synchronisation per call");
  expectCallShape(first);
  expectCallShape(gRecord.events);
  expect(first == gRecord.events, "both calls issue the same work");
  expect(aot_cuda_last_error()[0] == '\0', "no failure was recorded");

  for (const auto &[name, bytes] : filled) {
    std::string path = std::string(argv[1]) + "/" + name + ".bin";
    FILE *file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(gRecord.globals[name].data(), 1, bytes, file) !=
                     bytes) {
      std::fprintf(stderr, "FAIL: cannot write %s\n", path.c_str());
      return 1;
    }
    std::fclose(file);
  }
  size_t launches = 0;
  for (const std::string &e : first)
    launches += e == "launch";
  std::printf("fake driver: 1 module load, %zu globals filled, %zu launches "
              "per call on the caller's stream, 1 sync per call\n",
              filled.size(), launches);
  std::free(pool);
  aot_cuda_set_driver_for_testing(nullptr);
  return gFailures ? 1 : 0;
}
