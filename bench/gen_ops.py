#!/usr/bin/env python3
"""Writes the operator benchmark programs (tiny ONNX files) and their table.

Usage: gen_ops.py OUTDIR [--list] [--prefix P]
Writes, for every case below, OUTDIR/<name>.onnx (one op, or the op chain,
batch 1, NCHW as the ONNX importer sees real models; weights, biases and
LayerNorm scale/shift are initializers, so they become constants of the
object, as in a compiled model), and OUTDIR/ops_cases.h listing every case
with its entry point and parameters for bench_ops.cpp. --list prints the case
names, one per line (bench/CMakeLists.txt reads them at configure time).
--prefix P names the entry points P<name> in ops_cases.h (bench_gpu's CUDA
builds of the same files are gpu_<name>).

Every constant is `det_values(n, scale)`, a formula that bench_ops.cpp
repeats bit for bit to give oneDNN the same weights: results are checked
against oneDNN before anything is timed.

Cases:
  conv/<layer>   Conv (+bias): real layers of ResNet-18 and MobileNetV2
                 (3x3 stride 1 and 2, 1x1, depthwise 3x3), batch 1
  eltwise/16M    y = gelu(x + bias) + residual on [4096, 4096] f32, written
                 as PyTorch exports it (Add, Div, Erf, Add, Mul, Mul, Add):
                 a test of fusion, compared with memcpy bandwidth
  softmax/RxC    Softmax over the last axis
  layernorm/RxC  LayerNormalization (opset 17) over the last axis, eps 1e-5
"""
import os
import sys

# name, C_in, C_out, H, W, kernel, stride, pad, groups
CONVS = [
    ("resnet18_l1_3x3s1_64", 64, 64, 56, 56, 3, 1, 1, 1),
    ("resnet18_l2_3x3s2_64to128", 64, 128, 56, 56, 3, 2, 1, 1),
    ("resnet18_l2_1x1s2_64to128", 64, 128, 56, 56, 1, 2, 0, 1),
    ("resnet18_l3_3x3s1_256", 256, 256, 14, 14, 3, 1, 1, 1),
    ("resnet18_l4_3x3s2_256to512", 256, 512, 14, 14, 3, 2, 1, 1),
    ("resnet18_l4_3x3s1_512", 512, 512, 7, 7, 3, 1, 1, 1),
    ("mbv2_stem_3x3s2_3to32", 3, 32, 224, 224, 3, 2, 1, 1),
    ("mbv2_dw3x3s1_32", 32, 32, 112, 112, 3, 1, 1, 32),
    ("mbv2_1x1_24to144", 24, 144, 56, 56, 1, 1, 0, 1),
    ("mbv2_dw3x3s1_144", 144, 144, 56, 56, 3, 1, 1, 144),
    ("mbv2_dw3x3s2_144", 144, 144, 56, 56, 3, 2, 1, 144),
    ("mbv2_1x1_144to24", 144, 24, 56, 56, 1, 1, 0, 1),
    ("mbv2_dw3x3s1_960", 960, 960, 7, 7, 3, 1, 1, 960),
    ("mbv2_1x1_320to1280", 320, 1280, 7, 7, 1, 1, 0, 1),
]
ROWS = [(197, 768), (64, 256)]
ELTWISE = (4096, 4096)  # 16M floats

# Kinds in ops_cases.h (bench_ops.cpp switches on them).
KIND_CONV, KIND_ELTWISE, KIND_SOFTMAX, KIND_LAYERNORM = 0, 1, 2, 3


def det_values(n, scale):
    """n floats in [-scale, scale): a multiplicative hash of the index,
    computed in uint32 exactly as detValues() in bench_ops.cpp."""
    import numpy as np
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761)) % np.uint64(1 << 32)
    v = ((h >> np.uint64(16)) & np.uint64(0xFFFF)).astype(np.float32)
    return ((v / np.float32(65536.0) - np.float32(0.5)) *
            np.float32(2.0 * scale)).astype(np.float32)


def cases():
    """(kind, id, shape label, model name, int params[9])."""
    out = []
    for name, ci, co, h, w, k, s, p, g in CONVS:
        out.append((KIND_CONV, "conv", name, "conv_" + name,
                    [ci, co, h, w, k, s, p, g, 0]))
    r, c = ELTWISE
    out.append((KIND_ELTWISE, "eltwise", "16M", "eltwise_16M",
                [r, c, 0, 0, 0, 0, 0, 0, 0]))
    for r, c in ROWS:
        out.append((KIND_SOFTMAX, "softmax", f"{r}x{c}", f"softmax_{r}x{c}",
                    [r, c, 0, 0, 0, 0, 0, 0, 0]))
        out.append((KIND_LAYERNORM, "layernorm", f"{r}x{c}",
                    f"layernorm_{r}x{c}", [r, c, 0, 0, 0, 0, 0, 0, 0]))
    return out


def conv_model(params):
    import numpy as np
    from onnx import helper, numpy_helper, TensorProto
    ci, co, h, w, k, s, p, g, _ = params
    ho, wo = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    wshape = (co, ci // g, k, k)
    weight = det_values(int(np.prod(wshape)), 1.0 / np.sqrt(ci // g * k * k))
    bias = det_values(co, 0.1)
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"],
                            kernel_shape=[k, k], strides=[s, s],
                            pads=[p, p, p, p], group=g)
    graph = helper.make_graph(
        [node], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, ci, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, co, ho, wo])],
        [numpy_helper.from_array(weight.reshape(wshape), "w"),
         numpy_helper.from_array(bias, "b")])
    return graph, 13


def eltwise_model(params):
    import numpy as np
    from onnx import helper, numpy_helper, TensorProto
    r, c = params[0], params[1]
    f32 = lambda name, v: numpy_helper.from_array(np.array(v, np.float32), name)
    nodes = [
        helper.make_node("Add", ["x", "bias"], ["t"]),
        helper.make_node("Div", ["t", "sqrt2"], ["t_s"]),
        helper.make_node("Erf", ["t_s"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["e1"]),
        helper.make_node("Mul", ["t", "e1"], ["m"]),
        helper.make_node("Mul", ["m", "half"], ["g"]),
        helper.make_node("Add", ["g", "residual"], ["y"]),
    ]
    io = lambda name: helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                    [r, c])
    graph = helper.make_graph(
        nodes, "bias_gelu_residual", [io("x"), io("residual")], [io("y")],
        [numpy_helper.from_array(det_values(c, 0.1), "bias"),
         f32("sqrt2", np.sqrt(2.0)), f32("one", 1.0), f32("half", 0.5)])
    return graph, 13


def softmax_model(params):
    from onnx import helper, TensorProto
    r, c = params[0], params[1]
    io = lambda name: helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                    [r, c])
    node = helper.make_node("Softmax", ["x"], ["y"], axis=-1)
    return helper.make_graph([node], "softmax", [io("x")], [io("y")]), 13


def layernorm_model(params):
    import numpy as np
    from onnx import helper, numpy_helper, TensorProto
    r, c = params[0], params[1]
    io = lambda name: helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                    [r, c])
    scale = (det_values(c, 0.25) + np.float32(1.0)).astype(np.float32)
    node = helper.make_node("LayerNormalization", ["x", "scale", "shift"],
                            ["y"], axis=-1, epsilon=1e-5)
    graph = helper.make_graph(
        [node], "layernorm", [io("x")], [io("y")],
        [numpy_helper.from_array(scale, "scale"),
         numpy_helper.from_array(det_values(c, 0.1), "shift")])
    return graph, 17


BUILDERS = {KIND_CONV: conv_model, KIND_ELTWISE: eltwise_model,
            KIND_SOFTMAX: softmax_model, KIND_LAYERNORM: layernorm_model}


def main():
    out = sys.argv[1]
    args = sys.argv[2:]
    prefix = args[args.index("--prefix") + 1] if "--prefix" in args else ""
    if "--list" in args:
        for case in cases():
            print(case[3])
        return
    import onnx
    from onnx import helper
    os.makedirs(out, exist_ok=True)
    includes, entries = [], []
    for kind, kind_name, label, model, params in cases():
        entry = prefix + model
        graph, opset = BUILDERS[kind](params)
        m = helper.make_model(graph, producer_name="aotc-bench",
                              opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        path = os.path.join(out, model + ".onnx")
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        includes.append(f'#include "{entry}.h"')
        entries.append(
            f'  {{{kind}, "{kind_name}", "{label}", {{{", ".join(map(str, params))}}}, '
            f"reinterpret_cast<void (*)()>(&{entry}), &{entry}_info}},")
    with open(os.path.join(out, "ops_cases.h"), "w") as f:
        f.write("// Generated by bench/gen_ops.py; do not edit.\n")
        f.write("\n".join(includes) + "\n\n")
        f.write("static const OpCase kOpCases[] = {\n")
        f.write("\n".join(entries) + "\n};\n")


if __name__ == "__main__":
    main()
