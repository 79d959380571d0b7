//===- bench_gpu.cpp - aotc GPU kernels vs cuBLAS, cuDNN, memcpy -*- C++ -*-===//
//
// Google Benchmark of aotc-compiled GPU programs (--on-device-tensors, so a
// call only enqueues kernels on the stream) next to a peer in the same
// process: f32 GEMMs next to cublasSgemm, a fused elementwise chain and a
// row softmax next to a device-to-device copy of the same bytes, and the
// operator cases of gen_ops.py (the CPU benchmark's ResNet-18 / MobileNetV2
// convolutions, softmax and LayerNorm rows, bias + GELU + residual), built
// from the same ONNX files: convolutions and softmax next to cuDNN (NCHW,
// FP32 FMA math, the fastest algorithm cudnnFind reports, bias added by
// cudnnAddTensor), LayerNorm and the chain next to a D2D copy. Every
// iteration is timed with events recorded on the stream around the call.
// Each benchmark reports TFLOP/s (GEMM, conv) or GB/s and the fraction of
// the chip's roofline (FP32 FMA peak from SM/CU count x lanes x clock; DRAM
// bandwidth from memory clock x bus width); a summary of ours/peer per case
// follows the run. Results are checked against the peer or a host
// reference before timing (operators: cuDNN, or a host reference for
// LayerNorm and the chain; without cuDNN, convolutions and softmax are timed
// without a peer or a check).
//
// The same file is bench_gpu_hip with AOTC_BENCH_HIP=1 (gpu_api.h maps the
// runtime API to HIP's): the programs are compiled --target=hip, and as
// Debian has no hipBLAS or MIOpen, GEMMs are checked on sampled entries
// against a host reference and timed against the roofline only.
//
// Without a device the program prints why and exits 0 (skipped).
//
//===----------------------------------------------------------------------===//

#include "aot_abi/aot_abi.h"
#include "bench_cases.h"

#include "gpu_api.h"

#include <benchmark/benchmark.h>
#if !AOTC_BENCH_HIP
#include <cublas_v2.h>
#endif
#if AOTC_BENCH_CUDNN
#include <cudnn.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using GemmFn = aot_status_t (*)(const float *, const float *, float *, void *,
                                size_t, aot_stream_t);
struct GemmShape {
  int m, n, k;
  GemmFn fn;
  InfoFn info;
};

#include "gpu_eltwise.h"
#include "gpu_gemm_shapes.h"
#include "gpu_softmax.h"
#include "ops_cases.h"

namespace {

//===----------------------------------------------------------------------===//
// Device helpers
//===----------------------------------------------------------------------===//

void check(gpuError_t error, const char *what) {
  if (error != gpuSuccess) {
    std::fprintf(stderr, "bench_gpu: %s: %s\n", what,
                 gpuGetErrorString(error));
    std::exit(1);
  }
}

void check(aot_status_t status, const char *what) {
  if (status != AOT_OK) {
    std::fprintf(stderr, "bench_gpu: %s: %s\n", what,
                 aot_status_string(status));
    std::exit(1);
  }
}

/// Device buffer of `count` floats (or bytes), filled from the host.
struct DeviceBuffer {
  explicit DeviceBuffer(size_t bytes) : bytes(bytes) {
    check(gpuMalloc(&data, bytes ? bytes : 1), "gpuMalloc");
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { (void)gpuFree(data); }
  float *f() const { return static_cast<float *>(data); }
  void upload(const std::vector<float> &host) {
    check(gpuMemcpy(data, host.data(), host.size() * sizeof(float),
                     gpuMemcpyHostToDevice),
          "gpuMemcpy");
  }
  std::vector<float> download() const {
    std::vector<float> host(bytes / sizeof(float));
    check(gpuMemcpy(host.data(), data, bytes, gpuMemcpyDeviceToHost),
          "gpuMemcpy");
    return host;
  }
  void *data = nullptr;
  size_t bytes;
};

std::vector<float> randomVector(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(count);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// The chip's FP32 FMA peak (FLOP/s) and DRAM bandwidth (bytes/s).
struct Roofline {
  double flops = 0, bytesPerSecond = 0;
  std::string chip;
};

Roofline queryRoofline() {
  int device = 0, sms = 0, clockKHz = 0, memClockKHz = 0, busBits = 0,
      major = 0, minor = 0;
  check(gpuGetDevice(&device), "gpuGetDevice");
  (void)gpuDeviceGetAttribute(&sms, gpuAttrMultiProcessorCount, device);
  (void)gpuDeviceGetAttribute(&clockKHz, gpuAttrClockRate, device);
  (void)gpuDeviceGetAttribute(&memClockKHz, gpuAttrMemoryClockRate, device);
  (void)gpuDeviceGetAttribute(&busBits, gpuAttrMemoryBusWidth, device);
  (void)gpuDeviceGetAttribute(&major, gpuAttrComputeCapabilityMajor, device);
  (void)gpuDeviceGetAttribute(&minor, gpuAttrComputeCapabilityMinor, device);
  char name[256] = {}, arch[256] = {};
  gpuDeviceProp prop{};
  if (gpuGetDeviceProperties(&prop, device) == gpuSuccess)
    std::snprintf(name, sizeof(name), "%s", prop.name);
#if AOTC_BENCH_HIP
  std::snprintf(arch, sizeof(arch), "%s", prop.gcnArchName);
  // FP32 lanes per CU: 64, issued as packed pairs on gfx90a and gfx94x.
  std::string gfx(arch);
  int lanes = gfx.rfind("gfx90a", 0) == 0 || gfx.rfind("gfx94", 0) == 0
                  ? 128
                  : 64;
#else
  std::snprintf(arch, sizeof(arch), "sm_%d%d", major, minor);
  // FP32 lanes per SM: 64 on sm_60/70/80, 128 on sm_86/89/90 and later.
  int lanes = (major == 8 && minor == 0) || major < 8 ? 64 : 128;
#endif
  Roofline r;
  r.flops = 2.0 * sms * lanes * clockKHz * 1e3;
  r.bytesPerSecond = 2.0 * memClockKHz * 1e3 * busBits / 8;
  r.chip = std::string(name) + " (" + arch + ")";
  return r;
}

Roofline gRoofline;
gpuStream_t gStream;
#if !AOTC_BENCH_HIP
cublasHandle_t gCublas;
#endif

/// Mean seconds per call of every benchmark, for the ours/peer summary.
std::map<std::string, double> gSeconds;

/// Times `call` (which enqueues work on gStream) with events around it.
template <typename Call>
void timeOnStream(benchmark::State &state, const std::string &key,
                  Call call) {
  gpuEvent_t start, stop;
  check(gpuEventCreate(&start), "gpuEventCreate");
  check(gpuEventCreate(&stop), "gpuEventCreate");
  call(); // warm-up: module load, cuBLAS heuristics
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  double total = 0;
  int64_t calls = 0;
  for (auto _ : state) {
    check(gpuEventRecord(start, gStream), "gpuEventRecord");
    call();
    check(gpuEventRecord(stop, gStream), "gpuEventRecord");
    check(gpuEventSynchronize(stop), "gpuEventSynchronize");
    float ms = 0;
    check(gpuEventElapsedTime(&ms, start, stop), "gpuEventElapsedTime");
    state.SetIterationTime(ms * 1e-3);
    total += ms * 1e-3;
    ++calls;
  }
  (void)gpuEventDestroy(start);
  (void)gpuEventDestroy(stop);
  if (calls)
    gSeconds[key] = total / calls;
}

double meanSeconds(const std::string &key) {
  auto it = gSeconds.find(key);
  return it == gSeconds.end() ? 0 : it->second;
}

//===----------------------------------------------------------------------===//
// GEMM vs cuBLAS
//===----------------------------------------------------------------------===//

struct GemmOperands {
  explicit GemmOperands(const GemmShape &s)
      : a(sizeof(float) * s.m * s.k), b(sizeof(float) * s.k * s.n),
        c(sizeof(float) * s.m * s.n), pool(s.info()->pool_bytes) {
    a.upload(randomVector(size_t(s.m) * s.k, 1));
    b.upload(randomVector(size_t(s.k) * s.n, 2));
  }
  DeviceBuffer a, b, c, pool;
};

std::string shapeName(const GemmShape &s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

void aotcGemm(const GemmShape &s, GemmOperands &o) {
  check(s.fn(o.a.f(), o.b.f(), o.c.f(), o.pool.data, o.pool.bytes, gStream),
        "aotc gemm");
}

#if !AOTC_BENCH_HIP
/// Row-major C = A B as column-major C^T = B^T A^T.
void cublasGemm(const GemmShape &s, GemmOperands &o) {
  const float one = 1.f, zero = 0.f;
  if (cublasSgemm(gCublas, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one,
                  o.b.f(), s.n, o.a.f(), s.k, &zero, o.c.f(), s.n) !=
      CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "bench_gpu: cublasSgemm failed\n");
    std::exit(1);
  }
}

/// Exits if aotc and cuBLAS disagree on this shape.
void checkGemm(const GemmShape &s) {
  GemmOperands o(s);
  aotcGemm(s, o);
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  std::vector<float> ours = o.c.download();
  cublasGemm(s, o);
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  std::vector<float> peer = o.c.download();
  double worst = 0;
  for (size_t i = 0; i < ours.size(); ++i)
    worst = std::max(worst, std::fabs(double(ours[i]) - peer[i]) /
                                (1.0 + std::fabs(double(peer[i]))));
  if (!(worst <= 1e-3)) {
    std::fprintf(stderr, "bench_gpu: gemm %s differs from cuBLAS by %g\n",
                 shapeName(s).c_str(), worst);
    std::exit(1);
  }
}
#else
/// Exits if 4096 sampled entries of aotc's C differ from a host reference
/// (double; no BLAS library is checked against on HIP).
void checkGemm(const GemmShape &s) {
  GemmOperands o(s);
  aotcGemm(s, o);
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  std::vector<float> ours = o.c.download();
  std::vector<float> a = randomVector(size_t(s.m) * s.k, 1),
                     b = randomVector(size_t(s.k) * s.n, 2);
  std::mt19937 rng(3);
  double worst = 0;
  for (int sample = 0; sample < 4096; ++sample) {
    size_t i = rng() % s.m, j = rng() % s.n;
    double expect = 0;
    for (int k = 0; k < s.k; ++k)
      expect += double(a[i * s.k + k]) * b[size_t(k) * s.n + j];
    worst = std::max(worst, std::fabs(ours[i * s.n + j] - expect) /
                                (1.0 + std::fabs(expect)));
  }
  if (!(worst <= 1e-3)) {
    std::fprintf(stderr, "bench_gpu: gemm %s differs from the host "
                 "reference by %g\n", shapeName(s).c_str(), worst);
    std::exit(1);
  }
}
#endif

void gemmCounters(benchmark::State &state, const GemmShape &s,
                  const std::string &key) {
  double seconds = meanSeconds(key);
  if (seconds <= 0)
    return;
  double flops = 2.0 * s.m * s.n * s.k / seconds;
  state.counters["TFLOPS"] = flops * 1e-12;
  state.counters["of_fp32_peak"] = flops / gRoofline.flops;
}

void BM_gemmAotc(benchmark::State &state, GemmShape s) {
  GemmOperands o(s);
  std::string key = "gemm/" + shapeName(s) + "/aotc";
  timeOnStream(state, key, [&] { aotcGemm(s, o); });
  gemmCounters(state, s, key);
}

#if !AOTC_BENCH_HIP
void BM_gemmCublas(benchmark::State &state, GemmShape s) {
  GemmOperands o(s);
  std::string key = "gemm/" + shapeName(s) + "/cublas";
  timeOnStream(state, key, [&] { cublasGemm(s, o); });
  gemmCounters(state, s, key);
}
#endif

//===----------------------------------------------------------------------===//
// Memory-bound programs vs a device-to-device copy
//===----------------------------------------------------------------------===//

constexpr int kRows = 4096, kCols = 1024;
constexpr size_t kElems = size_t(kRows) * kCols;

float gelu(float v) {
  return 0.5f * v *
         (1.f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
}

struct StreamOperands {
  StreamOperands()
      : x(kElems * 4), bias(kCols * 4), res(kElems * 4), y(kElems * 4),
        eltPool(gpu_eltwise_info()->pool_bytes),
        softPool(gpu_softmax_info()->pool_bytes) {
    hx = randomVector(kElems, 3);
    hbias = randomVector(kCols, 4);
    hres = randomVector(kElems, 5);
    x.upload(hx);
    bias.upload(hbias);
    res.upload(hres);
  }
  std::vector<float> hx, hbias, hres;
  DeviceBuffer x, bias, res, y, eltPool, softPool;
};

void eltwise(StreamOperands &o) {
  check(gpu_eltwise(o.x.f(), o.bias.f(), o.res.f(), o.y.f(), o.eltPool.data,
                    o.eltPool.bytes, gStream),
        "aotc gpu_eltwise");
}

void softmax(StreamOperands &o) {
  check(gpu_softmax(o.x.f(), o.y.f(), o.softPool.data, o.softPool.bytes,
                    gStream),
        "aotc gpu_softmax");
}

/// Exits if the programs disagree with a host reference.
void checkStreamPrograms() {
  StreamOperands o;
  eltwise(o);
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  std::vector<float> y = o.y.download();
  double worst = 0;
  for (size_t i = 0; i < kElems; ++i) {
    double expect = gelu(o.hx[i] + o.hbias[i % kCols]) + o.hres[i];
    worst = std::max(worst, std::fabs(y[i] - expect) / (1 + std::fabs(expect)));
  }
  softmax(o);
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  y = o.y.download();
  // Softmax values are ~1/kCols: |actual - expected| <= 1e-7 + 1e-4 |e|.
  size_t bad = 0;
  for (int r = 0; r < kRows; ++r) {
    const float *row = &o.hx[size_t(r) * kCols];
    double max = row[0], sum = 0;
    for (int c = 0; c < kCols; ++c)
      max = std::max<double>(max, row[c]);
    for (int c = 0; c < kCols; ++c)
      sum += std::exp(row[c] - max);
    for (int c = 0; c < kCols; ++c) {
      double expect = std::exp(row[c] - max) / sum;
      bad += !(std::fabs(y[size_t(r) * kCols + c] - expect) <=
               1e-7 + 1e-4 * expect);
    }
  }
  if (!(worst <= 1e-3) || bad) {
    std::fprintf(stderr,
                 "bench_gpu: differs from the host reference (elementwise "
                 "%g, softmax %zu elements)\n",
                 worst, bad);
    std::exit(1);
  }
}

/// Bytes each program must move at the least.
double streamBytes(const std::string &name) {
  if (name == "eltwise")
    return 3.0 * kElems * 4 + kCols * 4;
  return 2.0 * kElems * 4;
}

void bandwidthCounters(benchmark::State &state, const std::string &name,
                       const std::string &key) {
  double seconds = meanSeconds(key);
  if (seconds <= 0)
    return;
  double rate = streamBytes(name) / seconds;
  state.counters["GBps"] = rate * 1e-9;
  state.counters["of_dram_peak"] = rate / gRoofline.bytesPerSecond;
}

void BM_stream(benchmark::State &state, std::string name, bool peer) {
  StreamOperands o;
  std::string key = name + (peer ? "/memcpy" : "/aotc");
  if (peer) {
    // A device-to-device copy that reads and writes half of the program's
    // bytes each: the same traffic, no arithmetic.
    size_t bytes = size_t(streamBytes(name) / 2);
    DeviceBuffer from(bytes), to(bytes);
    timeOnStream(state, key, [&] {
      check(gpuMemcpyAsync(to.data, from.data, bytes,
                            gpuMemcpyDeviceToDevice, gStream),
            "gpuMemcpyAsync");
    });
  } else if (name == "eltwise") {
    timeOnStream(state, key, [&] { eltwise(o); });
  } else {
    timeOnStream(state, key, [&] { softmax(o); });
  }
  bandwidthCounters(state, name, key);
}

//===----------------------------------------------------------------------===//
// The operators of gen_ops.py vs cuDNN and a device-to-device copy
//===----------------------------------------------------------------------===//

size_t elements(const aot_tensor_info_t &t) {
  size_t n = 1;
  for (int i = 0; i < t.rank; ++i)
    n *= static_cast<size_t>(t.shape[i]);
  return n;
}

/// Device inputs (random, also kept on the host), output and pool of one
/// case, and the call of its entry point.
struct GpuOpRun {
  explicit GpuOpRun(const OpCase &c) : c(c), pool(c.info()->pool_bytes) {
    const aot_model_info_t *info = c.info();
    for (int i = 0; i < info->num_inputs; ++i) {
      host.push_back(randomVector(elements(info->inputs[i]), 7 + i));
      inputs.push_back(
          std::make_unique<DeviceBuffer>(host.back().size() * sizeof(float)));
      inputs.back()->upload(host.back());
    }
    output = std::make_unique<DeviceBuffer>(elements(info->outputs[0]) *
                                            sizeof(float));
  }
  void call() {
    aot_status_t status;
    if (inputs.size() == 1)
      status = reinterpret_cast<aot_status_t (*)(
          const float *, float *, void *, size_t, aot_stream_t)>(c.fn)(
          inputs[0]->f(), output->f(), pool.data, pool.bytes, gStream);
    else
      status = reinterpret_cast<aot_status_t (*)(
          const float *, const float *, float *, void *, size_t,
          aot_stream_t)>(c.fn)(inputs[0]->f(), inputs[1]->f(), output->f(),
                               pool.data, pool.bytes, gStream);
    check(status, c.label);
  }
  const OpCase &c;
  std::vector<std::vector<float>> host;
  std::vector<std::unique_ptr<DeviceBuffer>> inputs;
  std::unique_ptr<DeviceBuffer> output;
  DeviceBuffer pool;
};

#if AOTC_BENCH_CUDNN
cudnnHandle_t gCudnn;

void check(cudnnStatus_t status, const char *what) {
  if (status != CUDNN_STATUS_SUCCESS) {
    std::fprintf(stderr, "bench_gpu: %s: %s\n", what,
                 cudnnGetErrorString(status));
    std::exit(1);
  }
}

/// cuDNN's convolution (+ bias) or softmax of one case, reading `x` (the
/// same device data as our input 0) and writing its own output.
struct CudnnRun {
  CudnnRun(const OpCase &c, const DeviceBuffer &x)
      : c(c), x(x), y(elements(c.info()->outputs[0]) * sizeof(float)) {
    check(cudnnCreateTensorDescriptor(&xDesc), "cudnnCreateTensorDescriptor");
    check(cudnnCreateTensorDescriptor(&yDesc), "cudnnCreateTensorDescriptor");
    const int *p = c.params;
    if (c.kind == bench::kSoftmax) {
      // Rows as images of C channels: MODE_INSTANCE normalises each row.
      check(cudnnSetTensor4dDescriptor(xDesc, CUDNN_TENSOR_NCHW,
                                       CUDNN_DATA_FLOAT, p[0], p[1], 1, 1),
            "cudnnSetTensor4dDescriptor");
      check(cudnnSetTensor4dDescriptor(yDesc, CUDNN_TENSOR_NCHW,
                                       CUDNN_DATA_FLOAT, p[0], p[1], 1, 1),
            "cudnnSetTensor4dDescriptor");
      return;
    }
    int ci = p[0], co = p[1], k = p[4], s = p[5], pad = p[6], g = p[7];
    int ho = bench::convOutput(c, p[2]), wo = bench::convOutput(c, p[3]);
    check(cudnnSetTensor4dDescriptor(xDesc, CUDNN_TENSOR_NCHW,
                                     CUDNN_DATA_FLOAT, 1, ci, p[2], p[3]),
          "cudnnSetTensor4dDescriptor");
    check(cudnnSetTensor4dDescriptor(yDesc, CUDNN_TENSOR_NCHW,
                                     CUDNN_DATA_FLOAT, 1, co, ho, wo),
          "cudnnSetTensor4dDescriptor");
    check(cudnnCreateTensorDescriptor(&biasDesc), "cudnnCreateTensor");
    check(cudnnSetTensor4dDescriptor(biasDesc, CUDNN_TENSOR_NCHW,
                                     CUDNN_DATA_FLOAT, 1, co, 1, 1),
          "cudnnSetTensor4dDescriptor");
    check(cudnnCreateFilterDescriptor(&wDesc), "cudnnCreateFilterDescriptor");
    check(cudnnSetFilter4dDescriptor(wDesc, CUDNN_DATA_FLOAT,
                                     CUDNN_TENSOR_NCHW, co, ci / g, k, k),
          "cudnnSetFilter4dDescriptor");
    check(cudnnCreateConvolutionDescriptor(&convDesc),
          "cudnnCreateConvolutionDescriptor");
    check(cudnnSetConvolution2dDescriptor(convDesc, pad, pad, s, s, 1, 1,
                                          CUDNN_CROSS_CORRELATION,
                                          CUDNN_DATA_FLOAT),
          "cudnnSetConvolution2dDescriptor");
    check(cudnnSetConvolutionGroupCount(convDesc, g),
          "cudnnSetConvolutionGroupCount");
    // FP32 FMA math, as our kernels: no TF32 tensor cores.
    check(cudnnSetConvolutionMathType(convDesc, CUDNN_FMA_MATH),
          "cudnnSetConvolutionMathType");
    // gen_ops.py's weights and bias.
    std::vector<float> hw = bench::detValues(
        size_t(co) * (ci / g) * k * k, 1.0 / std::sqrt(double(ci / g) * k * k));
    weights = std::make_unique<DeviceBuffer>(hw.size() * sizeof(float));
    weights->upload(hw);
    bias = std::make_unique<DeviceBuffer>(co * sizeof(float));
    bias->upload(bench::detValues(co, 0.1));
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int found = 0;
    check(cudnnFindConvolutionForwardAlgorithm(
              gCudnn, xDesc, wDesc, convDesc, yDesc,
              CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &found, perf),
          "cudnnFindConvolutionForwardAlgorithm");
    int best = 0;
    while (best < found && perf[best].status != CUDNN_STATUS_SUCCESS)
      ++best;
    if (best == found) {
      std::fprintf(stderr, "bench_gpu: conv/%s: no cuDNN algorithm\n",
                   c.label);
      std::exit(1);
    }
    algo = perf[best].algo;
    workspace = std::make_unique<DeviceBuffer>(perf[best].memory);
  }
  CudnnRun(const CudnnRun &) = delete;
  ~CudnnRun() {
    cudnnDestroyTensorDescriptor(xDesc);
    cudnnDestroyTensorDescriptor(yDesc);
    if (c.kind == bench::kConv) {
      cudnnDestroyTensorDescriptor(biasDesc);
      cudnnDestroyFilterDescriptor(wDesc);
      cudnnDestroyConvolutionDescriptor(convDesc);
    }
  }
  void run() {
    const float one = 1.f, zero = 0.f;
    if (c.kind == bench::kSoftmax) {
      check(cudnnSoftmaxForward(gCudnn, CUDNN_SOFTMAX_ACCURATE,
                                CUDNN_SOFTMAX_MODE_INSTANCE, &one, xDesc,
                                x.data, &zero, yDesc, y.data),
            "cudnnSoftmaxForward");
      return;
    }
    check(cudnnConvolutionForward(gCudnn, &one, xDesc, x.data, wDesc,
                                  weights->data, convDesc, algo,
                                  workspace->data, workspace->bytes, &zero,
                                  yDesc, y.data),
          "cudnnConvolutionForward");
    check(cudnnAddTensor(gCudnn, &one, biasDesc, bias->data, &one, yDesc,
                         y.data),
          "cudnnAddTensor");
  }
  const OpCase &c;
  const DeviceBuffer &x;
  DeviceBuffer y;
  cudnnTensorDescriptor_t xDesc = nullptr, yDesc = nullptr, biasDesc = nullptr;
  cudnnFilterDescriptor_t wDesc = nullptr;
  cudnnConvolutionDescriptor_t convDesc = nullptr;
  cudnnConvolutionFwdAlgo_t algo{};
  std::unique_ptr<DeviceBuffer> weights, bias, workspace;
};
#endif

bool hasCudnnPeer(const OpCase &c) {
  return AOTC_BENCH_CUDNN &&
         (c.kind == bench::kConv || c.kind == bench::kSoftmax);
}

/// Exits if the case disagrees with cuDNN or the host reference
/// (max |ours - ref| <= 1e-3 (1 + max |ref|), as bench_ops).
void checkOp(const OpCase &c) {
  GpuOpRun ours(c);
  ours.call();
  check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
  std::vector<float> got = ours.output->download(), ref;
  const char *peer = "the host reference";
  if (!hasCudnnPeer(c)) {
    ref = bench::hostReference(c, ours.host);
  } else {
#if AOTC_BENCH_CUDNN
    CudnnRun cudnn(c, *ours.inputs[0]);
    cudnn.run();
    check(gpuStreamSynchronize(gStream), "gpuStreamSynchronize");
    ref = cudnn.y.download();
    peer = "cuDNN";
#endif
  }
  double worst = 0, scale = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    worst = std::max(worst, std::fabs(double(got[i]) - ref[i]));
    scale = std::max(scale, std::fabs(double(ref[i])));
  }
  if (!(worst <= 1e-3 * (1.0 + scale))) {
    std::fprintf(stderr, "bench_gpu: %s/%s differs from %s by %g\n",
                 c.kindName, c.label, peer, worst);
    std::exit(1);
  }
}

std::string opKey(const OpCase &c) {
  return std::string(c.kindName) + "/" + c.label;
}

/// FLOP/s of a convolution against the FP32 peak, bytes/s of the others
/// against DRAM bandwidth.
void opCounters(benchmark::State &state, const OpCase &c,
                const std::string &key, bool copyPeer) {
  double seconds = meanSeconds(key);
  if (seconds <= 0)
    return;
  double rate = bench::workPerCall(c, copyPeer) / seconds;
  if (c.kind == bench::kConv) {
    state.counters["TFLOPS"] = rate * 1e-12;
    state.counters["of_fp32_peak"] = rate / gRoofline.flops;
  } else {
    state.counters["GBps"] = rate * 1e-9;
    state.counters["of_dram_peak"] = rate / gRoofline.bytesPerSecond;
  }
}

void BM_opAotc(benchmark::State &state, const OpCase *c) {
  GpuOpRun ours(*c);
  std::string key = opKey(*c) + "/aotc";
  timeOnStream(state, key, [&] { ours.call(); });
  opCounters(state, *c, key, false);
}

void BM_opPeer(benchmark::State &state, const OpCase *c) {
  std::string key = opKey(*c) + "/peer";
  if (hasCudnnPeer(*c)) {
#if AOTC_BENCH_CUDNN
    GpuOpRun ours(*c);
    CudnnRun cudnn(*c, *ours.inputs[0]);
    timeOnStream(state, key, [&] { cudnn.run(); });
    opCounters(state, *c, key, false);
#endif
    return;
  }
  // A D2D copy that reads and writes half of the case's bytes each.
  size_t bytes = size_t(bench::workPerCall(*c, /*copyPeer=*/true) / 2);
  DeviceBuffer from(bytes), to(bytes);
  timeOnStream(state, key, [&] {
    check(gpuMemcpyAsync(to.data, from.data, bytes, gpuMemcpyDeviceToDevice,
                          gStream),
          "gpuMemcpyAsync");
  });
  opCounters(state, *c, key, true);
}

void printSummary() {
  std::printf("\nbench_gpu on %s: FP32 peak %.1f TFLOP/s, DRAM %.0f GB/s\n",
              gRoofline.chip.c_str(), gRoofline.flops * 1e-12,
              gRoofline.bytesPerSecond * 1e-9);
  std::printf("%-26s %12s %12s %10s %12s\n", "case", "aotc ms", "peer ms",
              "ours/peer", "aotc/roof");
  for (const GemmShape &s : kGemmShapes) {
    std::string base = "gemm/" + shapeName(s);
    double ours = meanSeconds(base + "/aotc"),
           peer = meanSeconds(base + "/cublas");
    if (ours <= 0)
      continue;
    std::printf("%-26s %12.4f %12.4f %10.3f %11.1f%%\n", base.c_str(),
                ours * 1e3, peer * 1e3, peer > 0 ? peer / ours : 0.0,
                100.0 * 2.0 * s.m * s.n * s.k / ours / gRoofline.flops);
  }
  for (const char *name : {"eltwise", "softmax"}) {
    double ours = meanSeconds(std::string(name) + "/aotc"),
           peer = meanSeconds(std::string(name) + "/memcpy");
    if (ours <= 0 || peer <= 0)
      continue;
    std::printf("%-26s %12.4f %12.4f %10.3f %11.1f%%\n", name, ours * 1e3,
                peer * 1e3, peer / ours,
                100.0 * streamBytes(name) / ours / gRoofline.bytesPerSecond);
  }
  for (const OpCase &c : kOpCases) {
    std::string base = opKey(c);
    double ours = meanSeconds(base + "/aotc"),
           peer = meanSeconds(base + "/peer");
    if (ours <= 0)
      continue;
    double roof = c.kind == bench::kConv ? gRoofline.flops
                                         : gRoofline.bytesPerSecond;
    std::printf("%-26s %12.4f %12.4f %10.3f %11.1f%%\n", base.c_str(),
                ours * 1e3, peer * 1e3, peer > 0 ? peer / ours : 0.0,
                100.0 * bench::workPerCall(c) / ours / roof);
  }
#if AOTC_BENCH_HIP
  std::printf("(ours/peer: peer time / aotc time, > 1 means aotc is faster; "
              "peers: hipMemcpyAsync D2D of the same bytes for the "
              "memory-bound cases; GEMMs and convolutions against the "
              "roofline only: no hipBLAS / MIOpen here)\n");
#else
  std::printf("(ours/peer: peer time / aotc time, > 1 means aotc is faster; "
              "peers: cublasSgemm, cuDNN for conv and softmax rows%s, "
              "cudaMemcpyAsync D2D of the same bytes for the others)\n",
              AOTC_BENCH_CUDNN ? "" : " (not built: no cuDNN)");
#endif
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  int devices = 0;
  gpuError_t error = gpuGetDeviceCount(&devices);
  if (error != gpuSuccess || devices == 0) {
    std::printf("bench_gpu: no %s device (%s); skipping\n",
                AOTC_BENCH_HIP ? "HIP" : "CUDA",
                error != gpuSuccess ? gpuGetErrorString(error)
                                     : "0 devices");
    return 0;
  }
  gRoofline = queryRoofline();
  check(gpuStreamCreateWithFlags(&gStream, gpuStreamNonBlocking),
        "gpuStreamCreate");
#if !AOTC_BENCH_HIP
  if (cublasCreate(&gCublas) != CUBLAS_STATUS_SUCCESS ||
      cublasSetStream(gCublas, gStream) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "bench_gpu: cuBLAS initialisation failed\n");
    return 1;
  }
#endif
  for (const GemmShape &s : kGemmShapes) {
    checkGemm(s);
    std::string shape = shapeName(s);
    benchmark::RegisterBenchmark(("gemm/" + shape + "/aotc").c_str(),
                                 BM_gemmAotc, s)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
#if !AOTC_BENCH_HIP
    benchmark::RegisterBenchmark(("gemm/" + shape + "/cublas").c_str(),
                                 BM_gemmCublas, s)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
#endif
  }
  checkStreamPrograms();
  for (const char *name : {"eltwise", "softmax"})
    for (bool peer : {false, true})
      benchmark::RegisterBenchmark(
          (std::string(name) + (peer ? "/memcpy" : "/aotc")).c_str(),
          BM_stream, std::string(name), peer)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
#if AOTC_BENCH_CUDNN
  check(cudnnCreate(&gCudnn), "cudnnCreate");
  check(cudnnSetStream(gCudnn, gStream), "cudnnSetStream");
#endif
  for (const OpCase &c : kOpCases) {
    checkOp(c);
    // A convolution's only peer is cuDNN (a copy would not be one).
    bool noPeer = !hasCudnnPeer(c) && c.kind == bench::kConv;
    for (bool peer : {false, true}) {
      if (peer && noPeer)
        continue;
      benchmark::RegisterBenchmark(
          (opKey(c) + (peer ? "/peer" : "/aotc")).c_str(),
          peer ? BM_opPeer : BM_opAotc, &c)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  printSummary();
#if AOTC_BENCH_CUDNN
  cudnnDestroy(gCudnn);
#endif
#if !AOTC_BENCH_HIP
  cublasDestroy(gCublas);
#endif
  (void)gpuStreamDestroy(gStream);
  return 0;
}
