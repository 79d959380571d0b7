//===- MemoryPlanTest.cpp - Tests for the memory planner --------*- C++ -*-===//
//
// Part of the aotc project.
//
//===----------------------------------------------------------------------===//
//
// This file tests planMemory and verifyMemoryPlan. Plans are checked by a
// brute-force checker written here (independent of verifyMemoryPlan): every
// pair of buffers is compared point by point, and the lower bound is the
// maximum over every program point of the bytes live there.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/MemoryPlan.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace aotc;

namespace {

//===----------------------------------------------------------------------===//
// Brute-force checker
//===----------------------------------------------------------------------===//

int64_t roundUp(int64_t size, int64_t alignment) {
  return (size + alignment - 1) / alignment * alignment;
}

/// The most aligned bytes live at one program point, by visiting every point
/// of [min start, max end]. Only for small point ranges.
int64_t bruteForceLowerBound(const std::vector<BufferRequest> &requests,
                             int64_t alignment) {
  if (requests.empty())
    return 0;
  int64_t first = requests[0].start, last = requests[0].end;
  for (const BufferRequest &r : requests) {
    first = std::min(first, r.start);
    last = std::max(last, r.end);
  }
  int64_t best = 0;
  for (int64_t point = first; point <= last; ++point) {
    int64_t live = 0;
    for (const BufferRequest &r : requests)
      if (r.start <= point && point <= r.end)
        live += roundUp(r.size, alignment);
    best = std::max(best, live);
  }
  return best;
}

/// Checks `plan` pair by pair; returns "" or the first problem found.
std::string bruteForceCheck(const std::vector<BufferRequest> &requests,
                            const MemoryPlan &plan, int64_t alignment,
                            int64_t lowerBound) {
  if (plan.offsets.size() != requests.size())
    return "wrong number of offsets";
  int64_t pool = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    int64_t offset = plan.offsets[i];
    if (offset < 0 || offset % alignment != 0)
      return "misaligned or negative offset for buffer " + std::to_string(i);
    if (requests[i].size == 0 && offset != 0)
      return "zero-size buffer " + std::to_string(i) + " not at offset 0";
    pool = std::max(pool, offset + roundUp(requests[i].size, alignment));
  }
  if (pool != plan.poolBytes)
    return "poolBytes " + std::to_string(plan.poolBytes) +
           " != " + std::to_string(pool);
  for (size_t i = 0; i < requests.size(); ++i) {
    for (size_t j = i + 1; j < requests.size(); ++j) {
      const BufferRequest &a = requests[i], &b = requests[j];
      if (a.size == 0 || b.size == 0)
        continue;
      // Is there a program point where both are live?
      bool together = false;
      for (int64_t p = a.start; p <= a.end && !together; ++p)
        together = b.start <= p && p <= b.end;
      if (!together)
        continue;
      int64_t aBegin = plan.offsets[i],
              aEnd = aBegin + roundUp(a.size, alignment);
      int64_t bBegin = plan.offsets[j],
              bEnd = bBegin + roundUp(b.size, alignment);
      if (aBegin < bEnd && bBegin < aEnd)
        return "buffers " + std::to_string(i) + " and " + std::to_string(j) +
               " overlap while both live";
    }
  }
  if (plan.lowerBound != lowerBound)
    return "lowerBound " + std::to_string(plan.lowerBound) +
           " != " + std::to_string(lowerBound);
  if (plan.poolBytes < lowerBound)
    return "poolBytes below the lower bound";
  return "";
}

/// Plans, checks with both checkers, and returns the plan.
MemoryPlan planAndCheck(const std::vector<BufferRequest> &requests,
                        int64_t alignment = 64) {
  MemoryPlan plan = planMemory(requests, alignment);
  EXPECT_EQ(bruteForceCheck(requests, plan, alignment,
                            bruteForceLowerBound(requests, alignment)),
            "");
  EXPECT_EQ(verifyMemoryPlan(requests, plan, alignment), "");
  return plan;
}

double ratio(const MemoryPlan &plan) {
  return plan.lowerBound == 0
             ? 1.0
             : double(plan.poolBytes) / double(plan.lowerBound);
}

//===----------------------------------------------------------------------===//
// Generators
//===----------------------------------------------------------------------===//

/// `n` buffers with random lifetimes in [0, points) and sizes drawn either
/// uniformly from [1, maxSize] or log-uniformly (mixing tiny and huge ones).
std::vector<BufferRequest> randomRequests(std::mt19937_64 &rng, int n,
                                          int64_t points, int64_t maxSize,
                                          bool logUniform) {
  std::vector<BufferRequest> requests;
  std::uniform_int_distribution<int64_t> point(0, points - 1);
  std::uniform_int_distribution<int64_t> size(1, maxSize);
  std::uniform_real_distribution<double> exponent(0.0,
                                                  std::log2(double(maxSize)));
  std::uniform_int_distribution<int64_t> shortLife(0, 4);
  std::bernoulli_distribution isShort(0.5);
  for (int i = 0; i < n; ++i) {
    int64_t start = point(rng);
    int64_t end = isShort(rng) ? std::min(points - 1, start + shortLife(rng))
                               : std::max(start, point(rng));
    int64_t bytes = logUniform ? int64_t(std::exp2(exponent(rng))) : size(rng);
    requests.push_back({bytes, start, end});
  }
  return requests;
}

/// A program shaped like a CNN: a chain of ops whose outputs live until their
/// last consumer (the next op, sometimes also a residual add a few ops
/// later), with per-op workspaces live at that op only. Feature maps shrink
/// as channels grow, as in ResNet.
std::vector<BufferRequest> cnnLikeRequests(std::mt19937_64 &rng, int ops) {
  std::vector<BufferRequest> requests;
  std::bernoulli_distribution residual(0.3), workspace(0.4);
  std::uniform_int_distribution<int64_t> skip(2, 4);
  std::uniform_int_distribution<int64_t> wsSize(1000, 400000);
  int64_t spatial = 112 * 112, channels = 64;
  for (int t = 0; t < ops; ++t) {
    if (t % std::max(1, ops / 5) == 0 && t > 0 && spatial > 49) {
      spatial /= 4;
      channels *= 2;
    }
    int64_t bytes = spatial * channels * 4;
    int64_t end = t + 1 + (residual(rng) ? skip(rng) : 0);
    requests.push_back({bytes, t, std::min<int64_t>(end, ops)});
    if (workspace(rng))
      requests.push_back({wsSize(rng), t, t});
  }
  return requests;
}

/// A U-Net-like program: an encoder whose stage outputs live until the
/// matching decoder stage (long, nested skip connections), convolutions with
/// im2col-style workspaces, and a decoder that grows the maps back.
std::vector<BufferRequest> unetLikeRequests(std::mt19937_64 &rng, int depth,
                                            int convsPerStage) {
  std::vector<BufferRequest> requests;
  std::uniform_int_distribution<int64_t> wsFactor(1, 9);
  int64_t t = 0;
  int64_t spatial = 256 * 256, channels = 32;
  std::vector<std::pair<size_t, int64_t>> skips; // request index, bytes
  auto conv = [&](int64_t bytes) {
    // Output from t to t + 1; workspace at t only.
    requests.push_back({bytes, t, t + 1});
    requests.push_back({bytes / 4 * wsFactor(rng) / 4, t, t});
    ++t;
  };
  for (int d = 0; d < depth; ++d) {
    for (int c = 0; c < convsPerStage; ++c)
      conv(spatial * channels * 4);
    skips.push_back({requests.size() - 2, spatial * channels * 4});
    spatial /= 4;
    channels *= 2;
  }
  for (int d = depth - 1; d >= 0; --d) {
    spatial *= 4;
    channels /= 2;
    // The skip tensor is read by the concatenation at t.
    requests[skips[d].first].end = t;
    requests.push_back({2 * skips[d].second, t, t + 1}); // concat
    ++t;
    for (int c = 0; c < convsPerStage; ++c)
      conv(spatial * channels * 4);
  }
  return requests;
}

/// TFLite's greedy-by-size, written independently: buffers by decreasing
/// size, each in the smallest sufficient gap among the placed buffers whose
/// lifetimes intersect, else above them all. Sizes must be distinct (so that
/// the order is unambiguous) and the alignment 1.
int64_t referenceGreedyBySize(const std::vector<BufferRequest> &requests) {
  std::vector<size_t> order(requests.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return requests[a].size > requests[b].size;
  });
  std::vector<int64_t> offset(requests.size(), -1);
  int64_t pool = 0;
  for (size_t i : order) {
    std::vector<std::pair<int64_t, int64_t>> used;
    for (size_t j : order) {
      if (offset[j] < 0)
        continue;
      if (requests[i].start <= requests[j].end &&
          requests[j].start <= requests[i].end)
        used.push_back({offset[j], offset[j] + requests[j].size});
    }
    std::sort(used.begin(), used.end());
    int64_t cursor = 0, best = -1,
            bestGap = std::numeric_limits<int64_t>::max();
    for (auto [begin, end] : used) {
      if (begin - cursor >= requests[i].size && begin - cursor < bestGap) {
        best = cursor;
        bestGap = begin - cursor;
      }
      cursor = std::max(cursor, end);
    }
    offset[i] = best >= 0 ? best : cursor;
    pool = std::max(pool, offset[i] + requests[i].size);
  }
  return pool;
}

//===----------------------------------------------------------------------===//
// Hand-written cases
//===----------------------------------------------------------------------===//

TEST(MemoryPlanTest, Empty) {
  MemoryPlan plan = planAndCheck({});
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.poolBytes, 0);
  EXPECT_EQ(plan.lowerBound, 0);
}

TEST(MemoryPlanTest, Single) {
  MemoryPlan plan = planAndCheck({{100, 3, 7}});
  ASSERT_EQ(plan.offsets.size(), 1u);
  EXPECT_EQ(plan.offsets[0], 0);
  EXPECT_EQ(plan.poolBytes, 128);
  EXPECT_EQ(plan.lowerBound, 128);
}

TEST(MemoryPlanTest, DisjointLifetimesShareOffsetZero) {
  std::vector<BufferRequest> requests = {
      {64, 0, 1}, {128, 2, 3}, {640, 4, 4}, {64, 5, 9}};
  MemoryPlan plan = planAndCheck(requests);
  for (int64_t offset : plan.offsets)
    EXPECT_EQ(offset, 0);
  EXPECT_EQ(plan.poolBytes, 640);
  EXPECT_EQ(plan.lowerBound, 640);
}

TEST(MemoryPlanTest, TouchingLifetimesConflict) {
  // Both are live at point 1 (closed intervals).
  MemoryPlan plan = planAndCheck({{64, 0, 1}, {64, 1, 2}});
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.poolBytes, 128);
}

TEST(MemoryPlanTest, ChainReuse) {
  // Op i reads buffer i-1 and writes buffer i: two buffers suffice.
  std::vector<BufferRequest> requests;
  for (int i = 0; i < 20; ++i)
    requests.push_back({4096, i, i + 1});
  MemoryPlan plan = planAndCheck(requests);
  EXPECT_EQ(plan.lowerBound, 8192);
  EXPECT_EQ(plan.poolBytes, 8192);
  for (int i = 2; i < 20; ++i)
    EXPECT_EQ(plan.offsets[i], plan.offsets[i - 2]);
}

TEST(MemoryPlanTest, ChainReuseWithShrinkingSizes) {
  // A chain whose buffers shrink: the pool is the largest adjacent pair.
  std::vector<BufferRequest> requests;
  for (int i = 0; i < 12; ++i)
    requests.push_back({int64_t(1) << (20 - i), i, i + 1});
  MemoryPlan plan = planAndCheck(requests);
  EXPECT_EQ(plan.lowerBound, (1 << 20) + (1 << 19));
  EXPECT_EQ(plan.poolBytes, plan.lowerBound);
}

TEST(MemoryPlanTest, AllLiveTogether) {
  std::vector<BufferRequest> requests = {
      {1000, 0, 5}, {64, 1, 5}, {3000, 2, 5}, {7, 5, 5}};
  MemoryPlan plan = planAndCheck(requests);
  EXPECT_EQ(plan.lowerBound, 1024 + 64 + 3008 + 64);
  EXPECT_EQ(plan.poolBytes, plan.lowerBound);
}

TEST(MemoryPlanTest, AlignmentRounding) {
  std::vector<BufferRequest> requests = {{1, 0, 2}, {65, 0, 2}, {100, 1, 2}};
  MemoryPlan plan = planAndCheck(requests, 64);
  EXPECT_EQ(plan.lowerBound, 64 + 128 + 128);
  EXPECT_EQ(plan.poolBytes, plan.lowerBound);
  for (int64_t offset : plan.offsets)
    EXPECT_EQ(offset % 64, 0);

  MemoryPlan wide = planAndCheck(requests, 256);
  EXPECT_EQ(wide.lowerBound, 3 * 256);
  EXPECT_EQ(wide.poolBytes, 3 * 256);
  for (int64_t offset : wide.offsets)
    EXPECT_EQ(offset % 256, 0);

  MemoryPlan exact = planAndCheck(requests, 1);
  EXPECT_EQ(exact.lowerBound, 1 + 65 + 100);
  EXPECT_EQ(exact.poolBytes, exact.lowerBound);
}

TEST(MemoryPlanTest, ZeroSize) {
  std::vector<BufferRequest> requests = {
      {0, 0, 9}, {256, 0, 3}, {0, 2, 2}, {256, 2, 5}, {0, 7, 7}};
  MemoryPlan plan = planAndCheck(requests);
  EXPECT_EQ(plan.offsets[0], 0);
  EXPECT_EQ(plan.offsets[2], 0);
  EXPECT_EQ(plan.offsets[4], 0);
  EXPECT_EQ(plan.lowerBound, 512);
  EXPECT_EQ(plan.poolBytes, 512);

  MemoryPlan onlyZero = planAndCheck({{0, 0, 1}, {0, 1, 2}});
  EXPECT_EQ(onlyZero.poolBytes, 0);
  EXPECT_EQ(onlyZero.lowerBound, 0);
}

TEST(MemoryPlanTest, GapIsReused) {
  // A long-lived buffer above a hole: a later small buffer must go into the
  // hole left by a dead one, not on top.
  std::vector<BufferRequest> requests = {
      {1024, 0, 1}, {1024, 0, 9}, {512, 2, 9}, {512, 3, 9}};
  MemoryPlan plan = planAndCheck(requests);
  EXPECT_EQ(plan.lowerBound, 2048);
  EXPECT_EQ(plan.poolBytes, 2048);
}

TEST(MemoryPlanTest, NegativeAndLargeProgramPoints) {
  std::vector<BufferRequest> requests = {{64, -5, -1},
                                         {64, -1, 1000000000},
                                         {128, 999999999, 1000000000},
                                         {128, 0, 0}};
  MemoryPlan plan = planMemory(requests);
  EXPECT_EQ(verifyMemoryPlan(requests, plan), "");
  EXPECT_EQ(plan.lowerBound, 192);
  EXPECT_EQ(plan.poolBytes, 192);
}

//===----------------------------------------------------------------------===//
// verifyMemoryPlan rejects broken plans
//===----------------------------------------------------------------------===//

TEST(MemoryPlanTest, VerifierRejectsBrokenPlans) {
  std::vector<BufferRequest> requests = {{64, 0, 2}, {64, 1, 3}, {0, 0, 0}};
  MemoryPlan good{{0, 64, 0}, 128, 128};
  EXPECT_EQ(verifyMemoryPlan(requests, good), "");

  MemoryPlan overlap{{0, 0, 0}, 64, 128};
  EXPECT_NE(verifyMemoryPlan(requests, overlap).find("overlap"),
            std::string::npos);

  MemoryPlan misaligned{{0, 96, 0}, 160, 128};
  EXPECT_NE(verifyMemoryPlan(requests, misaligned), "");

  MemoryPlan wrongPool{{0, 64, 0}, 256, 128};
  EXPECT_NE(verifyMemoryPlan(requests, wrongPool).find("poolBytes"),
            std::string::npos);

  MemoryPlan wrongBound{{0, 64, 0}, 128, 64};
  EXPECT_NE(verifyMemoryPlan(requests, wrongBound).find("lowerBound"),
            std::string::npos);

  MemoryPlan wrongCount{{0, 64}, 128, 128};
  EXPECT_NE(verifyMemoryPlan(requests, wrongCount), "");

  MemoryPlan zeroMoved{{0, 64, 64}, 128, 128};
  EXPECT_NE(verifyMemoryPlan(requests, zeroMoved).find("zero-size"),
            std::string::npos);

  // Disjoint lifetimes may share bytes.
  std::vector<BufferRequest> disjoint = {{64, 0, 1}, {64, 2, 3}};
  MemoryPlan shared{{0, 0}, 64, 64};
  EXPECT_EQ(verifyMemoryPlan(disjoint, shared), "");
}

//===----------------------------------------------------------------------===//
// Randomized cases
//===----------------------------------------------------------------------===//

TEST(MemoryPlanTest, RandomAgainstBruteForce) {
  double worst = 1.0, sum = 0.0;
  int cases = 0;
  for (uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
    std::mt19937_64 rng(seed);
    for (int n : {1, 2, 3, 5, 8, 13, 21, 50, 100, 200, 300}) {
      for (bool logUniform : {false, true}) {
        int64_t points = std::uniform_int_distribution<int64_t>(1, 150)(rng);
        std::vector<BufferRequest> requests =
            randomRequests(rng, n, points, 1 << 20, logUniform);
        int64_t alignment = seed % 2 ? 64 : 16;
        MemoryPlan plan = planMemory(requests, alignment);
        int64_t bound = bruteForceLowerBound(requests, alignment);
        ASSERT_EQ(bruteForceCheck(requests, plan, alignment, bound), "")
            << "seed " << seed << ", n " << n;
        worst = std::max(worst, ratio(plan));
        sum += ratio(plan);
        ++cases;
      }
    }
  }
  std::printf("[ ratio    ] random: worst poolBytes/lowerBound = %.4f, "
              "mean = %.4f over %d cases\n",
              worst, sum / cases, cases);
  EXPECT_LE(worst, 1.25);
}

TEST(MemoryPlanTest, RandomIsDeterministic) {
  std::mt19937_64 rng(42);
  std::vector<BufferRequest> requests =
      randomRequests(rng, 200, 80, 1 << 16, true);
  MemoryPlan a = planMemory(requests), b = planMemory(requests);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.poolBytes, b.poolBytes);
}

TEST(MemoryPlanTest, EqualSizesHitTheLowerBound) {
  // Interval graphs are perfect: with equal sizes the optimum is the lower
  // bound, and the planner must find it.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    for (int n : {1, 10, 50, 150, 300}) {
      std::vector<BufferRequest> requests =
          randomRequests(rng, n, 1 + int64_t(seed) * 7, 1, false);
      int64_t size = 64 * int64_t(1 + seed % 5);
      for (BufferRequest &r : requests)
        r.size = size - int64_t(seed % 3); // rounds up to `size`
      MemoryPlan plan = planAndCheck(requests);
      EXPECT_EQ(plan.poolBytes, plan.lowerBound)
          << "seed " << seed << ", n " << n;
    }
  }
}

TEST(MemoryPlanTest, NestedLifetimesHitTheLowerBound) {
  // Lifetimes that nest or are disjoint (a laminar family, like the scopes of
  // a structured program): the buffers live at a point are a chain of
  // enclosing scopes, and stacking each buffer on its enclosing ones reaches
  // the lower bound, so the plan must too.
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<BufferRequest> requests;
    // Recursively split [begin, end] into nested scopes.
    std::function<void(int64_t, int64_t, int)> scope = [&](int64_t begin,
                                                           int64_t end,
                                                           int depth) {
      int64_t bytes = std::uniform_int_distribution<int64_t>(1, 100000)(rng);
      requests.push_back({bytes, begin, end});
      if (depth == 0 || end - begin < 2)
        return;
      int64_t mid = std::uniform_int_distribution<int64_t>(begin, end - 1)(rng);
      scope(begin, mid, depth - 1);
      scope(mid + 1, end, depth - 1);
    };
    scope(0, 200, 6);
    MemoryPlan plan = planAndCheck(requests);
    EXPECT_EQ(plan.poolBytes, plan.lowerBound) << "seed " << seed;
  }
}

TEST(MemoryPlanTest, CnnLikeProgramsWithinFivePercent) {
  double worst = 1.0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    for (int ops : {10, 30, 60, 120}) {
      std::vector<BufferRequest> requests = cnnLikeRequests(rng, ops);
      MemoryPlan plan = planAndCheck(requests);
      worst = std::max(worst, ratio(plan));
    }
  }
  std::printf("[ ratio    ] CNN-like: worst poolBytes/lowerBound = %.4f\n",
              worst);
  EXPECT_LE(worst, 1.05);
}

TEST(MemoryPlanTest, UnetLikeProgramsWithinFivePercent) {
  double worst = 1.0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 rng(seed);
    for (int depth : {2, 3, 4, 5})
      for (int convs : {1, 2, 3}) {
        MemoryPlan plan = planAndCheck(unetLikeRequests(rng, depth, convs));
        worst = std::max(worst, ratio(plan));
      }
  }
  std::printf("[ ratio    ] U-Net-like: worst poolBytes/lowerBound = %.4f\n",
              worst);
  EXPECT_LE(worst, 1.05);
}

TEST(MemoryPlanTest, NoWorseThanGreedyBySize) {
  // The planner keeps the best of several orders, TFLite's among them, so it
  // can never lose to it.
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<BufferRequest> requests =
        randomRequests(rng, 10 + int(seed) * 5, 60, 1 << 20, seed % 2);
    // Make the sizes distinct.
    for (size_t i = 0; i < requests.size(); ++i)
      requests[i].size =
          requests[i].size * int64_t(requests.size()) + int64_t(i);
    MemoryPlan plan = planAndCheck(requests, /*alignment=*/1);
    EXPECT_LE(plan.poolBytes, referenceGreedyBySize(requests))
        << "seed " << seed;
  }
}

//===----------------------------------------------------------------------===//
// Scale
//===----------------------------------------------------------------------===//

TEST(MemoryPlanTest, TenThousandBuffers) {
  std::mt19937_64 rng(7);
  // Short-lived buffers (a sparse conflict graph) and long-lived ones (a
  // conflict graph too large to materialise).
  std::vector<BufferRequest> sparse = cnnLikeRequests(rng, 7000);
  std::vector<BufferRequest> dense =
      randomRequests(rng, 10000, 2000, 1 << 20, true);
  for (const std::vector<BufferRequest> *requests : {&sparse, &dense}) {
    auto begin = std::chrono::steady_clock::now();
    MemoryPlan plan = planMemory(*requests);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count();
    EXPECT_EQ(verifyMemoryPlan(*requests, plan), "");
    std::printf(
        "[ ratio    ] %zu buffers: poolBytes/lowerBound = %.4f in %.2f s\n",
        requests->size(), ratio(plan), seconds);
    EXPECT_LE(ratio(plan), 1.25);
    EXPECT_LT(seconds, 30.0);
  }
}

} // namespace
