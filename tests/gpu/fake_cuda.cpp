//===- fake_cuda.cpp - The CUDA driver table of the fake driver -*- C++ -*-===//
//
// This file implements the CUDA side of fake_driver.h: an aot_cuda_driver_t
// whose entries answer for one device with one primary context and pass
// everything the generated code asks for to the shared record.
//
//===----------------------------------------------------------------------===//

#include "fake_driver.h"

#include "cuda/aot_cuda_driver.h"

namespace {

int gModule, gFunction, gContext;

aot_cu_result_t ok() { return AOT_CUDA_SUCCESS; }
void *host(aot_cu_deviceptr_t pointer) {
  return reinterpret_cast<void *>(pointer);
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
aot_cu_result_t moduleLoadData(aot_cu_module_t *module, const void *image) {
  fake::loadModule(image);
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
  *global = reinterpret_cast<aot_cu_deviceptr_t>(
      fake::globalAddress(name, bytes));
  return ok();
}
aot_cu_result_t memcpyHtoD(aot_cu_deviceptr_t dst, const void *src,
                           size_t bytes) {
  return fake::fillGlobal(host(dst), src, bytes)
             ? ok()
             : AOT_CUDA_ERROR_INVALID_VALUE; // not a global's address
}
aot_cu_result_t moduleUnload(aot_cu_module_t) {
  fake::unloadModule();
  return ok();
}
aot_cu_result_t launchKernel(aot_cu_function_t, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned,
                             aot_cu_stream_t stream, void **, void **) {
  fake::launch(stream);
  return ok();
}
aot_cu_result_t memcpyHtoDAsync(aot_cu_deviceptr_t dst, const void *src,
                                size_t bytes, aot_cu_stream_t stream) {
  fake::copyAsync(host(dst), src, bytes, stream, "htod");
  return ok();
}
aot_cu_result_t memcpyDtoHAsync(void *dst, aot_cu_deviceptr_t src,
                                size_t bytes, aot_cu_stream_t stream) {
  fake::copyAsync(dst, host(src), bytes, stream, "dtoh");
  return ok();
}
aot_cu_result_t streamSynchronize(aot_cu_stream_t stream) {
  fake::synchronize(stream);
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

/// The fake, in the member order of aot_cuda_driver_t.
const aot_cuda_driver_t gTable = {
    init, deviceGetCount, deviceGet, primaryCtxRetain, ctxGetCurrent,
    ctxSetCurrent, moduleLoadData, moduleGetFunction, moduleGetGlobal,
    memcpyHtoD, moduleUnload, launchKernel, memcpyHtoDAsync, memcpyDtoHAsync,
    streamSynchronize, errorName, errorString};

} // namespace

void fake::install() { aot_cuda_set_driver_for_testing(&gTable); }
void fake::uninstall() { aot_cuda_set_driver_for_testing(nullptr); }
const char *fake::lastError() { return aot_cuda_last_error(); }
// A fatbin's header starts with the u32 0xBA55ED50 (little-endian).
std::string_view fake::imageMagic() { return {"\x50\xED\x55\xBA", 4}; }
