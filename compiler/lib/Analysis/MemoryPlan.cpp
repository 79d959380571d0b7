//===- MemoryPlan.cpp - Static memory planning for the pool -----*- C++ -*-===//
//
// Part of the aotc project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the memory planner declared in MemoryPlan.h.
//
// Placing buffers with fixed lifetimes into one pool so as to minimise its
// size is dynamic storage allocation, NP-hard even on interval graphs. The
// planner works in three steps:
//
//   1. Normalisation: sizes are rounded up to the alignment, zero-size
//      requests are set aside (offset 0), the conflict graph (pairs of
//      buffers whose lifetimes intersect) is built by a sweep over start
//      points, and the lower bound (the most aligned bytes live at once) is
//      computed together with the "breadth" (bytes live) at each point.
//
//   2. A portfolio of greedy placements. Each visits the buffers in one order
//      and puts each buffer into the best gap left by its already-placed
//      conflicting neighbours: the smallest gap that is large enough
//      (best-fit, as TFLite's greedy-by-size) or the lowest one (first-fit),
//      else on top of them all. The orders are: size-descending, breadth-
//      descending (Pisarchyk & Lee's greedy-by-breadth, per buffer), conflict-
//      weight-descending, size x duration descending, duration-descending and
//      start-ascending (which is optimal when all sizes are equal).
//
//   3. Local search on the best order found: repeatedly move a buffer that
//      reaches the top of the pool (or, sometimes, a random one) to an
//      earlier position in the order and replace everything, keeping the new
//      order whenever the pool does not grow. The search stops at the lower
//      bound or when a fixed work budget is spent, and uses a fixed-seed
//      generator, so the plan is a deterministic function of the input.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/MemoryPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>
#include <utility>

using namespace aotc;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t aotc::alignedBufferSize(int64_t size, int64_t alignment) {
  assert(alignment > 0 && "alignment must be positive");
  assert(size >= 0 && "buffer size must be non-negative");
  return static_cast<int64_t>(llvm::alignTo(static_cast<uint64_t>(size),
                                            static_cast<uint64_t>(alignment)));
}

namespace {

/// A buffer of non-zero size, as the planner sees it: an aligned size and a
/// closed lifetime interval.
struct Item {
  int64_t size;
  int64_t start;
  int64_t end;
};

/// Returns true if the closed intervals of `a` and `b` share a point.
bool lifetimesIntersect(const Item &a, const Item &b) {
  return a.start <= b.end && b.start <= a.end;
}

/// A small deterministic generator (SplitMix64), so that plans do not depend
/// on the standard library's distributions.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// Returns a value in [0, bound); `bound` must be positive.
  uint64_t below(uint64_t bound) { return next() % bound; }

private:
  uint64_t state;
};

/// The sum of aligned sizes live at each distinct start point, in increasing
/// order of points; its maximum is the lower bound.
struct Breadth {
  std::vector<int64_t> points;
  std::vector<int64_t> live;
  int64_t maximum = 0;
};

/// Computes the breadth at every start point with a sweep over start and
/// end + 1 events; removals at a point are applied before additions there.
Breadth computeBreadth(llvm::ArrayRef<Item> items) {
  llvm::SmallVector<std::pair<int64_t, int64_t>, 0> events;
  events.reserve(items.size() * 2);
  for (const Item &item : items) {
    events.push_back({item.start, item.size});
    // A buffer ending at INT64_MAX lives until the end: no removal event.
    if (item.end != std::numeric_limits<int64_t>::max())
      events.push_back({item.end + 1, -item.size});
  }
  // Negative deltas sort first at equal points.
  std::sort(events.begin(), events.end());
  Breadth result;
  int64_t live = 0;
  for (size_t i = 0, e = events.size(); i != e;) {
    int64_t point = events[i].first;
    bool hasStart = false;
    for (; i != e && events[i].first == point; ++i) {
      live += events[i].second;
      hasStart |= events[i].second > 0;
    }
    if (hasStart) {
      result.points.push_back(point);
      result.live.push_back(live);
      result.maximum = std::max(result.maximum, live);
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Planner
//===----------------------------------------------------------------------===//

/// Where to put a buffer among the gaps left by its placed neighbours.
enum class FitPolicy {
  /// The smallest gap that is large enough (ties: the lowest).
  BestFit,
  /// The lowest gap that is large enough.
  FirstFit,
};

/// Plans the offsets of a set of non-zero-size items.
class Planner {
public:
  explicit Planner(std::vector<Item> items) : items(std::move(items)) {
    buildConflictGraph();
    breadth = computeBreadth(this->items);
  }

  /// The most aligned bytes live at once.
  int64_t lowerBound() const { return breadth.maximum; }

  /// Runs the portfolio and the local search; returns the pool size and
  /// fills `offsets` (one per item).
  int64_t run(std::vector<int64_t> &offsets);

private:
  /// Builds `adjStart`/`adj` (CSR) unless the graph has more than
  /// `kMaxConflictEntries` directed edges, in which case neighbours are found
  /// by scanning the placed items.
  void buildConflictGraph();

  /// Calls `fn(j)` for every already-placed item j whose lifetime intersects
  /// that of item `order[position]`; the placed items are `order[0, position)`.
  template <typename Fn>
  void forEachPlacedConflict(llvm::ArrayRef<unsigned> order, unsigned position,
                             const std::vector<int64_t> &offsets, Fn fn);

  /// Places `order[from, n)` with `policy`, given `offsets` for the items of
  /// `order[0, from)` (the others must be -1) and `prefixPool[0, from]`, where
  /// prefixPool[k] is the pool size after placing `order[0, k)`. Fills both
  /// for the remaining positions and returns the pool size, or INT64_MAX as
  /// soon as a buffer would end above `abortAbove`.
  int64_t placeFrom(llvm::ArrayRef<unsigned> order, FitPolicy policy,
                    int64_t abortAbove, unsigned from,
                    std::vector<int64_t> &offsets,
                    std::vector<int64_t> &prefixPool);

  /// Returns the item indices sorted by decreasing `key` (a heavier key first),
  /// ties broken by decreasing size, then increasing start, then index.
  template <typename KeyFn> std::vector<unsigned> orderBy(KeyFn key) const;

  /// The greedy orders of the portfolio.
  std::vector<std::vector<unsigned>> candidateOrders() const;

  /// Improves (order, offsets, pool) in place by local search.
  void improve(std::vector<unsigned> &order, FitPolicy policy,
               std::vector<int64_t> &offsets, std::vector<int64_t> &prefixPool,
               int64_t &pool);

  /// Directed conflict entries above which the graph is not materialised
  /// (64 MiB of indices).
  static constexpr uint64_t kMaxConflictEntries = uint64_t(1) << 24;
  /// Work the local search may spend, in neighbour visits plus items copied
  /// (it bounds the compile time on dense random graphs of 300 to 3000
  /// buffers; real programs, whose buffers are short-lived, spend far less).
  static constexpr uint64_t kSearchWorkBudget = 10'000'000;
  /// Placement passes the local search may run.
  static constexpr unsigned kMaxSearchIterations = 2000;

  std::vector<Item> items;
  Breadth breadth;
  bool hasGraph = false;
  std::vector<uint32_t> adjStart;
  std::vector<uint32_t> adj;
  /// Neighbour visits and items copied so far (the unit of the search budget).
  uint64_t work = 0;
  /// Scratch for `placeFrom`: [begin, end) byte ranges of placed neighbours.
  std::vector<std::pair<int64_t, int64_t>> ranges;
};

} // namespace

void Planner::buildConflictGraph() {
  unsigned n = items.size();
  std::vector<unsigned> byStart(n);
  std::iota(byStart.begin(), byStart.end(), 0u);
  std::sort(byStart.begin(), byStart.end(), [&](unsigned a, unsigned b) {
    return std::make_pair(items[a].start, a) <
           std::make_pair(items[b].start, b);
  });

  // Sweep in start order; `active` holds the items started so far that are
  // still live. Each new item conflicts exactly with the active ones. The
  // first sweep counts (and gives up past the cap), the second fills.
  std::vector<uint32_t> degree(n, 0);
  std::vector<unsigned> active;
  uint64_t entries = 0;
  for (int fill = 0; fill != 2; ++fill) {
    active.clear();
    std::vector<uint32_t> cursor;
    if (fill)
      cursor.assign(adjStart.begin(), adjStart.end() - 1);
    for (unsigned i : byStart) {
      int64_t start = items[i].start;
      llvm::erase_if(active, [&](unsigned j) { return items[j].end < start; });
      if (!fill) {
        degree[i] += active.size();
        for (unsigned j : active)
          ++degree[j];
        entries += 2 * uint64_t(active.size());
        if (entries > kMaxConflictEntries)
          return;
      } else {
        for (unsigned j : active) {
          adj[cursor[i]++] = j;
          adj[cursor[j]++] = i;
        }
      }
      active.push_back(i);
    }
    if (!fill) {
      adjStart.assign(n + 1, 0);
      for (unsigned i = 0; i != n; ++i)
        adjStart[i + 1] = adjStart[i] + degree[i];
      adj.assign(entries, 0);
    }
  }
  hasGraph = true;
}

template <typename Fn>
void Planner::forEachPlacedConflict(llvm::ArrayRef<unsigned> order,
                                    unsigned position,
                                    const std::vector<int64_t> &offsets,
                                    Fn fn) {
  unsigned i = order[position];
  if (hasGraph) {
    work += adjStart[i + 1] - adjStart[i];
    for (uint32_t k = adjStart[i], e = adjStart[i + 1]; k != e; ++k)
      if (offsets[adj[k]] >= 0)
        fn(adj[k]);
    return;
  }
  work += position;
  const Item &item = items[i];
  for (unsigned k = 0; k != position; ++k)
    if (lifetimesIntersect(item, items[order[k]]))
      fn(order[k]);
}

int64_t Planner::placeFrom(llvm::ArrayRef<unsigned> order, FitPolicy policy,
                           int64_t abortAbove, unsigned from,
                           std::vector<int64_t> &offsets,
                           std::vector<int64_t> &prefixPool) {
  int64_t pool = prefixPool[from];
  for (unsigned position = from, n = order.size(); position != n; ++position) {
    unsigned i = order[position];
    ranges.clear();
    forEachPlacedConflict(order, position, offsets, [&](unsigned j) {
      ranges.push_back({offsets[j], offsets[j] + items[j].size});
    });
    std::sort(ranges.begin(), ranges.end());

    // Scan the gaps between the (possibly overlapping) ranges of the placed
    // neighbours; `top` is the end of the highest one.
    int64_t size = items[i].size;
    int64_t top = 0;
    int64_t chosen = -1;
    int64_t chosenGap = std::numeric_limits<int64_t>::max();
    for (const auto &[begin, end] : ranges) {
      if (begin > top) {
        int64_t gap = begin - top;
        if (gap >= size && gap < chosenGap) {
          chosen = top;
          chosenGap = gap;
          if (policy == FitPolicy::FirstFit || gap == size)
            break;
        }
      }
      top = std::max(top, end);
    }
    int64_t offset = chosen >= 0 ? chosen : top;
    if (offset + size > abortAbove)
      return std::numeric_limits<int64_t>::max();
    offsets[i] = offset;
    pool = std::max(pool, offset + size);
    prefixPool[position + 1] = pool;
  }
  return pool;
}

template <typename KeyFn>
std::vector<unsigned> Planner::orderBy(KeyFn key) const {
  std::vector<unsigned> order(items.size());
  std::iota(order.begin(), order.end(), 0u);
  std::vector<decltype(key(0u))> keys;
  keys.reserve(items.size());
  for (unsigned i = 0, e = items.size(); i != e; ++i)
    keys.push_back(key(i));
  std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    if (keys[a] != keys[b])
      return keys[a] > keys[b];
    if (items[a].size != items[b].size)
      return items[a].size > items[b].size;
    if (items[a].start != items[b].start)
      return items[a].start < items[b].start;
    return a < b;
  });
  return order;
}

std::vector<std::vector<unsigned>> Planner::candidateOrders() const {
  unsigned n = items.size();
  std::vector<std::vector<unsigned>> orders;

  // Greedy by size (TFLite): the largest buffers first, longer-lived first.
  orders.push_back(orderBy([&](unsigned i) {
    return std::make_pair(items[i].size, items[i].end - items[i].start);
  }));

  // Greedy by breadth: buffers live at the most crowded program point first.
  // The breadth only grows at start points, so the max over a lifetime is the
  // max over the start points inside it; a sparse table answers these range
  // maximum queries.
  {
    const std::vector<int64_t> &live = breadth.live;
    size_t m = live.size();
    std::vector<std::vector<int64_t>> table{live};
    for (size_t width = 1; 2 * width <= m; width *= 2) {
      const std::vector<int64_t> &prev = table.back();
      std::vector<int64_t> next(m - 2 * width + 1);
      for (size_t k = 0; k != next.size(); ++k)
        next[k] = std::max(prev[k], prev[k + width]);
      table.push_back(std::move(next));
    }
    std::vector<int64_t> itemBreadth(n);
    for (unsigned i = 0; i != n; ++i) {
      const std::vector<int64_t> &points = breadth.points;
      size_t lo =
          std::lower_bound(points.begin(), points.end(), items[i].start) -
          points.begin();
      size_t hi = std::upper_bound(points.begin(), points.end(), items[i].end) -
                  points.begin();
      // The item's own start is a start point, so lo < hi.
      unsigned level = llvm::Log2_64(hi - lo);
      itemBreadth[i] =
          std::max(table[level][lo], table[level][hi - (size_t(1) << level)]);
    }
    orders.push_back(orderBy([&](unsigned i) { return itemBreadth[i]; }));
  }

  // Greedy by conflict weight: the total size of the buffers a buffer
  // conflicts with (itself included) is the total minus the sizes of those
  // ending before it starts and of those starting after it ends.
  {
    std::vector<std::pair<int64_t, int64_t>> byEnd, byStart;
    for (const Item &item : items) {
      byEnd.push_back({item.end, item.size});
      byStart.push_back({item.start, item.size});
    }
    std::sort(byEnd.begin(), byEnd.end());
    std::sort(byStart.begin(), byStart.end());
    std::vector<int64_t> endPrefix(n + 1, 0), startSuffix(n + 1, 0);
    for (unsigned k = 0; k != n; ++k)
      endPrefix[k + 1] = endPrefix[k] + byEnd[k].second;
    for (unsigned k = n; k != 0; --k)
      startSuffix[k - 1] = startSuffix[k] + byStart[k - 1].second;
    int64_t total = endPrefix[n];
    orders.push_back(orderBy([&](unsigned i) {
      size_t endedBefore =
          std::lower_bound(
              byEnd.begin(), byEnd.end(),
              std::make_pair(items[i].start,
                             std::numeric_limits<int64_t>::min())) -
          byEnd.begin();
      size_t startsAfter =
          std::upper_bound(
              byStart.begin(), byStart.end(),
              std::make_pair(items[i].end,
                             std::numeric_limits<int64_t>::max())) -
          byStart.begin();
      return total - endPrefix[endedBefore] - startSuffix[startsAfter];
    }));
  }

  // Greedy by area: size x duration (as a double: only the order matters).
  orders.push_back(orderBy([&](unsigned i) {
    return double(items[i].size) * (double(items[i].end - items[i].start) + 1);
  }));

  // Greedy by duration: long-lived buffers form the floor of the pool.
  orders.push_back(
      orderBy([&](unsigned i) { return items[i].end - items[i].start; }));

  // In program order: optimal for equal sizes (interval graphs are perfect).
  orders.push_back(orderBy([&](unsigned i) { return -items[i].start; }));
  return orders;
}

void Planner::improve(std::vector<unsigned> &order, FitPolicy policy,
                      std::vector<int64_t> &offsets,
                      std::vector<int64_t> &prefixPool, int64_t &pool) {
  unsigned n = items.size();
  if (n < 2)
    return;
  SplitMix64 rng(0x5eed0a07c0ffeeULL ^ n);
  std::vector<unsigned> candidate;
  std::vector<int64_t> candidateOffsets, candidatePrefixPool;
  std::vector<unsigned> topItems;
  uint64_t budgetEnd = work + kSearchWorkBudget;
  for (unsigned iteration = 0; iteration != kMaxSearchIterations &&
                               pool > lowerBound() && work < budgetEnd;
       ++iteration) {
    // Pick a buffer to promote: usually one that reaches the top of the pool,
    // sometimes any buffer (to escape plateaus).
    unsigned victim;
    if (rng.below(4) != 0) {
      topItems.clear();
      for (unsigned i = 0; i != n; ++i)
        if (offsets[i] + items[i].size == pool)
          topItems.push_back(i);
      victim = topItems[rng.below(topItems.size())];
    } else {
      victim = rng.below(n);
    }
    unsigned position = llvm::find(order, victim) - order.begin();
    if (position == 0)
      continue;
    unsigned target = rng.below(position);

    // Move the victim to `target`; the placement of order[0, target) does not
    // change, so only the rest is placed again.
    work += n;
    candidate = order;
    std::rotate(candidate.begin() + target, candidate.begin() + position,
                candidate.begin() + position + 1);
    candidateOffsets = offsets;
    for (unsigned k = target; k != n; ++k)
      candidateOffsets[candidate[k]] = -1;
    candidatePrefixPool = prefixPool;
    int64_t candidatePool = placeFrom(candidate, policy, pool, target,
                                      candidateOffsets, candidatePrefixPool);
    if (candidatePool <= pool) {
      order.swap(candidate);
      offsets.swap(candidateOffsets);
      prefixPool.swap(candidatePrefixPool);
      pool = candidatePool;
    }
  }
}

int64_t Planner::run(std::vector<int64_t> &offsets) {
  unsigned n = items.size();
  if (n == 0) {
    offsets.clear();
    return 0;
  }
  int64_t bestPool = std::numeric_limits<int64_t>::max();
  std::vector<unsigned> bestOrder;
  FitPolicy bestPolicy = FitPolicy::BestFit;
  std::vector<int64_t> bestPrefixPool;
  std::vector<int64_t> candidateOffsets;
  std::vector<int64_t> prefixPool(n + 1, 0);
  for (std::vector<unsigned> &order : candidateOrders()) {
    for (FitPolicy policy : {FitPolicy::BestFit, FitPolicy::FirstFit}) {
      candidateOffsets.assign(n, -1);
      int64_t pool = placeFrom(order, policy, bestPool - 1, /*from=*/0,
                               candidateOffsets, prefixPool);
      if (pool < bestPool) {
        bestPool = pool;
        bestOrder = order;
        bestPolicy = policy;
        offsets.swap(candidateOffsets);
        bestPrefixPool = prefixPool;
      }
      if (bestPool == lowerBound())
        return bestPool;
    }
  }
  improve(bestOrder, bestPolicy, offsets, bestPrefixPool, bestPool);
  return bestPool;
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

int64_t aotc::computeMemoryLowerBound(llvm::ArrayRef<BufferRequest> requests,
                                      int64_t alignment) {
  std::vector<Item> items;
  for (const BufferRequest &request : requests)
    if (request.size > 0)
      items.push_back({alignedBufferSize(request.size, alignment),
                       request.start, request.end});
  return computeBreadth(items).maximum;
}

MemoryPlan aotc::planMemory(llvm::ArrayRef<BufferRequest> requests,
                            int64_t alignment) {
  assert(alignment > 0 && "alignment must be positive");
  MemoryPlan plan;
  plan.offsets.assign(requests.size(), 0);

  // Zero-size requests keep offset 0 and take no part in planning.
  std::vector<Item> items;
  std::vector<size_t> requestOf;
  for (size_t r = 0, e = requests.size(); r != e; ++r) {
    const BufferRequest &request = requests[r];
    assert(request.size >= 0 && "buffer size must be non-negative");
    assert(request.start <= request.end && "lifetime must not be empty");
    if (request.size == 0)
      continue;
    items.push_back({alignedBufferSize(request.size, alignment), request.start,
                     request.end});
    requestOf.push_back(r);
  }

  Planner planner(std::move(items));
  std::vector<int64_t> offsets;
  plan.poolBytes = planner.run(offsets);
  plan.lowerBound = planner.lowerBound();
  for (size_t i = 0, e = offsets.size(); i != e; ++i)
    plan.offsets[requestOf[i]] = offsets[i];
  return plan;
}

std::string aotc::verifyMemoryPlan(llvm::ArrayRef<BufferRequest> requests,
                                   const MemoryPlan &plan, int64_t alignment) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (alignment <= 0) {
    os << "alignment " << alignment << " is not positive";
    return message;
  }
  if (plan.offsets.size() != requests.size()) {
    os << "plan has " << plan.offsets.size() << " offsets for "
       << requests.size() << " requests";
    return message;
  }

  // Per-buffer checks; collect the non-empty buffers for the overlap check.
  struct Placed {
    int64_t start, end, begin, limit;
    size_t request;
  };
  std::vector<Placed> placed;
  int64_t pool = 0;
  for (size_t r = 0, e = requests.size(); r != e; ++r) {
    const BufferRequest &request = requests[r];
    int64_t offset = plan.offsets[r];
    if (request.size < 0 || request.start > request.end) {
      os << "request " << r << " is malformed (size " << request.size
         << ", lifetime [" << request.start << ", " << request.end << "])";
      return message;
    }
    if (request.size == 0) {
      if (offset != 0) {
        os << "zero-size request " << r << " has offset " << offset
           << " instead of 0";
        return message;
      }
      continue;
    }
    if (offset < 0 || offset % alignment != 0) {
      os << "offset " << offset << " of request " << r
         << " is not a non-negative multiple of " << alignment;
      return message;
    }
    int64_t limit = offset + alignedBufferSize(request.size, alignment);
    pool = std::max(pool, limit);
    placed.push_back({request.start, request.end, offset, limit, r});
  }
  if (plan.poolBytes != pool) {
    os << "poolBytes is " << plan.poolBytes << " but the buffers end at "
       << pool;
    return message;
  }

  // Two closed intervals intersect iff the later-starting one starts before
  // the other ends: sweep in start order against the still-live buffers.
  std::sort(placed.begin(), placed.end(), [](const Placed &a, const Placed &b) {
    return std::make_pair(a.start, a.request) <
           std::make_pair(b.start, b.request);
  });
  std::vector<const Placed *> active;
  for (const Placed &buffer : placed) {
    llvm::erase_if(
        active, [&](const Placed *other) { return other->end < buffer.start; });
    for (const Placed *other : active) {
      if (buffer.begin < other->limit && other->begin < buffer.limit) {
        size_t first = std::min(buffer.request, other->request);
        size_t second = std::max(buffer.request, other->request);
        const Placed &a = first == buffer.request ? buffer : *other;
        const Placed &b = first == buffer.request ? *other : buffer;
        os << "requests " << first << " and " << second
           << " are live at the same time (lifetimes [" << a.start << ", "
           << a.end << "] and [" << b.start << ", " << b.end
           << "]) and overlap in memory (bytes [" << a.begin << ", " << a.limit
           << ") and [" << b.begin << ", " << b.limit << "))";
        return message;
      }
    }
    active.push_back(&buffer);
  }

  int64_t lowerBound = computeMemoryLowerBound(requests, alignment);
  if (plan.lowerBound != lowerBound) {
    os << "lowerBound is " << plan.lowerBound << " but the most bytes live at "
       << "once is " << lowerBound;
    return message;
  }
  // Implied by the absence of overlap, but cheap to state.
  if (plan.poolBytes < plan.lowerBound) {
    os << "poolBytes " << plan.poolBytes << " is below the lower bound "
       << plan.lowerBound;
    return message;
  }
  return message;
}
