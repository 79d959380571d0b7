#!/usr/bin/env python3
"""Symbolic dimensions end to end, checked against PyTorch.

Exports a network with dynamic axes (a batch "N", and for encoder_seq also a
sequence length "S"; torch.onnx.export dynamic_axes), compiles it with
`aotc --max-dim N=BOUND ...`, links the object into a shared library and
calls it through ctypes:

  * for several values in [1, BOUND]: outputs match PyTorch's (error below
    1e-3 of the output's largest magnitude), with the pool
    NAME_pool_bytes(N, ...) asks for, which is at most NAME_POOL_BYTES
    (planned at the bounds);
  * a symbol at 0 or BOUND + 1: aot_abi.AOT_ERROR_SHAPE, outputs untouched,
    and NAME_pool_bytes returns -1;
  * a pool one byte smaller than NAME_pool_bytes(...):
    aot_abi.AOT_ERROR_POOL_TOO_SMALL;
  * NAME_info() reports -1 for the symbolic dimensions.

Usage: dynamic_batch_test.py --aotc AOTC --runtime LIB --omp LIBOMP
                             [--cc CC] --model {resnet18,mlp,encoder,
                                 encoder_seq,squeezenet1_1,mobilenet_v2}
                             --workdir DIR
"""

import argparse
import ctypes
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "include", "aot_abi"))
import aot_abi  # noqa: E402  (the ctypes mirror of aot_abi.h)
# The BERT-style encoder (its attention reshapes [S, N, 256] to [S, 4*N, 64]
# through Shape/Gather/Mul/Concat).
from export_models import make_bert_encoder  # noqa: E402

def build_model(name):
    """(network, input shape with symbol names, {symbol: bound}, cases):
    each case gives every symbol a value."""
    torch.manual_seed(0)
    if name == "resnet18":
        return (torchvision.models.resnet18().eval(), ("N", 3, 224, 224),
                {"N": 3}, [{"N": 1}, {"N": 3}])
    if name in ("squeezenet1_1", "mobilenet_v2"):
        # Fire modules concatenate along channels; MobileNetV2's depthwise
        # convolutions, ReLU6 (Clip) and classifier.
        return (getattr(torchvision.models, name)().eval(),
                ("N", 3, 224, 224), {"N": 2}, [{"N": 1}, {"N": 2}])
    if name == "encoder":
        return (make_bert_encoder()[0].eval(), ("N", 64, 256), {"N": 4},
                [{"N": 1}, {"N": 3}, {"N": 4}])
    if name == "encoder_seq":
        # Batch and sequence length both symbolic: Softmax reduces over S,
        # the attention MatMuls contract over it, [S*N, 256] is split back.
        return (make_bert_encoder()[0].eval(), ("N", "S", 256),
                {"N": 4, "S": 64},
                [{"N": 1, "S": 1}, {"N": 1, "S": 17}, {"N": 4, "S": 5},
                 {"N": 3, "S": 64}, {"N": 4, "S": 64}])
    net = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                              torch.nn.Linear(128, 10), torch.nn.Sigmoid())
    return net.eval(), ("N", 64), {"N": 8}, [{"N": n} for n in (1, 2, 5, 8)]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--omp", required=True)
    parser.add_argument("--cc", default="clang-22",
                        help="C compiler that links the shared library")
    parser.add_argument("--model", required=True, choices=["resnet18", "mlp", "encoder", "encoder_seq",
                                 "squeezenet1_1", "mobilenet_v2"])
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    net, input_dims, bounds, cases = build_model(args.model)
    symbols = list(bounds)  # parameter order: first use in the input
    name = args.model + "_dyn"
    onnx_path = os.path.join(args.workdir, name + ".onnx")
    sample = [2 if isinstance(d, str) else d for d in input_dims]
    axes = {i: d for i, d in enumerate(input_dims) if isinstance(d, str)}
    # Grad mode stays on while tracing: in no_grad mode PyTorch's
    # TransformerEncoderLayer takes a fused path that has no ONNX export.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(net, torch.randn(*sample), onnx_path,
                          opset_version=13, input_names=["input"],
                          output_names=["output"],
                          dynamic_axes={"input": axes, "output": axes})
    command = [args.aotc, onnx_path, "--name=" + name, "-o", args.workdir]
    for symbol, bound in bounds.items():
        command += ["--max-dim", "%s=%d" % (symbol, bound)]
    subprocess.run(command, check=True)
    header = open(os.path.join(args.workdir, name + ".h")).read()
    pool_at_bound = int(re.search(r"#define %s_POOL_BYTES (\d+)u" %
                                  name.upper(), header).group(1))
    for symbol, bound in bounds.items():
        if "#define %s_MAX_%s %d" % (name.upper(), symbol, bound) not in header:
            fail("header lacks the bound macro of %s" % symbol)
    parameters = "".join("int64_t %s, " % symbol for symbol in symbols)
    if "aot_status_t %s(%sconst float *input" % (name, parameters) \
            not in header:
        fail("header lacks the int64_t parameters %s" % symbols)

    library = os.path.join(args.workdir, "lib%s.so" % name)
    subprocess.run([args.cc, "-shared", "-o", library,
                    os.path.join(args.workdir, name + ".o"), args.runtime,
                    args.omp, "-Wl,-rpath," + os.path.dirname(args.omp)],
                   check=True)
    lib = ctypes.CDLL(library)
    entry = getattr(lib, name)
    entry.restype = ctypes.c_int32
    pool_bytes = getattr(lib, name + "_pool_bytes")
    pool_bytes.restype = ctypes.c_int64
    pool_bytes.argtypes = [ctypes.c_int64] * len(symbols)
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
    info = info_fn().contents
    for axis in axes:
        if info.inputs[0].shape[axis] != -1 or \
                info.outputs[0].shape[axis] != -1:
            fail("NAME_info() does not mark dimension %d with -1" % axis)
    if info.pool_bytes != pool_at_bound:
        fail("info.pool_bytes %d != header %d" % (info.pool_bytes,
                                                  pool_at_bound))

    P = ctypes.c_void_p
    rng = np.random.default_rng(1)

    def shape_of(values, dims):
        return tuple(values[d] if isinstance(d, str) else d for d in dims)

    def call(values, x, y, pool, size):
        dims = [ctypes.c_int64(values[symbol]) for symbol in symbols]
        return entry(*dims, x.ctypes.data_as(P), y.ctypes.data_as(P),
                     pool.ctypes.data_as(P), ctypes.c_size_t(size), None)

    output_dims = None
    for values in cases:
        x = rng.standard_normal(shape_of(values, input_dims)).astype(
            np.float32)
        with torch.no_grad():
            expected = net(torch.from_numpy(x)).numpy()
        # The output keeps the symbolic axes of the input where it has them.
        output_dims = tuple(axes.get(i, d)
                            for i, d in enumerate(expected.shape))
        need = pool_bytes(*[values[symbol] for symbol in symbols])
        if need < 0 or need > pool_at_bound:
            fail("pool_bytes(%s) = %d (bound %d)" % (values, need,
                                                     pool_at_bound))
        pool = np.zeros(need + 64, np.uint8)
        offset = (-pool.ctypes.data) % 64
        aligned = pool[offset:offset + need]
        y = np.zeros(expected.shape, np.float32)
        if need > 0:
            status = call(values, x, y, aligned, need - 1)
            if status != aot_abi.AOT_ERROR_POOL_TOO_SMALL:
                fail("%s, pool - 1: status %d" % (values, status))
        status = call(values, x, y, aligned, need)
        if status != aot_abi.AOT_OK:
            fail("%s: status %d" % (values, status))
        error = float(np.abs(y - expected).max())
        limit = 1e-3 * float(np.abs(expected).max())
        print("%s pool_bytes=%d max|error|=%.3g (limit %.3g)" %
              (values, need, error, limit))
        if not error <= limit:
            fail("%s: error %g above %g" % (values, error, limit))

    # Each symbol out of [1, bound] (the others at 1): AOT_ERROR_SHAPE, no
    # output written, and NAME_pool_bytes says -1.
    for symbol in symbols:
        for value in (0, bounds[symbol] + 1):
            values = {s: 1 for s in symbols}
            values[symbol] = value
            if pool_bytes(*[values[s] for s in symbols]) != -1:
                fail("pool_bytes(%s) should be -1" % values)
            held = {s: max(v, 1) for s, v in values.items()}
            x = np.ones(shape_of(held, input_dims), np.float32)
            y = np.full(shape_of(held, output_dims), 7.0, np.float32)
            pool = np.zeros(pool_at_bound + 64, np.uint8)
            offset = (-pool.ctypes.data) % 64
            status = call(values, x, y, pool[offset:], pool_at_bound)
            if status != aot_abi.AOT_ERROR_SHAPE or not (y == 7.0).all():
                fail("%s: status %d (expected aot_abi.AOT_ERROR_SHAPE, no "
                     "write)" % (values, status))
    print("PASS: %s with symbolic %s, pool at bound %d bytes" %
          (args.model, ", ".join("%s in [1, %d]" % kv
                                 for kv in bounds.items()), pool_at_bound))


if __name__ == "__main__":
    main()
