#!/usr/bin/env python3
"""Symbolic batch dimension end to end, checked against PyTorch.

Exports a network with a dynamic batch axis "N" (torch.onnx.export
dynamic_axes), compiles it with `aotc --max-dim N=BOUND`, links the object
into a shared library and calls it through ctypes:

  * for several N in [1, BOUND]: outputs match PyTorch's (error below 1e-3 of
    the output's largest magnitude), with the pool NAME_pool_bytes(N) asks
    for, which is at most NAME_POOL_BYTES (planned at the bound);
  * N = 0, N = BOUND + 1: aot_abi.AOT_ERROR_SHAPE, outputs untouched, and
    NAME_pool_bytes returns -1;
  * a pool one byte smaller than NAME_pool_bytes(N): aot_abi.AOT_ERROR_POOL_TOO_SMALL;
  * NAME_info() reports -1 for the symbolic dimension.

Usage: dynamic_batch_test.py --aotc AOTC --runtime LIB --omp LIBOMP
                             [--cc CC] --model {resnet18,mlp,encoder}
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

def build_model(name):
    torch.manual_seed(0)
    if name == "resnet18":
        return torchvision.models.resnet18().eval(), (3, 224, 224), 3, [1, 3]
    if name == "encoder":
        # The BERT-style encoder of export_models.py: its attention reshapes
        # [S, N, 256] to [S, 4*N, 64] through Shape/Gather/Mul/Concat.
        layer = torch.nn.TransformerEncoderLayer(
            d_model=256, nhead=4, dim_feedforward=1024, activation="gelu",
            batch_first=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            net = torch.nn.TransformerEncoder(layer, num_layers=2)
        return net.eval(), (64, 256), 4, [1, 3, 4]
    net = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                              torch.nn.Linear(128, 10), torch.nn.Sigmoid())
    return net.eval(), (64,), 8, [1, 2, 5, 8]


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
    parser.add_argument("--model", required=True, choices=["resnet18", "mlp", "encoder"])
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    net, item_shape, bound, batches = build_model(args.model)
    name = args.model + "_dyn"
    onnx_path = os.path.join(args.workdir, name + ".onnx")
    # Grad mode stays on while tracing: in no_grad mode PyTorch's
    # TransformerEncoderLayer takes a fused path that has no ONNX export.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(net, torch.randn(2, *item_shape), onnx_path,
                          opset_version=13, input_names=["input"],
                          output_names=["output"],
                          dynamic_axes={"input": {0: "N"},
                                        "output": {0: "N"}})
    subprocess.run([args.aotc, onnx_path, "--name=" + name,
                    "--max-dim", "N=%d" % bound, "-o", args.workdir],
                   check=True)
    header = open(os.path.join(args.workdir, name + ".h")).read()
    pool_at_bound = int(re.search(r"#define %s_POOL_BYTES (\d+)u" %
                                  name.upper(), header).group(1))
    if "#define %s_MAX_N %d" % (name.upper(), bound) not in header:
        fail("header lacks the bound macro")
    if "aot_status_t %s(int64_t N, const float *input" % name not in header:
        fail("header lacks the int64_t N parameter")

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
    pool_bytes.argtypes = [ctypes.c_int64]
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
    info = info_fn().contents
    if info.inputs[0].shape[0] != -1 or info.outputs[0].shape[0] != -1:
        fail("NAME_info() does not mark the batch dimension with -1")
    if info.pool_bytes != pool_at_bound:
        fail("info.pool_bytes %d != header %d" % (info.pool_bytes,
                                                  pool_at_bound))

    P = ctypes.c_void_p
    rng = np.random.default_rng(1)

    def call(n, x, y, pool, size):
        return entry(ctypes.c_int64(n), x.ctypes.data_as(P),
                     y.ctypes.data_as(P), pool.ctypes.data_as(P),
                     ctypes.c_size_t(size), None)

    out_features = None
    previous = -1
    for n in batches:
        x = rng.standard_normal((n,) + item_shape).astype(np.float32)
        with torch.no_grad():
            expected = net(torch.from_numpy(x)).numpy()
        out_features = expected.shape[1:]
        need = pool_bytes(n)
        if need < 0 or need > pool_at_bound or need < previous:
            fail("pool_bytes(%d) = %d (bound %d, previous %d)" %
                 (n, need, pool_at_bound, previous))
        previous = need
        pool = np.zeros(need + 64, np.uint8)
        offset = (-pool.ctypes.data) % 64
        aligned = pool[offset:offset + need]
        y = np.zeros((n,) + out_features, np.float32)
        if need > 0:
            status = call(n, x, y, aligned, need - 1)
            if status != aot_abi.AOT_ERROR_POOL_TOO_SMALL:
                fail("N=%d, pool - 1: status %d" % (n, status))
        status = call(n, x, y, aligned, need)
        if status != aot_abi.AOT_OK:
            fail("N=%d: status %d" % (n, status))
        error = float(np.abs(y - expected).max())
        limit = 1e-3 * float(np.abs(expected).max())
        print("N=%d pool_bytes=%d max|error|=%.3g (limit %.3g)" %
              (n, need, error, limit))
        if not error <= limit:
            fail("N=%d: error %g above %g" % (n, error, limit))

    for n in (0, bound + 1):
        if pool_bytes(n) != -1:
            fail("pool_bytes(%d) should be -1" % n)
        x = np.ones((max(n, 1),) + item_shape, np.float32)
        y = np.full((max(n, 1),) + out_features, 7.0, np.float32)
        pool = np.zeros(pool_at_bound + 64, np.uint8)
        offset = (-pool.ctypes.data) % 64
        status = call(n, x, y, pool[offset:], pool_at_bound)
        if status != aot_abi.AOT_ERROR_SHAPE or not (y == 7.0).all():
            fail("N=%d: status %d (expected aot_abi.AOT_ERROR_SHAPE, no write)" %
                 (n, status))
    print("PASS: %s with symbolic N in [1, %d], pool at bound %d bytes" %
          (args.model, bound, pool_at_bound))


if __name__ == "__main__":
    main()
