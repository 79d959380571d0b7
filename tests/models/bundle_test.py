#!/usr/bin/env python3
"""Several entry points in one artifact, checked against PyTorch.

Two bundles are compiled, linked into shared libraries and called through
ctypes, each entry point's output compared with PyTorch's (error below
1e-3 of the output's largest magnitude):

  * two models: `aotc squeezenet1_1.onnx resnet18.onnx --name=pair`
    gives pair.o and pair.h with the entry points squeezenet1_1 and
    resnet18 (each with its own *_info() and *_POOL_BYTES) and
    PAIR_POOL_BYTES, the larger pool; one pool of that size serves calls
    of both, one after the other;
  * one model at two shapes: resnet18 exported with a dynamic batch "N",
    `aotc resnet18.onnx --variant N=1 --variant N=2 --name=variants` gives
    resnet18_N1 and resnet18_N2. They share the weights: the bundle's
    object is less than 1.25x the object of the model at one shape (its
    weights are 45 MB of it; two copies would be nearly twice).

Usage: bundle_test.py --aotc AOTC --runtime LIB --omp LIBOMP [--cc CC]
                      --workdir DIR
"""

import argparse
import ctypes
import os
import re
import subprocess
import sys

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "include", "aot_abi"))
import aot_abi  # noqa: E402  (the ctypes mirror of aot_abi.h)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def export(net, path, shape, dynamic_batch=False):
    axes = {"input": {0: "N"}, "output": {0: "N"}} if dynamic_batch else None
    torch.onnx.export(net, torch.randn(*shape), path, opset_version=13,
                      input_names=["input"], output_names=["output"],
                      dynamic_axes=axes)


def pool_define(header, name):
    match = re.search(r"#define %s_POOL_BYTES (\d+)u" % name.upper(), header)
    if not match:
        fail("the header lacks %s_POOL_BYTES" % name.upper())
    return int(match.group(1))


class Library:
    """A bundle's shared library and header."""

    def __init__(self, args, name):
        self.header = open(os.path.join(args.workdir, name + ".h")).read()
        path = os.path.join(args.workdir, "lib%s.so" % name)
        subprocess.run([args.cc, "-shared", "-o", path,
                        os.path.join(args.workdir, name + ".o"),
                        args.runtime, args.omp,
                        "-Wl,-rpath," + os.path.dirname(args.omp)],
                       check=True)
        self.lib = ctypes.CDLL(path)
        self.name = name

    def check(self, entry, net, x, pool):
        """Calls `entry` on `x` with `pool` and compares with `net`."""
        info_fn = getattr(self.lib, entry + "_info")
        info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
        info = info_fn().contents
        if info.pool_bytes != pool_define(self.header, entry):
            fail("%s_info().pool_bytes %d differs from the header" %
                 (entry, info.pool_bytes))
        if info.pool_bytes > len(pool):
            fail("%s needs %d pool bytes, more than the bundle's %d" %
                 (entry, info.pool_bytes, len(pool)))
        with torch.no_grad():
            expected = net(torch.from_numpy(x)).numpy()
        y = np.zeros(expected.shape, np.float32)
        function = getattr(self.lib, entry)
        function.restype = ctypes.c_int32
        P = ctypes.c_void_p
        status = function(x.ctypes.data_as(P), y.ctypes.data_as(P),
                          pool.ctypes.data_as(P), ctypes.c_size_t(len(pool)),
                          None)
        if status != aot_abi.AOT_OK:
            fail("%s: status %d" % (entry, status))
        error = float(np.abs(y - expected).max())
        limit = 1e-3 * float(np.abs(expected).max())
        print("%s.%s: input %s, max|error| %.3g (limit %.3g)" %
              (self.name, entry, x.shape, error, limit))
        if not error <= limit:
            fail("%s: error %g above %g" % (entry, error, limit))


def aligned_pool(size):
    raw = np.zeros(size + 64, np.uint8)
    offset = (-raw.ctypes.data) % 64
    return raw[offset:offset + size]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--omp", required=True)
    parser.add_argument("--cc", default="clang-22")
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    work = args.workdir
    rng = np.random.default_rng(0)

    # Two models in one artifact, one pool for both.
    torch.manual_seed(0)
    nets = {"squeezenet1_1": torchvision.models.squeezenet1_1().eval(),
            "resnet18": torchvision.models.resnet18().eval()}
    paths = []
    for name, net in nets.items():
        paths.append(os.path.join(work, name + ".onnx"))
        export(net, paths[-1], (1, 3, 224, 224))
    subprocess.run([args.aotc, *paths, "--name=pair", "-o", work],
                   check=True)
    pair = Library(args, "pair")
    bundle_pool = pool_define(pair.header, "pair")
    largest = max(pool_define(pair.header, name) for name in nets)
    if bundle_pool != largest:
        fail("PAIR_POOL_BYTES %d is not the largest pool %d" %
             (bundle_pool, largest))
    pool = aligned_pool(bundle_pool)
    x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    for name, net in nets.items():
        pair.check(name, net, x, pool)
    # Again, in the other order, in the same pool.
    for name, net in reversed(list(nets.items())):
        pair.check(name, net, x, pool)

    # One model at two batch sizes, its weights once (another resnet18.onnx,
    # with a dynamic batch).
    net = torchvision.models.resnet18().eval()
    work = os.path.join(work, "variants")
    os.makedirs(work, exist_ok=True)
    args.workdir = work
    path = os.path.join(work, "resnet18.onnx")
    export(net, path, (2, 3, 224, 224), dynamic_batch=True)
    subprocess.run([args.aotc, path, "--variant", "N=1", "--variant", "N=2",
                    "--name=variants", "-o", work], check=True)
    subprocess.run([args.aotc, path, "--dim", "N=1", "--name=single", "-o",
                    work], check=True)
    variants = Library(args, "variants")
    pool = aligned_pool(pool_define(variants.header, "variants"))
    for batch in (1, 2):
        x = rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)
        variants.check("resnet18_N%d" % batch, net, x, pool)
    size = os.path.getsize(os.path.join(work, "variants.o"))
    single = os.path.getsize(os.path.join(work, "single.o"))
    print("object: two variants %d bytes, one shape %d bytes (%.2fx)" %
          (size, single, size / single))
    if size >= 1.25 * single:
        fail("the variants' object is %.2fx one shape's: weights stored "
             "twice" % (size / single))
    print("PASS: two models in one pool; one model at two shapes sharing "
          "its weights")


if __name__ == "__main__":
    main()
