//===- MemoryPlan.h - Static memory planning for the pool -------*- C++ -*-===//
//
// Part of the aotc project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the memory planner: a pure analysis that, given the size
// and lifetime of every scratch buffer of a program, assigns each buffer a
// byte offset into one pool so that buffers alive at the same time never
// overlap. It knows nothing about MLIR; the pass that rewrites `memref.alloc`
// into views of the pool argument builds the requests and applies the plan.
//
// The problem is dynamic storage allocation on an interval graph (NP-hard in
// general). The planner returns the best of several greedy placements, then
// improves it with a bounded, deterministic local search; it also reports the
// lower bound (the most bytes ever live at once) so that callers and tests can
// measure how far a plan is from optimal.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_ANALYSIS_MEMORYPLAN_H
#define AOTC_ANALYSIS_MEMORYPLAN_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace aotc {

//===----------------------------------------------------------------------===//
// Requests and plans
//===----------------------------------------------------------------------===//

/// One scratch buffer: `size` bytes, live over the closed interval
/// [start, end] of program points. Two buffers conflict (must not share bytes)
/// iff their intervals have at least one program point in common, so a buffer
/// whose last use is at point p and a buffer first defined at p conflict; a
/// producer that may reuse its operand's storage must be given start = p + 1.
///
/// Preconditions: size >= 0 and start <= end.
struct BufferRequest {
  int64_t size;
  int64_t start;
  int64_t end;
};

/// The result of planning: one offset per request into a pool of `poolBytes`.
///
/// Every size is first rounded up to the alignment, so a buffer occupies
/// [offset, offset + alignTo(size, alignment)) of the pool; `lowerBound` is
/// computed over these aligned sizes. A request of size 0 occupies no space
/// and gets offset 0.
struct MemoryPlan {
  /// One offset per request, in request order; each a multiple of the
  /// alignment.
  std::vector<int64_t> offsets;
  /// The pool size: max over requests of offset + aligned size (0 if there is
  /// no request of non-zero size).
  int64_t poolBytes = 0;
  /// The max over program points of the sum of the aligned sizes of the
  /// buffers live there. No valid plan can have a smaller pool, so
  /// poolBytes / lowerBound measures the plan's quality (1.0 is optimal).
  int64_t lowerBound = 0;
};

//===----------------------------------------------------------------------===//
// Planning and verification
//===----------------------------------------------------------------------===//

/// Rounds `size` up to a multiple of `alignment` (> 0). This is the number of
/// bytes a buffer of `size` bytes occupies in the pool.
int64_t alignedBufferSize(int64_t size, int64_t alignment);

/// Computes the lower bound of a plan for `requests`: the max over program
/// points of the sum of aligned sizes live there (0 for no requests).
int64_t computeMemoryLowerBound(llvm::ArrayRef<BufferRequest> requests,
                                int64_t alignment = 64);

/// Assigns offsets so that buffers whose lifetimes intersect never overlap in
/// memory. Sizes are rounded up to `alignment` (which must be positive), so
/// every offset is a multiple of it; zero-size requests get offset 0 and no
/// space.
///
/// The algorithm runs several greedy orders (size-descending as in TFLite's
/// greedy-by-size, breadth-descending, conflict-weight-descending,
/// start-ascending, ...), each placing a buffer in the best (smallest
/// sufficient, else lowest) gap among the already-placed buffers whose
/// lifetimes intersect its own, keeps the smallest pool, and then perturbs the
/// best order (moving buffers that reach the top of the pool earlier) under a
/// fixed work budget while the pool exceeds the lower bound. The result is
/// deterministic: it depends only on the requests and the alignment. Time is
/// O(n^2) in the worst case and close to O(n log n + conflicts) on programs
/// whose buffers are short-lived.
MemoryPlan planMemory(llvm::ArrayRef<BufferRequest> requests,
                      int64_t alignment = 64);

/// Checks a plan against its requests: one offset per request, offsets
/// non-negative multiples of `alignment`, zero-size requests at offset 0, no
/// overlap of the aligned byte ranges of simultaneously-live buffers,
/// `poolBytes` equal to max(offset + aligned size), and `lowerBound` equal to
/// the recomputed lower bound (hence <= poolBytes). Returns an empty string
/// when the plan is valid, else a description of the first violation found.
std::string verifyMemoryPlan(llvm::ArrayRef<BufferRequest> requests,
                             const MemoryPlan &plan, int64_t alignment = 64);

} // namespace aotc

#endif // AOTC_ANALYSIS_MEMORYPLAN_H
