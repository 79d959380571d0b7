//===- bench_ops.cpp - aotc operators vs oneDNN and memcpy ----*- C++ -*-===//
//
// Google Benchmark of aotc-compiled operators next to a peer in the same
// process, same thread counts:
//   conv/<layer>     vs oneDNN convolution_forward, twice:
//                      `onednn`      format_tag::any for src, weights and
//                                    dst (oneDNN's blocked layouts); only
//                                    the primitive's execution is timed:
//                                    weights are reordered once, outside the
//                                    timing, and src/dst stay in oneDNN's
//                                    layout (as inside a oneDNN network);
//                      `onednn_nchw` the same primitive plus, per call, the
//                                    reorders of src from NCHW and of dst
//                                    back to NCHW (what a caller holding
//                                    plain NCHW tensors, like ours, pays)
//   eltwise/16M      vs `memcpy` of one 64 MiB tensor, split over the
//                    threads; the counter GBps is (bytes read + written) /
//                    time: 3 x 64 MiB for ours, 2 x 64 MiB for memcpy
//   softmax/RxC      vs oneDNN softmax_forward (axis 1)
//   layernorm/RxC    vs oneDNN layer_normalization_forward (scale + shift)
// Thread counts: the aotc stream's num_threads; omp_set_num_threads for
// oneDNN (Debian's oneDNN uses OpenMP; the binary links LLVM's libomp before
// it, so oneDNN, memcpy and aotc share one OpenMP runtime and its threads).
// Every case is first checked against oneDNN (eltwise: a scalar reference).
//
//===----------------------------------------------------------------------===//

#include "aot_abi/aot_abi.h"
#include "bench_cases.h"

#include <benchmark/benchmark.h>
#include <dnnl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ops_cases.h"

extern "C" void omp_set_num_threads(int);

namespace {

using namespace bench;

//===----------------------------------------------------------------------===//
// Buffers and the constants of gen_ops.py
//===----------------------------------------------------------------------===//

/// 64-byte aligned float buffer.
struct Buffer {
  explicit Buffer(size_t floats)
      : size(floats), data(static_cast<float *>(std::aligned_alloc(
                          64, (floats * sizeof(float) + 63) / 64 * 64 + 64))) {}
  ~Buffer() { std::free(data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  size_t size;
  float *data;
};

void fillRandom(Buffer &b, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (size_t i = 0; i < b.size; ++i)
    b.data[i] = dist(rng);
}

//===----------------------------------------------------------------------===//
// Our side
//===----------------------------------------------------------------------===//

/// Inputs, output and pool of one case, and the call of its entry point.
struct AotcRun {
  explicit AotcRun(const OpCase &c) : c(c), pool(c.info()->pool_bytes / 4 + 1) {
    const aot_model_info_t *info = c.info();
    for (int i = 0; i < info->num_inputs; ++i) {
      inputs.push_back(std::make_unique<Buffer>(elements(info->inputs[i])));
      fillRandom(*inputs.back(), 7 + i);
    }
    output = std::make_unique<Buffer>(elements(info->outputs[0]));
  }
  static size_t elements(const aot_tensor_info_t &t) {
    size_t n = 1;
    for (int i = 0; i < t.rank; ++i)
      n *= static_cast<size_t>(t.shape[i]);
    return n;
  }
  aot_status_t call(int threads) {
    aot_cpu_stream_t stream = {sizeof(aot_cpu_stream_t), threads};
    size_t bytes = c.info()->pool_bytes;
    if (inputs.size() == 1)
      return reinterpret_cast<aot_status_t (*)(const float *, float *, void *,
                                               size_t, aot_stream_t)>(c.fn)(
          inputs[0]->data, output->data, pool.data, bytes, &stream);
    return reinterpret_cast<aot_status_t (*)(const float *, const float *,
                                             float *, void *, size_t,
                                             aot_stream_t)>(c.fn)(
        inputs[0]->data, inputs[1]->data, output->data, pool.data, bytes,
        &stream);
  }
  const OpCase &c;
  std::vector<std::unique_ptr<Buffer>> inputs;
  std::unique_ptr<Buffer> output;
  Buffer pool;
};

//===----------------------------------------------------------------------===//
// oneDNN side
//===----------------------------------------------------------------------===//

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

/// A oneDNN primitive for one case with its arguments, reading `src` (the
/// same data as our input 0, plain layout) and writing `dst` (plain layout).
struct OneDnnRun {
  OneDnnRun(const OpCase &c, const Buffer &srcPlain)
      : engine(dnnl::engine::kind::cpu, 0), stream(engine) {
    const int *p = c.params;
    if (c.kind == kConv)
      buildConv(p, srcPlain);
    else if (c.kind == kSoftmax)
      buildSoftmax(p, srcPlain);
    else
      buildLayerNorm(p, srcPlain);
  }

  void buildConv(const int *p, const Buffer &srcPlain) {
    int ci = p[0], co = p[1], h = p[2], w = p[3], k = p[4], s = p[5],
        pad = p[6], g = p[7];
    int ho = (h + 2 * pad - k) / s + 1, wo = (w + 2 * pad - k) / s + 1;
    dnnl::memory::dims srcDims = {1, ci, h, w}, dstDims = {1, co, ho, wo};
    dnnl::memory::dims weiDims =
        g == 1 ? dnnl::memory::dims{co, ci, k, k}
               : dnnl::memory::dims{g, co / g, ci / g, k, k};
    auto any = [](const dnnl::memory::dims &d) {
      return dnnl::memory::desc(d, dt::f32, tag::any);
    };
    dnnl::memory::desc biasMd({co}, dt::f32, tag::x);
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        any(srcDims), any(weiDims), biasMd, any(dstDims), {s, s}, {pad, pad},
        {pad, pad});
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
    prim = dnnl::convolution_forward(pd);

    // Plain tensors: NCHW src/dst, OIHW (GOIHW) weights as in the ONNX file.
    srcPlainMem = dnnl::memory({srcDims, dt::f32, tag::nchw}, engine,
                               const_cast<float *>(srcPlain.data));
    dstPlainMem = dnnl::memory({dstDims, dt::f32, tag::nchw}, engine);
    weights = detValues(size_t(co) * (ci / g) * k * k,
                        1.0 / std::sqrt(double(ci / g) * k * k));
    bias = detValues(co, 0.1);
    dnnl::memory weiPlain({weiDims, dt::f32, g == 1 ? tag::oihw : tag::goihw},
                          engine, weights.data());
    dnnl::memory weiMem(pd.weights_desc(), engine);
    dnnl::reorder(weiPlain, weiMem).execute(stream, weiPlain, weiMem);
    dnnl::memory biasMem(biasMd, engine, bias.data());
    srcMem = dnnl::memory(pd.src_desc(), engine);
    dstMem = dnnl::memory(pd.dst_desc(), engine);
    scratch = dnnl::memory(pd.scratchpad_desc(), engine);
    args = {{DNNL_ARG_SRC, srcMem},
            {DNNL_ARG_WEIGHTS, weiMem},
            {DNNL_ARG_BIAS, biasMem},
            {DNNL_ARG_DST, dstMem},
            {DNNL_ARG_SCRATCHPAD, scratch}};
    srcReorder = dnnl::reorder(srcPlainMem, srcMem);
    dstReorder = dnnl::reorder(dstMem, dstPlainMem);
    srcBlocked = pd.src_desc() != srcPlainMem.get_desc();
    dstBlocked = pd.dst_desc() != dstPlainMem.get_desc();
    srcReorder.execute(stream, srcPlainMem, srcMem);
    stream.wait();
    layout = std::string("src ") + (srcBlocked ? "blocked" : "nchw") +
             ", dst " + (dstBlocked ? "blocked" : "nchw");
  }

  void buildSoftmax(const int *p, const Buffer &srcPlain) {
    dnnl::memory::desc md({p[0], p[1]}, dt::f32, tag::nc);
    dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, md,
                                     1);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::softmax_forward::primitive_desc pd(desc, attr, engine);
    prim = dnnl::softmax_forward(pd);
    plainIo(md, srcPlain);
    scratch = dnnl::memory(pd.scratchpad_desc(), engine);
    args = {{DNNL_ARG_SRC, srcMem},
            {DNNL_ARG_DST, dstMem},
            {DNNL_ARG_SCRATCHPAD, scratch}};
  }

  void buildLayerNorm(const int *p, const Buffer &srcPlain) {
    int r = p[0], c = p[1];
    dnnl::memory::desc md({r, c}, dt::f32, tag::nc);
    dnnl::layer_normalization_forward::desc desc(
        dnnl::prop_kind::forward_inference, md, 1e-5f,
        dnnl::normalization_flags::use_scale |
            dnnl::normalization_flags::use_shift);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::layer_normalization_forward::primitive_desc pd(desc, attr, engine);
    prim = dnnl::layer_normalization_forward(pd);
    plainIo(md, srcPlain);
    weights = detValues(c, 0.25);
    for (float &v : weights)
      v += 1.0f;
    bias = detValues(c, 0.1);
    dnnl::memory::desc vec({c}, dt::f32, tag::x);
    scratch = dnnl::memory(pd.scratchpad_desc(), engine);
    args = {{DNNL_ARG_SRC, srcMem},
            {DNNL_ARG_DST, dstMem},
            {DNNL_ARG_SCALE, dnnl::memory(vec, engine, weights.data())},
            {DNNL_ARG_SHIFT, dnnl::memory(vec, engine, bias.data())},
            {DNNL_ARG_SCRATCHPAD, scratch}};
    // Statistics, when this implementation wants them as outputs.
    for (int arg : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE}) {
      dnnl::memory::desc statMd = pd.query_md(dnnl::query::exec_arg_md, arg);
      if (statMd.get_size() != 0)
        args[arg] = dnnl::memory(statMd, engine);
    }
  }

  void plainIo(const dnnl::memory::desc &md, const Buffer &srcPlain) {
    srcMem = dnnl::memory(md, engine, const_cast<float *>(srcPlain.data));
    dstMem = dnnl::memory(md, engine);
    dstPlainMem = dstMem;
  }

  /// The primitive alone (conv: in oneDNN's layouts).
  void run() {
    prim.execute(stream, args);
    stream.wait();
  }
  /// Conv with plain NCHW in and out: reorders included.
  void runPlain() {
    if (srcBlocked)
      srcReorder.execute(stream, srcPlainMem, srcMem);
    else
      std::memcpy(srcMem.get_data_handle(), srcPlainMem.get_data_handle(),
                  srcPlainMem.get_desc().get_size());
    prim.execute(stream, args);
    if (dstBlocked)
      dstReorder.execute(stream, dstMem, dstPlainMem);
    stream.wait();
  }
  const float *plainResult() {
    if (dstBlocked) {
      dstReorder.execute(stream, dstMem, dstPlainMem);
      stream.wait();
    }
    return static_cast<const float *>(
        (dstBlocked ? dstPlainMem : dstMem).get_data_handle());
  }

  dnnl::engine engine;
  dnnl::stream stream;
  dnnl::primitive prim;
  std::unordered_map<int, dnnl::memory> args;
  dnnl::memory srcMem, dstMem, srcPlainMem, dstPlainMem, scratch;
  dnnl::reorder srcReorder, dstReorder;
  bool srcBlocked = false, dstBlocked = false;
  std::vector<float> weights, bias;
  std::string layout;
};

//===----------------------------------------------------------------------===//
// Checks, counters and benchmarks
//===----------------------------------------------------------------------===//

/// max |ours - ref| / (1 + max |ref|) must stay below 1e-3.
void expectClose(const OpCase &c, const float *ours, const float *ref,
                 size_t n, const char *peer) {
  double worst = 0, scale = 0;
  for (size_t i = 0; i < n; ++i) {
    worst = std::max(worst, std::fabs(double(ours[i]) - ref[i]));
    scale = std::max(scale, std::fabs(double(ref[i])));
  }
  if (!(worst <= 1e-3 * (1.0 + scale))) {
    std::fprintf(stderr, "%s/%s: differs from %s by %g (max |ref| %g)\n",
                 c.kindName, c.label, peer, worst, scale);
    std::exit(1);
  }
}

/// Aborts the run if aotc disagrees with the peer on this case.
void check(const OpCase &c) {
  AotcRun ours(c);
  if (ours.call(0) != AOT_OK) {
    std::fprintf(stderr, "%s/%s: call failed\n", c.kindName, c.label);
    std::exit(1);
  }
  size_t n = ours.output->size;
  // The host reference (which bench_gpu relies on) for our inputs.
  std::vector<std::vector<float>> inputs;
  for (const auto &input : ours.inputs)
    inputs.emplace_back(input->data, input->data + input->size);
  std::vector<float> ref = hostReference(c, inputs);
  if (c.kind == kEltwise) {
    expectClose(c, ours.output->data, ref.data(), n, "the host reference");
    return;
  }
  OneDnnRun peer(c, *ours.inputs[0]);
  peer.run();
  const float *result = peer.plainResult();
  expectClose(c, ours.output->data, result, n, "oneDNN");
  expectClose(c, ref.data(), result, n, "oneDNN (host reference)");
  if (c.kind == kConv)
    std::printf("conv/%s: oneDNN layout: %s\n", c.label, peer.layout.c_str());
}

void setCounter(benchmark::State &state, const OpCase &c, double work) {
  state.counters[c.kind == kConv ? "GFLOPS" : "GBps"] = benchmark::Counter(
      work * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_aotc(benchmark::State &state, const OpCase *c) {
  AotcRun ours(*c);
  int threads = static_cast<int>(state.range(0));
  for (auto _ : state)
    ours.call(threads);
  setCounter(state, *c, workPerCall(*c));
}

void BM_onednn(benchmark::State &state, const OpCase *c, bool plain) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  Buffer src(AotcRun::elements(c->info()->inputs[0]));
  fillRandom(src, 7);
  OneDnnRun peer(*c, src);
  for (auto _ : state) {
    if (plain)
      peer.runPlain();
    else
      peer.run();
  }
  setCounter(state, *c, workPerCall(*c));
}

void BM_memcpy(benchmark::State &state, const OpCase *c) {
  int threads = static_cast<int>(state.range(0));
  size_t n = size_t(c->params[0]) * c->params[1];
  Buffer src(n), dst(n);
  fillRandom(src, 7);
  std::memset(dst.data, 0, n * sizeof(float));
  for (auto _ : state) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int t = 0; t < threads; ++t) {
      size_t begin = n * t / threads, end = n * (t + 1) / threads;
      std::memcpy(dst.data + begin, src.data + begin,
                  (end - begin) * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  setCounter(state, *c, workPerCall(*c, /*copyPeer=*/true));
}

/// Registers `<kind>/<label>/<impl>/<threads>`.
template <typename... Args>
void add(const OpCase &c, const char *impl, int threads, Args &&...args) {
  std::string name = std::string(c.kindName) + "/" + c.label + "/" + impl;
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Args>(args)...)
      ->Arg(threads)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  int maxThreads = std::getenv("AOTC_BENCH_THREADS")
                       ? std::atoi(std::getenv("AOTC_BENCH_THREADS"))
                       : 2;
  for (const OpCase &c : kOpCases) {
    check(c);
    for (int t = 1; t <= maxThreads; t *= 2) {
      add(c, "aotc", t, BM_aotc, &c);
      if (c.kind == kEltwise) {
        add(c, "memcpy", t, BM_memcpy, &c);
        continue;
      }
      add(c, "onednn", t, BM_onednn, &c, false);
      if (c.kind == kConv)
        add(c, "onednn_nchw", t, BM_onednn, &c, true);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
