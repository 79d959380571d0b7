#!/usr/bin/python3
"""MaxPool's Indices output (both storage orders) against PyTorch, and its
NaN inputs against NumPy.

ONNX's backend data has Indices cases for row-major storage only. This test
builds MaxPool nodes with padding, strides and dilations, for storage_order 0
and 1, compiles each with aotc, runs it through ctypes and compares Y and
Indices with torch.nn.functional.max_pool2d(return_indices=True). PyTorch
gives each index within its (n, c) plane as h * W + w; the expected ONNX
index is (n * C + c) * H * W plus that (storage_order 0), or plus h + w * H
(storage_order 1).

ONNX's backend data has no NaN inputs. aotc ignores NaN inputs of a max pool
(maxnumf, as the ONNX reference does): images large enough for the vectorized
windows (strided, padded, with column remainders), one element in twenty
NaN, are compared exactly with np.fmax over each window (padding ignored).

Usage: maxpool_indices_test.py WORKDIR AOTC RUNTIME
"""

import ctypes
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper

CASES = [
    # kernel, strides, pads (begin, end per axis), dilations, storage order
    ([3, 3], [2, 2], [1, 1, 1, 1], [1, 1], 0),
    ([3, 3], [2, 2], [1, 1, 1, 1], [1, 1], 1),
    ([2, 3], [1, 2], [0, 1, 0, 1], [2, 1], 1),
    ([2, 2], [2, 2], [0, 0, 0, 0], [1, 1], 1),
]
N, C, H, W = 2, 3, 9, 7
NAN_CASES = [
    # input shape, kernel, strides, pads
    ([1, 8, 45, 47], [3, 3], [2, 2], [0, 0, 0, 0]),
    ([1, 4, 40, 38], [3, 3], [1, 1], [1, 1, 1, 1]),
    ([1, 2, 21, 70], [2, 3], [2, 1], [0, 1, 0, 1]),
]


def model(shape, kernel, strides, pads, dilations, order=None):
    outputs = ["y"] if order is None else ["y", "i"]
    extra = {} if order is None else {"storage_order": order}
    node = helper.make_node("MaxPool", ["x"], outputs, name="pool",
                            kernel_shape=kernel, strides=strides, pads=pads,
                            dilations=dilations, **extra)
    types = [TensorProto.FLOAT, TensorProto.INT64]
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                    shape)],
        [helper.make_tensor_value_info(o, t, None)
         for o, t in zip(outputs, types)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    # ONNX's shape inference names the output shapes for the header.
    return onnx.shape_inference.infer_shapes(m)


def compile_pool(work, tag, m, aotc, runtime):
    """The `pool` function of `m` compiled by aotc, loaded through ctypes."""
    path = os.path.join(work, "pool%s.onnx" % tag)
    onnx.save(m, path)
    subprocess.run([aotc, path, "--name=pool", "-o",
                    os.path.join(work, tag)], check=True)
    so = os.path.join(work, tag, "pool.so")
    subprocess.run(["clang-22", "-shared", "-o", so,
                    os.path.join(work, tag, "pool.o"), runtime,
                    "-L/usr/lib/llvm-22/lib", "-lomp",
                    "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
    lib = ctypes.CDLL(so)
    lib.pool.restype = ctypes.c_int32
    return lib


def call(lib, arrays):
    """Status of lib.pool on the input and output arrays, with a pool."""
    pool = np.zeros(1 << 20, np.uint8)
    offset = (-pool.ctypes.data) % 64
    P = ctypes.c_void_p
    return lib.pool(*[P(a.ctypes.data) for a in arrays],
                    P(pool.ctypes.data + offset),
                    ctypes.c_size_t(pool.nbytes - offset), None)


def nan_failures(work, aotc, runtime, rng):
    """Number of NAN_CASES whose output differs from NumPy's fmax."""
    failures = 0
    for n, (shape, kernel, strides, pads) in enumerate(NAN_CASES):
        x = rng.standard_normal(shape).astype(np.float32)
        x[rng.random(shape) < 0.05] = np.nan
        padded = np.pad(x, [(0, 0), (0, 0), (pads[0], pads[2]),
                            (pads[1], pads[3])], constant_values=-np.inf)
        windows = np.lib.stride_tricks.sliding_window_view(
            padded, kernel, axis=(2, 3))[:, :, ::strides[0], ::strides[1]]
        y = np.fmax.reduce(windows.reshape(windows.shape[:4] + (-1,)),
                           axis=-1)
        lib = compile_pool(work, "nan%d" % n,
                           model(shape, kernel, strides, pads, [1, 1]),
                           aotc, runtime)
        got = np.full(y.shape, 7.0, np.float32)
        status = call(lib, [x, got])
        ok = status == 0 and np.array_equal(got, y, equal_nan=True)
        print("%s NaN inputs %s kernel %s strides %s pads %s" % (
            "PASS" if ok else "FAIL", shape, kernel, strides, pads))
        if not ok:
            failures += 1
            print("  status %d, mismatches %d" % (
                status, int((~((got == y) | (np.isnan(got) &
                                             np.isnan(y)))).sum())))
    return failures


def main():
    work, aotc, runtime = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(0)
    failures = 0
    for n, (kernel, strides, pads, dilations, order) in enumerate(CASES):
        m = model([N, C, H, W], kernel, strides, pads, dilations, order)
        x = rng.standard_normal((N, C, H, W)).astype(np.float32)
        y, planes = torch.nn.functional.max_pool2d(
            torch.from_numpy(x), kernel, strides, (pads[0], pads[1]),
            dilations, return_indices=True)
        y, planes = y.numpy(), planes.numpy()
        h, w = planes // W, planes % W
        base = (np.arange(N)[:, None, None, None] * C +
                np.arange(C)[None, :, None, None]) * H * W
        expected = base + (h + w * H if order else h * W + w)
        lib = compile_pool(work, str(n), m, aotc, runtime)
        got_y = np.full(y.shape, np.nan, np.float32)
        got_i = np.full(y.shape, -7, np.int64)
        status = call(lib, [x, got_y, got_i])
        ok = (status == 0 and np.array_equal(got_y, y) and
              np.array_equal(got_i, expected))
        print("%s kernel %s strides %s pads %s dilations %s storage_order %d"
              % ("PASS" if ok else "FAIL", kernel, strides, pads, dilations,
                 order))
        if not ok:
            failures += 1
            print("  status %d, max |dy| %g, index mismatches %d" % (
                status, float(np.nanmax(np.abs(got_y - y))),
                int((got_i != expected).sum())))
    failures += nan_failures(work, aotc, runtime, rng)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
