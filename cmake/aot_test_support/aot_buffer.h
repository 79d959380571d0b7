//===- aot_buffer.h - Aligned byte buffers for aotc tests ------*- C++ -*-===//
//
// A move-only, zero-initialised byte buffer with a chosen alignment. Tests use
// it for tensors read from .npz files, for outputs and for memory pools, so
// that every pointer handed to an entry point has a known alignment.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TEST_SUPPORT_AOT_BUFFER_H
#define AOT_TEST_SUPPORT_AOT_BUFFER_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace aot {
namespace test {

/// A heap byte buffer aligned to `alignment` (a power of two, at least
/// alignof(max_align_t)). size() may be 0; data() is then still non-NULL so
/// that it can be passed where a valid pointer is required.
class AlignedBuffer {
public:
  static constexpr size_t kDefaultAlignment = 64;

  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t size, size_t alignment = kDefaultAlignment)
      : size_(size) {
    if (alignment < alignof(std::max_align_t))
      alignment = alignof(std::max_align_t);
    if ((alignment & (alignment - 1)) != 0)
      throw std::bad_alloc(); // not a power of two: a caller bug
    // aligned_alloc wants a size that is a non-zero multiple of alignment.
    size_t rounded = ((size + alignment - 1) / alignment) * alignment;
    if (rounded == 0)
      rounded = alignment;
    void *p = std::aligned_alloc(alignment, rounded);
    if (!p)
      throw std::bad_alloc();
    std::memset(p, 0, rounded);
    data_.reset(static_cast<uint8_t *>(p));
  }

  uint8_t *data() { return data_.get(); }
  const uint8_t *data() const { return data_.get(); }
  size_t size() const { return size_; }

  /// Sets every byte to `value`.
  void fill(uint8_t value) {
    if (size_)
      std::memset(data_.get(), value, size_);
  }
  /// True when every byte equals `value`.
  bool allBytesEqual(uint8_t value) const {
    for (size_t i = 0; i < size_; ++i)
      if (data_.get()[i] != value)
        return false;
    return true;
  }
  /// A deep copy with the same alignment guarantee.
  AlignedBuffer clone() const {
    AlignedBuffer copy(size_);
    if (size_)
      std::memcpy(copy.data(), data(), size_);
    return copy;
  }

private:
  struct FreeDeleter {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, FreeDeleter> data_;
  size_t size_ = 0;
};

} // namespace test
} // namespace aot

#endif // AOT_TEST_SUPPORT_AOT_BUFFER_H
