//===- Caches.h - Cache figures of known and host CPUs ----------*- C++ -*-===//
//
// LLVM's target description has no cache sizes. This file gives them for
// CPUs that LLVM names (a table of the vendors' published figures) and for
// the machine aotc runs on (what the operating system reports), so that
// aotc::CpuTarget can describe the caches of the CPU code is generated for.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TARGET_CACHES_H
#define AOTC_CPU_TARGET_CACHES_H

#include "aotc/Common/CpuTarget.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace aotc {

/// The published figures of the LLVM CPU `cpu` (e.g. "znver4",
/// "sapphirerapids", "neoverse-v1"); none for CPUs not in the table (among
/// them "generic" and "x86-64-v3"). L3 is that of a typical part: one
/// die's or CCD's, as a core sees it.
std::optional<CacheFigures> knownCpuCaches(llvm::StringRef cpu);

/// The caches of CPU 0 as Linux describes them under `directory`
/// (/sys/devices/system/cpu/cpu0/cache: index*/level, type, size,
/// ways_of_associativity, coherency_line_size); none when the L1 data
/// cache or the L2 is not described there (another OS, a container
/// without sysfs).
std::optional<CacheFigures>
hostCaches(llvm::StringRef directory = "/sys/devices/system/cpu/cpu0/cache");

} // namespace aotc

#endif // AOTC_CPU_TARGET_CACHES_H
