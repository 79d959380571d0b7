#!/usr/bin/env python3
"""Builds an ONNX model with the shape arithmetic PyTorch exports.

  x: f32[2, 8, 4, 4]
  flatten:  Shape(x) -> Gather(0) -> Unsqueeze -> Concat([n, -1]) -> Reshape
  shuffle:  channel shuffle with groups=2 written as
            Reshape(x, Concat(n, 2, c/2, h, w)) -> Transpose(0,2,1,3,4)
            -> Reshape(x, Shape(x))
  heads:    Shape -> Slice(-2:) -> Concat -> Reshape (attention-head split)

All shape tensors derive from Shape of a graph input, so aotc must fold them
at compile time; the reshapes then have static shapes and no Shape/Gather
work remains at run time.

Usage: make_shape_chain_model.py OUT_DIR [--check AOTC [RUNTIME_LIB]]
Writes OUT_DIR/model.onnx and OUT_DIR/test_data_set_0/{input_0,output_*}.pb
(expected outputs computed with numpy), the layout of ONNX's backend tests.

With --check, compiles the model with AOTC (--dump-dir), checks that the
imported IR holds no run-time shape work (no linalg.generic, tensor.extract
or integer tensor computation: only collapse/expand_shape and one
linalg.transpose) and, given the runtime library (libaot_runtime.a), links a
shared object and compares the three outputs with numpy.
"""
import ctypes
import re
import subprocess
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def const(name, values):
    return helper.make_node(
        "Constant", [], [name],
        value=numpy_helper.from_array(np.array(values, dtype=np.int64), name))


def build():
    n, c, h, w, groups = 2, 8, 4, 4, 2
    nodes = [
        const("zero", 0), const("one", 1), const("two", 2),
        const("axes0", [0]), const("minus1", [-1]), const("groups", [groups]),
        # PyTorch flatten: x.view(x.size(0), -1)
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus1"], ["flat_shape"], axis=0),
        helper.make_node("Reshape", ["x", "flat_shape"], ["flat"]),
        # Channel shuffle: c / groups computed with Div on shape values.
        helper.make_node("Gather", ["shape", "one"], ["c"], axis=0),
        helper.make_node("Div", ["c", "two"], ["cg"]),
        helper.make_node("Unsqueeze", ["cg", "axes0"], ["cg1"]),
        helper.make_node("Slice", ["shape", "starts2", "ends4"], ["hw"]),
        helper.make_node("Concat", ["n1", "groups", "cg1", "hw"], ["s5"],
                         axis=0),
        helper.make_node("Reshape", ["x", "s5"], ["x5"]),
        helper.make_node("Transpose", ["x5"], ["x5t"], perm=[0, 2, 1, 3, 4]),
        helper.make_node("Reshape", ["x5t", "shape"], ["shuffled"]),
        # Attention-style head split of the last dims: [n, c, h*w] -> heads.
        helper.make_node("Shape", ["flat"], ["fshape"]),
        helper.make_node("Gather", ["fshape", "minus1"], ["last"], axis=0),
        helper.make_node("Div", ["last", "heads"], ["per_head"]),
        helper.make_node("Concat", ["n1", "heads", "per_head"], ["hshape"],
                         axis=0),
        helper.make_node("Reshape", ["flat", "hshape"], ["split_heads"]),
    ]
    inits = [
        numpy_helper.from_array(np.array([2], dtype=np.int64), "starts2"),
        numpy_helper.from_array(np.array([4], dtype=np.int64), "ends4"),
        numpy_helper.from_array(np.array([4], dtype=np.int64), "heads"),
    ]
    graph = helper.make_graph(
        nodes, "shape_chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
        [helper.make_tensor_value_info("flat", TensorProto.FLOAT,
                                       [n, c * h * w]),
         helper.make_tensor_value_info("shuffled", TensorProto.FLOAT,
                                       [n, c, h, w]),
         helper.make_tensor_value_info("split_heads", TensorProto.FLOAT,
                                       [n, 4, c * h * w // 4])],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model


def reference(x):
    n, c, h, w = x.shape
    flat = x.reshape(n, -1)
    shuffled = x.reshape(n, 2, c // 2, h, w).transpose(0, 2, 1, 3, 4).reshape(
        n, c, h, w)
    heads = flat.reshape(n, 4, -1)
    return [flat, shuffled, heads]


def check(out, aotc, runtime):
    art = os.path.join(out, "artifact")
    subprocess.run([aotc, os.path.join(out, "model.onnx"), "--name=m", "-o",
                    art, "--dump-dir=" + os.path.join(art, "dump")],
                   check=True)
    ir = open(os.path.join(art, "dump", "m.input.mlir")).read()
    body = [l.strip() for l in ir.splitlines()
            if "=" in l and "arith.constant" not in l]
    ops = sorted(set(re.search(r"= ([a-z_]+\.[a-z_]+)", l).group(1)
                     for l in body if re.search(r"= ([a-z_]+\.[a-z_]+)", l)))
    print("ops in the imported IR:", ops)
    allowed = {"tensor.collapse_shape", "tensor.expand_shape",
               "linalg.transpose", "tensor.empty"}
    assert set(ops) <= allowed, f"run-time shape work left: {ops}"
    assert "xi64>" not in "\n".join(body), "integer tensors computed at run time"
    if not runtime:
        return
    so = os.path.join(art, "m.so")
    subprocess.run(["clang-22", "-shared", "-o", so, os.path.join(art, "m.o"),
                    runtime, "-L/usr/lib/llvm-22/lib", "-lomp",
                    "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
    lib = ctypes.CDLL(so)
    pool_bytes = int(re.search(r"M_POOL_BYTES\s+(\d+)",
                               open(os.path.join(art, "m.h")).read()).group(1))
    x = numpy_helper.to_array(onnx.load_tensor(
        os.path.join(out, "test_data_set_0", "input_0.pb")))
    expected = reference(x)
    outs = [np.empty_like(e) for e in expected]
    pool = np.zeros(pool_bytes + 64, np.uint8)
    base = pool.ctypes.data + (-pool.ctypes.data) % 64
    args = [a.ctypes.data_as(ctypes.c_void_p) for a in [x] + outs]
    status = lib.m(*args, ctypes.c_void_p(base), ctypes.c_size_t(pool_bytes),
                   None)
    assert status == 0, f"status {status}"
    for name, o, e in zip(["flat", "shuffled", "split_heads"], outs,
                          expected):
        assert np.array_equal(o, e), f"output {name} differs"
    print("outputs match numpy")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "shape_chain"
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    onnx.save(build(), os.path.join(out, "model.onnx"))
    x = np.random.default_rng(0).standard_normal((2, 8, 4, 4)).astype(
        np.float32)
    data = os.path.join(out, "test_data_set_0")
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x).SerializeToString())
    for i, y in enumerate(reference(x)):
        with open(os.path.join(data, f"output_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(y).SerializeToString())
    if "--check" in sys.argv:
        i = sys.argv.index("--check")
        aotc = sys.argv[i + 1]
        runtime = sys.argv[i + 2] if len(sys.argv) > i + 2 else None
        check(out, aotc, runtime)


if __name__ == "__main__":
    main()
