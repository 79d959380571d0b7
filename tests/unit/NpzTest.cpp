//===- NpzTest.cpp - Tests of the .npz reader and tolerances ---*- C++ -*-===//
//
// Tests aot_test_support (cmake/aot_test_support): the .npz/.npy reader
// against files written by NumPy at build time (npz_fixtures.py, into
// AOT_NPZ_FIXTURE_DIR), and the per-dtype comparison of aot_tolerance.h.
//
//===----------------------------------------------------------------------===//

#include "aot_npz.h"
#include "aot_tolerance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#ifndef AOT_NPZ_FIXTURE_DIR
#error "AOT_NPZ_FIXTURE_DIR must name the directory npz_fixtures.py wrote"
#endif

using namespace aot::test;

namespace {

std::string fixture(const std::string &name) {
  return std::string(AOT_NPZ_FIXTURE_DIR) + "/" + name;
}

std::vector<uint8_t> readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

template <typename T> std::vector<T> values(const NpyArray &a) {
  const T *p = a.as<T>();
  return std::vector<T>(p, p + a.numElements());
}

const std::vector<int64_t> k23 = {2, 3};

/// Loading `file` throws NpzError whose message names the file and
/// contains `needle`.
void expectLoadError(const std::string &file, const std::string &needle) {
  try {
    NpzFile::load(fixture(file));
    ADD_FAILURE() << file << ": loaded without error";
  } catch (const NpzError &e) {
    std::string message = e.what();
    EXPECT_NE(message.find(file), std::string::npos) << message;
    EXPECT_NE(message.find(needle), std::string::npos)
        << "expected \"" << needle << "\" in: " << message;
  }
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

TEST(Npz, EveryDtype) {
  NpzFile npz = NpzFile::load(fixture("dtypes.npz"));
  EXPECT_EQ(npz.keys(), (std::vector<std::string>{"b1", "f2", "f4", "f8",
                                                  "i1", "i2", "i4", "i8",
                                                  "u1", "u2"}));
  struct Expect {
    const char *key;
    NpyDType dtype;
  };
  for (Expect e : {Expect{"f4", NpyDType::Float32},
                   Expect{"f8", NpyDType::Float64},
                   Expect{"f2", NpyDType::Float16}, Expect{"i1", NpyDType::Int8},
                   Expect{"u1", NpyDType::UInt8}, Expect{"i2", NpyDType::Int16},
                   Expect{"u2", NpyDType::UInt16}, Expect{"i4", NpyDType::Int32},
                   Expect{"i8", NpyDType::Int64}, Expect{"b1", NpyDType::Bool}}) {
    const NpyArray &a = npz.get(e.key);
    EXPECT_EQ(a.dtype, e.dtype) << e.key;
    EXPECT_EQ(a.shape, k23) << e.key;
    EXPECT_EQ(a.numElements(), 6u) << e.key;
    EXPECT_EQ(a.numBytes(), 6 * npyDTypeSize(e.dtype)) << e.key;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data.data()) % 64, 0u) << e.key;
  }

  const std::vector<float> f4 = values<float>(npz.get("f4"));
  const std::vector<double> f8 = values<double>(npz.get("f8"));
  const std::vector<uint16_t> f2 = values<uint16_t>(npz.get("f2"));
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(f4[i], (i - 2.5f) * 0.5f) << i;
    EXPECT_EQ(f8[i], i / 3.0) << i;
    EXPECT_EQ(halfToFloat(f2[i]), (i - 2) * 0.25f) << i;
  }
  EXPECT_EQ(f2[0], 0xB800); // -0.5 in binary16
  EXPECT_EQ(values<int8_t>(npz.get("i1")),
            (std::vector<int8_t>{-128, -1, 0, 1, 127, 5}));
  EXPECT_EQ(values<uint8_t>(npz.get("u1")),
            (std::vector<uint8_t>{0, 1, 2, 128, 254, 255}));
  EXPECT_EQ(values<int16_t>(npz.get("i2")),
            (std::vector<int16_t>{-32768, -1, 0, 1, 32767, 300}));
  EXPECT_EQ(values<uint16_t>(npz.get("u2")),
            (std::vector<uint16_t>{0, 1, 0x3FC0, 0x8000, 0xFFFE, 0xFFFF}));
  EXPECT_EQ(values<int32_t>(npz.get("i4")),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -1, 0,
                                  1, std::numeric_limits<int32_t>::max(),
                                  70000}));
  EXPECT_EQ(values<int64_t>(npz.get("i8")),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), -1, 0,
                                  1, std::numeric_limits<int64_t>::max(),
                                  (int64_t(1) << 40) + 3}));
  EXPECT_EQ(values<uint8_t>(npz.get("b1")),
            (std::vector<uint8_t>{1, 0, 1, 1, 0, 0}));
}

TEST(Npz, RankZero) {
  NpzFile npz = NpzFile::load(fixture("rank0.npz"));
  ASSERT_EQ(npz.size(), 3u);
  const NpyArray &f8 = npz.get("f8");
  EXPECT_EQ(f8.rank(), 0u);
  EXPECT_TRUE(f8.shape.empty());
  EXPECT_EQ(f8.numElements(), 1u);
  EXPECT_EQ(*f8.as<double>(), 3.25);
  EXPECT_EQ(*npz.get("i4").as<int32_t>(), -7);
  EXPECT_EQ(*npz.get("b1").as<uint8_t>(), 1);
  EXPECT_EQ(f8.describe(), "<f8[]");
}

TEST(Npz, RankSixAndEmpty) {
  NpzFile npz = NpzFile::load(fixture("rank6.npz"));
  const NpyArray &a = npz.get("a");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{1, 2, 3, 1, 2, 2}));
  ASSERT_EQ(a.numElements(), 24u);
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(a.as<float>()[i], float(i));
  EXPECT_EQ(a.describe(), "<f4[1,2,3,1,2,2]");

  const NpyArray &empty = npz.get("empty");
  EXPECT_EQ(empty.shape, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(empty.numElements(), 0u);
  EXPECT_EQ(empty.numBytes(), 0u);
}

TEST(Npz, FormatVersionsAndArchiveComment) {
  NpzFile npz = NpzFile::load(fixture("versions.npz"));
  for (const char *key : {"v2", "v3"}) {
    const NpyArray &a = npz.get(key);
    EXPECT_EQ(a.dtype, NpyDType::Int16) << key;
    EXPECT_EQ(values<int16_t>(a), (std::vector<int16_t>{0, 1, 2, 3, 4}))
        << key;
  }
}

TEST(Npz, Zip64Records) {
  NpzFile npz = NpzFile::load(fixture("zip64.npz"));
  EXPECT_EQ(npz.keys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(values<int16_t>(npz.get("b")),
            (std::vector<int16_t>{0, 1, 2, 3, 4}));
}

TEST(Npz, StandaloneNpy) {
  NpyArray a = loadNpy(fixture("plain.npy"));
  EXPECT_EQ(a.shape, (std::vector<int64_t>{4}));
  EXPECT_EQ(values<double>(a), (std::vector<double>{0, 1, 2, 3}));
}

TEST(Npz, MissingKeyListsAvailableOnes) {
  NpzFile npz = NpzFile::load(fixture("rank0.npz"));
  EXPECT_FALSE(npz.contains("input_0"));
  try {
    npz.get("input_0");
    ADD_FAILURE() << "no exception";
  } catch (const NpzError &e) {
    EXPECT_NE(std::string(e.what()).find("no array 'input_0' (available: b1, "
                                         "f8, i4)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Npz, WrongElementTypeThrows) {
  NpzFile npz = NpzFile::load(fixture("rank0.npz"));
  EXPECT_THROW(npz.get("f8").as<float>(), NpzError);
  EXPECT_NO_THROW(npz.get("f8").as<int64_t>()); // same size: allowed
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(NpzErrors, Compressed) {
  expectLoadError("compressed.npz", "numpy.savez_compressed");
}
TEST(NpzErrors, TruncatedArchive) {
  expectLoadError("truncated.npz", "truncated");
}
TEST(NpzErrors, TruncatedMember) {
  expectLoadError("truncated_member.npz", "data is truncated");
}
TEST(NpzErrors, TrailingBytes) {
  expectLoadError("trailing_bytes.npz", "trailing bytes");
}
TEST(NpzErrors, CrcMismatch) { expectLoadError("crc.npz", "CRC mismatch"); }
TEST(NpzErrors, FortranOrder) {
  expectLoadError("fortran.npz", "fortran_order");
}
TEST(NpzErrors, BigEndian) { expectLoadError("bigendian.npz", "big-endian"); }
TEST(NpzErrors, UnsupportedDtype) {
  expectLoadError("complex.npz", "unsupported dtype '<c8'");
}
TEST(NpzErrors, PickledObjects) { expectLoadError("object.npz", "object"); }
TEST(NpzErrors, StructuredDtype) {
  expectLoadError("structured.npz", "structured");
}
TEST(NpzErrors, MemberNotNpy) {
  expectLoadError("not_npy.npz", "not a .npy file");
}
TEST(NpzErrors, NotAZip) { expectLoadError("not_a_zip.npz", "not a zip"); }
TEST(NpzErrors, EmptyFile) { expectLoadError("empty.npz", "not a zip"); }
TEST(NpzErrors, MissingFile) {
  expectLoadError("does_not_exist.npz", "cannot open");
}

// Every prefix of a valid archive and every single corrupted byte either
// parses or throws NpzError: no crash, no read past the buffer (run this
// under AddressSanitizer to make the last part meaningful).
TEST(NpzErrors, EveryTruncationAndByteFlipIsHandled) {
  const std::vector<uint8_t> whole = readBytes(fixture("rank0.npz"));
  ASSERT_FALSE(whole.empty());
  for (size_t n = 0; n < whole.size(); ++n) {
    // Copy so that the sanitizer sees the exact buffer end.
    std::vector<uint8_t> prefix(whole.begin(), whole.begin() + n);
    EXPECT_THROW(NpzFile::parse(prefix.data(), prefix.size(), "prefix"),
                 NpzError)
        << "prefix of " << n << " bytes";
  }
  for (size_t i = 0; i < whole.size(); ++i) {
    for (uint8_t value : {uint8_t(0x00), uint8_t(0xFF), uint8_t(whole[i] ^ 1)}) {
      std::vector<uint8_t> bytes = whole;
      bytes[i] = value;
      try {
        NpzFile::parse(bytes.data(), bytes.size(), "flipped");
      } catch (const NpzError &) {
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// aot_tolerance.h
//===----------------------------------------------------------------------===//

TEST(Tolerance, DefaultsAreTheContractsOnes) {
  EXPECT_EQ(defaultTolerance(AOT_DTYPE_F32).rtol, 1e-4);
  EXPECT_EQ(defaultTolerance(AOT_DTYPE_F32).atol, 1e-5);
  EXPECT_EQ(defaultTolerance(AOT_DTYPE_F64).rtol, 1e-10);
  EXPECT_EQ(defaultTolerance(AOT_DTYPE_F64).atol, 1e-12);
  for (int32_t d : {AOT_DTYPE_F16, AOT_DTYPE_BF16}) {
    EXPECT_EQ(defaultTolerance(d).rtol, 1e-2);
    EXPECT_EQ(defaultTolerance(d).atol, 1e-3);
  }
  for (int32_t d : {AOT_DTYPE_I8, AOT_DTYPE_U8, AOT_DTYPE_I16, AOT_DTYPE_I32,
                    AOT_DTYPE_I64, AOT_DTYPE_BOOL}) {
    EXPECT_EQ(defaultTolerance(d).rtol, 0.0);
    EXPECT_EQ(defaultTolerance(d).atol, 0.0);
  }
}

TEST(Tolerance, SixteenBitFloats) {
  EXPECT_EQ(halfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(halfToFloat(0xC000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24)); // subnormal
  EXPECT_TRUE(std::isinf(halfToFloat(0x7C00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
  EXPECT_EQ(bfloat16ToFloat(0x3FC0), 1.5f);
  EXPECT_EQ(bfloat16ToFloat(0xC000), -2.0f);
}

TEST(Tolerance, ReportsTheWorstElement) {
  const float expected[6] = {1, 2, 3, 4, 5, 6};
  const float actual[6] = {1, 2.1f, 3, 4, 5.00001f, 7};
  CompareResult r = compareTensors(AOT_DTYPE_F32, actual, expected, 6,
                                   defaultTolerance(AOT_DTYPE_F32));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.mismatches, 2u); // 5.00001 is within rtol 1e-4
  EXPECT_EQ(r.worstIndex, 5u); // |diff| 1 beats |diff| 0.1
  EXPECT_EQ(r.worstActual, "7");
  EXPECT_EQ(r.worstExpected, "6");
  std::string text = describeMismatch(r, k23);
  EXPECT_NE(text.find("2 of 6 elements differ; worst at [1,2] (flat 5)"),
            std::string::npos)
      << text;
}

TEST(Tolerance, NanAndInfinity) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double expected[4] = {nan, inf, -inf, 1};
  const double same[4] = {nan, inf, -inf, 1};
  EXPECT_TRUE(compareTensors(AOT_DTYPE_F64, same, expected, 4,
                             defaultTolerance(AOT_DTYPE_F64))
                  .ok());
  const double wrong[4] = {0, -inf, inf, nan};
  CompareResult r = compareTensors(AOT_DTYPE_F64, wrong, expected, 4,
                                   defaultTolerance(AOT_DTYPE_F64));
  EXPECT_EQ(r.mismatches, 4u);
}

TEST(Tolerance, IntegersAreExactUnlessToldOtherwise) {
  const int64_t expected[2] = {int64_t(1) << 60, -3};
  const int64_t actual[2] = {(int64_t(1) << 60) + 1, -3}; // beyond double
  CompareResult r = compareTensors(AOT_DTYPE_I64, actual, expected, 2,
                                   defaultTolerance(AOT_DTYPE_I64));
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.worstActual, "1152921504606846977");

  const int8_t e8[2] = {-5, 7}, a8[2] = {-4, 7};
  EXPECT_FALSE(compareTensors(AOT_DTYPE_I8, a8, e8, 2, {}).ok());
  EXPECT_EQ(compareTensors(AOT_DTYPE_I8, a8, e8, 2, {}).worstActual, "-4");
  EXPECT_TRUE(compareTensors(AOT_DTYPE_I8, a8, e8, 2, Tolerance{0, 1}).ok());

  const uint8_t eb[2] = {1, 0}, ab[2] = {1, 2};
  EXPECT_FALSE(compareTensors(AOT_DTYPE_BOOL, ab, eb, 2, Tolerance{0, 5}).ok());
}

TEST(Tolerance, HalfWithinDefaultTolerance) {
  // 1.0 vs 1.0078125 (one bf16 ulp): within rtol 1e-2.
  const uint16_t expected[1] = {0x3F80}, actual[1] = {0x3F81};
  EXPECT_TRUE(compareTensors(AOT_DTYPE_BF16, actual, expected, 1,
                             defaultTolerance(AOT_DTYPE_BF16))
                  .ok());
  // 1.0 vs 1.0625 in binary16: outside.
  const uint16_t e16[1] = {0x3C00}, a16[1] = {0x3C40};
  EXPECT_FALSE(compareTensors(AOT_DTYPE_F16, a16, e16, 1,
                              defaultTolerance(AOT_DTYPE_F16))
                   .ok());
}

} // namespace
