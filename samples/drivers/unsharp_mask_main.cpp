//===- unsharp_mask_main.cpp - C++17 driver for unsharp_mask -*- C++ -*-===//
//
// This file shows how a C++ program uses an aotc artifact: RAII ownership of
// the caller-provided pool, reading the model's self-description, turning a
// non-zero aot_status_t into a readable message with aot_status_string(), and
// checking the "no output is written on any error" rule. The result is
// compared with an independent reference (a direct 3x3 stencil written here).
//
// Exit status: 0 when every call behaves as documented and the output
// matches the reference, 1 otherwise.
//
//===----------------------------------------------------------------------===//

#include "unsharp_mask.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kH = 1080, kW = 1920, kC = 3;
constexpr size_t kNumElements = size_t(kH) * kW * kC;

// f32 tolerance from docs/contracts.md; the model is exact in f32, so the
// observed error is expected to be 0.
constexpr double kRtol = 1e-4, kAtol = 1e-5;

//===----------------------------------------------------------------------===//
// Pool ownership
//===----------------------------------------------------------------------===//

/// Frees memory from std::aligned_alloc.
struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
using Pool = std::unique_ptr<void, FreeDeleter>;

/// An aligned block of at least `bytes` (rounded up, as aligned_alloc
/// requires a multiple of the alignment). Never returns a null pool for a
/// zero size, so callers need no special case.
Pool allocatePool(size_t bytes, size_t alignment) {
  size_t rounded = std::max<size_t>(
      alignment, (bytes + alignment - 1) / alignment * alignment);
  return Pool(std::aligned_alloc(alignment, rounded));
}

//===----------------------------------------------------------------------===//
// Input and reference
//===----------------------------------------------------------------------===//

/// The same deterministic synthetic image as unsharp_mask_main.c: gradients,
/// hard-edged blocks and LCG noise; every byte value 0..255 occurs.
std::vector<uint8_t> makeImage() {
  std::vector<uint8_t> img(kNumElements);
  uint32_t state = 12345u;
  for (int h = 0; h < kH; ++h)
    for (int w = 0; w < kW; ++w) {
      uint8_t *px = &img[(size_t(h) * kW + w) * kC];
      bool block = ((h / 60) + (w / 80)) & 1;
      state = state * 1664525u + 1013904223u;
      uint32_t noise = (state >> 24) & 0x1fu;
      px[0] = uint8_t((w * 255) / (kW - 1));
      px[1] = uint8_t(block ? 230u + (noise & 0x0fu) : noise);
      px[2] = uint8_t(((h * 255) / (kH - 1) + noise) & 0xffu);
    }
  return img;
}

/// clamp(x + 1.5 (x - blur), 0, 255), blur = [1 2 1; 2 4 2; 1 2 1] / 16 with
/// zero padding, evaluated directly from the bytes.
std::vector<float> referenceUnsharpMask(const std::vector<uint8_t> &img) {
  static const float kKernel[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
  std::vector<float> out(kNumElements);
  auto at = [&](int h, int w, int c) -> float {
    if (h < 0 || h >= kH || w < 0 || w >= kW)
      return 0.0f; // zero padding
    return float(img[(size_t(h) * kW + w) * kC + c]);
  };
  for (int h = 0; h < kH; ++h)
    for (int w = 0; w < kW; ++w)
      for (int c = 0; c < kC; ++c) {
        float sum = 0.0f;
        for (int dh = -1; dh <= 1; ++dh)
          for (int dw = -1; dw <= 1; ++dw)
            sum += kKernel[dh + 1][dw + 1] * at(h + dh, w + dw, c);
        float x = at(h, w, c);
        out[(size_t(h) * kW + w) * kC + c] =
            std::clamp(x + 1.5f * (x - sum / 16.0f), 0.0f, 255.0f);
      }
  return out;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// Prints a failed status by name; returns true on AOT_OK.
bool check(aot_status_t status, const char *what) {
  if (status == AOT_OK)
    return true;
  std::printf("%s: error %d: %s\n", what, int(status),
              aot_status_string(status));
  return false;
}

/// Expects `status == expected` and an untouched output (the poison value
/// written before the call is still there everywhere).
bool expectError(const char *what, aot_status_t status, aot_status_t expected,
                 const std::vector<float> &out, uint32_t poisonBits) {
  std::printf("  %-32s -> %d: %s\n", what, int(status),
              aot_status_string(status));
  bool untouched = std::all_of(out.begin(), out.end(), [&](float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits == poisonBits;
  });
  if (status != expected)
    std::printf("    FAIL: expected %d (%s)\n", int(expected),
                aot_status_string(expected));
  if (!untouched)
    std::printf("    FAIL: the output was written despite the error\n");
  return status == expected && untouched;
}

std::string shapeString(const aot_tensor_info_t &t) {
  std::string s = "[";
  for (int32_t i = 0; i < t.rank; ++i)
    s += (i ? "," : "") + std::to_string(t.shape[i]);
  return s + "]";
}

} // namespace

int main() {
  bool ok = true;

  //===--------------------------------------------------------------------===//
  // The model describes itself; a generic loader would start here.
  //===--------------------------------------------------------------------===//
  const aot_model_info_t *info = unsharp_mask_info();
  std::printf("%s (abi %u, target %s): ", info->name, info->abi_version,
              info->target);
  for (int32_t i = 0; i < info->num_inputs; ++i)
    std::printf("in %s dtype=%d %s  ", info->inputs[i].name,
                info->inputs[i].dtype, shapeString(info->inputs[i]).c_str());
  for (int32_t i = 0; i < info->num_outputs; ++i)
    std::printf("out %s dtype=%d %s  ", info->outputs[i].name,
                info->outputs[i].dtype, shapeString(info->outputs[i]).c_str());
  std::printf("pool %llu bytes / %u\n", (unsigned long long)info->pool_bytes,
              info->pool_alignment);
  if (info->abi_version != AOT_ABI_VERSION ||
      info->pool_bytes != UNSHARP_MASK_POOL_BYTES ||
      info->pool_alignment != UNSHARP_MASK_POOL_ALIGNMENT) {
    std::printf("FAIL: unsharp_mask_info() disagrees with the header\n");
    ok = false;
  }

  std::vector<uint8_t> image = makeImage();
  // The i8 input carries raw bytes; the model reads them as unsigned.
  const auto *input = reinterpret_cast<const int8_t *>(image.data());
  std::vector<float> out(kNumElements);
  Pool pool = allocatePool(UNSHARP_MASK_POOL_BYTES, UNSHARP_MASK_POOL_ALIGNMENT);
  if (!pool) {
    std::printf("out of memory\n");
    return 1;
  }

  //===--------------------------------------------------------------------===//
  // Error handling: each bad call must fail cleanly and leave `out` alone.
  //===--------------------------------------------------------------------===//
  std::printf("error handling:\n");
  const uint32_t kPoison = 0x7fc0dead; // a quiet NaN pattern
  float poison;
  std::memcpy(&poison, &kPoison, sizeof poison);
  std::fill(out.begin(), out.end(), poison);

  if (UNSHARP_MASK_POOL_BYTES > 0) {
    // One byte short of the header's figure.
    ok &= expectError("pool_bytes = POOL_BYTES - 1",
                      unsharp_mask(input, out.data(), pool.get(),
                                   UNSHARP_MASK_POOL_BYTES - 1, nullptr),
                      AOT_ERROR_POOL_TOO_SMALL, out, kPoison);
  } else {
    std::printf("  (the model needs no pool; skipping the too-small case)\n");
  }
  ok &= expectError("image = NULL",
                    unsharp_mask(nullptr, out.data(), pool.get(),
                                 UNSHARP_MASK_POOL_BYTES, nullptr),
                    AOT_ERROR_INVALID_ARGUMENT, out, kPoison);
  aot_cpu_stream_t badStream{/*struct_size=*/3, /*num_threads=*/2};
  ok &= expectError("stream.struct_size = 3",
                    unsharp_mask(input, out.data(), pool.get(),
                                 UNSHARP_MASK_POOL_BYTES, &badStream),
                    AOT_ERROR_INVALID_ARGUMENT, out, kPoison);

  //===--------------------------------------------------------------------===//
  // Real calls: default stream, then 2 threads.
  //===--------------------------------------------------------------------===//
  auto t0 = std::chrono::steady_clock::now();
  std::vector<float> ref = referenceUnsharpMask(image);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("[reference] %.2f ms (naive C++ loops)\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count());

  aot_cpu_stream_t twoThreads{sizeof(aot_cpu_stream_t), 2};
  struct Run {
    const char *label;
    aot_stream_t stream;
  } runs[] = {{"stream=nullptr", nullptr}, {"2 threads", &twoThreads}};
  for (const Run &run : runs) {
    // Warm-up (thread start-up, first touch of the pool), then timed call.
    if (!check(unsharp_mask(input, out.data(), pool.get(),
                            UNSHARP_MASK_POOL_BYTES, run.stream),
               run.label)) {
      ok = false;
      continue;
    }
    std::fill(out.begin(), out.end(), poison);
    t0 = std::chrono::steady_clock::now();
    aot_status_t st = unsharp_mask(input, out.data(), pool.get(),
                                   UNSHARP_MASK_POOL_BYTES, run.stream);
    t1 = std::chrono::steady_clock::now();
    if (!check(st, run.label)) {
      ok = false;
      continue;
    }
    double maxErr = 0.0;
    size_t bad = 0;
    for (size_t i = 0; i < kNumElements; ++i) {
      double err = std::fabs(double(out[i]) - double(ref[i]));
      if (std::isnan(err)) // an unwritten (poisoned) or NaN output
        err = std::numeric_limits<double>::infinity();
      if (err > kAtol + kRtol * std::fabs(double(ref[i])))
        ++bad;
      maxErr = std::max(maxErr, err);
    }
    const size_t mid = (size_t(540) * kW + 960) * kC;
    std::printf("[%s] %.2f ms, out[0,0,:] = %.4f %.4f %.4f, out[540,960,:] = "
                "%.4f %.4f %.4f\n",
                run.label,
                std::chrono::duration<double, std::milli>(t1 - t0).count(),
                out[0], out[1], out[2], out[mid], out[mid + 1], out[mid + 2]);
    std::printf("[%s] max abs error %g, %zu of %zu outside tolerance: %s\n",
                run.label, maxErr, bad, kNumElements,
                bad == 0 ? "MATCH" : "MISMATCH");
    ok &= bad == 0;
  }

  std::printf("%s\n", ok ? "MATCH" : "MISMATCH");
  return ok ? 0 : 1;
}
