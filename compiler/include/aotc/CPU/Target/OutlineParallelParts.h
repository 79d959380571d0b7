//===- OutlineParallelParts.h - Barrier-separated parts as calls -*- C++ -*-===//
//
// Moves each part of a function between two OpenMP barriers
// (`__kmpc_barrier` calls) that holds a loop into a function of its own,
// called there and never inlined; the K-th part of function F (counting
// from 0 before the first barrier, parts left in place included) is named
// `F.region.K` (scripts/profile_foralls.py reads it). A model's parallel
// region is one function with a part per layer; LLVM's loop passes take
// time that grows faster than the function's size (each loop's dominator
// tree update renumbers the whole tree), so many small functions compile
// much faster than one big one, to the same loops.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TARGET_OUTLINEPARALLELPARTS_H
#define AOTC_CPU_TARGET_OUTLINEPARALLELPARTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace aotc {

/// Outlines the parts of every function of `module`; returns the number of
/// functions it made.
unsigned outlineParallelParts(llvm::Module &module);

} // namespace aotc

#endif // AOTC_CPU_TARGET_OUTLINEPARALLELPARTS_H
