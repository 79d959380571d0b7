//===- GPUChips.cpp - The chips of a GPU target ---------------*- C++ -*-===//
//
// This file implements the choice and check of a GPU target's chips against
// LLVM's description of the vendor's backend.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/GPUChips.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace aotc {

llvm::Expected<std::vector<std::string>>
selectGPUChips(const GPUChipFamily &family, std::vector<std::string> chips) {
  if (chips.empty())
    for (llvm::StringRef chip : family.defaults)
      chips.push_back(chip.str());
  llvm::Triple triple(family.triple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("this LLVM has no " + family.backend +
                                   " backend: " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  for (const std::string &chip : chips)
    if (!llvm::StringRef(chip).starts_with(family.prefix) || !subtarget ||
        !subtarget->isCPUStringValid(chip))
      return llvm::createStringError("unknown " + family.vendor + " chip '" +
                                     chip + "' (expected " + family.expected +
                                     ")");
  llvm::sort(chips);
  chips.erase(std::unique(chips.begin(), chips.end()), chips.end());
  return chips;
}

} // namespace aotc
