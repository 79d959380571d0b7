//===- aot_dtype.h - ABI dtype helpers for aotc tests ----------*- C++ -*-===//
//
// Names and sizes of the AOT_DTYPE_* codes of aot_abi.h, in the spelling of
// the manifest (docs/contracts.md: f32 f64 f16 bf16 i8 u8 i16 i32 i64 i1), and
// which NumPy dtypes a reference .npz may use for each of them.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TEST_SUPPORT_AOT_DTYPE_H
#define AOT_TEST_SUPPORT_AOT_DTYPE_H

#include "aot_abi/aot_abi.h"
#include "aot_npz.h"

#include <cstddef>
#include <cstdint>

namespace aot {
namespace test {

/// The manifest spelling of an AOT_DTYPE_* code ("?" when unknown).
inline const char *abiDTypeName(int32_t dtype) {
  switch (dtype) {
  case AOT_DTYPE_F32: return "f32";
  case AOT_DTYPE_F64: return "f64";
  case AOT_DTYPE_F16: return "f16";
  case AOT_DTYPE_BF16: return "bf16";
  case AOT_DTYPE_I8: return "i8";
  case AOT_DTYPE_U8: return "u8";
  case AOT_DTYPE_I16: return "i16";
  case AOT_DTYPE_I32: return "i32";
  case AOT_DTYPE_I64: return "i64";
  case AOT_DTYPE_BOOL: return "i1";
  default: return "?";
  }
}

/// Bytes per element of an AOT_DTYPE_* code (0 when unknown).
inline size_t abiDTypeSize(int32_t dtype) {
  switch (dtype) {
  case AOT_DTYPE_F64:
  case AOT_DTYPE_I64: return 8;
  case AOT_DTYPE_F32:
  case AOT_DTYPE_I32: return 4;
  case AOT_DTYPE_F16:
  case AOT_DTYPE_BF16:
  case AOT_DTYPE_I16: return 2;
  case AOT_DTYPE_I8:
  case AOT_DTYPE_U8:
  case AOT_DTYPE_BOOL: return 1;
  default: return 0;
  }
}

/// True when a reference array of NumPy dtype `npy` may stand for a tensor of
/// ABI dtype `abi`. The match is exact, except for bf16, which NumPy lacks:
/// its bit patterns travel as uint16 (<u2) or as ml_dtypes' bfloat16 (|V2).
inline bool npyMatchesAbiDType(NpyDType npy, int32_t abi) {
  switch (abi) {
  case AOT_DTYPE_F32: return npy == NpyDType::Float32;
  case AOT_DTYPE_F64: return npy == NpyDType::Float64;
  case AOT_DTYPE_F16: return npy == NpyDType::Float16;
  case AOT_DTYPE_BF16:
    return npy == NpyDType::UInt16 || npy == NpyDType::Void16;
  case AOT_DTYPE_I8: return npy == NpyDType::Int8;
  case AOT_DTYPE_U8: return npy == NpyDType::UInt8;
  case AOT_DTYPE_I16: return npy == NpyDType::Int16;
  case AOT_DTYPE_I32: return npy == NpyDType::Int32;
  case AOT_DTYPE_I64: return npy == NpyDType::Int64;
  case AOT_DTYPE_BOOL: return npy == NpyDType::Bool;
  default: return false;
  }
}

} // namespace test
} // namespace aot

#endif // AOT_TEST_SUPPORT_AOT_DTYPE_H
