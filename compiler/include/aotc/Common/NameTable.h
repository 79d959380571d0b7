//===- NameTable.h - Names of enumerators in attributes -------*- C++ -*-===//
//
// This file declares the lookups of a table pairing each value of an enum
// with its name, as the strategy's records (`aotc.strategy`, `aotc.tiles`,
// `aotc.packing`) spell them.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_COMMON_NAMETABLE_H
#define AOTC_COMMON_NAMETABLE_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <utility>

namespace aotc {

/// The name `table` gives `value`; empty when it has none.
template <typename T, std::size_t N>
llvm::StringRef nameIn(const std::pair<T, llvm::StringLiteral> (&table)[N],
                       T value) {
  for (const auto &[v, name] : table)
    if (v == value)
      return name;
  return "";
}

/// The value `table` names `name`; none when it names none.
template <typename T, std::size_t N>
std::optional<T>
valueNamed(const std::pair<T, llvm::StringLiteral> (&table)[N],
           llvm::StringRef name) {
  for (const auto &[v, n] : table)
    if (n == name)
      return v;
  return std::nullopt;
}

} // namespace aotc

#endif // AOTC_COMMON_NAMETABLE_H
