//===- fake_hip.cpp - The HIP runtime table of the fake driver --*- C++ -*-===//
//
// This file implements the HIP side of fake_driver.h: an aot_hip_driver_t
// whose entries answer for one device (HIP has no context to make current)
// and pass everything the generated code asks for to the shared record.
//
//===----------------------------------------------------------------------===//

#include "fake_driver.h"

#include "hip/aot_hip_driver.h"

namespace {

int gModule, gFunction;

aot_hip_error_t ok() { return AOT_HIP_SUCCESS; }

aot_hip_error_t init(unsigned) { return ok(); }
aot_hip_error_t getDeviceCount(int *count) {
  *count = 1;
  return ok();
}
aot_hip_error_t getDevice(int *device) {
  *device = 0;
  return ok();
}
aot_hip_error_t moduleLoadData(aot_hip_module_t *module, const void *image) {
  fake::loadModule(image);
  *module = &gModule;
  return ok();
}
aot_hip_error_t moduleGetFunction(aot_hip_function_t *function,
                                  aot_hip_module_t, const char *) {
  *function = &gFunction;
  return ok();
}
aot_hip_error_t moduleGetGlobal(aot_hip_deviceptr_t *global, size_t *bytes,
                                aot_hip_module_t, const char *name) {
  *global = fake::globalAddress(name, bytes);
  return ok();
}
aot_hip_error_t memcpyHtoD(aot_hip_deviceptr_t dst, void *src, size_t bytes) {
  return fake::fillGlobal(dst, src, bytes)
             ? ok()
             : AOT_HIP_ERROR_INVALID_VALUE; // not a global's address
}
aot_hip_error_t moduleUnload(aot_hip_module_t) {
  fake::unloadModule();
  return ok();
}
aot_hip_error_t moduleLaunchKernel(aot_hip_function_t, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   unsigned, aot_hip_stream_t stream, void **,
                                   void **) {
  fake::launch(stream);
  return ok();
}
aot_hip_error_t memcpyHtoDAsync(aot_hip_deviceptr_t dst, void *src,
                                size_t bytes, aot_hip_stream_t stream) {
  fake::copyAsync(dst, src, bytes, stream, "htod");
  return ok();
}
aot_hip_error_t memcpyDtoHAsync(void *dst, aot_hip_deviceptr_t src,
                                size_t bytes, aot_hip_stream_t stream) {
  fake::copyAsync(dst, src, bytes, stream, "dtoh");
  return ok();
}
aot_hip_error_t streamSynchronize(aot_hip_stream_t stream) {
  fake::synchronize(stream);
  return ok();
}
const char *errorName(aot_hip_error_t) { return "FAKE_ERROR"; }
const char *errorString(aot_hip_error_t) { return "fake HIP runtime"; }

/// The fake, in the member order of aot_hip_driver_t.
const aot_hip_driver_t gTable = {
    init, getDeviceCount, getDevice, moduleLoadData, moduleGetFunction,
    moduleGetGlobal, memcpyHtoD, moduleUnload, moduleLaunchKernel,
    memcpyHtoDAsync, memcpyDtoHAsync, streamSynchronize, errorName,
    errorString};

} // namespace

void fake::install() { aot_hip_set_driver_for_testing(&gTable); }
void fake::uninstall() { aot_hip_set_driver_for_testing(nullptr); }
const char *fake::lastError() { return aot_hip_last_error(); }
// A clang offload bundle (one code object per chip) starts with this text.
std::string_view fake::imageMagic() { return "__CLANG_OFFLOAD_BUNDLE__"; }
