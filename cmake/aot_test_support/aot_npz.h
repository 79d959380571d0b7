//===- aot_npz.h - Reader for NumPy .npz / .npy files ----------*- C++ -*-===//
//
// Reads the reference tensors of aotc tests: uncompressed .npz archives as
// written by numpy.savez (a zip of .npy members, stored, possibly with zip64
// records) and single .npy files (format versions 1.0, 2.0 and 3.0).
//
// Supported: little-endian C-order arrays of dtype <f4 <f8 <f2 |i1 |u1 <i2
// <u2 <i4 <i8 |b1 and the raw two-byte |V2 (how ml_dtypes' bfloat16 is
// saved). Everything else -- compressed members (numpy.savez_compressed),
// Fortran order, big-endian or structured dtypes, pickled objects, truncated
// or corrupt files -- throws NpzError with a message naming the file and the
// member.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TEST_SUPPORT_AOT_NPZ_H
#define AOT_TEST_SUPPORT_AOT_NPZ_H

#include "aot_buffer.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace aot {
namespace test {

/// Any failure to read or interpret a .npz/.npy file.
class NpzError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The element types the reader understands (NumPy's names).
enum class NpyDType {
  Float32, // <f4
  Float64, // <f8
  Float16, // <f2
  Int8,    // |i1
  UInt8,   // |u1
  Int16,   // <i2
  UInt16,  // <u2 (also used to carry bfloat16 bit patterns)
  Int32,   // <i4
  Int64,   // <i8
  Bool,    // |b1
  Void16,  // |V2 (ml_dtypes bfloat16 saved by numpy)
};

/// The descr string NumPy writes for `dtype`, e.g. "<f4".
const char *npyDTypeDescr(NpyDType dtype);
/// Bytes per element of `dtype`.
size_t npyDTypeSize(NpyDType dtype);

/// One array: its dtype, shape and C-order data (64-byte aligned).
struct NpyArray {
  NpyDType dtype = NpyDType::Float32;
  std::vector<int64_t> shape; // empty for rank 0
  AlignedBuffer data;         // numElements() * npyDTypeSize(dtype) bytes

  size_t rank() const { return shape.size(); }
  size_t numElements() const;
  size_t numBytes() const { return data.size(); }
  /// The data as T; throws NpzError when sizeof(T) is not the element size.
  template <typename T> const T *as() const {
    checkElementSize(sizeof(T));
    return reinterpret_cast<const T *>(data.data());
  }
  /// "f32[2,3]"-like description: NumPy descr plus shape, e.g. "<f4[2,3]".
  std::string describe() const;

private:
  void checkElementSize(size_t size) const;
};

/// The members of an .npz archive, keyed by name without the ".npy" suffix.
class NpzFile {
public:
  /// Reads and validates the whole archive at `path`.
  static NpzFile load(const std::string &path);
  /// Parses an archive already in memory; `path` is used in messages only.
  static NpzFile parse(const uint8_t *bytes, size_t size,
                       const std::string &path);

  bool contains(const std::string &key) const;
  /// The member `key`; throws NpzError listing the available keys if absent.
  const NpyArray &get(const std::string &key) const;
  /// The member names, sorted.
  std::vector<std::string> keys() const;
  size_t size() const { return arrays_.size(); }
  const std::string &path() const { return path_; }

private:
  std::string path_;
  std::map<std::string, NpyArray> arrays_;
};

/// Parses one .npy image; `what` names it in error messages.
NpyArray parseNpy(const uint8_t *bytes, size_t size, const std::string &what);
/// Reads a standalone .npy file.
NpyArray loadNpy(const std::string &path);

} // namespace test
} // namespace aot

#endif // AOT_TEST_SUPPORT_AOT_NPZ_H
