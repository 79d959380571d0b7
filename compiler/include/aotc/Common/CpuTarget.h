//===- CpuTarget.h - The machine model of a CPU target --------*- C++ -*-===//
//
// This file declares aotc::CpuTarget, the one description of the CPU that
// code is generated for: vector width, register count, ISA features and
// the cache hierarchy. aotc builds it once from --mtriple/--mcpu/--mattr
// (compiler/lib/CPU/Target/CPUTarget.cpp) and records it on the module as
// `aotc.cpu_target`; every pass that sizes something by the machine reads
// it from there (CpuTarget::of) instead of a constant of its own.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_COMMON_CPUTARGET_H
#define AOTC_COMMON_CPUTARGET_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace aotc {

/// Module attribute holding the CpuTarget (a dictionary, CpuTarget::toAttr).
inline constexpr llvm::StringLiteral kCpuTargetAttrName = "aotc.cpu_target";
/// Its field holding CpuTarget::sveVectorBits (read by the entry points'
/// check of the CPU's SVE vector length).
inline constexpr llvm::StringLiteral kSveVectorBitsField = "sve_vector_bits";

/// Cache figures: L1 data and L2 per core, L3 shared; 0 where not known.
struct CacheFigures {
  int64_t l1Bytes = 0;
  int64_t l1Ways = 0;
  int64_t l2Bytes = 0;
  int64_t l3Bytes = 0;
  int64_t lineBytes = 0;
  int64_t l2Ways = 0;
};

/// The machine model. Cache figures are per core (L1 data, L2) or shared
/// (L3). LLVM's target description gives the ISA (vector width, register
/// count, features); it does not know cache sizes, so those come from the
/// user (`aotc --l1-cache-bytes=...`), the OS (code for the host) or a table
/// of known CPUs (aotc/CPU/Target/Caches.h), else the documented defaults
/// below (docs/tuning.md).
struct CpuTarget {
  std::string triple; ///< LLVM target triple ("" when not known)
  std::string cpu;    ///< LLVM CPU name ("" when not known)
  /// Width of the widest vector register usable for f32 arithmetic.
  int64_t vectorBits = 512;
  /// Architectural vector registers (AVX-512 and AArch64: 32; AVX2: 16).
  int64_t vectorRegisters = 32;
  /// AArch64 SVE: the one vector length in bits the code is generated for
  /// (`aotc --sve-vector-bits`; vectorBits is the same), whose objects run
  /// only on CPUs of that length; 0: none (Neon's fixed 128-bit vectors).
  int64_t sveVectorBits = 0;
  /// The ISA features the heuristics care about, sorted: fma, avx2,
  /// avx512f, avx512vnni, avx512bf16, neon, sve.
  llvm::SmallVector<std::string> features;
  /// Default: 32 KiB, 8 ways, the L1 data cache of Intel cores since Sandy
  /// Bridge and AMD's since Zen 2 (Zen 5: 48 KiB, 12 ways).
  int64_t l1Bytes = 32 * 1024;
  int64_t l1Ways = 8;
  /// Default: 1 MiB, the L2 of AVX-512 server cores (Skylake-SP on) and
  /// Zen 4 / Zen 5.
  int64_t l2Bytes = 1024 * 1024;
  /// Default: 16 ways (Intel's server cores from Skylake-SP, Zen 5).
  int64_t l2Ways = 16;
  /// Default: 32 MiB, a server part's shared L3 (one Zen 4/5 CCD).
  int64_t l3Bytes = 32 * 1024 * 1024;
  /// Cache line: 64 bytes on every x86 and most AArch64 cores.
  int64_t lineBytes = 64;
  /// Where the cache figures come from: "host" (the OS's description of
  /// the machine aotc runs on), "known-cpu" (the table) or "default", with
  /// " + options" when the user gave some; not recorded on the module.
  std::string caches = "default";

  /// Takes the non-zero figures of `figures`.
  void setCaches(const CacheFigures &figures);

  /// True when `feature` is in `features`.
  bool has(llvm::StringRef feature) const;
  /// Distance in bytes of addresses that map to the same L1 set (32 KiB / 8
  /// ways: rows 4 KiB apart compete for one set's 8 lines).
  int64_t l1SetStride() const { return l1Bytes / l1Ways; }
  /// The same for L2 (2 MiB / 16 ways: 128 KiB).
  int64_t l2SetStride() const { return l2Bytes / l2Ways; }

  /// The description as the `aotc.cpu_target` dictionary.
  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
  /// The description a dictionary holds; absent fields keep their defaults.
  static CpuTarget fromAttr(mlir::DictionaryAttr attr);
  /// The description recorded on `op`'s module, or the defaults when there
  /// is none (a pass run alone in a lit test).
  static CpuTarget of(mlir::Operation *op);
  /// Prints one `name: value` line per field (`aotc --print-target`).
  void print(llvm::raw_ostream &os) const;
};

/// The vector register width a pass works with: `option` when it is set
/// (non-zero: a lit test's `vector-bits=`, or a GPU's 32-bit lanes), else
/// that of the CpuTarget recorded on `op`'s module.
int64_t vectorBitsOf(mlir::Operation *op, int64_t option);

/// The vector register file the register tiles are sized for.
struct VectorRegisters {
  int64_t bits = 512; ///< width of one register
  int64_t count = 32; ///< architectural registers
};

/// The register file a pass works with: that of the CpuTarget recorded on
/// `op`'s module; with `bitsOption` set (vectorBitsOf), registers of that
/// width, as many as x86 has of it (32 of 512 bits, else 16).
VectorRegisters vectorRegistersOf(mlir::Operation *op, int64_t bitsOption);

} // namespace aotc

#endif // AOTC_COMMON_CPUTARGET_H
