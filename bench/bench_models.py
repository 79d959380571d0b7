#!/usr/bin/env python3
# ===- bench_models.py - aotc models vs ONNX Runtime and PyTorch ----------===#
#
# Times batch-1 inference of the model zoo of tests/models (resnet18,
# mobilenet_v2, squeezenet1_1, bert_encoder) three ways in one process:
#
#   aotc         the compiled model, a shared library built with
#                aot_add_library(... SHARED), called through ctypes with
#                preallocated NumPy input, output and pool (stream:
#                aot_cpu_stream_t with the thread count)
#   onnxruntime  the same .onnx file, InferenceSession on the CPU provider,
#                all graph optimizations, intra_op_num_threads = threads,
#                inter_op_num_threads = 1, session.run() (skipped with a
#                message when onnxruntime cannot be imported)
#   pytorch      the same network with the same weights, rebuilt by
#                tests/models/export_models.py, eager mode under
#                torch.inference_mode(), torch.set_num_threads(threads)
#
# Each timed run is one inference call (the peers' own API; a call allocates
# its output in ORT and PyTorch, writes into a preallocated one in aotc).
# Before timing, every peer's output is compared with the PyTorch reference of
# NAME.npz (ATOL from NAME.tol). Timing is interleaved to share the machine's
# noise: `--rounds` rounds, each running every (peer, threads) block in a
# rotating order; a block is `--warmup` untimed calls (fewer for slow models:
# only while under half a second, at least one) then runs/rounds timed ones,
# after a pause (`--pause`, seconds) that lets the previous peer's spinning
# worker threads go to sleep. The result is the median over all
# timed runs (>= 20 by default) with the quartiles.
#
# Usage:
#   bench_models.py --models-dir BUILD/tests/models --lib-dir BUILD/bench
#                   --export-script tests/models/export_models.py
#                   [--models a,b] [--threads 1,2] [--runs 25] [--rounds 5]
#                   [--warmup 3] [--pause 0.3] [--out models.json]
#
# Writes JSON: {"suite": "models", "results": [{"kind": "model",
# "shape": NAME, "impl": PEER, "threads": T, "median_ms", "q1_ms", "q3_ms",
# "min_ms", "runs"}...], "skipped": [...]}.
#
# ===----------------------------------------------------------------------===#

import argparse
import ctypes
import importlib.util
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "include", "aot_abi"))
import aot_abi  # noqa: E402  (the ctypes mirror of aot_abi.h)

MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"]


def aligned_empty(nbytes, alignment=64):
    """A uint8 NumPy buffer of nbytes whose data is aligned."""
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset:offset + nbytes]


class AotcModel:
    """One entry point (one f32 input, one f32 output) of a shared library."""

    def __init__(self, lib_path, name, x):
        self.lib = ctypes.CDLL(lib_path)
        info_fn = getattr(self.lib, name + "_info")
        info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
        info = info_fn().contents
        if info.num_inputs != 1 or info.num_outputs != 1:
            raise SystemExit(f"{name}: expected 1 input and 1 output")
        out = info.outputs[0]
        self.y = np.empty([out.shape[i] for i in range(out.rank)], np.float32)
        self.x = np.ascontiguousarray(x, dtype=np.float32)
        self.pool_bytes = int(info.pool_bytes)
        self.pool = aligned_empty(max(self.pool_bytes, 1),
                                  max(int(info.pool_alignment), 64))
        self.fn = getattr(self.lib, name)
        self.fn.restype = ctypes.c_int32
        self.fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_size_t,
                                                    ctypes.c_void_p]
        self.stream = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream), 1)
        self.args = (self.x.ctypes.data, self.y.ctypes.data,
                     self.pool.ctypes.data, self.pool_bytes,
                     ctypes.addressof(self.stream))

    def runner(self, threads):
        def run():
            self.stream.num_threads = threads
            status = self.fn(*self.args)
            if status != 0:
                raise SystemExit(f"aotc call failed with status {status}")
            return self.y
        return run


def load_export_script(path):
    spec = importlib.util.spec_from_file_location("export_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_stats(samples):
    q = statistics.quantiles(samples, n=4) if len(samples) > 1 else samples * 3
    return {"median_ms": statistics.median(samples), "q1_ms": q[0],
            "q3_ms": q[2], "min_ms": min(samples), "runs": len(samples)}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--models-dir", required=True)
    p.add_argument("--lib-dir", required=True)
    p.add_argument("--export-script", required=True)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--threads", default="1,2")
    p.add_argument("--runs", type=int, default=25)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--pause", type=float, default=0.3)
    p.add_argument("--out")
    args = p.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    names = [n for n in args.models.split(",") if n]
    rounds = max(1, min(args.rounds, args.runs))
    per_round = -(-args.runs // rounds)

    # PyTorch first: its OpenMP runtime (libgomp) and the libomp the aotc
    # libraries load are separate runtimes with separate threads.
    import torch
    exporter = load_export_script(args.export_script)
    try:
        import onnxruntime as ort
    except ImportError as e:
        ort = None
        print(f"bench_models: onnxruntime cannot be imported ({e}); skipping "
              "that peer (pip install onnxruntime)", file=sys.stderr)
    skipped = [] if ort else ["onnxruntime: not importable"]

    results = []
    for name in names:
        ref = np.load(os.path.join(args.models_dir, name + ".npz"))
        x, y_ref = ref["input_0"], ref["output_0"]
        with open(os.path.join(args.models_dir, name + ".tol")) as f:
            atol = float(f.read())

        runners = {}  # (impl, threads) -> callable
        ours = AotcModel(os.path.join(args.lib_dir,
                                      f"libbench_model_{name}.so"), name, x)
        for t in threads:
            runners[("aotc", t)] = ours.runner(t)

        if ort:
            for t in threads:
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = t
                opts.inter_op_num_threads = 1
                opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
                opts.graph_optimization_level = \
                    ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                sess = ort.InferenceSession(
                    os.path.join(args.models_dir, name + ".onnx"), opts,
                    providers=["CPUExecutionProvider"])
                feed = {sess.get_inputs()[0].name: x}
                runners[("onnxruntime", t)] = (
                    lambda s=sess, f=feed: s.run(None, f)[0])

        torch.manual_seed(0)
        model, _ = exporter.MODELS[name]()
        model.eval()
        xt = torch.from_numpy(x.copy())

        def torch_run(m=model, xt=xt):
            with torch.inference_mode():
                return m(xt)
        for t in threads:
            runners[("pytorch", t)] = torch_run

        # Numerics first: every peer against the PyTorch reference.
        for (impl, t), run in runners.items():
            torch.set_num_threads(t)
            out = np.asarray(run() if impl != "pytorch" else run().numpy())
            err = float(np.max(np.abs(out.reshape(y_ref.shape) - y_ref)))
            if err > atol:
                raise SystemExit(f"{name}/{impl}/{t}: differs from the "
                                 f"reference by {err} (ATOL {atol})")

        samples = {key: [] for key in runners}
        keys = list(runners)
        for r in range(rounds):
            order = keys[r % len(keys):] + keys[:r % len(keys)]
            for key in order:
                run = runners[key]
                if key[0] == "pytorch":
                    torch.set_num_threads(key[1])
                time.sleep(args.pause)
                # Warm-up: --warmup calls, fewer for slow models (at least
                # one, then only while under half a second).
                start = time.perf_counter()
                for i in range(args.warmup):
                    if i > 0 and time.perf_counter() - start > 0.5:
                        break
                    run()
                for _ in range(per_round):
                    start = time.perf_counter_ns()
                    run()
                    samples[key].append((time.perf_counter_ns() - start) * 1e-6)
        for (impl, t), s in samples.items():
            entry = {"kind": "model", "shape": name, "impl": impl,
                     "threads": t}
            entry.update(median_stats(s))
            results.append(entry)
            print(f"model/{name}/{impl}/{t}: median {entry['median_ms']:.2f} ms"
                  f" (q1 {entry['q1_ms']:.2f}, q3 {entry['q3_ms']:.2f}, "
                  f"{entry['runs']} runs)")
        del ours, runners

    doc = {"suite": "models", "results": results, "skipped": skipped,
           "versions": {"torch": torch.__version__,
                        "onnxruntime": ort.__version__ if ort else None}}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
