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

import os
import subprocess
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper

from compiled_model import CompiledModel

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
        got = np.full(want.shape, np.nan, np.float32)
        status = CompiledModel(d, "pool", runtime)([x, got])
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
