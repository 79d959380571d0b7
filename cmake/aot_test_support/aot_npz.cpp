//===- aot_npz.cpp - Reader for NumPy .npz / .npy files --------*- C++ -*-===//
//
// This file implements the .npz/.npy reader declared in aot_npz.h.
//
// An .npz written by numpy.savez is a plain zip archive: one "stored"
// (uncompressed) member NAME.npy per array. NumPy forces zip64 records on every
// member (gh-10776), so the sizes in the local headers are 0xFFFFFFFF and the
// real ones live in zip64 "extra" fields. We therefore trust the central
// directory (found through the end-of-central-directory record), and read a
// local header only to learn where the member's data starts.
//
// References: PKWARE APPNOTE.TXT sections 4.3.7 (local header), 4.3.12
// (central directory), 4.3.14-16 (zip64 / end records), 4.5.3 (zip64 extra);
// numpy/lib/format.py for the .npy layout.
//
//===----------------------------------------------------------------------===//

#include "aot_npz.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

namespace aot {
namespace test {
namespace {

//===----------------------------------------------------------------------===//
// Little helpers
//===----------------------------------------------------------------------===//

[[noreturn]] void fail(const std::string &where, const std::string &message) {
  throw NpzError(where + ": " + message);
}

/// Bounds-checked little-endian reads from a byte range.
class ByteReader {
public:
  ByteReader(const uint8_t *bytes, size_t size, std::string where)
      : bytes_(bytes), size_(size), where_(std::move(where)) {}

  bool has(size_t offset, size_t count) const {
    return offset <= size_ && count <= size_ - offset;
  }
  void require(size_t offset, size_t count, const char *what) const {
    if (!has(offset, count))
      fail(where_, std::string("file is truncated (") + what + " at byte " +
                       std::to_string(offset) + " runs past the end, file has " +
                       std::to_string(size_) + " bytes)");
  }
  uint64_t read(size_t offset, size_t count, const char *what) const {
    require(offset, count, what);
    uint64_t value = 0;
    for (size_t i = 0; i < count; ++i)
      value |= uint64_t(bytes_[offset + i]) << (8 * i);
    return value;
  }
  uint16_t u16(size_t offset, const char *what) const {
    return uint16_t(read(offset, 2, what));
  }
  uint32_t u32(size_t offset, const char *what) const {
    return uint32_t(read(offset, 4, what));
  }
  uint64_t u64(size_t offset, const char *what) const {
    return read(offset, 8, what);
  }
  const uint8_t *at(size_t offset) const { return bytes_ + offset; }
  size_t size() const { return size_; }
  const std::string &where() const { return where_; }

private:
  const uint8_t *bytes_;
  size_t size_;
  std::string where_;
};

/// CRC-32 (IEEE 802.3, as zip uses it).
uint32_t crc32(const uint8_t *data, size_t size) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i)
    crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::vector<uint8_t> readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path, "cannot open file");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad())
    fail(path, "read error");
  return bytes;
}

//===----------------------------------------------------------------------===//
// .npy header: a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//===----------------------------------------------------------------------===//

/// The subset of Python literals that appears in .npy headers.
struct PyValue {
  enum Kind { Str, Bool, Int, Tuple, List, None } kind = None;
  std::string str;
  bool boolean = false;
  int64_t integer = 0;
  std::vector<PyValue> items;
};

class HeaderParser {
public:
  HeaderParser(const std::string &text, const std::string &where)
      : text_(text), where_(where) {}

  std::map<std::string, PyValue> parseDict() {
    std::map<std::string, PyValue> dict;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') {
        ++pos_;
        break;
      }
      PyValue key = parseValue();
      if (key.kind != PyValue::Str)
        error("dictionary key is not a string");
      expect(':');
      dict[key.str] = parseValue();
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      break;
    }
    return dict;
  }

private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(uint8_t(text_[pos_])))
      ++pos_;
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c)
      error(std::string("expected '") + c + "'");
    ++pos_;
  }
  [[noreturn]] void error(const std::string &message) const {
    fail(where_, "malformed .npy header (" + message + " at offset " +
                     std::to_string(pos_) + "): " + text_);
  }

  PyValue parseValue() {
    skipSpace();
    char c = peek();
    PyValue v;
    if (c == '\'' || c == '"') {
      ++pos_;
      v.kind = PyValue::Str;
      while (pos_ < text_.size() && text_[pos_] != c)
        v.str += text_[pos_++];
      if (pos_ >= text_.size())
        error("unterminated string");
      ++pos_;
      return v;
    }
    if (c == '(' || c == '[') {
      char close = c == '(' ? ')' : ']';
      v.kind = c == '(' ? PyValue::Tuple : PyValue::List;
      ++pos_;
      while (true) {
        skipSpace();
        if (peek() == close) {
          ++pos_;
          break;
        }
        v.items.push_back(parseValue());
        skipSpace();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect(close);
        break;
      }
      return v;
    }
    if (std::isdigit(uint8_t(c)) || c == '-') {
      size_t start = pos_++;
      while (std::isdigit(uint8_t(peek())))
        ++pos_;
      v.kind = PyValue::Int;
      try {
        v.integer = std::stoll(text_.substr(start, pos_ - start));
      } catch (const std::exception &) {
        error("integer out of range");
      }
      if (peek() == 'L') // Python 2 long suffix in old files
        ++pos_;
      return v;
    }
    if (std::isalpha(uint8_t(c))) {
      size_t start = pos_;
      while (std::isalnum(uint8_t(peek())) || peek() == '_')
        ++pos_;
      std::string word = text_.substr(start, pos_ - start);
      if (word == "True" || word == "False") {
        v.kind = PyValue::Bool;
        v.boolean = word == "True";
        return v;
      }
      if (word == "None")
        return v;
      error("unexpected identifier '" + word + "'");
    }
    error("unexpected character");
  }

  const std::string &text_;
  const std::string &where_;
  size_t pos_ = 0;
};

struct DTypeEntry {
  const char *descr;
  NpyDType dtype;
  size_t size;
};
// The one table of supported dtypes, in NumPy's own spelling.
constexpr DTypeEntry kDTypes[] = {
    {"<f4", NpyDType::Float32, 4}, {"<f8", NpyDType::Float64, 8},
    {"<f2", NpyDType::Float16, 2}, {"|i1", NpyDType::Int8, 1},
    {"|u1", NpyDType::UInt8, 1},   {"<i2", NpyDType::Int16, 2},
    {"<u2", NpyDType::UInt16, 2},  {"<i4", NpyDType::Int32, 4},
    {"<i8", NpyDType::Int64, 8},   {"|b1", NpyDType::Bool, 1},
    {"|V2", NpyDType::Void16, 2},
};

NpyDType parseDescr(const std::string &descr, const std::string &where) {
  for (const DTypeEntry &e : kDTypes)
    if (descr == e.descr)
      return e.dtype;
  std::string supported;
  for (const DTypeEntry &e : kDTypes)
    supported += std::string(supported.empty() ? "" : " ") + e.descr;
  std::string why = "unsupported dtype '" + descr + "'";
  if (!descr.empty() && descr[0] == '>')
    why += " (big-endian data is not supported)";
  else if (descr.find('O') != std::string::npos)
    why += " (pickled object arrays are not supported)";
  fail(where, why + "; supported: " + supported);
}

} // namespace

//===----------------------------------------------------------------------===//
// NpyDType / NpyArray
//===----------------------------------------------------------------------===//

const char *npyDTypeDescr(NpyDType dtype) {
  for (const DTypeEntry &e : kDTypes)
    if (e.dtype == dtype)
      return e.descr;
  return "?";
}

size_t npyDTypeSize(NpyDType dtype) {
  for (const DTypeEntry &e : kDTypes)
    if (e.dtype == dtype)
      return e.size;
  return 0;
}

size_t NpyArray::numElements() const {
  size_t n = 1;
  for (int64_t d : shape)
    n *= size_t(d);
  return n;
}

std::string NpyArray::describe() const {
  std::string s = std::string(npyDTypeDescr(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void NpyArray::checkElementSize(size_t size) const {
  if (size != npyDTypeSize(dtype))
    throw NpzError("NpyArray::as<T>(): sizeof(T) = " + std::to_string(size) +
                   " but the array holds " + describe());
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

NpyArray parseNpy(const uint8_t *bytes, size_t size, const std::string &what) {
  ByteReader r(bytes, size, what);
  static const uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  r.require(0, 8, ".npy magic and version");
  if (!std::equal(kMagic, kMagic + 6, bytes))
    fail(what, "not a .npy image (bad magic)");
  unsigned major = bytes[6], minor = bytes[7];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = r.u16(8, ".npy header length");
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    // 3.0 only differs by allowing UTF-8 in the header (structured dtypes'
    // field names), which we reject anyway.
    headerLen = r.u32(8, ".npy header length");
    headerStart = 12;
  } else {
    fail(what, "unsupported .npy format version " + std::to_string(major) +
                   "." + std::to_string(minor));
  }
  r.require(headerStart, headerLen, ".npy header");
  std::string header(reinterpret_cast<const char *>(bytes + headerStart),
                     headerLen);
  while (!header.empty() && (header.back() == '\n' || header.back() == ' ' ||
                             header.back() == '\0'))
    header.pop_back();

  std::map<std::string, PyValue> dict = HeaderParser(header, what).parseDict();
  auto field = [&](const char *key, PyValue::Kind kind) -> const PyValue & {
    auto it = dict.find(key);
    if (it == dict.end())
      fail(what, std::string(".npy header lacks '") + key + "': " + header);
    if (it->second.kind != kind) {
      if (std::string(key) == "descr")
        fail(what, "structured (record) dtypes are not supported: " + header);
      fail(what, std::string(".npy header field '") + key +
                     "' has the wrong type: " + header);
    }
    return it->second;
  };

  NpyArray array;
  array.dtype = parseDescr(field("descr", PyValue::Str).str, what);
  if (field("fortran_order", PyValue::Bool).boolean)
    fail(what, "fortran_order arrays are not supported (save a C-order array, "
               "e.g. numpy.ascontiguousarray(a))");
  const size_t elemSize = npyDTypeSize(array.dtype);
  size_t numBytes = elemSize;
  for (const PyValue &d : field("shape", PyValue::Tuple).items) {
    if (d.kind != PyValue::Int || d.integer < 0)
      fail(what, "bad dimension in .npy shape: " + header);
    if (d.integer != 0 &&
        numBytes > std::numeric_limits<size_t>::max() / size_t(d.integer))
      fail(what, "array size overflows: " + header);
    numBytes *= size_t(d.integer);
    array.shape.push_back(d.integer);
  }

  const size_t dataStart = headerStart + headerLen;
  const size_t available = size - dataStart;
  if (available < numBytes)
    fail(what, "data is truncated: shape " + array.describe() + " needs " +
                   std::to_string(numBytes) + " bytes, only " +
                   std::to_string(available) + " present");
  if (available > numBytes)
    fail(what, std::to_string(available - numBytes) +
                   " unexpected trailing bytes after the array data");
  array.data = AlignedBuffer(numBytes);
  if (numBytes)
    std::memcpy(array.data.data(), bytes + dataStart, numBytes);
  return array;
}

NpyArray loadNpy(const std::string &path) {
  std::vector<uint8_t> bytes = readWholeFile(path);
  return parseNpy(bytes.data(), bytes.size(), path);
}

//===----------------------------------------------------------------------===//
// .npz (zip)
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralHeaderSig = 0x02014b50;
constexpr uint32_t kEndOfCentralDirSig = 0x06054b50;
constexpr uint32_t kZip64EndOfCentralDirSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr size_t kEndOfCentralDirSize = 22;
constexpr size_t kZip64LocatorSize = 20;
constexpr uint16_t kZip64ExtraId = 0x0001;

struct CentralEntry {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t compressedSize = 0, uncompressedSize = 0, localOffset = 0;
};

/// Finds the central directory: returns {offset, number of entries}.
std::pair<uint64_t, uint64_t> findCentralDirectory(const ByteReader &r) {
  if (r.size() < kEndOfCentralDirSize)
    fail(r.where(), "not a zip/.npz file, or truncated (only " +
                        std::to_string(r.size()) + " bytes)");
  // The end record sits at the very end, followed by a comment of at most
  // 65535 bytes: scan backwards for its signature.
  size_t lowest = r.size() > kEndOfCentralDirSize + 0xFFFF
                      ? r.size() - kEndOfCentralDirSize - 0xFFFF
                      : 0;
  size_t eocd = std::string::npos;
  for (size_t pos = r.size() - kEndOfCentralDirSize + 1; pos-- > lowest;) {
    if (r.u32(pos, "signature") == kEndOfCentralDirSig &&
        pos + kEndOfCentralDirSize + r.u16(pos + 20, "comment length") ==
            r.size()) {
      eocd = pos;
      break;
    }
  }
  if (eocd == std::string::npos)
    fail(r.where(), "not a zip/.npz file, or truncated (no end-of-central-"
                    "directory record)");
  if (r.u16(eocd + 4, "disk number") != 0 || r.u16(eocd + 6, "cd disk") != 0)
    fail(r.where(), "multi-disk zip archives are not supported");
  uint64_t entries = r.u16(eocd + 10, "entry count");
  uint64_t cdOffset = r.u32(eocd + 16, "central directory offset");
  // zip64: the real figures are in the zip64 end record, found through the
  // locator just before the end record.
  if ((entries == 0xFFFF || cdOffset == 0xFFFFFFFF) &&
      eocd >= kZip64LocatorSize &&
      r.u32(eocd - kZip64LocatorSize, "signature") == kZip64LocatorSig) {
    uint64_t z = r.u64(eocd - kZip64LocatorSize + 8, "zip64 end offset");
    if (r.u32(size_t(z), "zip64 end signature") != kZip64EndOfCentralDirSig)
      fail(r.where(), "corrupt zip64 end-of-central-directory record");
    entries = r.u64(size_t(z) + 32, "zip64 entry count");
    cdOffset = r.u64(size_t(z) + 48, "zip64 central directory offset");
  }
  return {cdOffset, entries};
}

/// Reads the central directory entry at `offset`; advances `offset`.
CentralEntry readCentralEntry(const ByteReader &r, size_t &offset) {
  if (r.u32(offset, "central directory entry") != kCentralHeaderSig)
    fail(r.where(), "corrupt zip central directory (bad signature at byte " +
                        std::to_string(offset) + ")");
  CentralEntry e;
  e.flags = r.u16(offset + 8, "flags");
  e.method = r.u16(offset + 10, "compression method");
  e.crc = r.u32(offset + 16, "crc");
  e.compressedSize = r.u32(offset + 20, "compressed size");
  e.uncompressedSize = r.u32(offset + 24, "uncompressed size");
  size_t nameLen = r.u16(offset + 28, "name length");
  size_t extraLen = r.u16(offset + 30, "extra length");
  size_t commentLen = r.u16(offset + 32, "comment length");
  e.localOffset = r.u32(offset + 42, "local header offset");
  r.require(offset + 46, nameLen + extraLen + commentLen, "entry name");
  e.name.assign(reinterpret_cast<const char *>(r.at(offset + 46)), nameLen);

  // Zip64 extra field: holds, in this order, only those of uncompressed size,
  // compressed size and local offset whose 32-bit field is 0xFFFFFFFF.
  size_t extra = offset + 46 + nameLen, extraEnd = extra + extraLen;
  while (extra + 4 <= extraEnd) {
    uint16_t id = r.u16(extra, "extra id");
    uint16_t len = r.u16(extra + 2, "extra length");
    if (extra + 4 + len > extraEnd)
      fail(r.where(), "corrupt zip extra field in entry '" + e.name + "'");
    if (id == kZip64ExtraId) {
      size_t p = extra + 4, end = p + len;
      auto next = [&](uint64_t &field) {
        if (field != 0xFFFFFFFF)
          return;
        if (p + 8 > end)
          fail(r.where(), "corrupt zip64 extra field in '" + e.name + "'");
        field = r.u64(p, "zip64 field");
        p += 8;
      };
      next(e.uncompressedSize);
      next(e.compressedSize);
      next(e.localOffset);
    }
    extra += 4 + len;
  }
  offset += 46 + nameLen + extraLen + commentLen;
  return e;
}
} // namespace

NpzFile NpzFile::parse(const uint8_t *bytes, size_t size,
                       const std::string &path) {
  ByteReader r(bytes, size, path);
  auto [cdOffset, entries] = findCentralDirectory(r);
  NpzFile file;
  file.path_ = path;
  size_t offset = size_t(cdOffset);
  for (uint64_t i = 0; i < entries; ++i) {
    CentralEntry e = readCentralEntry(r, offset);
    const std::string where = path + ": member '" + e.name + "'";
    if (e.flags & 1)
      fail(where, "encrypted zip members are not supported");
    if (e.method != 0)
      fail(where, "compressed member (zip method " + std::to_string(e.method) +
                      "); archives written by numpy.savez_compressed are not "
                      "supported, write the reference with numpy.savez");
    if (e.compressedSize != e.uncompressedSize)
      fail(where, "stored member whose compressed and uncompressed sizes "
                  "differ");
    // The local header repeats name and extra with possibly different
    // lengths; only its two length fields matter to find the data.
    size_t local = size_t(e.localOffset);
    if (r.u32(local, "local header") != kLocalHeaderSig)
      fail(where, "corrupt zip (bad local header signature)");
    size_t dataStart = local + 30 + r.u16(local + 26, "name length") +
                       r.u16(local + 28, "extra length");
    r.require(dataStart, size_t(e.compressedSize), "member data");
    const uint8_t *data = r.at(dataStart);
    if (crc32(data, size_t(e.compressedSize)) != e.crc)
      fail(where, "CRC mismatch, the file is corrupt");

    std::string key = e.name;
    if (key.size() > 4 && key.compare(key.size() - 4, 4, ".npy") == 0)
      key.resize(key.size() - 4);
    else
      fail(where, "member is not a .npy file");
    if (file.arrays_.count(key))
      fail(where, "duplicate member");
    file.arrays_.emplace(key, parseNpy(data, size_t(e.compressedSize), where));
  }
  return file;
}

NpzFile NpzFile::load(const std::string &path) {
  std::vector<uint8_t> bytes = readWholeFile(path);
  return parse(bytes.data(), bytes.size(), path);
}

bool NpzFile::contains(const std::string &key) const {
  return arrays_.count(key) != 0;
}

const NpyArray &NpzFile::get(const std::string &key) const {
  auto it = arrays_.find(key);
  if (it == arrays_.end()) {
    std::string available;
    for (const auto &kv : arrays_)
      available += (available.empty() ? "" : ", ") + kv.first;
    fail(path_, "no array '" + key + "' (available: " +
                    (available.empty() ? "none" : available) + ")");
  }
  return it->second;
}

std::vector<std::string> NpzFile::keys() const {
  std::vector<std::string> names;
  for (const auto &kv : arrays_)
    names.push_back(kv.first);
  return names;
}

} // namespace test
} // namespace aot
