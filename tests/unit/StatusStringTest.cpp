//===- StatusStringTest.cpp - aot_status_string and ABI layout -*- C++ -*-===//
//
// This file tests the runtime's aot_status_string() and pins the binary
// layout of the public ABI structs. Generic loaders (Python ctypes, other
// languages' FFIs) hard-code these offsets, so a change here is an ABI break
// that must come with an AOT_ABI_VERSION bump, not a quiet test update.
//
//===----------------------------------------------------------------------===//

#include "aot_abi/aot_abi.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>

namespace {

//===----------------------------------------------------------------------===//
// aot_status_string
//===----------------------------------------------------------------------===//

constexpr aot_status_t kAllCodes[] = {
    AOT_OK,          AOT_ERROR_INVALID_ARGUMENT, AOT_ERROR_POOL_TOO_SMALL,
    AOT_ERROR_SHAPE, AOT_ERROR_NO_DEVICE,        AOT_ERROR_DEVICE,
    AOT_ERROR_INTERNAL};

TEST(StatusStringTest, CodeValuesArePinned) {
  // The values are part of the ABI, not just the names.
  EXPECT_EQ(AOT_OK, 0);
  EXPECT_EQ(AOT_ERROR_INVALID_ARGUMENT, 1);
  EXPECT_EQ(AOT_ERROR_POOL_TOO_SMALL, 2);
  EXPECT_EQ(AOT_ERROR_SHAPE, 3);
  EXPECT_EQ(AOT_ERROR_NO_DEVICE, 4);
  EXPECT_EQ(AOT_ERROR_DEVICE, 5);
  EXPECT_EQ(AOT_ERROR_INTERNAL, 6);
  static_assert(std::is_same<aot_status_t, int32_t>::value,
                "aot_status_t must be int32_t");
}

TEST(StatusStringTest, EveryCodeHasADistinctNonEmptyString) {
  std::set<std::string> seen;
  const std::string unknown = aot_status_string(-1);
  for (aot_status_t code : kAllCodes) {
    const char *s = aot_status_string(code);
    ASSERT_NE(s, nullptr) << "code " << code;
    EXPECT_GT(std::strlen(s), 0u) << "code " << code;
    EXPECT_NE(unknown, s) << "code " << code << " reported as unknown";
    EXPECT_TRUE(seen.insert(s).second) << "duplicate string for code " << code;
  }
  EXPECT_EQ(seen.size(), 7u);
}

TEST(StatusStringTest, StringsNameTheirCode) {
  // Users grep logs for the enumerator, so each string starts with it.
  EXPECT_EQ(std::string(aot_status_string(AOT_OK)).rfind("AOT_OK", 0), 0u);
  EXPECT_EQ(std::string(aot_status_string(AOT_ERROR_POOL_TOO_SMALL))
                .rfind("AOT_ERROR_POOL_TOO_SMALL", 0),
            0u);
  EXPECT_EQ(std::string(aot_status_string(AOT_ERROR_NO_DEVICE))
                .rfind("AOT_ERROR_NO_DEVICE", 0),
            0u);
}

TEST(StatusStringTest, UnknownAndNegativeCodes) {
  const aot_status_t unknownCodes[] = {7, 8, 100, 0x7fffffff, -1, -6,
                                       INT32_MIN};
  for (aot_status_t code : unknownCodes) {
    const char *s = aot_status_string(code);
    ASSERT_NE(s, nullptr) << "code " << code;
    EXPECT_STREQ(s, "unknown aot_status_t") << "code " << code;
  }
}

TEST(StatusStringTest, StringsAreStatic) {
  // The same pointer every time: a static literal, never an allocated buffer
  // that the caller would have to free or that a second call could overwrite.
  for (aot_status_t code : kAllCodes)
    EXPECT_EQ(aot_status_string(code), aot_status_string(code));
  EXPECT_EQ(aot_status_string(42), aot_status_string(-42));
}

//===----------------------------------------------------------------------===//
// ABI constants
//===----------------------------------------------------------------------===//

TEST(AbiTest, Version) { EXPECT_EQ(AOT_ABI_VERSION, 1); }

TEST(AbiTest, DtypeValuesArePinned) {
  EXPECT_EQ(AOT_DTYPE_F32, 1);
  EXPECT_EQ(AOT_DTYPE_F64, 2);
  EXPECT_EQ(AOT_DTYPE_F16, 3);
  EXPECT_EQ(AOT_DTYPE_BF16, 4);
  EXPECT_EQ(AOT_DTYPE_I8, 5);
  EXPECT_EQ(AOT_DTYPE_U8, 6);
  EXPECT_EQ(AOT_DTYPE_I16, 7);
  EXPECT_EQ(AOT_DTYPE_I32, 8);
  EXPECT_EQ(AOT_DTYPE_I64, 9);
  EXPECT_EQ(AOT_DTYPE_BOOL, 10);
}

//===----------------------------------------------------------------------===//
// Struct layout (x86-64 System V / LP64)
//===----------------------------------------------------------------------===//
//
// These are the figures that unsharp_mask.py and any other ctypes/cffi
// mirror must reproduce. They are pinned for x86-64 only; other ABIs get
// the target-independent checks (field order, version first).

TEST(AbiLayoutTest, FieldOrder) {
  // Portable: declaration order is the memory order, abi_version first.
  EXPECT_EQ(offsetof(aot_model_info_t, abi_version), 0u);
  EXPECT_LT(offsetof(aot_model_info_t, abi_version),
            offsetof(aot_model_info_t, name));
  EXPECT_LT(offsetof(aot_model_info_t, name),
            offsetof(aot_model_info_t, target));
  EXPECT_LT(offsetof(aot_model_info_t, target),
            offsetof(aot_model_info_t, num_inputs));
  EXPECT_LT(offsetof(aot_model_info_t, num_inputs),
            offsetof(aot_model_info_t, num_outputs));
  EXPECT_LT(offsetof(aot_model_info_t, num_outputs),
            offsetof(aot_model_info_t, inputs));
  EXPECT_LT(offsetof(aot_model_info_t, inputs),
            offsetof(aot_model_info_t, outputs));
  EXPECT_LT(offsetof(aot_model_info_t, outputs),
            offsetof(aot_model_info_t, pool_bytes));
  EXPECT_LT(offsetof(aot_model_info_t, pool_bytes),
            offsetof(aot_model_info_t, pool_alignment));
  EXPECT_EQ(offsetof(aot_cpu_stream_t, struct_size), 0u);
  EXPECT_EQ(offsetof(aot_tensor_info_t, name), 0u);
}

TEST(AbiLayoutTest, FieldTypes) {
  aot_model_info_t m;
  aot_tensor_info_t t;
  aot_cpu_stream_t s;
  static_assert(std::is_same<decltype(m.abi_version), uint32_t>::value, "");
  static_assert(std::is_same<decltype(m.name), const char *>::value, "");
  static_assert(std::is_same<decltype(m.target), const char *>::value, "");
  static_assert(std::is_same<decltype(m.num_inputs), int32_t>::value, "");
  static_assert(std::is_same<decltype(m.num_outputs), int32_t>::value, "");
  static_assert(
      std::is_same<decltype(m.inputs), const aot_tensor_info_t *>::value, "");
  static_assert(
      std::is_same<decltype(m.outputs), const aot_tensor_info_t *>::value, "");
  static_assert(std::is_same<decltype(m.pool_bytes), uint64_t>::value, "");
  static_assert(std::is_same<decltype(m.pool_alignment), uint32_t>::value, "");
  static_assert(std::is_same<decltype(t.name), const char *>::value, "");
  static_assert(std::is_same<decltype(t.dtype), int32_t>::value, "");
  static_assert(std::is_same<decltype(t.rank), int32_t>::value, "");
  static_assert(std::is_same<decltype(t.shape), const int64_t *>::value, "");
  static_assert(std::is_same<decltype(s.struct_size), uint32_t>::value, "");
  static_assert(std::is_same<decltype(s.num_threads), int32_t>::value, "");
  static_assert(std::is_same<aot_stream_t, void *>::value, "");
  (void)m;
  (void)t;
  (void)s;
  SUCCEED();
}

TEST(AbiLayoutTest, X86_64Offsets) {
#if defined(__x86_64__) || defined(_M_X64)
  // aot_cpu_stream_t
  EXPECT_EQ(offsetof(aot_cpu_stream_t, struct_size), 0u);
  EXPECT_EQ(offsetof(aot_cpu_stream_t, num_threads), 4u);
  EXPECT_EQ(sizeof(aot_cpu_stream_t), 8u);
  EXPECT_EQ(alignof(aot_cpu_stream_t), 4u);

  // aot_tensor_info_t
  EXPECT_EQ(offsetof(aot_tensor_info_t, name), 0u);
  EXPECT_EQ(offsetof(aot_tensor_info_t, dtype), 8u);
  EXPECT_EQ(offsetof(aot_tensor_info_t, rank), 12u);
  EXPECT_EQ(offsetof(aot_tensor_info_t, shape), 16u);
  EXPECT_EQ(sizeof(aot_tensor_info_t), 24u);
  EXPECT_EQ(alignof(aot_tensor_info_t), 8u);

  // aot_model_info_t (note the padding after abi_version and at the end)
  EXPECT_EQ(offsetof(aot_model_info_t, abi_version), 0u);
  EXPECT_EQ(offsetof(aot_model_info_t, name), 8u);
  EXPECT_EQ(offsetof(aot_model_info_t, target), 16u);
  EXPECT_EQ(offsetof(aot_model_info_t, num_inputs), 24u);
  EXPECT_EQ(offsetof(aot_model_info_t, num_outputs), 28u);
  EXPECT_EQ(offsetof(aot_model_info_t, inputs), 32u);
  EXPECT_EQ(offsetof(aot_model_info_t, outputs), 40u);
  EXPECT_EQ(offsetof(aot_model_info_t, pool_bytes), 48u);
  EXPECT_EQ(offsetof(aot_model_info_t, pool_alignment), 56u);
  EXPECT_EQ(sizeof(aot_model_info_t), 64u);
  EXPECT_EQ(alignof(aot_model_info_t), 8u);
#else
  GTEST_SKIP() << "offsets are pinned for x86-64 only";
#endif
}

} // namespace
