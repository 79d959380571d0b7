//===- ParallelCodegen.h - Object code on several threads ------*- C++ -*-===//
//
// Code generation of a large module in parts, each in its own LLVMContext
// on its own thread, joined into one relocatable ELF object (ld.lld -r)
// whose symbols are those of the whole module's object: code generation is
// function by function, and the symbols the parts share are local again in
// the result.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TARGET_PARALLELCODEGEN_H
#define AOTC_CPU_TARGET_PARALLELCODEGEN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace aotc {

/// The number of parts to generate `module`'s code in: `requested` if not
/// 0, else the largest power of two up to `kMaxCodegenParts` with at least
/// `kCodegenPartInstructions` instructions per part (so that the parts
/// divide evenly among 2, 4 or 8 cores). One (no split) for modules whose
/// object is not ELF, or with appending globals (constructors) or aliases.
/// It depends on the module only, never on the machine, so the object is
/// the same everywhere.
unsigned codegenParts(const llvm::Module &module, unsigned requested = 0);

inline constexpr unsigned kCodegenPartInstructions = 50000;
inline constexpr unsigned kMaxCodegenParts = 8;

/// Emits `module` in `parts` parts of its functions and one of its
/// variables: its local symbols become hidden globals (`module` is changed,
/// left with its variables only), each part is read from bitcode into a
/// context of its own and `emitObject(part, k)` generates its object on a
/// thread (at most one per core; `emitObject` must be thread-safe) for
/// k = 1..parts while this thread generates the variables' object
/// (`emitObject(module, 0)`), and the objects are joined by `lld` -r,
/// hidden symbols made local. Functions go to the part with the fewest
/// instructions so far, largest first.
llvm::Expected<std::string> emitObjectInParts(
    llvm::Module &module, unsigned parts,
    llvm::function_ref<llvm::Expected<std::string>(llvm::Module &, unsigned)>
        emitObject,
    llvm::StringRef lld);

/// Joins ELF relocatable objects into one (`lld` -r, through temporary
/// files), then makes the hidden symbols local (llvm-objcopy
/// --localize-hidden, in process).
llvm::Expected<std::string> joinObjects(llvm::ArrayRef<std::string> objects,
                                        llvm::StringRef lld);

} // namespace aotc

#endif // AOTC_CPU_TARGET_PARALLELCODEGEN_H
