//===- bench_cases.h - The operator cases of gen_ops.py -------*- C++ -*-===//
//
// What bench_ops.cpp (CPU, vs oneDNN) and bench_gpu.cpp (CUDA, vs cuDNN)
// share about the cases that gen_ops.py writes: the case record of its
// ops_cases.h, the kinds, the constants every weight is made of (repeated
// bit for bit from its det_values()) and the work one call does.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_BENCH_BENCH_CASES_H
#define AOTC_BENCH_BENCH_CASES_H

#include "aot_abi/aot_abi.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using InfoFn = const aot_model_info_t *(*)(void);

/// One benchmark case of ops_cases.h (see gen_ops.py for `params`: conv
/// C_in, C_out, H, W, kernel, stride, pad, groups; the others rows, columns).
struct OpCase {
  int kind;
  const char *kindName;
  const char *label;
  int params[9];
  void (*fn)();
  InfoFn info;
};

namespace bench {

enum Kind { kConv = 0, kEltwise = 1, kSoftmax = 2, kLayerNorm = 3 };

/// gen_ops.py's det_values(): n floats in [-scale, scale).
inline std::vector<float> detValues(size_t n, double scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t h = static_cast<uint32_t>(i) * 2654435761u;
    float x = static_cast<float>((h >> 16) & 0xFFFF);
    v[i] = (x / 65536.0f - 0.5f) * static_cast<float>(2.0 * scale);
  }
  return v;
}

/// Output height (or width) of a convolution case.
inline int convOutput(const OpCase &c, int extent) {
  const int *p = c.params;
  return (extent + 2 * p[6] - p[4]) / p[5] + 1;
}

/// Work per call: FLOPs (conv) or bytes read + written (the others); a
/// copy peer of the elementwise chain moves one input less.
inline double workPerCall(const OpCase &c, bool copyPeer = false) {
  const int *p = c.params;
  switch (c.kind) {
  case kConv:
    return 2.0 * p[1] * convOutput(c, p[2]) * convOutput(c, p[3]) *
           (p[0] / p[7]) * p[4] * p[4];
  case kEltwise:
    return (copyPeer ? 2.0 : 3.0) * 4.0 * p[0] * p[1];
  default:
    return 2.0 * 4.0 * p[0] * p[1];
  }
}

} // namespace bench

#endif // AOTC_BENCH_BENCH_CASES_H
