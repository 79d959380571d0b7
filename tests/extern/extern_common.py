"""What the tests of tests/extern (and tests/gpu/offload_cublas_test.py)
share: their failure report, their arguments, the link of a compiled
object with C kernels into a shared library, an aligned pool, the call of
a one-output entry point and the check of its output."""

import argparse
import ctypes
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "include", "aot_abi"))
import aot_abi  # noqa: E402,F401  (the ctypes mirror of aot_abi.h)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def arguments():
    """--aotc, --runtime, --omp, --include, --cc, --workdir (created)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--omp", required=True)
    parser.add_argument("--include", required=True)
    parser.add_argument("--cc", default="clang-22")
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    return args


def aligned_pool(size):
    """`size` bytes aligned to 64."""
    raw = np.zeros(size + 64, np.uint8)
    offset = (-raw.ctypes.data) % 64
    return raw[offset:offset + size]


def kernel_library(args, name, kernels):
    """Links `name`.o of the workdir with the C file `kernels` (compiled
    against the generated `name`.h, whose prototypes it must match) into a
    shared library; returns it loaded and a pool for its entry point."""
    work = args.workdir
    library = os.path.join(work, "lib%s.so" % name)
    subprocess.run([args.cc, "-std=c99", "-Wall", "-Werror", "-O1", "-fPIC",
                    "-shared", "-I", args.include, "-I", work,
                    "-include", os.path.join(work, name + ".h"),
                    os.path.join(HERE, kernels),
                    os.path.join(work, name + ".o"), args.runtime, args.omp,
                    "-Wl,-rpath," + os.path.dirname(args.omp), "-lm",
                    "-o", library], check=True)
    lib = ctypes.CDLL(library)
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
    return lib, aligned_pool(info_fn().contents.pool_bytes)


def call_entry(lib, name, xs, stream=None):
    """Calls entry point `name` of the loaded library `lib` on the arrays
    `xs` with a pool of its size; its one output is float32. Returns the
    status and the output."""
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
    info = info_fn().contents
    out = info.outputs[0]
    y = np.zeros([out.shape[d] for d in range(out.rank)], np.float32)
    pool = aligned_pool(info.pool_bytes)
    P = ctypes.c_void_p
    entry = getattr(lib, name)
    entry.restype = ctypes.c_int32
    status = entry(*(x.ctypes.data_as(P) for x in xs), y.ctypes.data_as(P),
                   pool.ctypes.data_as(P), ctypes.c_size_t(info.pool_bytes),
                   stream)
    return status, y


def check(label, actual, expected, relative):
    """Fails unless `actual` is within `relative` of the largest element of
    `expected`; prints the error otherwise."""
    error = float(np.abs(actual - expected).max())
    limit = relative * float(np.abs(expected).max())
    if not error <= limit:
        fail("%s: error %g above %g" % (label, error, limit))
    print("PASS %s: max|error| %.3g (limit %.3g)" % (label, error, limit))
