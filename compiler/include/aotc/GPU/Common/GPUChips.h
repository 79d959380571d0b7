//===- GPUChips.h - The chips of a GPU target -----------------*- C++ -*-===//
//
// This file declares the choice and check of a GPU target's chips, shared
// by the CUDA and HIP targets.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_COMMON_GPUCHIPS_H
#define AOTC_GPU_COMMON_GPUCHIPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace aotc {

/// How one GPU vendor's chips are named.
struct GPUChipFamily {
  llvm::StringRef triple;   ///< the device triple, "nvptx64-nvidia-cuda"
  llvm::StringRef backend;  ///< LLVM's backend, "NVPTX"
  llvm::StringRef vendor;   ///< the user's word for it, "CUDA"
  llvm::StringRef prefix;   ///< every chip name's start, "sm_"
  llvm::StringRef expected; ///< the names' form, "sm_XX, e.g. sm_80, sm_90"
  llvm::ArrayRef<llvm::StringRef> defaults; ///< when the user names none
};

/// The chips to compile for: `chips` (the defaults when empty), each one a
/// CPU of `family`'s LLVM backend, sorted and without repeats; an error
/// naming the first unknown chip, or the missing backend.
llvm::Expected<std::vector<std::string>>
selectGPUChips(const GPUChipFamily &family, std::vector<std::string> chips);

} // namespace aotc

#endif // AOTC_GPU_COMMON_GPUCHIPS_H
