//===- GpuRuntimeTest.cpp - GPU runtimes on fake drivers ------*- C++ -*-===//
//
// This file tests aot_runtime_cuda and aot_runtime_hip (aot_runtime_gpu.h)
// without a GPU. Each back end is given a fake driver table through its test
// seam (aot_*_set_driver_for_testing): plain functions that record every call
// and can be told to fail. The tests check
//   - one module load per context (CUDA) / device (HIP) with 8 threads calling
//     get_function 1000 times each at once, and a new load for a new context;
//   - the primary context of device 0 is retained once when no context is
//     current;
//   - get_function_with_globals fills a module's globals (lookup, size check,
//     synchronous copy of the host bytes) once per load, i.e. once per
//     context / device however many threads call, and on a missing or too
//     small global or a failed copy unloads the module, publishes nothing
//     and names the global; a later call retries;
//   - launches and copies reach the driver with the caller's stream, grid,
//     block, shared bytes, arguments and pointers, and nothing synchronises
//     unless asked;
//   - the loader asks the library for exactly the expected symbols (none that
//     allocates memory or creates a stream or context);
//   - every fake driver error maps to the right aot_status_t;
//   - without the fake, on a machine with no driver library, every call
//     returns AOT_ERROR_NO_DEVICE cleanly.
//
//===----------------------------------------------------------------------===//

#include "aot_abi/aot_runtime_gpu.h"
#include "cuda/aot_cuda_driver.h"
#include "hip/aot_hip_driver.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

const unsigned char kImage[] = {0x7f, 'E', 'L', 'F', 0, 0, 0, 0};
constexpr int kThreads = 8;
constexpr int kCallsPerThread = 1000;

/// A recorded kernel launch.
struct Launch {
  void *function;
  unsigned grid[3], block[3], shared;
  void *stream;
  void **params;
  void **extra;
};

/// A recorded asynchronous copy.
struct Copy {
  bool toDevice;
  const void *dst, *src;
  size_t bytes;
  void *stream;
};

/// A module a fake driver loaded, and the context/device it belongs to.
struct FakeModule {
  const void *owner;
  const void *image;
  bool unloaded;
};

/// A recorded synchronous host-to-device copy into a module global
/// (cuMemcpyHtoD / hipMemcpyHtoD), with the global the fake found at `dst`.
struct GlobalCopy {
  const void *owner; // the context/device current during the copy
  void *module;      // the module owning the destination global
  std::string name;  // that global
  const void *dst, *src;
  size_t bytes;
};

/// Host data for two module globals, as a generated object holds weights.
const float kW0[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const unsigned char kW1[6] = {0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6};
const aot_gpu_global_init_t kTwoGlobals[] = {{"w0", kW0, sizeof(kW0)},
                                             {"w1", kW1, sizeof(kW1)}};

/// State shared by both fakes: call counts, records and injected failures.
/// Results are plain ints: set them before the calls under test.
struct FakeDriver {
  std::mutex mutex;
  std::map<std::string, int> calls;
  std::map<const void *, int> loadsPerOwner;
  std::deque<FakeModule> modules;
  std::map<std::pair<const void *, std::string>, std::unique_ptr<char>>
      functions;
  std::vector<Launch> launches;
  std::vector<Copy> copies;
  std::vector<void *> synchronizedStreams;
  std::vector<int> deviceOrdinals;
  std::vector<const void *> contextsMadeCurrent;
  /// The globals every loaded module declares (name -> bytes); a name not
  /// here is not found.
  std::map<std::string, size_t> globalSizes;
  /// Each (module, global)'s device memory, created on lookup (stable
  /// addresses: map nodes never move, the vectors never grow).
  std::map<std::pair<void *, std::string>, std::vector<unsigned char>>
      globalMemory;
  std::vector<GlobalCopy> globalCopies;
  std::vector<void *> unloadedModules;

  int initResult = 0, deviceCount = 1, loadResult = 0, getFunctionResult = 0;
  int launchResult = 0, copyResult = 0, syncResult = 0, getCurrentResult = 0;
  int retainResult = 0, globalCopyResult = 0;

  int count(const std::string &name) {
    std::lock_guard<std::mutex> lock(mutex);
    return calls[name];
  }
  void record(const char *name) {
    std::lock_guard<std::mutex> lock(mutex);
    ++calls[name];
  }
  void *load(const void *owner, const void *image) {
    // Widen the race window: a second load would be caught.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard<std::mutex> lock(mutex);
    ++loadsPerOwner[owner];
    modules.push_back({owner, image, false});
    return &modules.back();
  }
  void unload(void *module) {
    std::lock_guard<std::mutex> lock(mutex);
    static_cast<FakeModule *>(module)->unloaded = true;
    unloadedModules.push_back(module);
  }
  /// The device memory of global `name` in `module` and its size; nullptr if
  /// the module has no such global (or is not loaded).
  unsigned char *global(void *module, const char *name, size_t *bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    auto size = globalSizes.find(name);
    if (size == globalSizes.end() ||
        static_cast<FakeModule *>(module)->unloaded)
      return nullptr;
    auto &memory = globalMemory[{module, name}];
    if (memory.empty())
      memory.assign(std::max<size_t>(size->second, 1), 0xee);
    *bytes = size->second;
    return memory.data();
  }
  /// Copies into the global that holds [dst, dst + bytes) of a module loaded
  /// in `owner`, as the driver would; 1 (INVALID_VALUE in both APIs) if
  /// there is none.
  int copyToGlobal(const void *owner, void *dst, const void *src,
                   size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    if (globalCopyResult)
      return globalCopyResult;
    auto *target = static_cast<unsigned char *>(dst);
    for (auto &[key, memory] : globalMemory) {
      auto *module = static_cast<FakeModule *>(key.first);
      if (target < memory.data() ||
          target + bytes > memory.data() + memory.size())
        continue;
      if (module->owner != owner || module->unloaded)
        return 1;
      std::memcpy(target, src, bytes);
      globalCopies.push_back({owner, key.first, key.second, dst, src, bytes});
      return 0;
    }
    return 1;
  }
  /// A stable handle per (module, name); nullptr if the module is not loaded
  /// in `owner` (a module cached for the wrong context).
  void *function(void *module, const char *name, const void *owner) {
    std::lock_guard<std::mutex> lock(mutex);
    auto *fake = static_cast<FakeModule *>(module);
    if (fake->owner != owner || fake->unloaded)
      return nullptr;
    auto &slot = functions[{module, name}];
    if (!slot)
      slot.reset(new char(0));
    return slot.get();
  }
};

/// Expects fake.globalCopies[first] and [first + 1] to have filled
/// kTwoGlobals into `module`, loaded in `owner`: each copy went to that
/// module's global of the entry's name, from the entry's host data with its
/// byte count, and the global now holds those bytes.
void expectTwoGlobalsFilled(FakeDriver &fake, size_t first, void *module,
                            const void *owner) {
  ASSERT_GE(fake.globalCopies.size(), first + 2);
  auto *loaded = static_cast<FakeModule *>(module);
  EXPECT_EQ(loaded->owner, owner);
  EXPECT_FALSE(loaded->unloaded);
  for (size_t i = 0; i < 2; ++i) {
    const GlobalCopy &copy = fake.globalCopies[first + i];
    const aot_gpu_global_init_t &global = kTwoGlobals[i];
    EXPECT_EQ(copy.owner, owner);
    EXPECT_EQ(copy.module, module);
    EXPECT_EQ(copy.name, global.name);
    const std::vector<unsigned char> &memory =
        fake.globalMemory.at({module, global.name});
    EXPECT_EQ(copy.dst, memory.data());
    EXPECT_EQ(copy.src, global.data);
    EXPECT_EQ(copy.bytes, global.bytes);
    ASSERT_GE(memory.size(), global.bytes);
    EXPECT_EQ(std::memcmp(memory.data(), global.data, global.bytes), 0)
        << global.name;
  }
}

//===----------------------------------------------------------------------===//
// Fake CUDA driver
//===----------------------------------------------------------------------===//

FakeDriver *gCuda;
thread_local void *tCudaContext = nullptr;
char gContextA, gContextB, gPrimaryContext;

const char *cudaErrorName(int error) {
  switch (error) {
  case AOT_CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case AOT_CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY";
  case AOT_CUDA_ERROR_INVALID_IMAGE:
    return "CUDA_ERROR_INVALID_IMAGE";
  case AOT_CUDA_ERROR_NOT_FOUND:
    return "CUDA_ERROR_NOT_FOUND";
  case AOT_CUDA_ERROR_LAUNCH_FAILED:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case AOT_CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  default:
    return nullptr;
  }
}

aot_cu_result_t cuInitFake(unsigned flags) {
  gCuda->record("cuInit");
  return flags == 0 ? gCuda->initResult : AOT_CUDA_ERROR_INVALID_VALUE;
}
aot_cu_result_t cuDeviceGetCountFake(int *count) {
  gCuda->record("cuDeviceGetCount");
  *count = gCuda->deviceCount;
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuDeviceGetFake(aot_cu_device_t *device, int ordinal) {
  gCuda->record("cuDeviceGet");
  std::lock_guard<std::mutex> lock(gCuda->mutex);
  gCuda->deviceOrdinals.push_back(ordinal);
  *device = 40 + ordinal;
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuDevicePrimaryCtxRetainFake(aot_cu_context_t *context,
                                             aot_cu_device_t device) {
  gCuda->record("cuDevicePrimaryCtxRetain");
  if (gCuda->retainResult)
    return gCuda->retainResult;
  *context = device == 40 ? &gPrimaryContext : nullptr;
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuCtxGetCurrentFake(aot_cu_context_t *context) {
  gCuda->record("cuCtxGetCurrent");
  if (gCuda->getCurrentResult)
    return gCuda->getCurrentResult;
  *context = tCudaContext;
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuCtxSetCurrentFake(aot_cu_context_t context) {
  gCuda->record("cuCtxSetCurrent");
  {
    std::lock_guard<std::mutex> lock(gCuda->mutex);
    gCuda->contextsMadeCurrent.push_back(context);
  }
  tCudaContext = context;
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuModuleLoadDataFake(aot_cu_module_t *module,
                                     const void *image) {
  gCuda->record("cuModuleLoadData");
  if (gCuda->loadResult)
    return gCuda->loadResult;
  *module = gCuda->load(tCudaContext, image);
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuModuleGetFunctionFake(aot_cu_function_t *function,
                                        aot_cu_module_t module,
                                        const char *name) {
  gCuda->record("cuModuleGetFunction");
  if (gCuda->getFunctionResult)
    return gCuda->getFunctionResult;
  *function = gCuda->function(module, name, tCudaContext);
  return *function ? AOT_CUDA_SUCCESS : 201 /* CUDA_ERROR_INVALID_CONTEXT */;
}
aot_cu_result_t cuModuleGetGlobalFake(aot_cu_deviceptr_t *global, size_t *bytes,
                                      aot_cu_module_t module,
                                      const char *name) {
  gCuda->record("cuModuleGetGlobal_v2");
  unsigned char *memory = gCuda->global(module, name, bytes);
  if (!memory)
    return AOT_CUDA_ERROR_NOT_FOUND;
  *global = reinterpret_cast<uintptr_t>(memory);
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuMemcpyHtoDFake(aot_cu_deviceptr_t dst, const void *src,
                                 size_t bytes) {
  gCuda->record("cuMemcpyHtoD_v2");
  return gCuda->copyToGlobal(tCudaContext, reinterpret_cast<void *>(dst), src,
                             bytes);
}
aot_cu_result_t cuModuleUnloadFake(aot_cu_module_t module) {
  gCuda->record("cuModuleUnload");
  gCuda->unload(module);
  return AOT_CUDA_SUCCESS;
}
aot_cu_result_t cuLaunchKernelFake(aot_cu_function_t f, unsigned gx,
                                   unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared,
                                   aot_cu_stream_t stream, void **params,
                                   void **extra) {
  gCuda->record("cuLaunchKernel");
  std::lock_guard<std::mutex> lock(gCuda->mutex);
  gCuda->launches.push_back(
      {f, {gx, gy, gz}, {bx, by, bz}, shared, stream, params, extra});
  return gCuda->launchResult;
}
aot_cu_result_t cuMemcpyHtoDAsyncFake(aot_cu_deviceptr_t dst, const void *src,
                                      size_t bytes, aot_cu_stream_t stream) {
  gCuda->record("cuMemcpyHtoDAsync_v2");
  std::lock_guard<std::mutex> lock(gCuda->mutex);
  gCuda->copies.push_back(
      {true, reinterpret_cast<const void *>(dst), src, bytes, stream});
  return gCuda->copyResult;
}
aot_cu_result_t cuMemcpyDtoHAsyncFake(void *dst, aot_cu_deviceptr_t src,
                                      size_t bytes, aot_cu_stream_t stream) {
  gCuda->record("cuMemcpyDtoHAsync_v2");
  std::lock_guard<std::mutex> lock(gCuda->mutex);
  gCuda->copies.push_back(
      {false, dst, reinterpret_cast<const void *>(src), bytes, stream});
  return gCuda->copyResult;
}
aot_cu_result_t cuStreamSynchronizeFake(aot_cu_stream_t stream) {
  gCuda->record("cuStreamSynchronize");
  std::lock_guard<std::mutex> lock(gCuda->mutex);
  gCuda->synchronizedStreams.push_back(stream);
  return gCuda->syncResult;
}
aot_cu_result_t cuGetErrorNameFake(aot_cu_result_t error, const char **name) {
  *name = cudaErrorName(error);
  return *name ? AOT_CUDA_SUCCESS : AOT_CUDA_ERROR_INVALID_VALUE;
}
aot_cu_result_t cuGetErrorStringFake(aot_cu_result_t error,
                                     const char **message) {
  *message = cudaErrorName(error) ? "fake driver message" : nullptr;
  return *message ? AOT_CUDA_SUCCESS : AOT_CUDA_ERROR_INVALID_VALUE;
}

aot_cuda_driver_t makeCudaTable() {
  aot_cuda_driver_t table;
  table.init = cuInitFake;
  table.device_get_count = cuDeviceGetCountFake;
  table.device_get = cuDeviceGetFake;
  table.device_primary_ctx_retain = cuDevicePrimaryCtxRetainFake;
  table.ctx_get_current = cuCtxGetCurrentFake;
  table.ctx_set_current = cuCtxSetCurrentFake;
  table.module_load_data = cuModuleLoadDataFake;
  table.module_get_function = cuModuleGetFunctionFake;
  table.module_get_global = cuModuleGetGlobalFake;
  table.memcpy_htod = cuMemcpyHtoDFake;
  table.module_unload = cuModuleUnloadFake;
  table.launch_kernel = cuLaunchKernelFake;
  table.memcpy_htod_async = cuMemcpyHtoDAsyncFake;
  table.memcpy_dtoh_async = cuMemcpyDtoHAsyncFake;
  table.stream_synchronize = cuStreamSynchronizeFake;
  table.get_error_name = cuGetErrorNameFake;
  table.get_error_string = cuGetErrorStringFake;
  return table;
}

class CudaRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    gCuda = &fake;
    tCudaContext = nullptr;
    table = makeCudaTable();
    aot_cuda_set_driver_for_testing(&table);
  }
  void TearDown() override {
    aot_cuda_set_driver_for_testing(nullptr);
    gCuda = nullptr;
    tCudaContext = nullptr;
  }

  /// Calls get_function from kThreads threads at once, kCallsPerThread times
  /// each, alternating two kernels, with `context` current on every thread;
  /// get_function_with_globals instead if `globals` is given. Returns the
  /// function handles seen per kernel name.
  std::map<std::string, std::set<void *>>
  hammer(aot_gpu_module_cache_t *cache, void *context,
         const aot_gpu_global_init_t *globals = nullptr,
         uint32_t numGlobals = 0) {
    std::atomic<bool> go{false};
    std::atomic<int> failures{0};
    std::mutex seenMutex;
    std::map<std::string, std::set<void *>> seen;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&] {
        tCudaContext = context;
        std::map<std::string, std::set<void *>> local;
        while (!go.load())
          std::this_thread::yield();
        for (int i = 0; i < kCallsPerThread; ++i) {
          const char *name = (i % 2) ? "kernel_b" : "kernel_a";
          void *function = nullptr;
          aot_status_t status =
              globals ? aot_cuda_get_function_with_globals(
                            cache, kImage, globals, numGlobals, name, &function)
                      : aot_cuda_get_function(cache, kImage, name, &function);
          if (status != AOT_OK || !function)
            ++failures;
          local[name].insert(function);
        }
        std::lock_guard<std::mutex> lock(seenMutex);
        for (auto &[name, functions] : local)
          seen[name].insert(functions.begin(), functions.end());
      });
    go = true;
    for (auto &thread : threads)
      thread.join();
    EXPECT_EQ(failures.load(), 0) << aot_cuda_last_error();
    return seen;
  }

  FakeDriver fake;
  aot_cuda_driver_t table;
};

//===----------------------------------------------------------------------===//
// CUDA: module cache and contexts
//===----------------------------------------------------------------------===//

TEST_F(CudaRuntimeTest, OneModuleLoadPerContextUnderConcurrency) {
  aot_gpu_module_cache_t cache = {};
  auto seenA = hammer(&cache, &gContextA);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 1);
  EXPECT_EQ(fake.loadsPerOwner[&gContextA], 1);
  EXPECT_EQ(fake.count("cuInit"), 1);
  EXPECT_EQ(fake.count("cuDeviceGetCount"), 1);
  EXPECT_EQ(fake.count("cuModuleGetFunction"), kThreads * kCallsPerThread);
  // The context was current: the primary context is never touched.
  EXPECT_EQ(fake.count("cuDevicePrimaryCtxRetain"), 0);
  EXPECT_EQ(fake.count("cuCtxSetCurrent"), 0);
  // No globals: none looked up or copied.
  EXPECT_EQ(fake.count("cuModuleGetGlobal_v2"), 0);
  EXPECT_EQ(fake.count("cuMemcpyHtoD_v2"), 0);
  ASSERT_EQ(seenA.size(), 2u);
  EXPECT_EQ(seenA["kernel_a"].size(), 1u);
  EXPECT_EQ(seenA["kernel_b"].size(), 1u);
  EXPECT_NE(*seenA["kernel_a"].begin(), *seenA["kernel_b"].begin());
  EXPECT_EQ(cache.count, 1u);

  // A second context loads the module again, once; the first stays cached.
  auto seenB = hammer(&cache, &gContextB);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 2);
  EXPECT_EQ(fake.loadsPerOwner[&gContextA], 1);
  EXPECT_EQ(fake.loadsPerOwner[&gContextB], 1);
  EXPECT_EQ(seenB["kernel_a"].size(), 1u);
  EXPECT_NE(*seenB["kernel_a"].begin(), *seenA["kernel_a"].begin());
  EXPECT_EQ(cache.count, 2u);

  // Back on the first context: still cached.
  hammer(&cache, &gContextA);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 2);
  EXPECT_EQ(fake.count("cuInit"), 1);
}

TEST_F(CudaRuntimeTest, SeparateCachesLoadSeparately) {
  aot_gpu_module_cache_t first = {}, second = {};
  void *f1 = nullptr, *f2 = nullptr;
  tCudaContext = &gContextA;
  ASSERT_EQ(aot_cuda_get_function(&first, kImage, "k", &f1), AOT_OK);
  ASSERT_EQ(aot_cuda_get_function(&second, kImage, "k", &f2), AOT_OK);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 2);
  EXPECT_NE(f1, f2);
}

TEST_F(CudaRuntimeTest, NoCurrentContextUsesPrimaryContextOfDevice0) {
  aot_gpu_module_cache_t cache = {};
  auto seen = hammer(&cache, nullptr);
  // Retained once per process, made current once on each thread.
  EXPECT_EQ(fake.count("cuDevicePrimaryCtxRetain"), 1);
  ASSERT_EQ(fake.deviceOrdinals.size(), 1u);
  EXPECT_EQ(fake.deviceOrdinals[0], 0);
  EXPECT_EQ(fake.count("cuCtxSetCurrent"), kThreads);
  for (const void *context : fake.contextsMadeCurrent)
    EXPECT_EQ(context, &gPrimaryContext);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 1);
  EXPECT_EQ(fake.loadsPerOwner[&gPrimaryContext], 1);
  EXPECT_EQ(seen["kernel_a"].size(), 1u);
}

TEST_F(CudaRuntimeTest, CacheHoldsAFixedNumberOfContexts) {
  aot_gpu_module_cache_t cache = {};
  static char contexts[AOT_GPU_MODULE_CACHE_SLOTS + 1];
  void *function = nullptr;
  for (int i = 0; i < AOT_GPU_MODULE_CACHE_SLOTS; ++i) {
    tCudaContext = &contexts[i];
    EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", &function), AOT_OK);
  }
  tCudaContext = &contexts[AOT_GPU_MODULE_CACHE_SLOTS];
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", &function),
            AOT_ERROR_INTERNAL);
  EXPECT_EQ(function, nullptr);
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "cache is full"), nullptr);
  EXPECT_EQ(fake.count("cuModuleLoadData"), AOT_GPU_MODULE_CACHE_SLOTS);
}

//===----------------------------------------------------------------------===//
// CUDA: module globals
//===----------------------------------------------------------------------===//

TEST_F(CudaRuntimeTest, GlobalsAreFilledOncePerContext) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  // w1 is larger on the device than its host data: only the data is copied.
  fake.globalSizes = {{"w0", sizeof(kW0)}, {"w1", 8}};
  tCudaContext = &gContextA;
  ASSERT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_OK)
      << aot_cuda_last_error();
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 1);
  EXPECT_EQ(fake.count("cuModuleGetGlobal_v2"), 2);
  EXPECT_EQ(fake.count("cuMemcpyHtoD_v2"), 2);
  ASSERT_EQ(cache.count, 1u);
  expectTwoGlobalsFilled(fake, 0, cache.modules[0], &gContextA);
  // Synchronous copies only: nothing on a stream, nothing synchronised.
  EXPECT_TRUE(fake.copies.empty());
  EXPECT_EQ(fake.count("cuStreamSynchronize"), 0);

  // Cached: a second call, then many threads at once, copy nothing more.
  ASSERT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_OK);
  hammer(&cache, &gContextA, kTwoGlobals, 2);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 1);
  EXPECT_EQ(fake.count("cuModuleGetGlobal_v2"), 2);
  EXPECT_EQ(fake.count("cuMemcpyHtoD_v2"), 2);

  // A second context, first used by many threads at once: one more load,
  // whose globals are filled once.
  hammer(&cache, &gContextB, kTwoGlobals, 2);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 2);
  EXPECT_EQ(fake.loadsPerOwner[&gContextB], 1);
  EXPECT_EQ(fake.count("cuModuleGetGlobal_v2"), 4);
  EXPECT_EQ(fake.count("cuMemcpyHtoD_v2"), 4);
  ASSERT_EQ(cache.count, 2u);
  EXPECT_NE(cache.modules[1], cache.modules[0]);
  expectTwoGlobalsFilled(fake, 2, cache.modules[1], &gContextB);
  EXPECT_EQ(fake.count("cuModuleUnload"), 0);
}

TEST_F(CudaRuntimeTest, MissingGlobalUnloadsAndIsRetried) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  fake.globalSizes = {{"w0", sizeof(kW0)}}; // no w1
  tCudaContext = &gContextA;
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(aot_cuda_last_error(), "cuModuleGetGlobal(\"w1\"): "
                                      "CUDA_ERROR_NOT_FOUND (500): fake "
                                      "driver message");
  EXPECT_EQ(cache.count, 0u);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 1);
  ASSERT_EQ(fake.unloadedModules.size(), 1u);
  EXPECT_EQ(fake.unloadedModules[0], &fake.modules[0]);
  EXPECT_EQ(fake.count("cuModuleGetFunction"), 0);

  // Once the module has the global, the next call loads again and succeeds.
  fake.globalSizes["w1"] = sizeof(kW1);
  ASSERT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_OK)
      << aot_cuda_last_error();
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 2);
  EXPECT_EQ(fake.unloadedModules.size(), 1u);
  ASSERT_EQ(cache.count, 1u);
  EXPECT_EQ(cache.modules[0], &fake.modules[1]);
  // The failed attempt had copied w0 into the module it then unloaded.
  ASSERT_EQ(fake.globalCopies.size(), 3u);
  EXPECT_EQ(fake.globalCopies[0].module, &fake.modules[0]);
  expectTwoGlobalsFilled(fake, 1, cache.modules[0], &gContextA);
}

TEST_F(CudaRuntimeTest, TooSmallGlobalUnloads) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  fake.globalSizes = {{"w0", 16}, {"w1", sizeof(kW1)}};
  tCudaContext = &gContextA;
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(aot_cuda_last_error(),
               "cuModuleGetGlobal: global \"w0\" has 16 bytes, 64 expected");
  EXPECT_EQ(cache.count, 0u);
  ASSERT_EQ(fake.unloadedModules.size(), 1u);
  EXPECT_EQ(fake.unloadedModules[0], &fake.modules[0]);
  EXPECT_EQ(fake.count("cuMemcpyHtoD_v2"), 0);
  EXPECT_EQ(fake.count("cuModuleGetFunction"), 0);
}

TEST_F(CudaRuntimeTest, GlobalArgumentErrors) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  tCudaContext = &gContextA;
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, nullptr, 1, "k",
                                               &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(function, nullptr);
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "NULL globals"), nullptr);
  const aot_gpu_global_init_t noName[] = {{"w0", kW0, 4}, {nullptr, kW1, 4}};
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, noName, 2, "k",
                                               &function),
            AOT_ERROR_INVALID_ARGUMENT);
  const aot_gpu_global_init_t noData[] = {{"w0", nullptr, 4}};
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, noData, 1, "k",
                                               &function),
            AOT_ERROR_INVALID_ARGUMENT);
  // The NULL checks of aot_cuda_get_function apply too.
  EXPECT_EQ(aot_cuda_get_function_with_globals(nullptr, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  // Argument errors never reach the driver, not even cuInit.
  EXPECT_EQ(fake.count("cuInit"), 0);
  EXPECT_EQ(cache.count, 0u);

  // No globals (NULL, 0) is aot_cuda_get_function.
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, nullptr, 0, "k",
                                               &function),
            AOT_OK);
  EXPECT_EQ(fake.count("cuModuleGetGlobal_v2"), 0);
  // A global of zero bytes may have NULL data: it is looked up, not copied.
  aot_gpu_module_cache_t other = {};
  fake.globalSizes = {{"empty", 0}};
  const aot_gpu_global_init_t empty[] = {{"empty", nullptr, 0}};
  EXPECT_EQ(aot_cuda_get_function_with_globals(&other, kImage, empty, 1, "k",
                                               &function),
            AOT_OK)
      << aot_cuda_last_error();
  EXPECT_EQ(fake.count("cuModuleGetGlobal_v2"), 1);
  EXPECT_EQ(fake.count("cuMemcpyHtoD_v2"), 0);
}

TEST_F(CudaRuntimeTest, GlobalCopyFailureUnloads) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  fake.globalSizes = {{"w0", sizeof(kW0)}, {"w1", sizeof(kW1)}};
  fake.globalCopyResult = AOT_CUDA_ERROR_INVALID_VALUE;
  tCudaContext = &gContextA;
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(aot_cuda_last_error(), "cuMemcpyHtoD_v2(\"w0\"): "
                                      "CUDA_ERROR_INVALID_VALUE (1): fake "
                                      "driver message");
  EXPECT_EQ(cache.count, 0u);
  ASSERT_EQ(fake.unloadedModules.size(), 1u);
  EXPECT_EQ(fake.unloadedModules[0], &fake.modules[0]);
  EXPECT_EQ(fake.count("cuModuleGetFunction"), 0);
  // Whatever the code (this one is AOT_ERROR_NO_DEVICE elsewhere), a module
  // whose globals could not be filled is a device error.
  fake.globalCopyResult = AOT_CUDA_ERROR_NO_DEVICE;
  EXPECT_EQ(aot_cuda_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                               "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(fake.unloadedModules.size(), 2u);
  EXPECT_EQ(cache.count, 0u);
}

//===----------------------------------------------------------------------===//
// CUDA: launches, copies, synchronisation
//===----------------------------------------------------------------------===//

TEST_F(CudaRuntimeTest, LaunchGoesToTheGivenStreamWithGivenShape) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  tCudaContext = &gContextA;
  ASSERT_EQ(aot_cuda_get_function(&cache, kImage, "matmul", &function), AOT_OK);
  auto stream = reinterpret_cast<aot_stream_t>(0x5151);
  float a = 1, b = 2;
  void *pool = reinterpret_cast<void *>(0xd000);
  void *args[] = {&a, &b, &pool};
  ASSERT_EQ(aot_cuda_launch(function, 7, 3, 2, 128, 2, 1, 4096, stream, args),
            AOT_OK);
  ASSERT_EQ(fake.launches.size(), 1u);
  const Launch &launch = fake.launches[0];
  EXPECT_EQ(launch.function, function);
  EXPECT_EQ(launch.grid[0], 7u);
  EXPECT_EQ(launch.grid[1], 3u);
  EXPECT_EQ(launch.grid[2], 2u);
  EXPECT_EQ(launch.block[0], 128u);
  EXPECT_EQ(launch.block[1], 2u);
  EXPECT_EQ(launch.block[2], 1u);
  EXPECT_EQ(launch.shared, 4096u);
  EXPECT_EQ(launch.stream, stream);
  EXPECT_EQ(launch.params, args);
  EXPECT_EQ(launch.extra, nullptr);
  // Enqueued only: nothing waited.
  EXPECT_EQ(fake.count("cuStreamSynchronize"), 0);
}

TEST_F(CudaRuntimeTest, CopiesAreAsyncOnTheGivenStreamAndSyncOnlyWhenAsked) {
  auto stream = reinterpret_cast<aot_stream_t>(0x7777);
  auto *device = reinterpret_cast<void *>(uintptr_t{0x7f0000001000});
  float host[16] = {};
  ASSERT_EQ(aot_cuda_memcpy_htod_async(device, host, sizeof(host), stream),
            AOT_OK);
  ASSERT_EQ(aot_cuda_memcpy_dtoh_async(host, device, 8, stream), AOT_OK);
  ASSERT_EQ(fake.copies.size(), 2u);
  EXPECT_TRUE(fake.copies[0].toDevice);
  EXPECT_EQ(fake.copies[0].dst, device);
  EXPECT_EQ(fake.copies[0].src, host);
  EXPECT_EQ(fake.copies[0].bytes, sizeof(host));
  EXPECT_EQ(fake.copies[0].stream, stream);
  EXPECT_FALSE(fake.copies[1].toDevice);
  EXPECT_EQ(fake.copies[1].dst, host);
  EXPECT_EQ(fake.copies[1].src, device);
  EXPECT_EQ(fake.copies[1].bytes, 8u);
  EXPECT_EQ(fake.copies[1].stream, stream);
  EXPECT_EQ(fake.count("cuStreamSynchronize"), 0);

  // Zero bytes: no driver call.
  EXPECT_EQ(aot_cuda_memcpy_htod_async(nullptr, nullptr, 0, stream), AOT_OK);
  EXPECT_EQ(fake.copies.size(), 2u);

  ASSERT_EQ(aot_cuda_stream_synchronize(stream), AOT_OK);
  ASSERT_EQ(fake.synchronizedStreams.size(), 1u);
  EXPECT_EQ(fake.synchronizedStreams[0], stream);
}

TEST_F(CudaRuntimeTest, InvalidArguments) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  EXPECT_EQ(aot_cuda_get_function(nullptr, kImage, "k", &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(aot_cuda_get_function(&cache, nullptr, "k", &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, nullptr, &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_launch(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_launch(&cache, 0, 1, 1, 1, 1, 1, 0, nullptr, nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_launch(&cache, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  float host = 0;
  EXPECT_EQ(aot_cuda_memcpy_htod_async(nullptr, &host, 4, nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_cuda_memcpy_dtoh_async(&host, nullptr, 4, nullptr),
            AOT_ERROR_INVALID_ARGUMENT);
  // Argument errors never reach the driver, not even cuInit.
  EXPECT_EQ(fake.count("cuInit"), 0);
  EXPECT_EQ(fake.count("cuLaunchKernel"), 0);
}

//===----------------------------------------------------------------------===//
// CUDA: error mapping
//===----------------------------------------------------------------------===//

/// Every entry point, called once with plausible arguments.
std::vector<aot_status_t> callEveryCudaEntryPoint() {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  float host[4] = {};
  std::vector<aot_status_t> statuses;
  statuses.push_back(aot_cuda_get_function(&cache, kImage, "k", &function));
  statuses.push_back(aot_cuda_get_function_with_globals(
      &cache, kImage, kTwoGlobals, 2, "k", &function));
  statuses.push_back(
      aot_cuda_launch(&cache, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr));
  statuses.push_back(
      aot_cuda_memcpy_htod_async(&cache, host, sizeof(host), nullptr));
  statuses.push_back(
      aot_cuda_memcpy_dtoh_async(host, &cache, sizeof(host), nullptr));
  statuses.push_back(aot_cuda_stream_synchronize(nullptr));
  return statuses;
}

TEST_F(CudaRuntimeTest, InitNoDeviceIsNoDeviceEverywhereAndRemembered) {
  fake.initResult = AOT_CUDA_ERROR_NO_DEVICE;
  for (aot_status_t status : callEveryCudaEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
  EXPECT_EQ(fake.count("cuInit"), 1);
  EXPECT_STREQ(aot_cuda_last_error(),
               "cuInit: CUDA_ERROR_NO_DEVICE (100): fake driver message");
  EXPECT_EQ(fake.count("cuModuleLoadData"), 0);
  EXPECT_EQ(fake.count("cuLaunchKernel"), 0);
  EXPECT_EQ(fake.count("cuStreamSynchronize"), 0);
}

TEST_F(CudaRuntimeTest, StubLibraryIsNoDevice) {
  fake.initResult = AOT_CUDA_ERROR_STUB_LIBRARY;
  for (aot_status_t status : callEveryCudaEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
}

TEST_F(CudaRuntimeTest, ZeroDevicesIsNoDevice) {
  fake.deviceCount = 0;
  for (aot_status_t status : callEveryCudaEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "no CUDA device"), nullptr);
}

TEST_F(CudaRuntimeTest, OtherInitFailureIsDeviceError) {
  fake.initResult = 999; // CUDA_ERROR_UNKNOWN
  for (aot_status_t status : callEveryCudaEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_DEVICE);
  // An unknown code still yields a diagnostic.
  EXPECT_STREQ(aot_cuda_last_error(),
               "cuInit: unknown CUresult (999): no description");
}

TEST_F(CudaRuntimeTest, LaunchFailureIsDeviceError) {
  fake.launchResult = AOT_CUDA_ERROR_LAUNCH_FAILED;
  int dummy = 0;
  EXPECT_EQ(aot_cuda_launch(&dummy, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr),
            AOT_ERROR_DEVICE);
  EXPECT_STREQ(
      aot_cuda_last_error(),
      "cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (719): fake driver message");
}

TEST_F(CudaRuntimeTest, ModuleLoadFailureIsDeviceErrorAndNotCached) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  tCudaContext = &gContextA;
  fake.loadResult = AOT_CUDA_ERROR_INVALID_IMAGE;
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(cache.count, 0u);
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "cuModuleLoadData"), nullptr);
  // A later call tries again, and succeeds once the driver does.
  fake.loadResult = 0;
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", &function), AOT_OK);
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 2);
  EXPECT_EQ(cache.count, 1u);
}

TEST_F(CudaRuntimeTest, MissingKernelIsDeviceError) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  tCudaContext = &gContextA;
  fake.getFunctionResult = AOT_CUDA_ERROR_NOT_FOUND;
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "nope", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_NE(std::strstr(aot_cuda_last_error(),
                        "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND (500)"),
            nullptr);
}

TEST_F(CudaRuntimeTest, CopyAndSyncFailuresAreDeviceErrors) {
  float host[4] = {};
  fake.copyResult = AOT_CUDA_ERROR_INVALID_VALUE;
  fake.syncResult = AOT_CUDA_ERROR_LAUNCH_FAILED;
  EXPECT_EQ(aot_cuda_memcpy_htod_async(&fake, host, 16, nullptr),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(aot_cuda_memcpy_dtoh_async(host, &fake, 16, nullptr),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(aot_cuda_stream_synchronize(nullptr), AOT_ERROR_DEVICE);
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "cuStreamSynchronize"), nullptr);
}

TEST_F(CudaRuntimeTest, ContextErrorsMapByCode) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  fake.getCurrentResult = AOT_CUDA_ERROR_NO_DEVICE;
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", &function),
            AOT_ERROR_NO_DEVICE);
  fake.getCurrentResult = 0;
  fake.retainResult = 999;
  EXPECT_EQ(aot_cuda_get_function(&cache, kImage, "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "cuDevicePrimaryCtxRetain"),
            nullptr);
  EXPECT_EQ(fake.count("cuModuleLoadData"), 0);
}

TEST_F(CudaRuntimeTest, LastErrorIsPerThread) {
  fake.launchResult = AOT_CUDA_ERROR_LAUNCH_FAILED;
  int dummy = 0;
  EXPECT_EQ(aot_cuda_launch(&dummy, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr),
            AOT_ERROR_DEVICE);
  std::string other;
  std::thread([&] { other = aot_cuda_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_NE(std::string(aot_cuda_last_error()), "");
}

//===----------------------------------------------------------------------===//
// Loader: the symbols asked of the library
//===----------------------------------------------------------------------===//

std::vector<std::string> gRequested;
std::string gWithheld;
void trap() { ADD_FAILURE() << "a resolved symbol was called"; }
void *recordingResolve(void *handle, const char *symbol) {
  EXPECT_EQ(handle, &gRequested);
  gRequested.push_back(symbol);
  if (gWithheld == symbol)
    return nullptr;
  void *address;
  void (*function)() = trap;
  std::memcpy(&address, &function, sizeof(address));
  return address;
}

/// No symbol that allocates memory or creates a stream, event or context.
void expectNoAllocationOrCreation(const std::vector<std::string> &names) {
  for (const std::string &name : names)
    for (const char *banned : {"Alloc", "alloc", "Free", "free", "Create",
                               "Destroy", "Release", "Malloc"})
      EXPECT_EQ(name.find(banned), std::string::npos) << name;
}

TEST(GpuRuntimeLoaderTest, CudaAsksForExactlyTheDriverEntryPoints) {
  gRequested.clear();
  gWithheld.clear();
  aot_cuda_driver_t table;
  EXPECT_EQ(aot_cuda_load_driver_table(recordingResolve, &gRequested, &table),
            nullptr);
  const std::vector<std::string> expected = {"cuInit",
                                             "cuDeviceGetCount",
                                             "cuDeviceGet",
                                             "cuDevicePrimaryCtxRetain",
                                             "cuCtxGetCurrent",
                                             "cuCtxSetCurrent",
                                             "cuModuleLoadData",
                                             "cuModuleGetFunction",
                                             "cuModuleGetGlobal_v2",
                                             "cuMemcpyHtoD_v2",
                                             "cuModuleUnload",
                                             "cuLaunchKernel",
                                             "cuMemcpyHtoDAsync_v2",
                                             "cuMemcpyDtoHAsync_v2",
                                             "cuStreamSynchronize",
                                             "cuGetErrorName",
                                             "cuGetErrorString"};
  EXPECT_EQ(gRequested, expected);
  expectNoAllocationOrCreation(gRequested);
  // Every member is filled.
  void *const *members = reinterpret_cast<void *const *>(&table);
  for (size_t i = 0; i < sizeof(table) / sizeof(void *); ++i)
    EXPECT_NE(members[i], nullptr) << i;

  gRequested.clear();
  gWithheld = "cuLaunchKernel";
  EXPECT_STREQ(
      aot_cuda_load_driver_table(recordingResolve, &gRequested, &table),
      "cuLaunchKernel");
}

TEST(GpuRuntimeLoaderTest, HipAsksForExactlyTheRuntimeEntryPoints) {
  gRequested.clear();
  gWithheld.clear();
  aot_hip_driver_t table;
  EXPECT_EQ(aot_hip_load_driver_table(recordingResolve, &gRequested, &table),
            nullptr);
  const std::vector<std::string> expected = {"hipInit",
                                             "hipGetDeviceCount",
                                             "hipGetDevice",
                                             "hipModuleLoadData",
                                             "hipModuleGetFunction",
                                             "hipModuleGetGlobal",
                                             "hipMemcpyHtoD",
                                             "hipModuleUnload",
                                             "hipModuleLaunchKernel",
                                             "hipMemcpyHtoDAsync",
                                             "hipMemcpyDtoHAsync",
                                             "hipStreamSynchronize",
                                             "hipGetErrorName",
                                             "hipGetErrorString"};
  EXPECT_EQ(gRequested, expected);
  expectNoAllocationOrCreation(gRequested);
  void *const *members = reinterpret_cast<void *const *>(&table);
  for (size_t i = 0; i < sizeof(table) / sizeof(void *); ++i)
    EXPECT_NE(members[i], nullptr) << i;
}

//===----------------------------------------------------------------------===//
// Fake HIP runtime
//===----------------------------------------------------------------------===//

FakeDriver *gHip;
thread_local int tHipDevice = 0;
/// Distinct addresses standing for devices in FakeDriver::loadsPerOwner.
char gHipDevices[16];

const char *hipErrorName(int error) {
  switch (error) {
  case AOT_HIP_ERROR_NO_DEVICE:
    return "hipErrorNoDevice";
  case AOT_HIP_ERROR_INSUFFICIENT_DRIVER:
    return "hipErrorInsufficientDriver";
  case AOT_HIP_ERROR_INVALID_IMAGE:
    return "hipErrorInvalidImage";
  case AOT_HIP_ERROR_LAUNCH_FAILURE:
    return "hipErrorLaunchFailure";
  case AOT_HIP_ERROR_NOT_FOUND:
    return "hipErrorNotFound";
  case AOT_HIP_ERROR_INVALID_VALUE:
    return "hipErrorInvalidValue";
  default:
    return nullptr;
  }
}

aot_hip_error_t hipInitFake(unsigned flags) {
  gHip->record("hipInit");
  return flags == 0 ? gHip->initResult : AOT_HIP_ERROR_INVALID_VALUE;
}
aot_hip_error_t hipGetDeviceCountFake(int *count) {
  gHip->record("hipGetDeviceCount");
  *count = gHip->deviceCount;
  return AOT_HIP_SUCCESS;
}
aot_hip_error_t hipGetDeviceFake(int *device) {
  gHip->record("hipGetDevice");
  *device = tHipDevice;
  return AOT_HIP_SUCCESS;
}
aot_hip_error_t hipModuleLoadDataFake(aot_hip_module_t *module,
                                      const void *image) {
  gHip->record("hipModuleLoadData");
  if (gHip->loadResult)
    return gHip->loadResult;
  *module = gHip->load(&gHipDevices[tHipDevice], image);
  return AOT_HIP_SUCCESS;
}
aot_hip_error_t hipModuleGetFunctionFake(aot_hip_function_t *function,
                                         aot_hip_module_t module,
                                         const char *name) {
  gHip->record("hipModuleGetFunction");
  if (gHip->getFunctionResult)
    return gHip->getFunctionResult;
  *function = gHip->function(module, name, &gHipDevices[tHipDevice]);
  return *function ? AOT_HIP_SUCCESS : 400 /* hipErrorInvalidHandle */;
}
aot_hip_error_t hipModuleGetGlobalFake(aot_hip_deviceptr_t *global,
                                       size_t *bytes, aot_hip_module_t module,
                                       const char *name) {
  gHip->record("hipModuleGetGlobal");
  unsigned char *memory = gHip->global(module, name, bytes);
  if (!memory)
    return AOT_HIP_ERROR_NOT_FOUND;
  *global = memory;
  return AOT_HIP_SUCCESS;
}
aot_hip_error_t hipMemcpyHtoDFake(aot_hip_deviceptr_t dst, void *src,
                                  size_t bytes) {
  gHip->record("hipMemcpyHtoD");
  return gHip->copyToGlobal(&gHipDevices[tHipDevice], dst, src, bytes);
}
aot_hip_error_t hipModuleUnloadFake(aot_hip_module_t module) {
  gHip->record("hipModuleUnload");
  gHip->unload(module);
  return AOT_HIP_SUCCESS;
}
aot_hip_error_t hipModuleLaunchKernelFake(aot_hip_function_t f, unsigned gx,
                                          unsigned gy, unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz,
                                          unsigned shared,
                                          aot_hip_stream_t stream,
                                          void **params, void **extra) {
  gHip->record("hipModuleLaunchKernel");
  std::lock_guard<std::mutex> lock(gHip->mutex);
  gHip->launches.push_back(
      {f, {gx, gy, gz}, {bx, by, bz}, shared, stream, params, extra});
  return gHip->launchResult;
}
aot_hip_error_t hipMemcpyHtoDAsyncFake(aot_hip_deviceptr_t dst, void *src,
                                       size_t bytes, aot_hip_stream_t stream) {
  gHip->record("hipMemcpyHtoDAsync");
  std::lock_guard<std::mutex> lock(gHip->mutex);
  gHip->copies.push_back({true, dst, src, bytes, stream});
  return gHip->copyResult;
}
aot_hip_error_t hipMemcpyDtoHAsyncFake(void *dst, aot_hip_deviceptr_t src,
                                       size_t bytes, aot_hip_stream_t stream) {
  gHip->record("hipMemcpyDtoHAsync");
  std::lock_guard<std::mutex> lock(gHip->mutex);
  gHip->copies.push_back({false, dst, src, bytes, stream});
  return gHip->copyResult;
}
aot_hip_error_t hipStreamSynchronizeFake(aot_hip_stream_t stream) {
  gHip->record("hipStreamSynchronize");
  std::lock_guard<std::mutex> lock(gHip->mutex);
  gHip->synchronizedStreams.push_back(stream);
  return gHip->syncResult;
}
const char *hipGetErrorNameFake(aot_hip_error_t error) {
  return hipErrorName(error);
}
const char *hipGetErrorStringFake(aot_hip_error_t error) {
  return hipErrorName(error) ? "fake hip message" : nullptr;
}

aot_hip_driver_t makeHipTable() {
  aot_hip_driver_t table;
  table.init = hipInitFake;
  table.get_device_count = hipGetDeviceCountFake;
  table.get_device = hipGetDeviceFake;
  table.module_load_data = hipModuleLoadDataFake;
  table.module_get_function = hipModuleGetFunctionFake;
  table.module_get_global = hipModuleGetGlobalFake;
  table.memcpy_htod = hipMemcpyHtoDFake;
  table.module_unload = hipModuleUnloadFake;
  table.module_launch_kernel = hipModuleLaunchKernelFake;
  table.memcpy_htod_async = hipMemcpyHtoDAsyncFake;
  table.memcpy_dtoh_async = hipMemcpyDtoHAsyncFake;
  table.stream_synchronize = hipStreamSynchronizeFake;
  table.get_error_name = hipGetErrorNameFake;
  table.get_error_string = hipGetErrorStringFake;
  return table;
}

class HipRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    gHip = &fake;
    tHipDevice = 0;
    table = makeHipTable();
    aot_hip_set_driver_for_testing(&table);
  }
  void TearDown() override {
    aot_hip_set_driver_for_testing(nullptr);
    gHip = nullptr;
    tHipDevice = 0;
  }

  /// As CudaRuntimeTest::hammer, with `device` current on every thread.
  std::set<void *> hammer(aot_gpu_module_cache_t *cache, int device,
                          const aot_gpu_global_init_t *globals = nullptr,
                          uint32_t numGlobals = 0) {
    std::atomic<bool> go{false};
    std::atomic<int> failures{0};
    std::mutex seenMutex;
    std::set<void *> seen;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&] {
        tHipDevice = device;
        std::set<void *> local;
        while (!go.load())
          std::this_thread::yield();
        for (int i = 0; i < kCallsPerThread; ++i) {
          void *function = nullptr;
          aot_status_t status =
              globals
                  ? aot_hip_get_function_with_globals(
                        cache, kImage, globals, numGlobals, "kernel", &function)
                  : aot_hip_get_function(cache, kImage, "kernel", &function);
          if (status != AOT_OK || !function)
            ++failures;
          local.insert(function);
        }
        std::lock_guard<std::mutex> lock(seenMutex);
        seen.insert(local.begin(), local.end());
      });
    go = true;
    for (auto &thread : threads)
      thread.join();
    EXPECT_EQ(failures.load(), 0) << aot_hip_last_error();
    return seen;
  }

  FakeDriver fake;
  aot_hip_driver_t table;
};

//===----------------------------------------------------------------------===//
// HIP
//===----------------------------------------------------------------------===//

TEST_F(HipRuntimeTest, OneModuleLoadPerDeviceUnderConcurrency) {
  aot_gpu_module_cache_t cache = {};
  auto seen0 = hammer(&cache, 0);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 1);
  EXPECT_EQ(fake.count("hipInit"), 1);
  EXPECT_EQ(fake.count("hipModuleGetFunction"), kThreads * kCallsPerThread);
  EXPECT_EQ(seen0.size(), 1u);
  auto seen1 = hammer(&cache, 1);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 2);
  EXPECT_EQ(fake.loadsPerOwner[&gHipDevices[0]], 1);
  EXPECT_EQ(fake.loadsPerOwner[&gHipDevices[1]], 1);
  EXPECT_EQ(seen1.size(), 1u);
  EXPECT_NE(*seen0.begin(), *seen1.begin());
  hammer(&cache, 0);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 2);
  EXPECT_EQ(cache.count, 2u);
}

TEST_F(HipRuntimeTest, GlobalsAreFilledOncePerDevice) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  fake.globalSizes = {{"w0", sizeof(kW0)}, {"w1", 8}};
  ASSERT_EQ(aot_hip_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                              "k", &function),
            AOT_OK)
      << aot_hip_last_error();
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 1);
  EXPECT_EQ(fake.count("hipModuleGetGlobal"), 2);
  EXPECT_EQ(fake.count("hipMemcpyHtoD"), 2);
  ASSERT_EQ(cache.count, 1u);
  expectTwoGlobalsFilled(fake, 0, cache.modules[0], &gHipDevices[0]);
  EXPECT_TRUE(fake.copies.empty());
  EXPECT_EQ(fake.count("hipStreamSynchronize"), 0);

  ASSERT_EQ(aot_hip_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                              "k", &function),
            AOT_OK);
  hammer(&cache, 0, kTwoGlobals, 2);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 1);
  EXPECT_EQ(fake.count("hipModuleGetGlobal"), 2);
  EXPECT_EQ(fake.count("hipMemcpyHtoD"), 2);

  // A second device, first used by many threads at once.
  hammer(&cache, 1, kTwoGlobals, 2);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 2);
  EXPECT_EQ(fake.loadsPerOwner[&gHipDevices[1]], 1);
  EXPECT_EQ(fake.count("hipModuleGetGlobal"), 4);
  EXPECT_EQ(fake.count("hipMemcpyHtoD"), 4);
  ASSERT_EQ(cache.count, 2u);
  EXPECT_NE(cache.modules[1], cache.modules[0]);
  expectTwoGlobalsFilled(fake, 2, cache.modules[1], &gHipDevices[1]);
  EXPECT_EQ(fake.count("hipModuleUnload"), 0);
}

TEST_F(HipRuntimeTest, MissingGlobalUnloadsAndIsRetried) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  fake.globalSizes = {{"w0", sizeof(kW0)}};
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                              "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(aot_hip_last_error(), "hipModuleGetGlobal(\"w1\"): "
                                     "hipErrorNotFound (500): fake hip "
                                     "message");
  EXPECT_EQ(cache.count, 0u);
  ASSERT_EQ(fake.unloadedModules.size(), 1u);
  EXPECT_EQ(fake.unloadedModules[0], &fake.modules[0]);
  EXPECT_EQ(fake.count("hipModuleGetFunction"), 0);

  fake.globalSizes["w1"] = sizeof(kW1);
  ASSERT_EQ(aot_hip_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                              "k", &function),
            AOT_OK)
      << aot_hip_last_error();
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(fake.count("hipModuleLoadData"), 2);
  EXPECT_EQ(fake.unloadedModules.size(), 1u);
  ASSERT_EQ(cache.count, 1u);
  EXPECT_EQ(cache.modules[0], &fake.modules[1]);
  ASSERT_EQ(fake.globalCopies.size(), 3u);
  expectTwoGlobalsFilled(fake, 1, cache.modules[0], &gHipDevices[0]);
}

TEST_F(HipRuntimeTest, TooSmallGlobalUnloads) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  fake.globalSizes = {{"w0", 16}, {"w1", sizeof(kW1)}};
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                              "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(aot_hip_last_error(),
               "hipModuleGetGlobal: global \"w0\" has 16 bytes, 64 expected");
  EXPECT_EQ(cache.count, 0u);
  ASSERT_EQ(fake.unloadedModules.size(), 1u);
  EXPECT_EQ(fake.count("hipMemcpyHtoD"), 0);
}

TEST_F(HipRuntimeTest, GlobalArgumentErrors) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, nullptr, 1, "k",
                                              &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(function, nullptr);
  EXPECT_NE(std::strstr(aot_hip_last_error(), "NULL globals"), nullptr);
  const aot_gpu_global_init_t noName[] = {{nullptr, kW0, 4}};
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, noName, 1, "k",
                                              &function),
            AOT_ERROR_INVALID_ARGUMENT);
  const aot_gpu_global_init_t noData[] = {{"w0", kW0, 4}, {"w1", nullptr, 1}};
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, noData, 2, "k",
                                              &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, nullptr, kTwoGlobals, 2,
                                              "k", &function),
            AOT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fake.count("hipInit"), 0);
  EXPECT_EQ(cache.count, 0u);
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, nullptr, 0, "k",
                                              &function),
            AOT_OK);
  EXPECT_EQ(fake.count("hipModuleGetGlobal"), 0);
}

TEST_F(HipRuntimeTest, GlobalCopyFailureUnloads) {
  aot_gpu_module_cache_t cache = {};
  void *function = &cache;
  fake.globalSizes = {{"w0", sizeof(kW0)}, {"w1", sizeof(kW1)}};
  fake.globalCopyResult = AOT_HIP_ERROR_INVALID_VALUE;
  EXPECT_EQ(aot_hip_get_function_with_globals(&cache, kImage, kTwoGlobals, 2,
                                              "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(aot_hip_last_error(), "hipMemcpyHtoD(\"w0\"): "
                                     "hipErrorInvalidValue (1): fake hip "
                                     "message");
  EXPECT_EQ(cache.count, 0u);
  ASSERT_EQ(fake.unloadedModules.size(), 1u);
  EXPECT_EQ(fake.unloadedModules[0], &fake.modules[0]);
  EXPECT_EQ(fake.count("hipModuleGetFunction"), 0);
}

TEST_F(HipRuntimeTest, LaunchCopiesAndSyncOnlyWhenAsked) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  ASSERT_EQ(aot_hip_get_function(&cache, kImage, "k", &function), AOT_OK);
  auto stream = reinterpret_cast<aot_stream_t>(0x4242);
  int x = 3;
  void *args[] = {&x};
  auto *device = reinterpret_cast<void *>(uintptr_t{0x7f0000002000});
  float host[8] = {};
  ASSERT_EQ(aot_hip_memcpy_htod_async(device, host, sizeof(host), stream),
            AOT_OK);
  ASSERT_EQ(aot_hip_launch(function, 4, 5, 6, 64, 1, 2, 512, stream, args),
            AOT_OK);
  ASSERT_EQ(aot_hip_memcpy_dtoh_async(host, device, sizeof(host), stream),
            AOT_OK);
  ASSERT_EQ(fake.launches.size(), 1u);
  const Launch &launch = fake.launches[0];
  EXPECT_EQ(launch.function, function);
  EXPECT_EQ(launch.grid[0], 4u);
  EXPECT_EQ(launch.grid[1], 5u);
  EXPECT_EQ(launch.grid[2], 6u);
  EXPECT_EQ(launch.block[0], 64u);
  EXPECT_EQ(launch.block[1], 1u);
  EXPECT_EQ(launch.block[2], 2u);
  EXPECT_EQ(launch.shared, 512u);
  EXPECT_EQ(launch.stream, stream);
  EXPECT_EQ(launch.params, args);
  EXPECT_EQ(launch.extra, nullptr);
  ASSERT_EQ(fake.copies.size(), 2u);
  EXPECT_TRUE(fake.copies[0].toDevice);
  EXPECT_EQ(fake.copies[0].dst, device);
  EXPECT_EQ(fake.copies[0].src, host);
  EXPECT_EQ(fake.copies[0].stream, stream);
  EXPECT_FALSE(fake.copies[1].toDevice);
  EXPECT_EQ(fake.copies[1].dst, host);
  EXPECT_EQ(fake.copies[1].src, device);
  EXPECT_EQ(fake.copies[1].bytes, sizeof(host));
  EXPECT_EQ(fake.count("hipStreamSynchronize"), 0);
  ASSERT_EQ(aot_hip_stream_synchronize(stream), AOT_OK);
  ASSERT_EQ(fake.synchronizedStreams.size(), 1u);
  EXPECT_EQ(fake.synchronizedStreams[0], stream);
}

std::vector<aot_status_t> callEveryHipEntryPoint() {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  float host[4] = {};
  std::vector<aot_status_t> statuses;
  statuses.push_back(aot_hip_get_function(&cache, kImage, "k", &function));
  statuses.push_back(aot_hip_get_function_with_globals(
      &cache, kImage, kTwoGlobals, 2, "k", &function));
  statuses.push_back(
      aot_hip_launch(&cache, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr));
  statuses.push_back(
      aot_hip_memcpy_htod_async(&cache, host, sizeof(host), nullptr));
  statuses.push_back(
      aot_hip_memcpy_dtoh_async(host, &cache, sizeof(host), nullptr));
  statuses.push_back(aot_hip_stream_synchronize(nullptr));
  return statuses;
}

TEST_F(HipRuntimeTest, InitNoDeviceIsNoDeviceEverywhere) {
  fake.initResult = AOT_HIP_ERROR_NO_DEVICE;
  for (aot_status_t status : callEveryHipEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
  EXPECT_EQ(fake.count("hipInit"), 1);
  EXPECT_STREQ(aot_hip_last_error(),
               "hipInit: hipErrorNoDevice (100): fake hip message");
}

TEST_F(HipRuntimeTest, InitInvalidDeviceIsNoDevice) {
  // What ROCm 5.2's hipInit returns on a machine without an AMD GPU.
  fake.initResult = AOT_HIP_ERROR_INVALID_DEVICE;
  for (aot_status_t status : callEveryHipEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
  EXPECT_EQ(fake.count("hipInit"), 1);
}

TEST_F(HipRuntimeTest, InsufficientDriverAndZeroDevicesAreNoDevice) {
  fake.initResult = AOT_HIP_ERROR_INSUFFICIENT_DRIVER;
  for (aot_status_t status : callEveryHipEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
  fake.initResult = 0;
  fake.deviceCount = 0;
  aot_hip_set_driver_for_testing(&table); // forget the remembered failure
  for (aot_status_t status : callEveryHipEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE);
}

TEST_F(HipRuntimeTest, DriverFailuresAreDeviceErrors) {
  aot_gpu_module_cache_t cache = {};
  void *function = nullptr;
  fake.loadResult = AOT_HIP_ERROR_INVALID_IMAGE;
  EXPECT_EQ(aot_hip_get_function(&cache, kImage, "k", &function),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(cache.count, 0u);
  fake.loadResult = 0;
  ASSERT_EQ(aot_hip_get_function(&cache, kImage, "k", &function), AOT_OK);
  fake.launchResult = AOT_HIP_ERROR_LAUNCH_FAILURE;
  EXPECT_EQ(aot_hip_launch(function, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr),
            AOT_ERROR_DEVICE);
  EXPECT_STREQ(aot_hip_last_error(), "hipModuleLaunchKernel: "
                                     "hipErrorLaunchFailure (719): fake hip "
                                     "message");
  fake.copyResult = AOT_HIP_ERROR_INVALID_VALUE;
  float host[2] = {};
  EXPECT_EQ(aot_hip_memcpy_htod_async(&cache, host, 8, nullptr),
            AOT_ERROR_DEVICE);
  EXPECT_EQ(aot_hip_memcpy_dtoh_async(host, &cache, 8, nullptr),
            AOT_ERROR_DEVICE);
  fake.syncResult = 999;
  EXPECT_EQ(aot_hip_stream_synchronize(nullptr), AOT_ERROR_DEVICE);
  fake.initResult = 999;
  aot_hip_set_driver_for_testing(&table);
  for (aot_status_t status : callEveryHipEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_DEVICE);
}

//===----------------------------------------------------------------------===//
// The real (dlopen) path on this machine
//===----------------------------------------------------------------------===//

/// True if `name` can be loaded here (then the no-device tests do not apply).
bool libraryLoads(const char *name) {
  void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (handle)
    dlclose(handle);
  return handle != nullptr;
}

TEST(GpuRuntimeRealDriverTest, CudaWithoutDriverIsNoDevice) {
  if (libraryLoads("libcuda.so.1"))
    GTEST_SKIP() << "libcuda.so.1 is installed on this machine";
  aot_cuda_set_driver_for_testing(nullptr);
  std::vector<aot_status_t> statuses = callEveryCudaEntryPoint();
  for (aot_status_t status : statuses)
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE) << aot_cuda_last_error();
  EXPECT_NE(std::strstr(aot_cuda_last_error(), "libcuda.so.1"), nullptr)
      << aot_cuda_last_error();
  // Again, from several threads at once: the failure is remembered.
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (aot_status_t status : callEveryCudaEntryPoint())
        wrong += status != AOT_ERROR_NO_DEVICE;
    });
  for (auto &thread : threads)
    thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(GpuRuntimeRealDriverTest, HipWithoutRuntimeIsNoDevice) {
  for (const char *name : {"libamdhip64.so", "libamdhip64.so.7",
                           "libamdhip64.so.6", "libamdhip64.so.5"})
    if (libraryLoads(name))
      GTEST_SKIP() << name << " is installed on this machine";
  aot_hip_set_driver_for_testing(nullptr);
  for (aot_status_t status : callEveryHipEntryPoint())
    EXPECT_EQ(status, AOT_ERROR_NO_DEVICE) << aot_hip_last_error();
  EXPECT_NE(std::strstr(aot_hip_last_error(), "libamdhip64"), nullptr)
      << aot_hip_last_error();
}

} // namespace
