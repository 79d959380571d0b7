#!/usr/bin/env python3
# ===- bench_models.py - aotc models vs ONNX Runtime and PyTorch ----------===#
#
# Times inference of the model zoo of tests/models (resnet18,
# mobilenet_v2, squeezenet1_1, bert_encoder), or of the model corpus
# (--corpus), three ways:
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
#                once, OPENBLAS_NUM_THREADS=1 (WORKER_ENV)
#
# Each (peer, thread count) runs in a worker process of its own (started
# with "spawn", so it loads one peer's runtime only), driven by this one
# through a pipe. In one process, the three runtimes' threads (our libomp,
# ORT's pool, PyTorch's libgomp beside the pthreads of the OpenBLAS it
# calls) took each other's CPUs: at 2 threads our bert_encoder was bimodal
# (0.55 / 1.33 ms; 0.50 ms alone) and PyTorch's took 16-36 ms.
#
# Each timed run is one inference call (the peers' own API; a call allocates
# its output in ORT and PyTorch, writes into a preallocated one in aotc).
# Before timing, every worker's output is compared with the PyTorch
# reference of NAME.npz (ATOL from NAME.tol). Timing is interleaved to share
# the machine's noise: `--rounds` rounds, each running every worker's block
# in a rotating order; a block is `--warmup` untimed calls (fewer for slow
# models: only while under half a second, at least one) then runs/rounds
# timed ones, after a pause (`--pause`, seconds) that lets the previous
# worker's spinning threads go to sleep. The result is the median over all
# timed runs (>= 20 by default) with the quartiles.
#
# PyTorch's Debian build calls OpenBLAS (pthreads) for its matmuls, which
# by default starts a pool of all CPUs whatever set_num_threads says: its
# "1 thread" ran 2 threads there, and at 2 threads its libgomp team and
# OpenBLAS's pool oversubscribed the CPUs (calls of ~32 ms after each
# pause). Its workers run OpenBLAS on one thread (WORKER_ENV).
# OMP_WAIT_POLICY=passive would help bert_encoder at 2 threads too but make
# the CNNs 1.3x-1.7x slower; it is left at its default.
#
# With --baseline DIR, one more peer, `baseline`, is another build of aotc:
# the libraries of the same models in DIR (a corpus work directory with
# --corpus, a --lib-dir otherwise), timed interleaved with the others, so
# that bench/report.py prints aotc/baseline per model and its geometric
# mean: an A/B of two compilers on one noisy machine.
#
# With --corpus DIR it times the models of tests/models/corpus.py instead,
# from its work directory (run with --keep-objects, as `scripts/models.sh
# --bench` does): DIR/KEY/KEY.{onnx,npz,tol} and the library DIR/KEY/model.so
# of every model that passed (DIR/results.json), the PyTorch network rebuilt
# by corpus.py; models with several inputs (token ids) get them all.
#
# Usage:
#   bench_models.py --models-dir BUILD/tests/models --lib-dir BUILD/bench
#                   --export-script tests/models/export_models.py
#                   [--models a,b] [--threads 1,2] [--runs 25] [--rounds 5]
#                   [--warmup 3] [--pause 0.3] [--out models.json]
#                   [--baseline OTHER_LIB_DIR]
#   bench_models.py --corpus BUILD/corpus
#                   --export-script tests/models/export_models.py
#                   [--baseline OTHER_CORPUS_DIR] [...]
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
import multiprocessing
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "include", "aot_abi"))
import aot_abi  # noqa: E402  (the ctypes mirror of aot_abi.h)

MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"]
PEERS = ["aotc", "onnxruntime", "pytorch"]
# Environment of a peer's workers (what the caller set wins): PyTorch's
# OpenMP team runs its thread count, so the OpenBLAS it calls for matmuls
# runs one thread (by default it started its own pool of all CPUs: at "1
# thread" bert_encoder took 1.63 ms with 2 OpenBLAS threads, 2.27 ms with
# one; at 2 threads the two pools took each other's CPUs, 26.7 ms against
# 2.43 ms).
WORKER_ENV = {"pytorch": {k: v for k, v in {"OPENBLAS_NUM_THREADS": "1"}.items()
                          if k not in os.environ}}


def aligned_empty(nbytes, alignment=64):
    """A uint8 NumPy buffer of nbytes whose data is aligned."""
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset:offset + nbytes]


class AotcModel:
    """One entry point (its inputs, one f32 output) of a shared library."""

    def __init__(self, lib_path, name, xs):
        self.lib = ctypes.CDLL(lib_path)
        info_fn = getattr(self.lib, name + "_info")
        info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
        info = info_fn().contents
        if info.num_inputs != len(xs) or info.num_outputs != 1:
            raise SystemExit(f"{name}: expected {len(xs)} inputs and 1 output")
        out = info.outputs[0]
        self.y = np.empty([out.shape[i] for i in range(out.rank)], np.float32)
        self.xs = [np.ascontiguousarray(x) for x in xs]
        self.pool_bytes = int(info.pool_bytes)
        self.pool = aligned_empty(max(self.pool_bytes, 1),
                                  max(int(info.pool_alignment), 64))
        self.fn = getattr(self.lib, name)
        self.fn.restype = ctypes.c_int32
        self.fn.argtypes = [ctypes.c_void_p] * (len(xs) + 2) + [
            ctypes.c_size_t, ctypes.c_void_p]
        self.stream = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream), 1)
        self.args = (*[x.ctypes.data for x in self.xs], self.y.ctypes.data,
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


CORPUS_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "tests", "models", "corpus.py")


def load_script(path, module_name):
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_stats(samples):
    q = statistics.quantiles(samples, n=4) if len(samples) > 1 else samples * 3
    return {"median_ms": statistics.median(samples), "q1_ms": q[0],
            "q3_ms": q[2], "min_ms": min(samples), "runs": len(samples)}


def model_files(name, args, libraries=None):
    """(ONNX file, NPZ reference, tolerance file, aotc library, entry point)
    of model `name`: the zoo of tests/models, or with --corpus the work
    directory of tests/models/corpus.py (run with --keep-objects). The
    library comes from `libraries` (the --baseline directory) when given."""
    if args.corpus:
        d = os.path.join(args.corpus, name)
        return (os.path.join(d, name + ".onnx"), os.path.join(d, name + ".npz"),
                os.path.join(d, name + ".tol"),
                os.path.join(libraries or args.corpus, name, "model.so"),
                "model")
    return (os.path.join(args.models_dir, name + ".onnx"),
            os.path.join(args.models_dir, name + ".npz"),
            os.path.join(args.models_dir, name + ".tol"),
            os.path.join(libraries or args.lib_dir,
                         f"libbench_model_{name}.so"), name)


def torch_model(name, args):
    """The PyTorch network with the weights of the export."""
    import torch
    if args.corpus:
        corpus = load_script(CORPUS_SCRIPT, "corpus")
        if name in corpus.TRANSFORMERS:
            return corpus.make_transformer(name)[0]
        exporter = load_script(args.export_script, "export_models")
        torch.manual_seed(0)  # as export_models.build
        model, _ = corpus.make_model(exporter, name)
        return model.eval()
    exporter = load_script(args.export_script, "export_models")
    torch.manual_seed(0)
    model, _ = exporter.MODELS[name]()
    return model.eval()


def make_runner(impl, name, args, xs, threads):
    """The peer's inference call at that thread count, built in this (the
    worker) process. Returns (run, version string or None)."""
    onnx_path, _, _, library, entry = model_files(
        name, args, args.baseline if impl == "baseline" else None)
    if impl in ("aotc", "baseline"):
        ours = AotcModel(library, entry, xs)
        return ours.runner(threads), None
    if impl == "onnxruntime":
        import onnxruntime as ort
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = \
            ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        sess = ort.InferenceSession(onnx_path, opts,
                                    providers=["CPUExecutionProvider"])
        feed = {i.name: x for i, x in zip(sess.get_inputs(), xs)}
        return (lambda: sess.run(None, feed)[0]), ort.__version__
    import torch
    model = torch_model(name, args)
    xts = [torch.from_numpy(x.copy()) for x in xs]
    # Once: set_num_threads re-creates the OpenMP team (a call that sets it
    # before each inference took ~45 ms at 2 threads here).
    torch.set_num_threads(threads)

    def run():
        with torch.inference_mode():
            return model(*xts).numpy()
    return run, torch.__version__


def worker(conn, impl, name, args, threads):
    """One peer at one thread count in a process of its own: answers the
    parent's requests on conn until it closes. Each reply is ("ok", value)
    or ("error", text)."""
    try:
        ref = np.load(model_files(name, args)[1])
        xs = []
        while f"input_{len(xs)}" in ref:
            xs.append(ref[f"input_{len(xs)}"])
        run, version = make_runner(impl, name, args, xs, threads)
        conn.send(("ok", version))
    except ImportError as e:
        conn.send(("error", f"cannot be imported ({e})"))
        return
    except Exception as e:  # noqa: BLE001  (reported by the parent)
        conn.send(("error", f"{type(e).__name__}: {e}"))
        return
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        try:
            if request[0] == "check":
                # Max abs difference from the PyTorch reference.
                y_ref = ref["output_0"]
                out = np.asarray(run()).reshape(y_ref.shape)
                conn.send(("ok", float(np.max(np.abs(out - y_ref)))))
            elif request[0] == "block":
                # Warm-up: `warmup` calls, fewer for slow models (at least
                # one, then only while under half a second); then `count`
                # timed ones.
                _, warmup, count = request
                start = time.perf_counter()
                for i in range(warmup):
                    if i > 0 and time.perf_counter() - start > 0.5:
                        break
                    run()
                samples = []
                for _ in range(count):
                    start = time.perf_counter_ns()
                    run()
                    samples.append((time.perf_counter_ns() - start) * 1e-6)
                conn.send(("ok", samples))
            else:
                conn.send(("error", f"unknown request {request[0]!r}"))
        except Exception as e:  # noqa: BLE001  (reported by the parent)
            conn.send(("error", f"{type(e).__name__}: {e}"))


class Peer:
    """The parent's handle on one (peer, thread count) worker process."""

    def __init__(self, ctx, impl, name, args, threads):
        self.impl, self.threads = impl, threads
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker,
                                   args=(child, impl, name, args, threads),
                                   daemon=True)
        # The worker inherits this environment; OpenBLAS reads it when the
        # worker's NumPy loads it.
        saved = dict(os.environ)
        os.environ.update(WORKER_ENV.get(impl, {}))
        try:
            self.process.start()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        child.close()
        # The start-up reply: the peer's version, or why it cannot run.
        status, value = self.receive()
        self.failure = value if status != "ok" else None
        self.version = value if status == "ok" else None

    def receive(self):
        try:
            return self.conn.recv()
        except EOFError:
            self.process.join(timeout=10)
            return ("error", "the worker process died (exit code "
                    f"{self.process.exitcode})")

    def ask(self, request):
        """Sends request and returns the worker's value, or raises
        SystemExit with its error."""
        self.conn.send(request)
        status, value = self.receive()
        if status != "ok":
            raise SystemExit(f"{self.impl}/{self.threads}: {value}")
        return value

    def close(self):
        self.conn.close()
        self.process.join(timeout=10)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--models-dir")
    p.add_argument("--lib-dir")
    p.add_argument("--export-script", required=True)
    p.add_argument("--corpus", help="the work directory of "
                   "tests/models/corpus.py --keep-objects: time its models "
                   "(default: all it holds a library for) instead of the zoo")
    p.add_argument("--models")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--peers", default=",".join(PEERS),
                   help="which of %s to time (default: all)" % ",".join(PEERS))
    p.add_argument("--runs", type=int, default=25)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--pause", type=float, default=0.3)
    p.add_argument("--out")
    p.add_argument("--baseline", help="the libraries of another aotc build "
                   "(a corpus work directory with --corpus, a --lib-dir "
                   "otherwise): timed as the peer `baseline`")
    args = p.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    impls = [i for i in args.peers.split(",") if i]
    if any(i not in PEERS for i in impls):
        p.error("--peers takes a list of " + ",".join(PEERS))
    if args.baseline:
        impls.insert(1, "baseline")
    if args.corpus:
        # The corpus' order (cheapest first): those with a library that
        # passed in the last run (results.json, when there is one).
        corpus = load_script(CORPUS_SCRIPT, "corpus")
        passed = None
        summary = os.path.join(args.corpus, "results.json")
        if os.path.exists(summary):
            with open(summary) as f:
                passed = {r["model"] for r in json.load(f)["results"]
                          if r.get("status") == "PASS"}
        default = [key for key, _, _ in corpus.MODELS
                   if os.path.exists(model_files(key, args)[3])
                   and (passed is None or key in passed)
                   and (not args.baseline or os.path.exists(
                       model_files(key, args, args.baseline)[3]))]
    elif not (args.models_dir and args.lib_dir):
        p.error("--models-dir and --lib-dir (or --corpus) are required")
    else:
        default = MODELS
    names = [n for n in (args.models.split(",") if args.models else default)
             if n]
    rounds = max(1, min(args.rounds, args.runs))
    per_round = -(-args.runs // rounds)
    # A fresh interpreter per worker (not a fork of this one): each process
    # loads one peer's runtime only.
    ctx = multiprocessing.get_context("spawn")

    results, skipped, versions = [], [], {}
    for name in names:
        with open(model_files(name, args)[2]) as f:
            atol = float(f.read())
        peers = []
        for impl in impls:
            for t in threads:
                if any(s.startswith(impl + ":") for s in skipped):
                    continue
                peer = Peer(ctx, impl, name, args, t)
                if peer.failure is None:
                    peers.append(peer)
                    versions[impl] = peer.version
                elif impl == "onnxruntime" and "cannot be imported" in \
                        peer.failure:
                    print(f"bench_models: onnxruntime {peer.failure}; "
                          "skipping that peer (pip install onnxruntime)",
                          file=sys.stderr)
                    skipped.append("onnxruntime: not importable")
                else:
                    raise SystemExit(f"{name}/{impl}/{t}: {peer.failure}")

        # Numerics first: every peer against the PyTorch reference.
        for peer in peers:
            err = peer.ask(("check",))
            if err > atol:
                raise SystemExit(f"{name}/{peer.impl}/{peer.threads}: differs "
                                 f"from the reference by {err} (ATOL {atol})")

        samples = {peer: [] for peer in peers}
        for r in range(rounds):
            order = peers[r % len(peers):] + peers[:r % len(peers)]
            for peer in order:
                # Lets the previous worker's spinning threads go to sleep.
                time.sleep(args.pause)
                samples[peer] += peer.ask(("block", args.warmup, per_round))
        for peer, s in samples.items():
            entry = {"kind": "model", "shape": name, "impl": peer.impl,
                     "threads": peer.threads}
            entry.update(median_stats(s))
            results.append(entry)
            print(f"model/{name}/{peer.impl}/{peer.threads}: median "
                  f"{entry['median_ms']:.2f} ms (q1 {entry['q1_ms']:.2f}, "
                  f"q3 {entry['q3_ms']:.2f}, {entry['runs']} runs)")
        for peer in peers:
            peer.close()

    doc = {"suite": "models", "results": results, "skipped": skipped,
           "versions": {"torch": versions.get("pytorch"),
                        "onnxruntime": versions.get("onnxruntime")}}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
