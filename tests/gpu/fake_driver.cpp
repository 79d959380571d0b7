//===- fake_driver.cpp - The record of the fake GPU driver -----*- C++ -*-===//
//
// This file implements the API-independent part of fake_driver.h: the
// record, the caller's stream and the "device" (host memory) that
// fake_cuda.cpp and fake_hip.cpp answer with.
//
//===----------------------------------------------------------------------===//

#include "fake_driver.h"

#include <cstring>

//===----------------------------------------------------------------------===//
// The record and the helpers of fake_driver.h
//===----------------------------------------------------------------------===//

namespace {

constexpr size_t kGlobalBytes = 1 << 20;
int gStream; // its address is the caller's stream

} // namespace

void fake::onStream(void *stream, const std::string &event) {
  Record &r = record();
  if (stream != callerStream())
    r.foreignStream = true;
  r.events.push_back(event);
}

fake::Record &fake::record() {
  static Record record;
  return record;
}

void *fake::callerStream() { return &gStream; }

void fake::loadModule(const void *image) {
  ++record().loads;
  std::string_view magic = imageMagic();
  if (!image || std::memcmp(image, magic.data(), magic.size()) != 0)
    record().foreignImage = true;
}

void fake::unloadModule() { ++record().unloads; }

void *fake::globalAddress(const char *name, size_t *bytes) {
  std::vector<uint8_t> &memory = record().globals[name];
  memory.resize(kGlobalBytes);
  *bytes = memory.size();
  return memory.data();
}

bool fake::fillGlobal(const void *dst, const void *src, size_t bytes) {
  Record &r = record();
  for (auto &[name, memory] : r.globals)
    if (memory.data() == dst && bytes <= memory.size()) {
      std::memcpy(memory.data(), src, bytes);
      r.filled[name] = bytes;
      for (const std::string &event : r.events)
        r.filledAfterLaunch |= event == "launch";
      return true;
    }
  return false;
}

void fake::copyAsync(void *dst, const void *src, size_t bytes, void *stream,
                     const char *event) {
  onStream(stream, event);
  std::memcpy(dst, src, bytes);
}

void fake::launch(void *stream) { onStream(stream, "launch"); }

void fake::synchronize(void *stream) {
  ++record().syncs;
  onStream(stream, "sync");
}
