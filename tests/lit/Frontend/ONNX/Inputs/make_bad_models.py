#!/usr/bin/env python3
#===- make_bad_models.py - Write broken ONNX models for the lit tests -----===#
#
# Usage: make_bad_models.py OUTDIR [CASE...]   (default: every case)
#
# Writes OUTDIR/CASE.onnx for each case below, with the onnx helper API and
# without onnx.checker (most of them are meant to be invalid). Nothing large
# is ever allocated: the "huge" tensors only declare their dimensions.
#
#===----------------------------------------------------------------------===#

import os
import random
import struct
import sys

import onnx
from onnx import TensorProto, helper

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, initializers=(), opset=13, extra_opsets=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs,
                              initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)] + list(extra_opsets)
    m = helper.make_model(graph, opset_imports=opsets,
                          producer_name="make_bad_models")
    m.ir_version = 8
    return m


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def add_model():
    """y = x + W, W = [[1,2,3],[4,5,6]] (valid; the base of several cases).

    W is stored as raw_data: onnx.save_model moves only raw_data to
    external files."""
    w = helper.make_tensor("W", F, [2, 3],
                           struct.pack("<6f", 1, 2, 3, 4, 5, 6), raw=True)
    node = helper.make_node("Add", ["x", "W"], ["y"], name="add")
    return model([node], [vi("x", [2, 3])], [vi("y", [2, 3])], [w])


def save(m, path):
    with open(path, "wb") as f:
        f.write(m.SerializeToString())


def write_truncated(path):
    # An initializer makes the graph most of the bytes, so cutting the file
    # in half cuts the length-delimited graph field: unparseable.
    w = helper.make_tensor("W", F, [64, 64], [0.5] * 4096)
    node = helper.make_node("Add", ["x", "W"], ["y"], name="add")
    data = model([node], [vi("x", [64, 64])], [vi("y", [64, 64])],
                 [w]).SerializeToString()
    with open(path, "wb") as f:
        f.write(data[:len(data) // 2])


def write_random(path):
    rng = random.Random(1234)
    with open(path, "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(4096)))


def write_missing_initializer(path):
    # "W" is used but is neither an initializer, a graph input nor produced.
    node = helper.make_node("Add", ["x", "W"], ["y"], name="add")
    save(model([node], [vi("x", [2, 3])], [vi("y", [2, 3])]), path)


def write_dangling_output(path):
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    save(model([node], [vi("x", [2, 3])], [vi("y", [2, 3]), vi("z", [2, 3])]),
         path)


def write_opset19(path):
    m = add_model()
    m.opset_import[0].version = 19
    save(m, path)


def write_huge_input(path):
    # 2^20 * 2^21 = 2^41 elements.
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    save(model([node], [vi("x", [1 << 20, 1 << 21])],
               [vi("y", [1 << 20, 1 << 21])]), path)


def write_huge_initializer(path):
    # Dimensions only: no data at all.
    w = TensorProto()
    w.name = "W"
    w.data_type = F
    w.dims.extend([1 << 21, 1 << 20])
    node = helper.make_node("Add", ["x", "W"], ["y"], name="add")
    save(model([node], [vi("x", [2, 3])], [vi("y", [2, 3])], [w]), path)


def write_cycle(path):
    # a = x + b, b = relu(a): the two nodes feed each other.
    nodes = [helper.make_node("Add", ["x", "b"], ["a"], name="A"),
             helper.make_node("Relu", ["a"], ["b"], name="B")]
    save(model(nodes, [vi("x", [2, 3])], [vi("a", [2, 3])]), path)


def write_lstm(path):
    seq, batch, inp, hidden = 4, 1, 3, 5
    w = helper.make_tensor("W", F, [1, 4 * hidden, inp], [0.1] * (4 * hidden * inp))
    r = helper.make_tensor("R", F, [1, 4 * hidden, hidden],
                           [0.1] * (4 * hidden * hidden))
    node = helper.make_node("LSTM", ["x", "W", "R"], ["y"], name="lstm",
                            hidden_size=hidden)
    save(model([node], [vi("x", [seq, batch, inp])],
               [vi("y", [seq, 1, batch, hidden])], [w, r]), path)


def write_unknown_domain(path):
    node = helper.make_node("Frobnicate", ["x"], ["y"], name="frob",
                            domain="com.example")
    save(model([node], [vi("x", [2, 3])], [vi("y", [2, 3])],
               extra_opsets=[helper.make_opsetid("com.example", 1)]), path)


def write_conv_auto_pad(path):
    w = helper.make_tensor("W", F, [1, 1, 3, 3], [1.0] * 9)
    node = helper.make_node("Conv", ["x", "W"], ["y"], name="conv",
                            kernel_shape=[3, 3], auto_pad="FOO")
    save(model([node], [vi("x", [1, 1, 8, 8])], [vi("y", [1, 1, 8, 8])], [w]),
         path)


def write_scatternd_runtime_indices(path):
    # ScatterND whose indices are a graph input (known only at run time).
    node = helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter")
    save(model([node], [vi("x", [4, 3]), vi("i", [2, 1], TensorProto.INT64),
                        vi("u", [2, 3])], [vi("y", [4, 3])]), path)


def write_scatternd_out_of_range(path):
    i = helper.make_tensor("I", TensorProto.INT64, [2, 1], [1, 4])
    node = helper.make_node("ScatterND", ["x", "I", "u"], ["y"], name="scatter")
    save(model([node], [vi("x", [4, 3]), vi("u", [2, 3])], [vi("y", [4, 3])],
               [i]), path)


def write_scatternd_reduction(path):
    i = helper.make_tensor("I", TensorProto.INT64, [2, 1], [1, 3])
    node = helper.make_node("ScatterND", ["x", "I", "u"], ["y"], name="scatter",
                            reduction="add")
    save(model([node], [vi("x", [4, 3]), vi("u", [2, 3])], [vi("y", [4, 3])],
               [i], opset=16), path)


def write_mod_float_fmod0(path):
    node = helper.make_node("Mod", ["x", "z"], ["y"], name="mod")
    save(model([node], [vi("x", [4]), vi("z", [4])], [vi("y", [4])]), path)


def write_symbolic(path):
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    save(model([node], [vi("x", ["N", 4])], [vi("y", ["N", 4])]), path)


def write_symbolic_guard(path):
    # x[N,4] + z[M,4]: the broadcast holds only when N == M (a guard).
    node = helper.make_node("Add", ["x", "z"], ["y"], name="add")
    save(model([node], [vi("x", ["N", 4]), vi("z", ["M", 4])],
               [vi("y", ["N", 4])]), path)


def write_symbolic_argmax(path):
    # ArgMax does not take symbolic dimensions (yet): a clean error.
    node = helper.make_node("ArgMax", ["x"], ["y"], name="argmax", axis=1)
    save(model([node], [vi("x", ["N", 4])],
               [vi("y", ["N", 1], TensorProto.INT64)]), path)


def write_symbolic_reshape(path):
    # x[N,6,4] -> Shape -> Gather(0) -> Mul(3) -> Unsqueeze -> Concat with
    # [-1] -> Reshape: r[3*N, 8] (relu), then Reshape to [N, 24] by the same
    # kind of chain. The shape arithmetic folds to symbolic entries: no
    # run-time shape work.
    i64 = TensorProto.INT64

    def const(name, values, dims):
        return helper.make_node("Constant", [], [name], name=name,
                                value=helper.make_tensor(name, i64, dims,
                                                         values))
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"], name="shape"),
        const("zero", [0], []),
        helper.make_node("Gather", ["shape", "zero"], ["n"], name="gather",
                         axis=0),
        const("three", [3], []),
        helper.make_node("Mul", ["n", "three"], ["n3"], name="mul"),
        const("axes", [0], [1]),
        helper.make_node("Unsqueeze", ["n3", "axes"], ["n3v"],
                         name="unsqueeze"),
        const("minus_one", [-1], [1]),
        helper.make_node("Concat", ["n3v", "minus_one"], ["target"],
                         name="concat", axis=0),
        helper.make_node("Reshape", ["x", "target"], ["r"], name="reshape"),
        helper.make_node("Relu", ["r"], ["z"], name="relu"),
        helper.make_node("Unsqueeze", ["n", "axes"], ["nv"],
                         name="unsqueeze_n"),
        const("c24", [24], [1]),
        helper.make_node("Concat", ["nv", "c24"], ["target_out"],
                         name="concat_out", axis=0),
        helper.make_node("Reshape", ["z", "target_out"], ["y"],
                         name="to_n"),
    ]
    save(model(nodes, [vi("x", ["N", 6, 4])], [vi("y", ["N", 24])]), path)


def write_symbolic_split_two(path):
    # [N, S] -> [N*S] -> [N, S]: two symbolic dimensions out of one.
    i64 = TensorProto.INT64
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"], name="shape"),
        helper.make_node("Reshape", ["x", "flat"], ["f"], name="flatten"),
        helper.make_node("Reshape", ["f", "shape"], ["y"], name="unflatten"),
    ]
    flat = helper.make_tensor("flat", i64, [1], [-1])
    save(model(nodes, [vi("x", ["N", "S"])], [vi("y", ["N", "S"])], [flat]),
         path)


def write_reshape_shape_input(path):
    # y = Reshape(x, shape) with `shape` a graph input: the output shape
    # depends on data, so it compiles only with --bind-input. Next to the
    # model: TensorProto files shape_3x4.pb (valid), shape_float.pb (wrong
    # dtype), shape_rank2.pb (wrong rank) and garbage.pb (not a TensorProto).
    node = helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")
    save(model([node], [vi("x", [2, 6]), vi("shape", [2], TensorProto.INT64)],
               [vi("y", [None, None])]), path)
    folder = os.path.dirname(path)
    tensors = {
        "shape_3x4.pb": helper.make_tensor("shape", TensorProto.INT64, [2],
                                           [3, 4]),
        "shape_float.pb": helper.make_tensor("shape", F, [2], [3.0, 4.0]),
        "shape_rank2.pb": helper.make_tensor("shape", TensorProto.INT64,
                                             [1, 2], [3, 4]),
    }
    for name, tensor in tensors.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(tensor.SerializeToString())
    with open(os.path.join(folder, "garbage.pb"), "wb") as f:
        f.write(b"\xff\xff\xff\xff not a protobuf")


def write_external(path):
    # W goes to weights.bin next to the model (every tensor, however small).
    onnx.save_model(add_model(), path, save_as_external_data=True,
                    all_tensors_to_one_file=True, location="weights.bin",
                    size_threshold=0)


def write_external_missing(path):
    onnx.save_model(add_model(), path, save_as_external_data=True,
                    all_tensors_to_one_file=True,
                    location="missing_weights.bin", size_threshold=0)
    os.remove(os.path.join(os.path.dirname(path), "missing_weights.bin"))


CASES = {
    "truncated": write_truncated,
    "random": write_random,
    "missing_initializer": write_missing_initializer,
    "dangling_output": write_dangling_output,
    "opset19": write_opset19,
    "huge_input": write_huge_input,
    "huge_initializer": write_huge_initializer,
    "cycle": write_cycle,
    "lstm": write_lstm,
    "unknown_domain": write_unknown_domain,
    "conv_auto_pad": write_conv_auto_pad,
    "scatternd_runtime_indices": write_scatternd_runtime_indices,
    "scatternd_out_of_range": write_scatternd_out_of_range,
    "scatternd_reduction": write_scatternd_reduction,
    "mod_float_fmod0": write_mod_float_fmod0,
    "symbolic": write_symbolic,
    "symbolic_guard": write_symbolic_guard,
    "symbolic_argmax": write_symbolic_argmax,
    "symbolic_reshape": write_symbolic_reshape,
    "symbolic_split_two": write_symbolic_split_two,
    "reshape_shape_input": write_reshape_shape_input,
    "external": write_external,
    "external_missing": write_external_missing,
}


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: make_bad_models.py OUTDIR [CASE...]")
    outdir = sys.argv[1]
    names = sys.argv[2:] or list(CASES)
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        if name not in CASES:
            sys.exit("unknown case '%s'; cases: %s" % (name, " ".join(CASES)))
        CASES[name](os.path.join(outdir, name + ".onnx"))


if __name__ == "__main__":
    main()
