#!/usr/bin/env python3
# ===- compare_nodes.py - Per-node times of a model: aotc vs ONNX Runtime -===#
#
# Finds where a model loses to ONNX Runtime. Each node of the chosen op
# types is cut out of the model as a model of its own
# (onnx.utils.extract_model: the node's computed inputs become the graph's
# inputs, its initializers and Constant operands stay), compiled by aotc,
# linked with the runtime into a shared library and timed against an ONNX
# Runtime session of the same one-node model: interleaved rounds in this
# process, the same random inputs, the same thread count. Prints one line
# per node as it goes, then the nodes sorted by how much longer aotc takes
# (aotc - ORT, ms), with the node's attributes and the largest difference
# of the two outputs.
#
# A one-node model is not the node inside the model (no fusion with its
# neighbours, cold caches between calls, and ORT may pick another kernel),
# so the table points at candidates; a change is judged on the whole
# corpus (bench_models.py --corpus).
#
# Usage:
#   compare_nodes.py MODEL.onnx --workdir DIR --aotc BUILD/.../aotc
#       --runtime BUILD/runtime/libaot_runtime.a [--threads 1]
#       [--ops Conv,MaxPool,...] [--rounds 6] [--top 25]
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import onnx
import onnx.shape_inference
import onnx.utils

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_models  # noqa: E402  (AotcModel: the ctypes caller)

DEFAULT_OPS = ("Conv,ConvTranspose,MaxPool,AveragePool,GlobalAveragePool,"
               "Resize,Gemm,MatMul,Softmax,LayerNormalization,Concat,"
               "Transpose")
ATTRIBUTES = ("kernel_shape", "strides", "pads", "dilations", "group",
              "mode", "ceil_mode", "auto_pad")


def attributes_of(node):
    """The attributes that tell one window or resize from another."""
    out = {}
    for a in node.attribute:
        if a.name in ATTRIBUTES:
            value = onnx.helper.get_attribute_value(a)
            out[a.name] = value.decode() if isinstance(value, bytes) else value
    return out


def np_dtype(elem_type):
    """The NumPy dtype of an ONNX element type (onnx.helper's function in
    newer onnx, onnx.mapping's table in Debian's)."""
    if hasattr(onnx.helper, "tensor_dtype_to_np_dtype"):
        return onnx.helper.tensor_dtype_to_np_dtype(elem_type)
    return onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type]


def compile_node(args, path, out):
    """The one-node model at `path` as a shared library in `out`, or None
    with aotc's error."""
    step = subprocess.run([args.aotc, path, "--target=cpu", "--name=node",
                           "-o", out], capture_output=True, text=True)
    if step.returncode != 0:
        lines = step.stderr.strip().splitlines()
        return None, lines[-1] if lines else "aotc failed"
    library = os.path.join(out, "node.so")
    subprocess.run([args.cc, "-shared", "-o", library,
                    os.path.join(out, "node.o"), args.runtime, args.omp,
                    "-Wl,-rpath," + os.path.dirname(args.omp)], check=True)
    return library, None


def median_times(runners, rounds, calls):
    """Median ms of each runner, called `calls` times per round, the order
    of the runners reversed every other round."""
    samples = [[] for _ in runners]
    for run in runners:
        run()
    for r in range(rounds):
        order = list(range(len(runners)))
        if r % 2:
            order.reverse()
        for i in order:
            for _ in range(calls):
                start = time.perf_counter_ns()
                runners[i]()
                samples[i].append((time.perf_counter_ns() - start) * 1e-6)
    return [statistics.median(s) for s in samples]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("model")
    p.add_argument("--workdir", required=True)
    p.add_argument("--aotc", required=True)
    p.add_argument("--runtime", required=True)
    p.add_argument("--omp", default="/usr/lib/llvm-22/lib/libomp.so")
    p.add_argument("--cc", default="clang-22")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--ops", default=DEFAULT_OPS)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--calls", type=int, default=5)
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args()
    import onnxruntime as ort

    os.makedirs(args.workdir, exist_ok=True)
    # extract_model needs every value's shape: infer them into a copy.
    inferred = os.path.join(args.workdir, "inferred.onnx")
    model = onnx.shape_inference.infer_shapes(onnx.load(args.model))
    # Constant nodes become initializers, so that a node cut out keeps its
    # constant operands (a Pow's exponent 2, not an input of random values).
    for node in [n for n in model.graph.node if n.op_type == "Constant"]:
        value = next((a for a in node.attribute if a.name == "value"), None)
        if value is None:
            continue
        tensor = onnx.TensorProto()
        tensor.CopyFrom(value.t)
        tensor.name = node.output[0]
        model.graph.initializer.append(tensor)
        model.graph.node.remove(node)
    onnx.save(model, inferred)
    initializers = {i.name for i in model.graph.initializer}
    typed = {v.name for v in list(model.graph.value_info) +
             list(model.graph.input) + list(model.graph.output)}
    ops = set(args.ops.split(","))
    rng = np.random.default_rng(0)
    rows = []
    for index, node in enumerate(model.graph.node):
        if node.op_type not in ops:
            continue
        inputs = [i for i in node.input if i and i not in initializers]
        if not inputs or not all(i in typed for i in inputs) or \
                node.output[0] not in typed:
            continue
        out = os.path.join(args.workdir, "node%d" % index)
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, "node.onnx")
        onnx.utils.extract_model(inferred, path, inputs, [node.output[0]])
        label = node.name or "%s_%d" % (node.op_type, index)
        one = onnx.load(path)
        # bench_models.AotcModel calls entry points with one f32 output.
        if one.graph.output[0].type.tensor_type.elem_type != \
                onnx.TensorProto.FLOAT:
            print("SKIP %s: its output is not float32" % label, flush=True)
            continue
        library, error = compile_node(args, path, out)
        if library is None:
            print("SKIP %s: %s" % (label, error), flush=True)
            continue
        one_inits = {i.name for i in one.graph.initializer}
        xs = []
        for value in one.graph.input:
            if value.name in one_inits:
                continue
            t = value.type.tensor_type
            shape = [d.dim_value for d in t.shape.dim]
            dtype = np_dtype(t.elem_type)
            xs.append(rng.standard_normal(shape).astype(dtype))
        ours = bench_models.AotcModel(library, "node", xs)
        options = ort.SessionOptions()
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(path, options,
                                       providers=["CPUExecutionProvider"])
        feed = {i.name: x for i, x in zip(session.get_inputs(), xs)}
        run_ours = ours.runner(args.threads)
        reference = session.run(None, feed)[0]
        error = float(np.max(np.abs(
            np.asarray(run_ours()).reshape(reference.shape) - reference)))
        a, b = median_times([run_ours, lambda: session.run(None, feed)],
                            args.rounds, args.calls)
        shapes = [list(x.shape) for x in xs]
        rows.append((a - b, a, b, node.op_type, label, shapes,
                     attributes_of(node), error))
        print("%-12s aotc %8.3f ms  ort %8.3f ms  %5.2fx  %s %s %s" % (
            node.op_type, a, b, a / b, label, shapes, attributes_of(node)),
            flush=True)
    rows.sort(key=lambda r: -r[0])
    print("\n== %d nodes: aotc %.2f ms, ONNX Runtime %.2f ms in all "
          "(%d thread(s)); by aotc - ORT:" % (
              len(rows), sum(r[1] for r in rows), sum(r[2] for r in rows),
              args.threads))
    for r in rows[:args.top]:
        print("%+8.3f ms  %8.3f %8.3f  %-12s %s %s %s  max|diff| %.2g" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
