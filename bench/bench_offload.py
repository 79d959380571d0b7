#!/usr/bin/env python3
# ===- bench_offload.py - Library offload vs aotc's own code ---------------===#
#
# Times ONNX models compiled twice by aotc, natively and with a library
# offload, in one process: both shared libraries loaded, rounds
# interleaved (A B, then B A), the same inputs, the same thread count (the
# stream's num_threads, which the adapters hand to the library). The
# offload is `--library openblas` (default: `--offload conv=openblas
# --offload matmul=openblas`, aot_runtime_blas on OpenBLAS) or `--library
# onednn` (`--offload conv=onednn`, aot_runtime_dnnl on oneDNN). Prints per
# model and thread count the median times and the offload / native time
# ratio (above 1: the offload is slower), and the largest difference of
# the two outputs.
#
# Usage (from the build tree; OpenBLAS's own tuning variables unset):
#   env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE bench/bench_offload.py \
#       --aotc build/compiler/tools/aotc/aotc --build build \
#       --model build/tests/models/resnet18.onnx [--model ...] \
#       [--library openblas|onednn] [--threads 1,2] [--rounds 10] \
#       [--workdir /tmp/offload]
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_models  # noqa: E402  (AotcModel: the ctypes caller)

# Per library: aotc's flags, the adapter archive, the vendor library.
LIBRARIES = {
    "openblas": (["--offload", "conv=openblas", "--offload",
                  "matmul=openblas"], "libaot_runtime_blas.a", "-lopenblas"),
    "onednn": (["--offload", "conv=onednn"], "libaot_runtime_dnnl.a",
               "-ldnnl"),
}


def build(args, model, name, flags):
    work = os.path.join(args.workdir, name)
    subprocess.run([args.aotc, model, "--name=net", "-o", work] + flags,
                   check=True)
    library = os.path.join(work, "libnet.so")
    runtime = os.path.join(args.build, "runtime")
    libraries = [os.path.join(runtime, "libaot_runtime.a")]
    if flags:
        _, adapter, vendor = LIBRARIES[args.library]
        libraries = [os.path.join(runtime, adapter)] + libraries + [vendor]
    subprocess.run(["clang-22", "-shared", "-o", library,
                    os.path.join(work, "net.o")] + libraries +
                   ["-L/usr/lib/llvm-22/lib", "-lomp",
                    "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
    return library


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--model", action="append", required=True)
    parser.add_argument("--library", default="openblas",
                        choices=list(LIBRARIES))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--workdir", default="/tmp/aotc-bench-offload")
    args = parser.parse_args()
    print(f"{'model':24s} threads  native ms  offload ms  offload/native  "
          "max|diff|")
    for model in args.model:
        stem = os.path.splitext(os.path.basename(model))[0]
        libraries = {kind: build(args, model, f"{stem}_{kind}", flags)
                     for kind, flags in (("native", []),
                                         ("offload",
                                          LIBRARIES[args.library][0]))}
        reference = os.path.splitext(model)[0] + ".npz"
        if not os.path.exists(reference):
            raise SystemExit(f"{model}: no {reference} with its inputs")
        data = np.load(reference)
        xs = [data[k] for k in sorted(
            (k for k in data if k.startswith("input_")),
            key=lambda k: int(k.split("_")[1]))]
        models = {kind: bench_models.AotcModel(library, "net", xs)
                  for kind, library in libraries.items()}
        for threads in [int(t) for t in args.threads.split(",")]:
            runs = {kind: m.runner(threads) for kind, m in models.items()}
            for run in runs.values():
                for _ in range(3):
                    run()
            times = {kind: [] for kind in runs}
            for r in range(args.rounds):
                order = list(runs) if r % 2 == 0 else list(runs)[::-1]
                for kind in order:
                    for _ in range(args.calls):
                        start = time.perf_counter()
                        runs[kind]()
                        times[kind].append(time.perf_counter() - start)
            native = statistics.median(times["native"]) * 1e3
            offload = statistics.median(times["offload"]) * 1e3
            diff = float(np.abs(models["native"].y - models["offload"].y).max())
            print(f"{stem:24s} {threads:7d}  {native:9.3f}  {offload:10.3f}  "
                  f"{offload / native:14.3f}  {diff:.1e}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
