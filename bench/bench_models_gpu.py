#!/usr/bin/env python3
# ===- bench_models_gpu.py - aotc GPU models (CUDA, HIP) on a device ------===#
#
# Times batch-1 inference of the model zoo of tests/models (resnet18,
# mobilenet_v2, squeezenet1_1, bert_encoder) on a GPU, in one process, on
# one stream. --target picks the build and the device API:
#
#   cuda  libbench_gpu_model_NAME.so, the model compiled --target=cuda
#         --on-device-tensors (aot_add_library(... TARGET cuda SHARED)),
#         called through ctypes with device input, output and pool
#         (PyTorch CUDA tensors) and PyTorch's current CUDA stream: a call
#         only enqueues kernels. Peers:
#           pytorch      the same network with the same weights (rebuilt by
#                        tests/models/export_models.py) in eager mode on the
#                        device, FP32 (TF32 off for matmuls and cuDNN, as
#                        our kernels are FP32 FMA), under
#                        torch.inference_mode()
#           onnxruntime  the same .onnx file on ONNX Runtime's CUDA
#                        execution provider, input and output bound to the
#                        same device tensors (IOBinding), when onnxruntime
#                        with that provider imports
#   hip   libbench_gpu_hip_model_NAME.so, compiled --target=hip
#         --on-device-tensors, called the same way with input, output and
#         pool from hipMalloc and a stream from hipStreamCreate, all through
#         libamdhip64 (ctypes). No peer: Debian has no ROCm build of PyTorch
#         and no ONNX Runtime ROCm provider, so only our figures (ms,
#         inferences/s) are reported, and the output says so.
#
# Every timed run is bracketed by device events (CUDA events / hipEvents)
# recorded on the stream; the result is the median over --runs runs after
# --warmup calls, rounds interleaved across the peers as in
# bench_models.py. Before timing, each peer's output is compared with the
# PyTorch CPU reference of NAME.npz (ATOL from NAME.tol).
#
# Without a device (CUDA: or without a CUDA build of PyTorch, as Debian's is
# CPU only; HIP: no libamdhip64, or hipInit / hipGetDeviceCount fail) it
# still loads every library, checks its NAME_info() (the model's name, a
# target "cuda:..." / "hip:...", one f32 input and output with the names
# and shapes of the CPU build and of NAME.npz, a pool size), and checks that
# a call returns AOT_ERROR_NO_DEVICE without writing to the output; then it
# prints "skipped: no device" and why, and exits 0.
#
# Usage:
#   bench_models_gpu.py --models-dir BUILD/tests/models --lib-dir BUILD/bench
#                       --export-script tests/models/export_models.py
#                       [--target cuda|hip] [--models a,b] [--runs 25]
#                       [--rounds 5] [--warmup 3] [--out models_gpu.json]
#
# Writes JSON: {"suite": "models_gpu", "target": "cuda"|"hip", "device":
# NAME, "results": [{"kind": "model", "shape": NAME, "impl": PEER,
# "threads": 0, "median_ms", "q1_ms", "q3_ms", "min_ms", "runs",
# "inferences_per_s"}...], "skipped": [...]}.
#
# ===----------------------------------------------------------------------===#

import argparse
import ctypes
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "include", "aot_abi"))
import aot_abi  # noqa: E402  (the ctypes mirror of aot_abi.h)
from bench_models import (aligned_empty, load_script,  # noqa: E402
                          median_stats)

MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"]
# The shared libraries bench/CMakeLists.txt builds, per target.
LIBRARY_PREFIX = {"cuda": "libbench_gpu_model_",
                  "hip": "libbench_gpu_hip_model_"}


def tensor_signature(t):
    """(name, dtype, shape) of an aot_abi.TensorInfo."""
    return (t.name.decode(), t.dtype, [t.shape[i] for i in range(t.rank)])


def load_info(lib, name):
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
    return info_fn().contents


class AotcGpuModel:
    """One GPU entry point (one f32 input, one f32 output) of a library."""

    def __init__(self, lib_dir, models_dir, name, target):
        self.name = name
        self.lib = ctypes.CDLL(os.path.join(
            lib_dir, f"{LIBRARY_PREFIX[target]}{name}.so"))
        info = load_info(self.lib, name)
        self.target = info.target.decode()
        if info.abi_version != aot_abi.AOT_ABI_VERSION:
            raise SystemExit(f"{name}: ABI version {info.abi_version}")
        if info.name.decode() != name:
            raise SystemExit(f"{name}: info names {info.name.decode()!r}")
        if not self.target.startswith(target + ":"):
            raise SystemExit(f"{name}: target {self.target!r}, expected "
                             f"{target}:...")
        if info.num_inputs != 1 or info.num_outputs != 1:
            raise SystemExit(f"{name}: expected 1 input and 1 output")
        self.signature = [tensor_signature(info.inputs[0]),
                          tensor_signature(info.outputs[0])]
        # Shapes as the reference's, and names and shapes as the CPU
        # build's (built beside it from the same .onnx file) when it is
        # there.
        ref = np.load(os.path.join(models_dir, name + ".npz"))
        expected = [[(None, list(ref[key].shape))
                     for key in ("input_0", "output_0")]]
        cpu_path = os.path.join(lib_dir, f"libbench_model_{name}.so")
        if os.path.exists(cpu_path):
            cpu = load_info(ctypes.CDLL(cpu_path), name)
            expected.append([tensor_signature(t)[::2]
                             for t in (cpu.inputs[0], cpu.outputs[0])])
        for want in expected:
            for (t_name, dtype, shape), (e_name, e_shape) in zip(
                    self.signature, want):
                if (not t_name or e_name not in (None, t_name) or
                        dtype != aot_abi.AOT_DTYPE_F32 or shape != e_shape):
                    raise SystemExit(
                        f"{name}: tensor {t_name!r} dtype {dtype} shape "
                        f"{shape}, expected {e_name or '(any name)'!r} f32 "
                        f"{e_shape}")
        self.out_shape = self.signature[1][2]
        self.pool_bytes = int(info.pool_bytes)
        self.pool_alignment = max(int(info.pool_alignment), 256)
        if self.pool_bytes == 0 or info.pool_alignment & (
                info.pool_alignment - 1):
            raise SystemExit(f"{name}: pool {self.pool_bytes} B aligned to "
                             f"{info.pool_alignment}")
        self.fn = getattr(self.lib, name)
        self.fn.restype = ctypes.c_int32
        self.fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_size_t,
                                                    ctypes.c_void_p]

    def call(self, x, y, pool, stream):
        return self.fn(x, y, pool, self.pool_bytes, stream)


def check_without_device(models):
    """No device: every call must fail cleanly with AOT_ERROR_NO_DEVICE."""
    for model in models:
        # --on-device-tensors: the call copies nothing, so host buffers
        # stand in for device pointers; without a device it must return
        # before touching any of them.
        x = np.zeros(16, np.float32)
        y = np.full(16, 7.0, np.float32)
        pool = aligned_empty(256, model.pool_alignment)
        status = model.call(x.ctypes.data, y.ctypes.data, pool.ctypes.data,
                            None)
        if status != aot_abi.AOT_ERROR_NO_DEVICE or np.any(y != 7.0):
            raise SystemExit(f"{model.name}: without a device the call "
                             f"returned {status}, expected "
                             f"AOT_ERROR_NO_DEVICE and no write")
        (in_name, _, in_shape), (out_name, _, out_shape) = model.signature
        print(f"bench_models_gpu: {model.name} ({model.target}): input "
              f"{in_name!r} f32{in_shape}, output {out_name!r} "
              f"f32{out_shape}, pool {model.pool_bytes} B; a call returns "
              f"AOT_ERROR_NO_DEVICE and writes nothing")


# ===----------------------------------------------------------------------===#
# Devices: the few operations the benchmark needs, in each target's API
# ===----------------------------------------------------------------------===#

class CudaDevice:
    """CUDA through PyTorch: its device tensors, current stream and events.

    why_not is None when there is a device, else the reason there is none.
    """

    target = "cuda"

    def __init__(self, args):
        import torch
        self.torch = torch
        self.args = args
        self.ort = None
        self.why_not = None
        if not torch.cuda.is_available():
            self.why_not = (f"no CUDA device for PyTorch (torch "
                            f"{torch.__version__})")
            return
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        self.device = torch.device("cuda")
        self.torch_stream = torch.cuda.current_stream()
        self.stream = self.torch_stream.cuda_stream
        self.name = torch.cuda.get_device_name(0)
        self.events = [torch.cuda.Event(enable_timing=True)
                       for _ in range(2)]
        self.exporter = load_script(args.export_script, "export_models")
        try:
            import onnxruntime
            if "CUDAExecutionProvider" in \
                    onnxruntime.get_available_providers():
                self.ort = onnxruntime
        except ImportError:
            pass
        self.skipped = [] if self.ort else [
            "onnxruntime: no CUDA execution provider"]

    def versions(self):
        return {"torch": self.torch.__version__,
                "onnxruntime": self.ort.__version__ if self.ort else None}

    def upload(self, array):
        return self.torch.from_numpy(np.ascontiguousarray(array)).to(
            self.device)

    def empty(self, shape, dtype):
        return self.torch.empty(shape, device=self.device, dtype={
            np.float32: self.torch.float32, np.uint8: self.torch.uint8}[dtype])

    def ptr(self, tensor):
        return tensor.data_ptr()

    def download(self, tensor):
        self.torch.cuda.synchronize()
        return tensor.cpu().numpy()

    def time_ms(self, run):
        start, end = self.events
        start.record(self.torch_stream)
        run()
        end.record(self.torch_stream)
        end.synchronize()
        return start.elapsed_time(end)

    def peers(self, name, x, y):
        """PyTorch eager on the device and ONNX Runtime's CUDA provider."""
        torch = self.torch
        torch.manual_seed(0)
        net, _ = self.exporter.MODELS[name]()
        net = net.eval().to(self.device)

        def torch_run(net=net, x=x):
            with torch.inference_mode():
                return net(x)
        runners = {"pytorch": torch_run}
        if self.ort:
            sess = self.ort.InferenceSession(
                os.path.join(self.args.models_dir, name + ".onnx"),
                providers=[("CUDAExecutionProvider",
                            {"user_compute_stream": str(self.stream)})])
            binding = sess.io_binding()
            y_ort = torch.empty_like(y)
            binding.bind_input(sess.get_inputs()[0].name, "cuda", 0,
                               np.float32, list(x.shape), x.data_ptr())
            binding.bind_output(sess.get_outputs()[0].name, "cuda", 0,
                                np.float32, list(y_ort.shape),
                                y_ort.data_ptr())

            def ort_run(sess=sess, binding=binding, y_ort=y_ort):
                sess.run_with_iobinding(binding)
                return y_ort
            runners["onnxruntime"] = ort_run
        return runners


class HipBuffer:
    """hipMalloc'd memory holding an array of shape and dtype."""

    def __init__(self, device, shape, dtype):
        self.device, self.shape, self.dtype = device, list(shape), dtype
        self.nbytes = int(np.prod(self.shape)) * np.dtype(dtype).itemsize
        self.ptr = ctypes.c_void_p()
        device.check(device.hip.hipMalloc(ctypes.byref(self.ptr),
                                          self.nbytes), "hipMalloc")

    def __del__(self):
        if self.ptr:
            self.device.hip.hipFree(self.ptr)


class HipDevice:
    """HIP through libamdhip64 (ctypes): hipMalloc, hipMemcpy, a stream of
    our own and hipEvents. No peer runs on it (see the file comment)."""

    target = "hip"
    LIBRARIES = ["libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                 "libamdhip64.so.5"]
    MEMCPY_HOST_TO_DEVICE, MEMCPY_DEVICE_TO_HOST = 1, 2
    skipped = ["pytorch, onnxruntime: no peer for HIP in Debian (no ROCm "
               "build of PyTorch, no ONNX Runtime ROCm provider); aotc only"]

    def __init__(self, args):
        self.why_not = None
        self.hip = None
        for lib in self.LIBRARIES:
            try:
                self.hip = ctypes.CDLL(lib)
                break
            except OSError:
                continue
        if self.hip is None:
            self.why_not = "libamdhip64 not found"
            return
        hip = self.hip
        hip.hipGetErrorString.restype = ctypes.c_char_p
        hip.hipGetErrorString.argtypes = [ctypes.c_int]
        ptr, ptr_ref = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
        for fn, argtypes in [
                ("hipInit", [ctypes.c_uint]),
                ("hipGetDeviceCount", [ctypes.POINTER(ctypes.c_int)]),
                ("hipDeviceGetName", [ctypes.c_char_p, ctypes.c_int,
                                      ctypes.c_int]),
                ("hipMalloc", [ptr_ref, ctypes.c_size_t]),
                ("hipFree", [ptr]),
                ("hipMemcpy", [ptr, ptr, ctypes.c_size_t, ctypes.c_int]),
                ("hipStreamCreate", [ptr_ref]),
                ("hipStreamSynchronize", [ptr]),
                ("hipEventCreate", [ptr_ref]),
                ("hipEventRecord", [ptr, ptr]),
                ("hipEventSynchronize", [ptr]),
                ("hipEventElapsedTime", [ctypes.POINTER(ctypes.c_float),
                                         ptr, ptr])]:
            getattr(hip, fn).restype = ctypes.c_int
            getattr(hip, fn).argtypes = argtypes
        count = ctypes.c_int(0)
        status = hip.hipInit(0)
        if status != 0:
            self.why_not = f"hipInit: {self.error_string(status)}"
            return
        status = hip.hipGetDeviceCount(ctypes.byref(count))
        if status != 0:
            self.why_not = f"hipGetDeviceCount: {self.error_string(status)}"
            return
        if count.value == 0:
            self.why_not = "hipGetDeviceCount: 0 devices"
            return
        name = ctypes.create_string_buffer(256)
        self.check(hip.hipDeviceGetName(name, len(name), 0),
                   "hipDeviceGetName")
        self.name = name.value.decode()
        handle = ctypes.c_void_p()
        self.check(hip.hipStreamCreate(ctypes.byref(handle)),
                   "hipStreamCreate")
        self.stream = handle.value
        self.events = [ctypes.c_void_p() for _ in range(2)]
        for event in self.events:
            self.check(hip.hipEventCreate(ctypes.byref(event)),
                       "hipEventCreate")

    def error_string(self, status):
        return f"{self.hip.hipGetErrorString(status).decode()} ({status})"

    def check(self, status, what):
        if status != 0:
            raise SystemExit(f"{what}: {self.error_string(status)}")

    def versions(self):
        return {"libamdhip64": getattr(self.hip, "_name", None)}

    def upload(self, array):
        array = np.ascontiguousarray(array)
        buf = HipBuffer(self, array.shape, array.dtype.type)
        self.check(self.hip.hipMemcpy(buf.ptr, array.ctypes.data, buf.nbytes,
                                      self.MEMCPY_HOST_TO_DEVICE),
                   "hipMemcpy")
        return buf

    def empty(self, shape, dtype):
        return HipBuffer(self, shape, dtype)

    def ptr(self, buf):
        return buf.ptr.value

    def download(self, buf):
        self.check(self.hip.hipStreamSynchronize(self.stream),
                   "hipStreamSynchronize")
        out = np.empty(buf.shape, buf.dtype)
        self.check(self.hip.hipMemcpy(out.ctypes.data, buf.ptr, buf.nbytes,
                                      self.MEMCPY_DEVICE_TO_HOST),
                   "hipMemcpy")
        return out

    def time_ms(self, run):
        start, end = self.events
        self.check(self.hip.hipEventRecord(start, self.stream),
                   "hipEventRecord")
        run()
        self.check(self.hip.hipEventRecord(end, self.stream),
                   "hipEventRecord")
        self.check(self.hip.hipEventSynchronize(end), "hipEventSynchronize")
        ms = ctypes.c_float()
        self.check(self.hip.hipEventElapsedTime(ctypes.byref(ms), start, end),
                   "hipEventElapsedTime")
        return ms.value

    def peers(self, name, x, y):
        return {}


DEVICES = {"cuda": CudaDevice, "hip": HipDevice}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--models-dir", required=True)
    p.add_argument("--lib-dir", required=True)
    p.add_argument("--export-script", required=True)
    p.add_argument("--target", choices=sorted(DEVICES), default="cuda")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--runs", type=int, default=25)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--out")
    args = p.parse_args()
    names = [n for n in args.models.split(",") if n]
    models = [AotcGpuModel(args.lib_dir, args.models_dir, n, args.target)
              for n in names]

    dev = DEVICES[args.target](args)
    if dev.why_not:
        check_without_device(models)
        print(f"bench_models_gpu ({args.target}): skipped: no device "
              f"({dev.why_not}); {len(models)} libraries checked without "
              f"one, nothing timed")
        return
    for note in dev.skipped:
        print(f"bench_models_gpu ({args.target}): peer skipped: {note}")
    rounds = max(1, min(args.rounds, args.runs))
    per_round = -(-args.runs // rounds)

    results = []
    for model in models:
        name = model.name
        ref = np.load(os.path.join(args.models_dir, name + ".npz"))
        x_host, y_ref = ref["input_0"], ref["output_0"]
        with open(os.path.join(args.models_dir, name + ".tol")) as f:
            atol = float(f.read())
        x = dev.upload(x_host.astype(np.float32))
        y = dev.empty(model.out_shape, np.float32)
        raw = dev.empty([model.pool_bytes + model.pool_alignment], np.uint8)
        pool = dev.ptr(raw) + (-dev.ptr(raw)) % model.pool_alignment

        def aotc_run(model=model, x=x, y=y, pool=pool):
            status = model.call(dev.ptr(x), dev.ptr(y), pool, dev.stream)
            if status != 0:
                raise SystemExit(f"{model.name}: status {status}")
            return y
        runners = {"aotc": aotc_run}
        runners.update(dev.peers(name, x, y))

        # Numerics first: every peer against the PyTorch CPU reference.
        for impl, run in runners.items():
            out = dev.download(run())
            err = float(np.max(np.abs(out.reshape(y_ref.shape) - y_ref)))
            if err > atol:
                raise SystemExit(f"{name}/{impl}: differs from the reference "
                                 f"by {err} (ATOL {atol})")

        samples = {impl: [] for impl in runners}
        impls = list(runners)
        for r in range(rounds):
            for impl in impls[r % len(impls):] + impls[:r % len(impls)]:
                run = runners[impl]
                for _ in range(args.warmup):
                    run()
                for _ in range(per_round):
                    samples[impl].append(dev.time_ms(run))
        for impl, s in samples.items():
            entry = {"kind": "model", "shape": name, "impl": impl,
                     "threads": 0}
            entry.update(median_stats(s))
            entry["inferences_per_s"] = 1e3 / entry["median_ms"]
            results.append(entry)
        ours = results[-len(samples)]["median_ms"]
        for entry in results[-len(samples):]:
            ratio = (f"; peer/aotc {entry['median_ms'] / ours:.2f}"
                     if len(samples) > 1 else "")
            print(f"model_gpu/{args.target}/{name}/{entry['impl']}: median "
                  f"{entry['median_ms']:.3f} ms (q1 {entry['q1_ms']:.3f}, q3 "
                  f"{entry['q3_ms']:.3f}), "
                  f"{entry['inferences_per_s']:.1f} inferences/s{ratio}")

    doc = {"suite": "models_gpu", "target": args.target, "device": dev.name,
           "results": results, "skipped": dev.skipped,
           "versions": dev.versions()}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
