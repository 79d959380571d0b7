//===- bench_cases.h - The operator cases of gen_ops.py -------*- C++ -*-===//
//
// What bench_ops.cpp (CPU, vs oneDNN) and bench_gpu.cpp (CUDA, vs cuDNN)
// share about the cases that gen_ops.py writes: the case record of its
// ops_cases.h, the kinds, the constants every weight is made of (repeated
// bit for bit from its det_values()), the work one call does, and a host
// reference of every case.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_BENCH_BENCH_CASES_H
#define AOTC_BENCH_BENCH_CASES_H

#include "aot_abi/aot_abi.h"

#include <algorithm>
#include <cmath>
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

/// The output of case `c` for `inputs` (plain layouts, as the entry point
/// takes them), computed on the host in double: convolutions with
/// gen_ops.py's weights and bias (NCHW, groups, stride, padding), softmax
/// rows, LayerNorm rows (gen_ops.py's scale and shift, eps 1e-5) and the erf
/// GELU chain. bench_ops checks it against oneDNN; bench_gpu uses it where
/// no GPU library computes a case.
inline std::vector<float>
hostReference(const OpCase &c, const std::vector<std::vector<float>> &inputs) {
  const int *p = c.params;
  int rows = p[0], cols = p[1];
  const std::vector<float> &x = inputs[0];
  if (c.kind == kConv) {
    int h = p[2], w = p[3], k = p[4], stride = p[5], pad = p[6];
    int inPerGroup = p[0] / p[7], outPerGroup = p[1] / p[7];
    int ho = convOutput(c, h), wo = convOutput(c, w);
    std::vector<float> weights = detValues(
        size_t(p[1]) * inPerGroup * k * k,
        1.0 / std::sqrt(double(inPerGroup) * k * k));
    std::vector<float> bias = detValues(p[1], 0.1);
    std::vector<float> y(size_t(p[1]) * ho * wo);
    for (int o = 0; o < p[1]; ++o) {
      int first = o / outPerGroup * inPerGroup; // the group's first channel
      for (int oy = 0; oy < ho; ++oy)
        for (int ox = 0; ox < wo; ++ox) {
          double acc = bias[o];
          for (int i = 0; i < inPerGroup; ++i)
            for (int ky = 0; ky < k; ++ky)
              for (int kx = 0; kx < k; ++kx) {
                int iy = oy * stride - pad + ky, ix = ox * stride - pad + kx;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                  continue;
                acc += double(x[(size_t(first + i) * h + iy) * w + ix]) *
                       weights[((size_t(o) * inPerGroup + i) * k + ky) * k +
                               kx];
              }
          y[(size_t(o) * ho + oy) * wo + ox] = float(acc);
        }
    }
    return y;
  }
  std::vector<float> ref(x.size());
  if (c.kind == kSoftmax) {
    for (int r = 0; r < rows; ++r) {
      const float *row = &x[size_t(r) * cols];
      double max = row[0], sum = 0;
      for (int j = 0; j < cols; ++j)
        max = std::max<double>(max, row[j]);
      for (int j = 0; j < cols; ++j)
        sum += std::exp(row[j] - max);
      for (int j = 0; j < cols; ++j)
        ref[size_t(r) * cols + j] = float(std::exp(row[j] - max) / sum);
    }
    return ref;
  }
  if (c.kind == kEltwise) {
    std::vector<float> bias = detValues(cols, 0.1);
    for (size_t i = 0; i < x.size(); ++i) {
      double t = double(x[i]) + bias[i % cols];
      ref[i] = float(0.5 * t * (1.0 + std::erf(t / std::sqrt(2.0))) +
                     inputs[1][i]);
    }
    return ref;
  }
  std::vector<float> scale = detValues(cols, 0.25),
                     shift = detValues(cols, 0.1);
  for (int r = 0; r < rows; ++r) {
    const float *row = &x[size_t(r) * cols];
    double mean = 0, var = 0;
    for (int j = 0; j < cols; ++j)
      mean += row[j];
    mean /= cols;
    for (int j = 0; j < cols; ++j)
      var += (row[j] - mean) * (row[j] - mean);
    double inv = 1.0 / std::sqrt(var / cols + 1e-5);
    for (int j = 0; j < cols; ++j)
      ref[size_t(r) * cols + j] = float(
          (row[j] - mean) * inv * (scale[j] + 1.0f) + shift[j]);
  }
  return ref;
}

} // namespace bench

#endif // AOTC_BENCH_BENCH_CASES_H
