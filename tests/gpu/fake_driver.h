//===- fake_driver.h - A recording fake GPU driver for tests ----*- C++ -*-===//
//
// The part of the fake CUDA driver and the fake HIP runtime (fake_cuda.cpp,
// fake_hip.cpp) that does not depend on the API: what the generated code and
// the runtime asked for, and the "device" it pretends to be. Device memory
// is host memory; no kernel runs. Each fake is a table of the runtime's test
// seam (aot_cuda_driver_t, aot_hip_driver_t) whose entries call the helpers
// below; fake_driver_run.cpp drives an entry point against whichever one it
// is linked with and checks the record; fake_driver.cpp holds the record.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TESTS_GPU_FAKE_DRIVER_H
#define AOTC_TESTS_GPU_FAKE_DRIVER_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fake {

/// What the generated code and the runtime did to the fake.
struct Record {
  int loads = 0, unloads = 0, syncs = 0;
  std::map<std::string, std::vector<uint8_t>> globals; // device memory
  std::map<std::string, size_t> filled;                // name -> bytes
  /// Stream work in order: "htod", "launch", "dtoh", "sync" (and the
  /// events of onStream()).
  std::vector<std::string> events;
  bool foreignStream = false;    // work on a stream other than the caller's
  bool foreignImage = false;     // a module image without the target's magic
  bool filledAfterLaunch = false; // a global written once kernels ran
};

/// The one record of this process.
Record &record();

/// The stream the test passes to the entry point (never dereferenced).
void *callerStream();

//===----------------------------------------------------------------------===//
// Helpers the API-specific fakes call
//===----------------------------------------------------------------------===//

/// Counts a module load and checks that `image` starts with imageMagic().
void loadModule(const void *image);
/// Counts a module unload.
void unloadModule();
/// The device address of global `name` (1 MiB of host memory, made on first
/// use); its size in *bytes.
void *globalAddress(const char *name, size_t *bytes);
/// A synchronous host-to-device copy: only into a global (the weights'
/// upload at module load). False if `dst` is not a global's address.
bool fillGlobal(const void *dst, const void *src, size_t bytes);
/// An asynchronous copy of `bytes` from `src` to `dst` on `stream`, recorded
/// as `event` ("htod" or "dtoh").
void copyAsync(void *dst, const void *src, size_t bytes, void *stream,
               const char *event);
/// A kernel launch on `stream`.
void launch(void *stream);
/// A synchronisation of `stream`.
void synchronize(void *stream);
/// Other work on `stream` (an extern kernel's, say), recorded as `event`.
void onStream(void *stream, const std::string &event);

//===----------------------------------------------------------------------===//
// Defined by each API's fake (fake_cuda.cpp, fake_hip.cpp)
//===----------------------------------------------------------------------===//

/// Makes the runtime call the fake (aot_<api>_set_driver_for_testing).
void install();
/// Gives the runtime its real driver back.
void uninstall();
/// The runtime's text of this thread's last failure (empty if none).
const char *lastError();
/// The first bytes of every module image of this target (a CUDA fatbin's
/// magic, a clang offload bundle's).
std::string_view imageMagic();

} // namespace fake

#endif // AOTC_TESTS_GPU_FAKE_DRIVER_H
