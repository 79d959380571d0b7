#!/usr/bin/python3
"""MaxPool's Indices output (both storage orders) against PyTorch.

ONNX's backend data has Indices cases for row-major storage only. This test
builds MaxPool nodes with padding, strides and dilations, for storage_order 0
and 1, compiles each with aotc, runs it through ctypes and compares Y and
Indices with torch.nn.functional.max_pool2d(return_indices=True). PyTorch
gives each index within its (n, c) plane as h * W + w; the expected ONNX
index is (n * C + c) * H * W plus that (storage_order 0), or plus h + w * H
(storage_order 1).

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


def model(kernel, strides, pads, dilations, order):
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool",
                            kernel_shape=kernel, strides=strides, pads=pads,
                            dilations=dilations, storage_order=order)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                    [N, C, H, W])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("i", TensorProto.INT64, None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def main():
    work, aotc, runtime = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(0)
    failures = 0
    for n, (kernel, strides, pads, dilations, order) in enumerate(CASES):
        m = model(kernel, strides, pads, dilations, order)
        x = rng.standard_normal((N, C, H, W)).astype(np.float32)
        y, planes = torch.nn.functional.max_pool2d(
            torch.from_numpy(x), kernel, strides, (pads[0], pads[1]),
            dilations, return_indices=True)
        y, planes = y.numpy(), planes.numpy()
        h, w = planes // W, planes % W
        base = (np.arange(N)[:, None, None, None] * C +
                np.arange(C)[None, :, None, None]) * H * W
        expected = base + (h + w * H if order else h * W + w)
        # ONNX's shape inference names the output shapes for the header.
        m = onnx.shape_inference.infer_shapes(m)
        path = os.path.join(work, "pool%d.onnx" % n)
        onnx.save(m, path)
        subprocess.run([aotc, path, "--name=pool", "-o",
                        os.path.join(work, str(n))], check=True)
        so = os.path.join(work, str(n), "pool.so")
        subprocess.run(["clang-22", "-shared", "-o", so,
                        os.path.join(work, str(n), "pool.o"), runtime,
                        "-L/usr/lib/llvm-22/lib", "-lomp",
                        "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
        lib = ctypes.CDLL(so)
        lib.pool.restype = ctypes.c_int32
        got_y = np.full(y.shape, np.nan, np.float32)
        got_i = np.full(y.shape, -7, np.int64)
        pool = np.zeros(1 << 20, np.uint8)
        offset = (-pool.ctypes.data) % 64
        P = ctypes.c_void_p
        status = lib.pool(P(x.ctypes.data), P(got_y.ctypes.data),
                          P(got_i.ctypes.data), P(pool.ctypes.data + offset),
                          ctypes.c_size_t(pool.nbytes - offset), None)
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
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
