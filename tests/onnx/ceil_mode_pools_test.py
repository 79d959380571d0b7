#!/usr/bin/python3
"""Pools in ceil mode whose last window would start in the end padding,
against PyTorch.

With ceil_mode = 1 the output size rounds up, and the last window can start
past the input and its begin padding. PyTorch, ONNX Runtime and the ONNX
spec since 1.16 ("sliding windows that would start in the right padded
region are ignored") drop that window; aotc does too. PyTorch 1.13's
exporter declares the older, larger shape on such graphs (ONNX shape
inference of its time), so this test builds each MaxPool / AveragePool node
with onnx.helper, declares the output shape PyTorch computes, compiles it
with aotc, calls it through ctypes and compares with
torch.nn.functional.max_pool2d / avg_pool2d (ceil_mode=True).

Usage: ceil_mode_pools_test.py WORKDIR AOTC RUNTIME
"""

import ctypes
import json
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper

CASES = [
    # op, input shape, kernel, strides, pads (h, w), count_include_pad
    ("MaxPool", (1, 16, 8, 32), (7, 2), (2, 3), (3, 1), 0),
    ("AveragePool", (1, 23, 2, 5), (1, 3), (3, 2), (0, 0), 1),
    ("AveragePool", (2, 27, 23, 21), (3, 1), (2, 3), (0, 0), 0),
    ("AveragePool", (2, 37, 22, 30), (7, 2), (3, 3), (1, 0), 0),
    ("AveragePool", (2, 37, 22, 30), (7, 2), (3, 3), (1, 0), 1),
    ("MaxPool", (1, 4, 9, 9), (2, 2), (4, 4), (1, 1), 0),
]


def reference(op, x, kernel, strides, pads, include):
    t = torch.from_numpy(x)
    if op == "MaxPool":
        return F.max_pool2d(t, kernel, strides, pads, ceil_mode=True).numpy()
    return F.avg_pool2d(t, kernel, strides, pads, ceil_mode=True,
                        count_include_pad=bool(include)).numpy()


def main():
    work, aotc, runtime = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(0)
    failures = 0
    for i, (op, shape, kernel, strides, pads, include) in enumerate(CASES):
        x = rng.standard_normal(shape).astype(np.float32)
        want = reference(op, x, kernel, strides, pads, include)
        attrs = dict(kernel_shape=list(kernel), strides=list(strides),
                     pads=[pads[0], pads[1], pads[0], pads[1]], ceil_mode=1)
        if op == "AveragePool":
            attrs["count_include_pad"] = include
        node = helper.make_node(op, ["x"], ["y"], **attrs)
        graph = helper.make_graph(
            [node], "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                           want.shape)])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 13)])
        name = "case%d" % i
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "pool.onnx")
        onnx.save(model, path)
        subprocess.run([aotc, path, "--name=pool", "--emit=obj,header,json",
                        "-o", d], check=True)
        so = os.path.join(d, "pool.so")
        subprocess.run(["clang-22", "-shared", "-o", so,
                        os.path.join(d, "pool.o"), runtime,
                        "-L/usr/lib/llvm-22/lib", "-lomp",
                        "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
        with open(os.path.join(d, "pool.json")) as f:
            pool_bytes = json.load(f)["entry_points"][0]["pool_bytes"]
        lib = ctypes.CDLL(so)
        lib.pool.restype = ctypes.c_int32
        got = np.full(want.shape, np.nan, np.float32)
        raw = np.zeros(pool_bytes + 64, np.uint8)
        offset = (-raw.ctypes.data) % 64
        P = ctypes.c_void_p
        status = lib.pool(P(x.ctypes.data), P(got.ctypes.data),
                          P(raw.ctypes.data + offset),
                          ctypes.c_size_t(pool_bytes), None)
        err = float(np.abs(got - want).max()) if status == 0 else np.inf
        ok = err <= 1e-5
        failures += not ok
        print("%s %s %s k%s s%s p%s include=%d -> %s: status %d, max error "
              "%.3g" % ("PASS" if ok else "FAIL", op, shape, kernel, strides,
                        pads, include, want.shape, status, err))
    print("%d of %d cases failed" % (failures, len(CASES)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
