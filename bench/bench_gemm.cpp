//===- bench_gemm.cpp - aotc GEMM vs OpenBLAS ----------------*- C++ -*-===//
//
// Google Benchmark of aotc-compiled f32 GEMMs next to OpenBLAS's cblas_sgemm,
// same shapes, same thread counts, same process. Each benchmark reports
// GFLOP/s; bench/report.py turns a JSON run into ours/peer ratios. Before
// timing, every shape's result is checked against OpenBLAS.
//
// The two libraries keep separate thread pools (OpenBLAS's pthreads, LLVM's
// libomp for aotc) whose idle workers spin for a while after each call
// (OpenBLAS: ~2^28 cycles; libomp: KMP_BLOCKTIME, 200 ms): a benchmark
// started right after the other library's shares the cores with its
// spinning workers (aotc 49x512x2048 at 2 threads: 0.51 ms instead of 0.26
// ms). So whenever the library changes from one benchmark run to the next,
// the new one first waits AOTC_BENCH_PAUSE_MS (default 1000) milliseconds,
// untimed, for the other's workers to go to sleep. 300 ms was not always
// enough on the 2-vCPU Zen 5 VM: 49x512x2048 at 2 threads then took 0.48 ms
// for aotc and 0.41 ms for OpenBLAS in both of two runs, 0.26 ms and 0.31
// to 0.32 ms after 1000 or 1500 ms.
//
//===----------------------------------------------------------------------===//

#include "aot_abi/aot_abi.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using GemmFn = aot_status_t (*)(const float *, const float *, float *, void *,
                                size_t, aot_stream_t);
using InfoFn = const aot_model_info_t *(*)(void);
struct GemmShape {
  int m, n, k;
  GemmFn fn;
  InfoFn info;
};

#include "gemm_shapes.h"

extern "C" void openblas_set_num_threads(int);

namespace {

/// 64-byte aligned float buffer.
struct Buffer {
  explicit Buffer(size_t bytes)
      : data(static_cast<float *>(
            std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64))) {}
  ~Buffer() { std::free(data); }
  float *data;
};

struct Operands {
  explicit Operands(const GemmShape &s)
      : a(sizeof(float) * s.m * s.k), b(sizeof(float) * s.k * s.n),
        c(sizeof(float) * s.m * s.n), pool(s.info()->pool_bytes) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    for (int i = 0; i < s.m * s.k; ++i)
      a.data[i] = dist(rng);
    for (int i = 0; i < s.k * s.n; ++i)
      b.data[i] = dist(rng);
  }
  Buffer a, b, c, pool;
};

double flops(const GemmShape &s) { return 2.0 * s.m * s.n * s.k; }

enum class Library { None, Aotc, OpenBLAS };

/// Waits, untimed, for the other library's idle workers to stop spinning
/// when `library` is not the one the previous benchmark run used.
void quiesceOthers(Library library) {
  static Library last = Library::None;
  if (last != Library::None && last != library) {
    const char *env = std::getenv("AOTC_BENCH_PAUSE_MS");
    std::this_thread::sleep_for(
        std::chrono::milliseconds(env ? std::atoi(env) : 1000));
  }
  last = library;
}

void openblasGemm(const GemmShape &s, Operands &o) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f,
              o.a.data, s.k, o.b.data, s.n, 0.0f, o.c.data, s.n);
}

/// Aborts the run if aotc and OpenBLAS disagree on this shape.
void checkAgainstOpenBLAS(const GemmShape &s) {
  Operands o(s);
  aot_cpu_stream_t stream = {sizeof(aot_cpu_stream_t), 0};
  if (s.fn(o.a.data, o.b.data, o.c.data, o.pool.data, s.info()->pool_bytes,
           &stream) != AOT_OK) {
    std::fprintf(stderr, "gemm %dx%dx%d: call failed\n", s.m, s.n, s.k);
    std::exit(1);
  }
  std::vector<float> ours(o.c.data, o.c.data + size_t(s.m) * s.n);
  openblasGemm(s, o);
  double worst = 0;
  for (size_t i = 0; i < ours.size(); ++i)
    worst = std::max(worst, std::fabs(double(ours[i]) - o.c.data[i]) /
                                (1.0 + std::fabs(double(o.c.data[i]))));
  if (worst > 1e-3) {
    std::fprintf(stderr, "gemm %dx%dx%d: differs from OpenBLAS by %g\n", s.m,
                 s.n, s.k, worst);
    std::exit(1);
  }
}

void BM_aotc(benchmark::State &state, GemmShape s) {
  Operands o(s);
  aot_cpu_stream_t stream = {sizeof(aot_cpu_stream_t),
                             static_cast<int32_t>(state.range(0))};
  quiesceOthers(Library::Aotc);
  for (auto _ : state)
    s.fn(o.a.data, o.b.data, o.c.data, o.pool.data, s.info()->pool_bytes,
         &stream);
  state.counters["GFLOPS"] = benchmark::Counter(
      flops(s) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_openblas(benchmark::State &state, GemmShape s) {
  Operands o(s);
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  quiesceOthers(Library::OpenBLAS);
  for (auto _ : state)
    openblasGemm(s, o);
  state.counters["GFLOPS"] = benchmark::Counter(
      flops(s) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  int maxThreads = std::getenv("AOTC_BENCH_THREADS")
                       ? std::atoi(std::getenv("AOTC_BENCH_THREADS"))
                       : 2;
  for (const GemmShape &s : kGemmShapes) {
    checkAgainstOpenBLAS(s);
    std::string shape = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                        std::to_string(s.k);
    for (int t = 1; t <= maxThreads; t *= 2) {
      benchmark::RegisterBenchmark(("gemm/" + shape + "/aotc").c_str(),
                                   BM_aotc, s)
          ->Arg(t)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("gemm/" + shape + "/openblas").c_str(),
                                   BM_openblas, s)
          ->Arg(t)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
