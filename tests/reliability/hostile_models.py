#!/usr/bin/python3
"""Hostile and extreme ONNX models: aotc ends cleanly, in bounded memory.

Each case is an ONNX model built with onnx.helper (no checker: several are
invalid on purpose) and compiled by aotc with its address space limited to
AS_LIMIT bytes (RLIMIT_AS, like `ulimit -v`) and a timeout. An invalid or
unsupported model must give exit code 1, a line `error:` naming the file
(and the node or value where there is one) and no output files; a valid
one must compile (exit 0). Anything else (a signal, an out-of-memory abort,
another exit code, a timeout, a half-written output) fails the case.

Usage: hostile_models.py --aotc AOTC --work DIR [--only NAME]
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

AS_LIMIT = 4 << 30
TIMEOUT = 300
FLOAT = T.FLOAT


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = h.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])


def vi(name, shape, dtype=FLOAT):
    return h.make_tensor_value_info(name, dtype, shape)


def raw_tensor(name, dims, raw):
    """A float initializer of `dims` holding `raw` bytes, whatever their
    count (onnx.helper refuses a mismatch)."""
    t = T()
    t.name, t.data_type = name, FLOAT
    t.dims.extend(dims)
    t.raw_data = raw
    return t


def relu(x="x", y="y", shape=(2, 3)):
    return model([h.make_node("Relu", [x], [y])], [vi(x, list(shape))],
                 [vi(y, list(shape))])


# name -> (builder returning a ModelProto or bytes, expected: "error" / "ok",
#          text the error must contain, timeout in seconds)
CASES = {}


def case(expect, contains="", seconds=TIMEOUT):
    def register(fn):
        CASES[fn.__name__] = (fn, expect, contains, seconds)
        return fn
    return register


@case("error", "2^40")
def input_beyond_2_40_elements():
    return relu(shape=(1 << 21, 1 << 20))


@case("error", "")
def shape_product_overflows_int64():
    return relu(shape=(1 << 32, 1 << 32, 1 << 32))


@case("error", "")
def negative_dimension():
    return relu(shape=(2, -5))


@case("ok")
def zero_size_dimension():
    return relu(shape=(0, 3))


@case("ok")
def zero_size_inner_dimension_matmul():
    a, b = vi("a", [4, 0]), vi("b", [0, 5])
    return model([h.make_node("MatMul", ["a", "b"], ["y"])], [a, b],
                 [vi("y", [4, 5])])


@case("error", "Conv")
def conv_pads_int32_max():
    w = h.make_tensor("w", FLOAT, [1, 1, 3, 3], np.ones(9, np.float32))
    big = (1 << 31) - 1
    return model([h.make_node("Conv", ["x", "w"], ["y"], pads=[big] * 4)],
                 [vi("x", [1, 1, 8, 8])],
                 [vi("y", [1, 1, 2 * big + 6, 2 * big + 6])], [w])


@case("error", "Reshape")
def reshape_to_huge_shape():
    shape = h.make_tensor("s", T.INT64, [2], [1 << 40, 1 << 22])
    return model([h.make_node("Reshape", ["x", "s"], ["y"])],
                 [vi("x", [2, 3])], [vi("y", [1 << 40, 1 << 22])], [shape])


@case("error", "")
def initializer_claims_more_data_than_it_has():
    w = raw_tensor("w", [1 << 20, 1 << 20], b"")
    return model([h.make_node("Add", ["x", "w"], ["y"])],
                 [vi("x", [1 << 20, 1 << 20])],
                 [vi("y", [1 << 20, 1 << 20])], [w])


@case("error", "")
def initializer_raw_data_too_short():
    w = raw_tensor("w", [2, 3], b"\0" * 8)
    return model([h.make_node("Add", ["x", "w"], ["y"])], [vi("x", [2, 3])],
                 [vi("y", [2, 3])], [w])


@case("error", "")
def tile_repeats_huge():
    repeats = h.make_tensor("r", T.INT64, [2], [1 << 30, 1 << 30])
    return model([h.make_node("Tile", ["x", "r"], ["y"])],
                 [vi("x", [2, 3])], [vi("y", [2 << 30, 3 << 30])], [repeats])


@case("error", "")
def expand_to_huge_shape():
    shape = h.make_tensor("s", T.INT64, [3], [1 << 20, 1 << 20, 3])
    return model([h.make_node("Expand", ["x", "s"], ["y"])],
                 [vi("x", [1, 3])], [vi("y", [1 << 20, 1 << 20, 3])], [shape])


@case("error", "cycle")
def two_node_cycle():
    return model([h.make_node("Add", ["x", "b"], ["a"], name="first"),
                  h.make_node("Relu", ["a"], ["b"], name="second")],
                 [vi("x", [2, 3])], [vi("b", [2, 3])])


@case("error", "")
def self_loop():
    return model([h.make_node("Add", ["x", "y"], ["y"], name="loop")],
                 [vi("x", [2, 3])], [vi("y", [2, 3])])


@case("error", "")
def undefined_input():
    return model([h.make_node("Add", ["x", "nowhere"], ["y"])],
                 [vi("x", [2, 3])], [vi("y", [2, 3])])


@case("error", "")
def output_never_produced():
    return model([h.make_node("Relu", ["x"], ["y"])], [vi("x", [2, 3])],
                 [vi("z", [2, 3])])


@case("error", "")
def two_nodes_write_one_value():
    return model([h.make_node("Relu", ["x"], ["y"]),
                  h.make_node("Neg", ["x"], ["y"])],
                 [vi("x", [2, 3])], [vi("y", [2, 3])])


@case("error", "opset")
def opset_from_the_future():
    return model([h.make_node("Relu", ["x"], ["y"])], [vi("x", [2, 3])],
                 [vi("y", [2, 3])], opset=999)


@case("error", "")
def truncated_file():
    return relu().SerializeToString()[:-7]


@case("error", "")
def not_a_model():
    return b"\x08\x96\x01" + b"garbage" * 100


@case("error", "")
def empty_file():
    return b""


@case("error", "")
def unknown_op():
    return model([h.make_node("FrobnicateTensor", ["x"], ["y"])],
                 [vi("x", [2, 3])], [vi("y", [2, 3])])


@case("error", "")
def conv_kernel_larger_than_padded_input():
    w = h.make_tensor("w", FLOAT, [1, 1, 9, 9], np.ones(81, np.float32))
    return model([h.make_node("Conv", ["x", "w"], ["y"])],
                 [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 1, 1])], [w])


@case("error", "")
def conv_group_mismatch():
    w = h.make_tensor("w", FLOAT, [4, 3, 3, 3], np.ones(108, np.float32))
    return model([h.make_node("Conv", ["x", "w"], ["y"], group=5)],
                 [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4, 6, 6])], [w])


@case("error", "")
def attribute_of_wrong_type():
    node = h.make_node("Transpose", ["x"], ["y"])
    node.attribute.append(h.make_attribute("perm", "not a list"))
    return model([node], [vi("x", [2, 3])], [vi("y", [3, 2])])


@case("error", "")
def transpose_perm_out_of_range():
    return model([h.make_node("Transpose", ["x"], ["y"], perm=[0, 7])],
                 [vi("x", [2, 3])], [vi("y", [3, 2])])


@case("ok")
def rank_5000():
    return relu(shape=[1] * 5000)


# Fused into one op, the chain took 240 s (each fusion cloned the whole
# growing payload); ~10 s since fused payloads are bounded.
@case("ok", seconds=120)
def ten_thousand_node_chain():
    nodes, prev = [], "x"
    for i in range(10000):
        op = ("Relu", "Neg", "Abs", "Sigmoid")[i % 4]
        nodes.append(h.make_node(op, [prev], ["v%d" % i], name="n%d" % i))
        prev = "v%d" % i
    return model(nodes, [vi("x", [4, 8])], [vi(prev, [4, 8])])


@case("ok")
def ten_thousand_node_fan_in():
    # 10,000 Adds of the input into a running sum: deep and long-lived.
    nodes, prev = [], "x"
    for i in range(10000):
        nodes.append(h.make_node("Add", [prev, "x"], ["s%d" % i]))
        prev = "s%d" % i
    return model(nodes, [vi("x", [16])], [vi(prev, [16])])


def run(aotc, work, name):
    build, expect, contains, timeout = CASES[name]
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, "m.onnx")
    made = build()
    with open(path, "wb") as f:
        f.write(made if isinstance(made, bytes) else made.SerializeToString())
    out = os.path.join(d, "out")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))

    start = time.monotonic()
    try:
        r = subprocess.run([aotc, path, "--name=m", "-o", out],
                           capture_output=True, text=True, timeout=timeout,
                           preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % timeout
    seconds = time.monotonic() - start
    errors = [l for l in r.stderr.splitlines() if "error:" in l]
    written = sorted(os.listdir(out)) if os.path.isdir(out) else []
    if expect == "ok":
        if r.returncode == 0 and "m.o" in written:
            return True, "compiled in %.1f s" % seconds
        return False, "exit %d, expected a compile: %s" % (
            r.returncode, r.stderr.strip()[-400:])
    if r.returncode != 1 or not errors:
        return False, "exit %d (expected 1 with error:): %s" % (
            r.returncode, r.stderr.strip()[-400:])
    if written:
        return False, "an error, yet it wrote %s" % ", ".join(written)
    if path not in errors[0]:
        return False, "the error does not name the file: " + errors[0]
    if contains and contains.lower() not in r.stderr.lower():
        return False, "the error does not mention %r: %s" % (contains,
                                                             errors[0])
    return True, errors[0].replace(path, "m.onnx")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--only")
    args = parser.parse_args()
    names = [args.only] if args.only else list(CASES)
    failures = 0
    for name in names:
        ok, detail = run(os.path.abspath(args.aotc), args.work, name)
        failures += not ok
        print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail),
              flush=True)
    print("%d of %d cases failed (address space limit %d GiB, timeout %d s)"
          % (failures, len(names), AS_LIMIT >> 30, TIMEOUT))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
