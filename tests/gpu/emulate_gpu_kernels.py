#!/usr/bin/env python3
#===- tests/gpu/emulate_gpu_kernels.py - tiled kernels on CPU threads -----===#
#
# Runs the shared-memory kernels of aotc-tile-gpu-contractions and
# aotc-gpu-block-reductions without a GPU
# and compares their results with an e2e program's NumPy oracle:
#
#   1. mlir-opt: the program + a @main calling it on the oracle's inputs
#      (tests/e2e/programs/mlir_runner_check.py), bufferized with upstream
#      passes;
#   2. aotc-opt: aotc-tile-gpu-contractions and aotc-gpu-block-reductions
#      (contractions and row reductions become the gpu.launch ops the CUDA
#      and HIP targets compile: workgroup tiles, barriers, register tiles,
#      remainder handling, reduction trees), then the test-only
#      aotc-test-gpu-launch-to-omp (a block = an OpenMP team with one thread
#      per GPU thread, workgroup memory shared by the team, gpu.barrier =
#      omp.barrier);
#      (--wgmma: aotc-gpu-mma-contractions also builds the sm_90a wgmma
#      variant of each matrix kernel, and the emulation runs that one);
#   3. the rest (linalg loops, LLVM) with upstream passes, run by mlir-runner
#      with LLVM's OpenMP runtime.
#
# The test fails if the program has fewer tiled kernels than --min-kernels
# (so it cannot pass by no longer tiling anything) or if any output is
# outside the tolerances of docs/contracts.md.
#
# With --source MODEL.onnx --reference MODEL.npz --atol[-file] A (a model of
# tests/models, its PyTorch reference and tolerance), the program is the
# ONNX import that `aotc --dump-dir` writes (MODEL.input.mlir: linalg on
# tensors, weights as constants) and every output must be within A of the
# reference.
#
#===----------------------------------------------------------------------===#

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "programs"))
import mlir_runner_check as runner  # noqa: E402

import numpy as np  # noqa: E402


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd[:2])} ...: exit {result.returncode}\n"
                 f"{result.stderr[-4000:]}")
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("name")
    p.add_argument("--aotc-opt", required=True)
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--llvm-lib", default="/usr/lib/llvm-22/lib")
    p.add_argument("--tile-sizes", default="", help="M,N,K block tile")
    p.add_argument("--min-kernels", type=int, default=1)
    p.add_argument("--matrix-units", choices=["nvgpu", "amdgpu"],
                   help="f16/bf16 matmuls on matrix instructions first "
                        "(aotc-gpu-mma-contractions)")
    p.add_argument("--wgmma", action="store_true",
                   help="with --matrix-units nvgpu: build the wgmma variants "
                        "too and run those (sm_90a kernels)")
    p.add_argument("--min-mma-kernels", type=int, default=0)
    p.add_argument("--keep", help="keep the intermediate files here")
    p.add_argument("--source", help="an ONNX model instead of the e2e "
                   "program NAME (imported by --aotc)")
    p.add_argument("--aotc", help="with --source: the aotc binary")
    p.add_argument("--reference", help="with --source: .npz of input_<i> "
                   "and output_<i>")
    p.add_argument("--atol", type=float,
                   help="with --source: absolute tolerance of every output")
    p.add_argument("--atol-file", help="with --source: a file holding it "
                   "(tests/models' NAME.tol)")
    args = p.parse_args()
    if args.atol_file:
        with open(args.atol_file) as f:
            args.atol = float(f.read())
    if args.source and not (args.aotc and args.reference and args.atol):
        p.error("--source needs --aotc, --reference and --atol[-file]")

    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or tmp
        os.makedirs(work, exist_ok=True)
        if args.source:
            run([args.aotc, args.source, "--target=cpu", "--name=" + args.name,
                 "--emit=header", "-o", work, "--dump-dir", work])
            ref = dict(np.load(args.reference))
            with open(os.path.join(work, args.name + ".input.mlir")) as f:
                program = f.read()
        else:
            npz = os.path.join(work, args.name + ".npz")
            run([sys.executable, "-B",
                 os.path.join(runner.HERE, args.name + ".py"), npz])
            ref = dict(np.load(npz))
            program = runner.program_text(args.name)
        if args.source:
            # The dump is `#map = ...` aliases, then `module { ... }`: keep
            # the aliases and the module's body, so that @main joins it.
            m = re.search(r"^module\b[^{\n]*\{\s*$", program, re.M)
            program = (program[:m.start()] +
                       program[m.end():program.rstrip().rfind("}")])
        text, outs = runner.wrapper(program, ref)
        paths = {s: os.path.join(work, s + ".mlir")
                 for s in ("wrapped", "library", "bufferized", "tiled",
                           "emulated", "llvm")}
        with open(paths["wrapped"], "w") as f:
            f.write(text)
        with open(paths["library"], "w") as f:
            f.write(runner.TRANSFORM_LIBRARY)
        mlir_opt = os.path.join(args.llvm_bin, "mlir-opt")
        run([mlir_opt, paths["wrapped"], "-o", paths["bufferized"],
             "--pass-pipeline=builtin.module("
             f"transform-preload-library{{transform-library-paths={paths['library']}}},"
             "transform-interpreter,"
             "func.func(tosa-to-linalg-named,tosa-to-linalg,"
             "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor),"
             "convert-elementwise-to-linalg,"
             "one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map},"
             "canonicalize)"])
        tiles = f" tile-sizes={args.tile_sizes}" if args.tile_sizes else ""
        wgmma = " wgmma=1" if args.wgmma else ""
        mma = (f"aotc-gpu-mma-contractions{{all-functions=1 "
               f"target={args.matrix_units}{wgmma}}}," if args.matrix_units
               else "")
        run([args.aotc_opt, paths["bufferized"], "-o", paths["tiled"],
             "--pass-pipeline=builtin.module(func.func(" + mma +
             f"aotc-tile-gpu-contractions{{all-functions=1{tiles}}},"
             "aotc-gpu-block-reductions{all-functions=1}))"])
        with open(paths["tiled"]) as f:
            kernels = f.read().count("gpu.launch ")
        print(f"{args.name}: {kernels} kernel(s) through workgroup memory"
              + (f" (tiles {args.tile_sizes})" if args.tile_sizes else ""))
        if kernels < args.min_kernels:
            sys.exit(f"FAIL: expected at least {args.min_kernels} such "
                     "kernel(s)")
        if args.matrix_units:
            with open(paths["tiled"]) as f:
                launches = f.read().split("gpu.launch ")[1:]
            op = ("nvvm.wgmma.mma_async" if args.wgmma else
                  "nvgpu.mma.sync" if args.matrix_units == "nvgpu"
                  else "amdgpu.mfma")
            counts = [body.split("gpu.terminator")[0].count(op)
                      for body in launches]
            mma = sum(1 for n in counts if n)
            print(f"{args.name}: {mma} kernel(s) on {op} "
                  f"({sum(counts)} instructions)")
            if mma < args.min_mma_kernels:
                sys.exit(f"FAIL: expected at least {args.min_mma_kernels} "
                         f"kernel(s) on {op}")
        run([args.aotc_opt, paths["tiled"], "-o", paths["emulated"],
             "--pass-pipeline=builtin.module(aotc-test-gpu-launch-to-omp"
             + ("{wgmma=1}" if args.wgmma else "") + ")"])
        run([mlir_opt, paths["emulated"], "-o", paths["llvm"],
             "--pass-pipeline=builtin.module(func.func(convert-linalg-to-loops),"
             "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
             "convert-math-to-libm,convert-openmp-to-llvm,convert-to-llvm,"
             "reconcile-unrealized-casts)"])
        libs = ",".join(os.path.join(args.llvm_lib, lib) for lib in
                        ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so",
                         "libomp.so"))
        # Sleeping (not spinning) barriers: blocks have up to 256 threads.
        env = dict(os.environ, OMP_WAIT_POLICY="passive", KMP_BLOCKTIME="0",
                   OMP_DYNAMIC="false")
        result = run([os.path.join(args.llvm_bin, "mlir-runner"), paths["llvm"],
                      "-e", "main", "-entry-point-result=void",
                      f"-shared-libs={libs}"], env=env)
        got = runner.parse_printed(result.stdout, outs)
        if not args.source:
            return 0 if runner.compare(args.name, got, outs) else 1
        ok = True
        for i, (g, e) in enumerate(zip(got, outs)):
            err = float(np.max(np.abs(g.astype(np.float64) - e)))
            print(f"  output_{i} {list(e.shape)}: max abs err {err:.3g} "
                  f"(atol {args.atol:g}) {'ok' if err <= args.atol else 'MISMATCH'}")
            ok &= err <= args.atol
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
