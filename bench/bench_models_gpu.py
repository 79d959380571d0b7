#!/usr/bin/env python3
# ===- bench_models_gpu.py - aotc CUDA models vs PyTorch on a GPU ---------===#
#
# Times batch-1 inference of the model zoo of tests/models (resnet18,
# mobilenet_v2, squeezenet1_1, bert_encoder) on a CUDA device, in one
# process, on one stream:
#
#   aotc         the model compiled --target=cuda --on-device-tensors into a
#                shared library (aot_add_library(... TARGET cuda SHARED)),
#                called through ctypes with device input, output and pool
#                (PyTorch CUDA tensors) and PyTorch's current CUDA stream: a
#                call only enqueues kernels
#   pytorch      the same network with the same weights (rebuilt by
#                tests/models/export_models.py) in eager mode on the device,
#                FP32 (TF32 off for matmuls and cuDNN, as our kernels are
#                FP32 FMA), under torch.inference_mode()
#   onnxruntime  the same .onnx file on ONNX Runtime's CUDA execution
#                provider, input and output bound to the same device tensors
#                (IOBinding), when onnxruntime with that provider imports
#
# Every timed run is bracketed by CUDA events recorded on the stream; the
# result is the median over --runs runs after --warmup calls, rounds
# interleaved across the peers as in bench_models.py. Before timing, each
# peer's output is compared with the PyTorch CPU reference of NAME.npz (ATOL
# from NAME.tol).
#
# Without a CUDA device (or without a CUDA build of PyTorch: Debian's is CPU
# only) it still loads every library, checks its NAME_info() (one f32 input
# and output, target "cuda:..."), and checks that a call returns
# AOT_ERROR_NO_DEVICE; then it prints why it skips the timing and exits 0.
#
# Usage:
#   bench_models_gpu.py --models-dir BUILD/tests/models --lib-dir BUILD/bench
#                       --export-script tests/models/export_models.py
#                       [--models a,b] [--runs 25] [--rounds 5] [--warmup 3]
#                       [--out models_gpu.json]
#
# Writes JSON: {"suite": "models_gpu", "device": NAME, "results": [{"kind":
# "model", "shape": NAME, "impl": PEER, "threads": 0, "median_ms", "q1_ms",
# "q3_ms", "min_ms", "runs"}...], "skipped": [...]}.
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
from bench_models import (aligned_empty, load_export_script,  # noqa: E402
                          median_stats)

MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"]


class AotcGpuModel:
    """One CUDA entry point (one f32 input, one f32 output) of a library."""

    def __init__(self, lib_path, name):
        self.name = name
        self.lib = ctypes.CDLL(lib_path)
        info_fn = getattr(self.lib, name + "_info")
        info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
        info = info_fn().contents
        target = info.target.decode()
        if info.abi_version != aot_abi.AOT_ABI_VERSION:
            raise SystemExit(f"{name}: ABI version {info.abi_version}")
        if not target.startswith("cuda:"):
            raise SystemExit(f"{name}: target {target!r}, expected cuda:...")
        if info.num_inputs != 1 or info.num_outputs != 1:
            raise SystemExit(f"{name}: expected 1 input and 1 output")
        for t in (info.inputs[0], info.outputs[0]):
            if t.dtype != aot_abi.AOT_DTYPE_F32:
                raise SystemExit(f"{name}: tensor {t.name} is not f32")
        out = info.outputs[0]
        self.out_shape = [out.shape[i] for i in range(out.rank)]
        self.pool_bytes = int(info.pool_bytes)
        self.pool_alignment = max(int(info.pool_alignment), 256)
        self.target = target
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
        print(f"bench_models_gpu: {model.name} ({model.target}, pool "
              f"{model.pool_bytes} B): loads, AOT_ERROR_NO_DEVICE here")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--models-dir", required=True)
    p.add_argument("--lib-dir", required=True)
    p.add_argument("--export-script", required=True)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--runs", type=int, default=25)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--out")
    args = p.parse_args()
    names = [n for n in args.models.split(",") if n]
    models = [AotcGpuModel(os.path.join(args.lib_dir,
                                        f"libbench_gpu_model_{n}.so"), n)
              for n in names]

    import torch
    if not torch.cuda.is_available():
        check_without_device(models)
        print("bench_models_gpu: no CUDA device for PyTorch "
              f"(torch {torch.__version__}); skipping the timing")
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = torch.device("cuda")
    stream = torch.cuda.current_stream()
    exporter = load_export_script(args.export_script)
    ort = None
    try:
        import onnxruntime
        if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
            ort = onnxruntime
    except ImportError:
        pass
    skipped = [] if ort else ["onnxruntime: no CUDA execution provider"]
    rounds = max(1, min(args.rounds, args.runs))
    per_round = -(-args.runs // rounds)

    results = []
    for model in models:
        name = model.name
        ref = np.load(os.path.join(args.models_dir, name + ".npz"))
        x_host, y_ref = ref["input_0"], ref["output_0"]
        with open(os.path.join(args.models_dir, name + ".tol")) as f:
            atol = float(f.read())
        x = torch.from_numpy(np.ascontiguousarray(x_host)).to(device)
        y = torch.empty(model.out_shape, dtype=torch.float32, device=device)
        raw = torch.empty(model.pool_bytes + model.pool_alignment,
                          dtype=torch.uint8, device=device)
        pool = raw.data_ptr() + (-raw.data_ptr()) % model.pool_alignment

        def aotc_run(model=model, x=x, y=y, pool=pool):
            status = model.call(x.data_ptr(), y.data_ptr(), pool,
                                stream.cuda_stream)
            if status != 0:
                raise SystemExit(f"{model.name}: status {status}")
            return y
        runners = {"aotc": aotc_run}

        torch.manual_seed(0)
        net, _ = exporter.MODELS[name]()
        net = net.eval().to(device)

        def torch_run(net=net, x=x):
            with torch.inference_mode():
                return net(x)
        runners["pytorch"] = torch_run

        if ort:
            sess = ort.InferenceSession(
                os.path.join(args.models_dir, name + ".onnx"),
                providers=[("CUDAExecutionProvider",
                            {"user_compute_stream": str(stream.cuda_stream)})])
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

        # Numerics first: every peer against the PyTorch CPU reference.
        for impl, run in runners.items():
            out = run()
            torch.cuda.synchronize()
            err = float(np.max(np.abs(out.cpu().numpy().reshape(y_ref.shape)
                                      - y_ref)))
            if err > atol:
                raise SystemExit(f"{name}/{impl}: differs from the reference "
                                 f"by {err} (ATOL {atol})")

        samples = {impl: [] for impl in runners}
        impls = list(runners)
        start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        for r in range(rounds):
            for impl in impls[r % len(impls):] + impls[:r % len(impls)]:
                run = runners[impl]
                for _ in range(args.warmup):
                    run()
                for _ in range(per_round):
                    start.record(stream)
                    run()
                    end.record(stream)
                    end.synchronize()
                    samples[impl].append(start.elapsed_time(end))
        for impl, s in samples.items():
            entry = {"kind": "model", "shape": name, "impl": impl,
                     "threads": 0}
            entry.update(median_stats(s))
            results.append(entry)
        ours = results[-len(samples)]["median_ms"]
        for entry in results[-len(samples):]:
            print(f"model_gpu/{name}/{entry['impl']}: median "
                  f"{entry['median_ms']:.3f} ms (q1 {entry['q1_ms']:.3f}, q3 "
                  f"{entry['q3_ms']:.3f}); peer/aotc "
                  f"{entry['median_ms'] / ours:.2f}")

    doc = {"suite": "models_gpu", "device": torch.cuda.get_device_name(0),
           "results": results, "skipped": skipped,
           "versions": {"torch": torch.__version__,
                        "onnxruntime": ort.__version__ if ort else None}}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
