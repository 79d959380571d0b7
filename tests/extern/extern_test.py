#!/usr/bin/env python3
"""Extern kernels: an MLIR program calling C functions of its user.

calls.mlir declares two kernels, swish_kernel (with attributes and scratch)
and rowdot_kernel (two inputs, two outputs of other dtypes); kernels.c
implements them, checking what the object hands them. The program is
compiled with aotc, kernels.c is compiled against the generated header (its
prototypes must match) and linked with the object into a shared library,
and the entry point is called through ctypes:

  * its outputs match NumPy's computation of the same program;
  * the kernels saw the tensors, attributes, scratch and stream that
    aot_extern.h promises (each returns AOT_ERROR_INVALID_ARGUMENT
    otherwise, with the reason in extern_test_problem);
  * a kernel's error status is the entry point's, and nothing after the
    call runs: a failing swish_kernel leaves every output as it was and
    rowdot_kernel uncalled; a rowdot_kernel that writes into its outputs
    (two of the entry point's) and then fails leaves them as they were
    too (they are computed in the pool and copied out on success only).

Usage: extern_test.py --aotc AOTC --runtime LIB --omp LIBOMP --include DIR
                      [--cc CC] --workdir DIR
"""

import ctypes
import os
import re
import subprocess
import sys

import numpy as np

from extern_common import HERE, aot_abi, arguments, fail, kernel_library


def reference(x, w, idx):
    m = x @ w
    s = m / (1 + np.exp(-1.5 * m))
    t = s + m
    r = (t * idx.astype(np.float32)).sum(axis=1)
    q = np.arange(1, 5, dtype=np.int64)[:, None] * idx.astype(np.int64)
    return 2 * t, r, q


def main():
    args = arguments()
    work = args.workdir

    subprocess.run([args.aotc, os.path.join(HERE, "calls.mlir"),
                    "--name=calls", "-o", work, "--emit=obj,header,json"],
                   check=True)
    header = open(os.path.join(work, "calls.h")).read()
    for symbol in ("rowdot_kernel", "swish_kernel"):
        if not re.search(r"aot_status_t %s\(const aot_extern_tensor_t" %
                         symbol, header):
            fail("calls.h does not declare %s" % symbol)
    if '#include "aot_abi/aot_extern.h"' not in header:
        fail("calls.h does not include aot_extern.h")
    lib, pool = kernel_library(args, "calls", "kernels.c")

    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 16)).astype(np.float32)
    w = rng.standard_normal((16, 8)).astype(np.float32)
    idx = rng.integers(-5, 6, size=8).astype(np.int32)
    expected = reference(x, w, idx)

    problem = ctypes.c_char.in_dll(lib, "extern_test_problem")
    calls = (ctypes.c_int32 * 2).in_dll(lib, "extern_test_calls")
    fail_swish = ctypes.c_int32.in_dll(lib, "extern_test_fail_swish")
    fail_rowdot = ctypes.c_int32.in_dll(lib, "extern_test_fail_rowdot")
    threads = ctypes.c_int32.in_dll(lib, "extern_test_threads")

    def run(stream=None):
        outputs = (np.full((4, 8), 7.0, np.float32),
                   np.full(4, 7.0, np.float32),
                   np.full((4, 8), 7, np.int64))
        P = ctypes.c_void_p
        lib.calls.restype = ctypes.c_int32
        status = lib.calls(*(a.ctypes.data_as(P) for a in (x, w, idx)),
                           *(o.ctypes.data_as(P) for o in outputs),
                           pool.ctypes.data_as(P), ctypes.c_size_t(len(pool)),
                           stream)
        return status, outputs

    def untouched(outputs):
        return all(bool((o == 7).all()) for o in outputs)

    # Default threads, then a stream of 2: the kernels see that count.
    stream = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream), 2)
    for label, s, count in (("default threads", None, 0),
                            ("2 threads", ctypes.byref(stream), 2)):
        threads.value = count
        status, outputs = run(s)
        if status != aot_abi.AOT_OK:
            fail("%s: status %d (%s)" % (label, status,
                                         ctypes.string_at(
                                             ctypes.addressof(problem))))
        for k, (actual, want) in enumerate(zip(outputs, expected)):
            if actual.dtype.kind == "f":
                error = float(np.abs(actual - want).max())
                limit = 1e-5 * float(np.abs(want).max())
                if not error <= limit:
                    fail("%s: output %d error %g above %g" %
                         (label, k, error, limit))
            elif not np.array_equal(actual, want):
                fail("%s: output %d differs: %s" % (label, k, actual))
        print("PASS %s: outputs match NumPy" % label)

    # A failing kernel: its status, nothing after it.
    threads.value = 0
    calls[0] = calls[1] = 0
    fail_swish.value = aot_abi.AOT_ERROR_INTERNAL
    status, outputs = run()
    if status != aot_abi.AOT_ERROR_INTERNAL:
        fail("failing swish_kernel: status %d, expected %d" %
             (status, aot_abi.AOT_ERROR_INTERNAL))
    if calls[0] != 1 or calls[1] != 0:
        fail("failing swish_kernel: calls %d, %d (expected 1, 0)" %
             (calls[0], calls[1]))
    if not untouched(outputs):
        fail("failing swish_kernel: an output was written")
    print("PASS failing swish_kernel: status %d, outputs untouched, "
          "rowdot_kernel not called" % status)
    fail_swish.value = 0
    fail_rowdot.value = 1234
    status, outputs = run()
    if status != 1234:
        fail("failing rowdot_kernel: status %d, expected 1234" % status)
    if not untouched(outputs):
        fail("failing rowdot_kernel (which writes part of its outputs, the "
             "entry point's, first): an output was written")
    print("PASS failing rowdot_kernel: status %d passed on unchanged, "
          "outputs untouched" % status)
    return 0


if __name__ == "__main__":
    sys.exit(main())
