//===- aot_tolerance.h - Per-dtype tolerances and comparison ---*- C++ -*-===//
//
// The one place where the numeric tolerances of aotc tests are stated
// (docs/contracts.md), and an element-wise comparison that reports the worst
// mismatch instead of every one of possibly millions of elements.
//
// An element passes when |actual - expected| <= atol + rtol * |expected|
// (numpy.allclose's rule). NaN matches NaN, an infinity only the same
// infinity; integers and bools are compared exactly unless a test gives a
// non-zero tolerance.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TEST_SUPPORT_AOT_TOLERANCE_H
#define AOT_TEST_SUPPORT_AOT_TOLERANCE_H

#include "aot_abi/aot_abi.h"
#include "aot_dtype.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace aot {
namespace test {

//===----------------------------------------------------------------------===//
// Tolerances
//===----------------------------------------------------------------------===//

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

/// The default tolerance for an AOT_DTYPE_* code (contracts.md):
///   f32 rtol 1e-4 atol 1e-5; f64 rtol 1e-10 atol 1e-12;
///   f16/bf16 rtol 1e-2 atol 1e-3; integers and bool exact.
inline Tolerance defaultTolerance(int32_t dtype) {
  switch (dtype) {
  case AOT_DTYPE_F32: return {1e-4, 1e-5};
  case AOT_DTYPE_F64: return {1e-10, 1e-12};
  case AOT_DTYPE_F16:
  case AOT_DTYPE_BF16: return {1e-2, 1e-3};
  default: return {0, 0};
  }
}

//===----------------------------------------------------------------------===//
// 16-bit floats
//===----------------------------------------------------------------------===//

/// IEEE binary16 bits to float (exact; handles subnormals, inf, NaN).
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0x1F) { // inf / NaN
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp != 0) { // normal
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) { // +-0
    bits = sign;
  } else { // subnormal: value = mant * 2^-24
    float f = std::ldexp(float(mant), -24);
    return sign ? -f : f;
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// bfloat16 bits to float (exact: the upper half of a binary32).
inline float bfloat16ToFloat(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// The outcome of comparing two tensors element by element.
struct CompareResult {
  size_t count = 0;      ///< elements compared
  size_t mismatches = 0; ///< elements outside the tolerance
  // The worst element: the largest |actual - expected| / allowed error.
  size_t worstIndex = 0; ///< flat (C-order) index; valid when mismatches > 0
  std::string worstActual, worstExpected;
  double worstAbsError = 0; ///< |actual - expected| at worstIndex
  double worstAllowed = 0;  ///< atol + rtol * |expected| at worstIndex
  double maxAbsError = 0;   ///< over all finite elements
  Tolerance tolerance;

  bool ok() const { return mismatches == 0; }
};

namespace detail {
template <typename T> std::string formatValue(T v) {
  std::ostringstream os;
  os.precision(std::numeric_limits<T>::max_digits10);
  if constexpr (sizeof(T) == 1 && std::is_integral<T>::value)
    os << int(v); // not as a character
  else
    os << v;
  return os.str();
}

/// Compares `count` elements, converting each with `value` (to a double) and
/// `format` (to a string for the report); T is the storage type.
template <typename T, typename Value, typename Format>
CompareResult compareWith(const void *actual, const void *expected,
                          size_t count, Tolerance tol, Value value,
                          Format format) {
  CompareResult r;
  r.count = count;
  r.tolerance = tol;
  const uint8_t *a = static_cast<const uint8_t *>(actual);
  const uint8_t *e = static_cast<const uint8_t *>(expected);
  double worstScore = -1;
  for (size_t i = 0; i < count; ++i) {
    T av, ev;
    std::memcpy(&av, a + i * sizeof(T), sizeof(T));
    std::memcpy(&ev, e + i * sizeof(T), sizeof(T));
    double x = value(av), y = value(ev);
    double err, allowed = tol.atol + tol.rtol * std::fabs(y);
    bool pass;
    if (std::isnan(x) || std::isnan(y)) {
      pass = std::isnan(x) && std::isnan(y);
      err = pass ? 0 : std::numeric_limits<double>::infinity();
    } else if (std::isinf(x) || std::isinf(y)) {
      pass = x == y;
      err = pass ? 0 : std::numeric_limits<double>::infinity();
    } else {
      err = std::fabs(x - y);
      pass = err <= allowed;
      if (err > r.maxAbsError)
        r.maxAbsError = err;
    }
    if (pass)
      continue;
    ++r.mismatches;
    double score = allowed > 0 ? err / allowed
                               : std::numeric_limits<double>::infinity();
    if (score > worstScore) {
      worstScore = score;
      r.worstIndex = i;
      r.worstActual = format(av);
      r.worstExpected = format(ev);
      r.worstAbsError = err;
      r.worstAllowed = allowed;
    }
  }
  return r;
}

/// Exact comparison of integers (no conversion to double, so int64 values
/// beyond 2^53 are compared exactly).
template <typename T>
CompareResult compareExact(const void *actual, const void *expected,
                           size_t count) {
  CompareResult r;
  r.count = count;
  const uint8_t *a = static_cast<const uint8_t *>(actual);
  const uint8_t *e = static_cast<const uint8_t *>(expected);
  double worstErr = -1;
  for (size_t i = 0; i < count; ++i) {
    T av, ev;
    std::memcpy(&av, a + i * sizeof(T), sizeof(T));
    std::memcpy(&ev, e + i * sizeof(T), sizeof(T));
    if (av == ev)
      continue;
    ++r.mismatches;
    double err = std::fabs(double(av) - double(ev));
    if (err > r.maxAbsError)
      r.maxAbsError = err;
    if (err > worstErr) {
      worstErr = err;
      r.worstIndex = i;
      r.worstActual = formatValue(av);
      r.worstExpected = formatValue(ev);
      r.worstAbsError = err;
    }
  }
  return r;
}

template <typename T>
CompareResult compareInteger(const void *actual, const void *expected,
                             size_t count, Tolerance tol) {
  if (tol.atol == 0 && tol.rtol == 0)
    return compareExact<T>(actual, expected, count);
  return compareWith<T>(
      actual, expected, count, tol, [](T v) { return double(v); },
      [](T v) { return formatValue(v); });
}
} // namespace detail

/// Compares `count` elements of ABI dtype `dtype` stored at `actual` and
/// `expected` (any alignment). Bool is compared bytewise and exactly.
inline CompareResult compareTensors(int32_t dtype, const void *actual,
                                    const void *expected, size_t count,
                                    Tolerance tol) {
  using namespace detail;
  auto fmtFloat = [](auto v) { return formatValue(v); };
  switch (dtype) {
  case AOT_DTYPE_F32:
    return compareWith<float>(
        actual, expected, count, tol, [](float v) { return double(v); },
        fmtFloat);
  case AOT_DTYPE_F64:
    return compareWith<double>(
        actual, expected, count, tol, [](double v) { return v; }, fmtFloat);
  case AOT_DTYPE_F16:
    return compareWith<uint16_t>(
        actual, expected, count, tol,
        [](uint16_t v) { return double(halfToFloat(v)); },
        [](uint16_t v) { return formatValue(halfToFloat(v)); });
  case AOT_DTYPE_BF16:
    return compareWith<uint16_t>(
        actual, expected, count, tol,
        [](uint16_t v) { return double(bfloat16ToFloat(v)); },
        [](uint16_t v) { return formatValue(bfloat16ToFloat(v)); });
  case AOT_DTYPE_I8: return compareInteger<int8_t>(actual, expected, count, tol);
  case AOT_DTYPE_U8:
    return compareInteger<uint8_t>(actual, expected, count, tol);
  case AOT_DTYPE_I16:
    return compareInteger<int16_t>(actual, expected, count, tol);
  case AOT_DTYPE_I32:
    return compareInteger<int32_t>(actual, expected, count, tol);
  case AOT_DTYPE_I64:
    return compareInteger<int64_t>(actual, expected, count, tol);
  case AOT_DTYPE_BOOL: return compareExact<uint8_t>(actual, expected, count);
  default: {
    CompareResult r;
    r.count = count;
    r.mismatches = count ? count : 1;
    r.worstActual = r.worstExpected = "<unknown dtype " +
                                      std::to_string(dtype) + ">";
    return r;
  }
  }
}

/// Turns a flat C-order index into "[i,j,k]" for `shape`.
inline std::string formatIndex(size_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t extent = shape[d] > 0 ? shape[d] : 1;
    idx[d] = int64_t(flat % size_t(extent));
    flat /= size_t(extent);
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? "," : "") + std::to_string(idx[d]);
  return s + "]";
}

/// A one-paragraph description of a failed comparison, e.g.
///   "3 of 6 elements differ; worst at [1,2] (flat 5): actual 2.5, expected
///    2.25, |diff| 0.25 > allowed 2.35e-05 (rtol 1e-4, atol 1e-5);
///    max |diff| 0.25"
inline std::string describeMismatch(const CompareResult &r,
                                    const std::vector<int64_t> &shape) {
  std::ostringstream os;
  os << r.mismatches << " of " << r.count << " elements differ";
  if (r.mismatches) {
    os << "; worst at " << formatIndex(r.worstIndex, shape) << " (flat "
       << r.worstIndex << "): actual " << r.worstActual << ", expected "
       << r.worstExpected << ", |diff| " << r.worstAbsError << " > allowed "
       << r.worstAllowed << " (rtol " << r.tolerance.rtol << ", atol "
       << r.tolerance.atol << "); max finite |diff| " << r.maxAbsError;
  }
  return os.str();
}

} // namespace test
} // namespace aot

#endif // AOT_TEST_SUPPORT_AOT_TOLERANCE_H
