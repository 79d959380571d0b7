#!/usr/bin/env python3
"""Compiles e2e programs for another CPU with aotc, runs them under an
emulator and compares their outputs with the programs' NumPy references.

    run_cross.py --aotc A --e2e-dir BUILD/tests/e2e --programs matmul,conv2d \
        --triple aarch64-linux-gnu --mcpu neoverse-v1 --sysroot S \
        --runtime BUILD/runtime-aarch64-linux-gnu/libaot_runtime.a \
        --workdir W [--emulator qemu-aarch64] [--model NAME=M.onnx:M.npz:ATOL|TOLFILE]

For each program: `aotc programs/NAME.mlir --mtriple --mcpu`, and
aot_raw_runner.c cross-compiled with <triple>-gcc, linked with the runtime
built for the triple (AOTC_RUNTIME_TRIPLES) and the target's libomp in the
sysroot (Debian's
arm64 libomp5 unpacked there), run under the emulator with
-L /usr/<triple> on the inputs of BUILD/tests/e2e/NAME.npz, and compared
element by element with its outputs (the per-dtype tolerances of
cmake/aot_test_support/aot_tolerance.h, e2e_common.compare). --model adds an ONNX model and its
PyTorch reference (inputs input_i, outputs output_i), compared with an
absolute tolerance. Prints one line per program; exits 1 on any failure.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e", "programs"))
from e2e_common import compare  # noqa: E402  (aot_tolerance.h's rule)


def run(command, **kwargs):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(" ".join(command) + "\n" + result.stdout)
    return result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--e2e-dir", required=True)
    parser.add_argument("--programs", default="")
    parser.add_argument("--model", action="append", default=[],
                        help="NAME=ONNX:NPZ:ATOL, ATOL a number or a file "
                             "holding it (repeatable)")
    parser.add_argument("--triple", required=True)
    parser.add_argument("--mcpu", required=True)
    parser.add_argument("--sysroot", required=True,
                        help="holds usr/lib/<triple>/libomp.so.5")
    parser.add_argument("--runtime", required=True,
                        help="the runtime archive built for the triple")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--emulator", default="qemu-aarch64")
    parser.add_argument("--aotc-arg", action="append", default=[],
                        help="one more aotc option (repeatable)")
    parser.add_argument("--emulator-arg", action="append", default=[],
                        help="one more emulator option, e.g. -cpu=max,... "
                             "(repeatable)")
    parser.add_argument("--expect-error", default=None,
                        help="the runs must fail with this text in their "
                             "output instead of matching the references")
    parser.add_argument("--cc", default=None,
                        help="C compiler for the target (default: "
                             "<triple>-gcc)")
    args = parser.parse_args()

    gnu = args.triple
    cc = args.cc or gnu + "-gcc"
    ompdir = os.path.join(args.sysroot, "usr", "lib", gnu)
    os.makedirs(args.workdir, exist_ok=True)

    cases = [(name, os.path.join(ROOT, "tests", "e2e", "programs",
                                 name + ".mlir"),
              os.path.join(args.e2e_dir, name + ".npz"), None)
             for name in args.programs.split(",") if name]
    for model in args.model:
        name, files = model.split("=", 1)
        onnx, npz, atol = files.split(":")
        if not atol.replace(".", "", 1).replace("e-", "", 1).isdigit():
            with open(atol) as f:  # a .tol file: the tolerance
                atol = f.read().strip()
        cases.append((name, onnx, npz, (0.0, float(atol))))
    failures = 0
    for name, source, npz, tolerance in cases:
        work = os.path.join(args.workdir, name)
        os.makedirs(work, exist_ok=True)
        try:
            run([args.aotc, source, f"--name={name}", "-o", work,
                 f"--mtriple={gnu}", f"--mcpu={args.mcpu}",
                 "--emit=obj,header"] + args.aotc_arg)
            runner = os.path.join(work, "runner")
            run([cc, "-std=c99", "-O2", "-Wall", f"-DAOT_ENTRY={name}",
                 "-I", os.path.join(ROOT, "include"),
                 os.path.join(HERE, "aot_raw_runner.c"),
                 os.path.join(work, name + ".o"), args.runtime,
                 f"-L{ompdir}", "-l:libomp.so.5", "-o", runner])
            reference = np.load(npz)
            inputs = sorted((k for k in reference if k.startswith("input_")),
                            key=lambda k: int(k.split("_")[1]))
            outputs = sorted((k for k in reference if k.startswith("output_")),
                             key=lambda k: int(k.split("_")[1]))
            for k in inputs:
                np.ascontiguousarray(reference[k]).tofile(
                    os.path.join(work, k + ".bin"))
            env = dict(os.environ, LD_LIBRARY_PATH=ompdir)
            emulate = ([args.emulator] + args.emulator_arg +
                       ["-L", f"/usr/{gnu}", runner, work])
            if args.expect_error is not None:
                result = subprocess.run(emulate, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        env=env)
                if result.returncode == 0 or \
                        args.expect_error not in result.stdout:
                    raise RuntimeError(
                        f"expected a failure with '{args.expect_error}', "
                        f"got exit {result.returncode}: {result.stdout}")
                print(f"PASS {name} ({gnu}, {args.mcpu}): "
                      f"{result.stdout.strip()}")
                continue
            run(emulate, env=env)
            problems = []
            for k in outputs:
                expected = reference[k]
                actual = np.fromfile(os.path.join(work, k + ".bin"),
                                     expected.dtype).reshape(expected.shape)
                problem = compare(actual, expected, tolerance)
                if problem:
                    problems.append(f"{k}: {problem}")
            if problems:
                raise RuntimeError("; ".join(problems))
            print(f"PASS {name} ({gnu}, {args.mcpu}, {len(outputs)} outputs)")
        except RuntimeError as error:
            failures += 1
            print(f"FAIL {name}: {error}")
    print(f"{len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
