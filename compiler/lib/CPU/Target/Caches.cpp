//===- Caches.cpp - Cache figures of known and host CPUs -------*- C++ -*-===//
//
// This file implements the table of known CPUs' caches and the reading of
// the host's caches from Linux sysfs.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/Caches.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace aotc {

namespace {

constexpr int64_t KiB = 1024;
constexpr int64_t MiB = 1024 * 1024;

/// The caches of the CPU LLVM calls `cpu`.
struct KnownCaches {
  llvm::StringLiteral cpu;
  CacheFigures figures;
};

/// Figures shared by several LLVM CPUs.
constexpr CacheFigures kIntelClient256K = {32 * KiB, 8,  256 * KiB,
                                           8 * MiB,  64, 8};
constexpr CacheFigures kSkylakeServer = {
    32 * KiB, 8, 1 * MiB, 38 * MiB + 512 * KiB, 64, 16};
constexpr CacheFigures kNeoverse = {64 * KiB, 4, 1 * MiB, 32 * MiB, 64, 8};

/// The vendors' figures (Intel's and AMD's optimization manuals and
/// product pages, Arm's Neoverse technical reference manuals). Where a core
/// is built with a choice of L2, the size of the common server part; the L3
/// of the part named in the comment.
const KnownCaches kKnownCaches[] = {
    // Intel client cores from Sandy Bridge to Skylake: 256 KiB L2, 8-way
    // (4-way in Skylake), a four-core part's 8 MiB L3.
    {"sandybridge", kIntelClient256K},
    {"ivybridge", kIntelClient256K},
    {"haswell", kIntelClient256K},
    {"broadwell", kIntelClient256K},
    {"skylake", {32 * KiB, 8, 256 * KiB, 8 * MiB, 64, 4}},
    // Skylake-SP and its successors on the same core: 1 MiB 16-way L2 (28
    // cores, 38.5 MiB L3).
    {"skylake-avx512", kSkylakeServer},
    {"cascadelake", kSkylakeServer},
    {"cooperlake", kSkylakeServer},
    // Sunny Cove / Cypress Cove clients: 48 KiB 12-way L1, 512 KiB 8-way L2
    // (Core i7-1065G7, i9-11900K).
    {"icelake-client", {48 * KiB, 12, 512 * KiB, 8 * MiB, 64, 8}},
    {"rocketlake", {48 * KiB, 12, 512 * KiB, 16 * MiB, 64, 8}},
    // 1.25 MiB L2, 20-way (10-way in Alder Lake): Ice Lake-SP (40 cores,
    // 60 MiB L3), Tiger Lake (Core i7-1185G7), Alder Lake's performance
    // cores (Core i9-12900K).
    {"icelake-server", {48 * KiB, 12, 1280 * KiB, 60 * MiB, 64, 20}},
    {"tigerlake", {48 * KiB, 12, 1280 * KiB, 12 * MiB, 64, 20}},
    {"alderlake", {48 * KiB, 12, 1280 * KiB, 30 * MiB, 64, 10}},
    // 2 MiB 16-way L2: Raptor Lake's performance cores (Core i9-13900K),
    // Sapphire Rapids (60 cores), Emerald Rapids (64 cores), Granite Rapids
    // (128 cores).
    {"raptorlake", {48 * KiB, 12, 2 * MiB, 36 * MiB, 64, 16}},
    {"sapphirerapids", {48 * KiB, 12, 2 * MiB, 112 * MiB + 512 * KiB, 64, 16}},
    {"emeraldrapids", {48 * KiB, 12, 2 * MiB, 320 * MiB, 64, 16}},
    {"graniterapids", {48 * KiB, 12, 2 * MiB, 504 * MiB, 64, 16}},
    // AMD: 512 KiB 8-way L2 up to Zen 3, 1 MiB from Zen 4 (16-way in Zen
    // 5), a 48 KiB 12-way L1 in Zen 5; the L3 of one CCX (Zen, Zen 2) or CCD
    // (from Zen 3).
    {"znver1", {32 * KiB, 8, 512 * KiB, 8 * MiB, 64, 8}},
    {"znver2", {32 * KiB, 8, 512 * KiB, 16 * MiB, 64, 8}},
    {"znver3", {32 * KiB, 8, 512 * KiB, 32 * MiB, 64, 8}},
    {"znver4", {32 * KiB, 8, 1 * MiB, 32 * MiB, 64, 8}},
    {"znver5", {48 * KiB, 12, 1 * MiB, 32 * MiB, 64, 16}},
    // Arm Neoverse: 64 KiB 4-way L1, 1 MiB 8-way L2 (Graviton 2 and 3,
    // Grace); Graviton 2 and 3's 32 MiB L3.
    {"neoverse-n1", kNeoverse},
    {"neoverse-n2", kNeoverse},
    {"neoverse-v1", kNeoverse},
    {"neoverse-v2", kNeoverse},
};

/// The contents of `directory/name` without surrounding blanks; empty when
/// it cannot be read.
std::string readTrimmed(llvm::StringRef directory, llvm::StringRef name) {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, name);
  // Read to the end: sysfs files claim a page's size whatever they hold.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileAsStream(path);
  if (!file)
    return "";
  return (*file)->getBuffer().trim().str();
}

/// The decimal integer `text` holds; 0 when it holds none.
int64_t parseInteger(llvm::StringRef text) {
  int64_t value = 0;
  if (text.getAsInteger(10, value))
    return 0;
  return value;
}

/// Bytes of a sysfs cache size ("48K", "2048K", "1M", "512"); 0 when it is
/// not one.
int64_t parseSize(llvm::StringRef text) {
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = KiB;
  else if (text.consume_back("M"))
    scale = MiB;
  else if (text.consume_back("G"))
    scale = 1024 * MiB;
  int64_t value = parseInteger(text);
  return value > 0 ? value * scale : 0;
}

} // namespace

std::optional<CacheFigures> knownCpuCaches(llvm::StringRef cpu) {
  for (const KnownCaches &known : kKnownCaches)
    if (known.cpu == cpu)
      return known.figures;
  return std::nullopt;
}

std::optional<CacheFigures> hostCaches(llvm::StringRef directory) {
  CacheFigures figures;
  for (int index = 0;; ++index) {
    llvm::SmallString<128> entry(directory);
    llvm::sys::path::append(entry, "index" + llvm::Twine(index));
    std::string level = readTrimmed(entry, "level");
    if (level.empty())
      break;
    std::string type = readTrimmed(entry, "type");
    int64_t bytes = parseSize(readTrimmed(entry, "size"));
    if (type == "Instruction" || bytes == 0)
      continue;
    int64_t ways = parseInteger(readTrimmed(entry, "ways_of_associativity"));
    int64_t line = parseInteger(readTrimmed(entry, "coherency_line_size"));
    if (level == "1") {
      figures.l1Bytes = bytes;
      figures.l1Ways = ways;
      if (line > 0)
        figures.lineBytes = line;
    } else if (level == "2") {
      figures.l2Bytes = bytes;
      figures.l2Ways = ways;
    } else if (level == "3") {
      figures.l3Bytes = bytes;
    }
  }
  if (figures.l1Bytes == 0 || figures.l2Bytes == 0)
    return std::nullopt;
  return figures;
}

} // namespace aotc
