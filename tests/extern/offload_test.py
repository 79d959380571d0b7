#!/usr/bin/env python3
"""Library offload: ONNX nodes computed by aot_runtime_blas or
aot_runtime_dnnl.

With --library openblas, two models are compiled with `--offload
conv=openblas --offload matmul=openblas` and linked with aot_runtime_blas
and the CBLAS; with --library onednn, with `--offload conv=onednn` and
linked with aot_runtime_dnnl and oneDNN. Both are called through ctypes:

  * a small PyTorch network of the cases the kernels take and do not take:
    a strided, dilated, padded convolution with bias, a grouped one (native
    on OpenBLAS, oneDNN's), a 1x1 one without bias (no im2col on OpenBLAS),
    a Linear (Gemm, transB) and a MatMul (OpenBLAS's, native with oneDNN);
    the calls are counted in the IR and the output matches PyTorch;
  * resnet18 (tests/models): matches the native build of the same model and
    the PyTorch reference (error below 1e-3 of the largest output).

Usage: offload_test.py --library openblas|onednn --aotc AOTC --runtime LIB
                       --offload-runtime LIB --vendor VENDORLIB --omp LIBOMP
                       --model-dir DIR [--cc CC] --workdir DIR
"""

import argparse
import ctypes
import os
import subprocess
import sys

import numpy as np
import torch

from extern_common import aot_abi, call_entry, check, fail

# Per library: aotc's flags and the calls the small network makes (symbol,
# count).
LIBRARIES = {
    "openblas": (["--offload", "conv=openblas", "--offload",
                  "matmul=openblas"],
                 [("aot_blas_conv2d_f32", 2), ("aot_blas_gemm_f32", 2)]),
    "onednn": (["--offload", "conv=onednn"], [("aot_dnnl_conv2d_f32", 3)]),
}


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 8, 3, stride=2, padding=2, dilation=2)
        self.b = torch.nn.Conv2d(8, 8, 3, padding=1, groups=2)
        self.c = torch.nn.Conv2d(8, 6, 1, bias=False)
        self.fc = torch.nn.Linear(6 * 14 * 14, 12)
        self.m = torch.nn.Parameter(torch.randn(12, 5))

    def forward(self, x):
        x = torch.relu(self.a(x))
        x = torch.relu(self.b(x))
        x = self.c(x)
        return torch.matmul(self.fc(x.flatten(1)), self.m)


def build(args, onnx_path, name, flags, dump=False):
    """Compiles and links one model; `dump` keeps the stages' IR (a model
    as large as resnet18 writes about 1 GB of it)."""
    work = os.path.join(args.workdir, name)
    dump_flags = ["--dump-dir", work] if dump else []
    subprocess.run([args.aotc, onnx_path, "--name=net", "-o", work] +
                   dump_flags + flags, check=True)
    library = os.path.join(work, "libnet.so")
    libraries = [args.offload_runtime, args.runtime, args.vendor] if flags \
        else [args.runtime]
    subprocess.run([args.cc, "-shared", "-o", library,
                    os.path.join(work, "net.o")] + libraries +
                   [args.omp, "-Wl,-rpath," + os.path.dirname(args.omp)],
                   check=True)
    return work, library


def call(library, xs):
    status, y = call_entry(ctypes.CDLL(library), "net", xs)
    if status != aot_abi.AOT_OK:
        fail("%s: status %d" % (library, status))
    return y


def main():
    parser = argparse.ArgumentParser()
    for flag in ("--aotc", "--runtime", "--offload-runtime", "--vendor",
                 "--omp", "--model-dir", "--workdir"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--library", required=True, choices=list(LIBRARIES))
    parser.add_argument("--cc", default="clang-22")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    offload, calls = LIBRARIES[args.library]

    # The cases the kernels take, and one they leave native.
    torch.manual_seed(0)
    net = Net().eval()
    x = torch.randn(2, 3, 28, 28)
    with torch.no_grad():
        expected = net(x).numpy()
    path = os.path.join(args.workdir, "small.onnx")
    torch.onnx.export(net, x, path, opset_version=13)
    work, library = build(args, path, "small", offload, dump=True)
    ir = open(os.path.join(work, "net.linalg.mlir")).read()
    header = open(os.path.join(work, "net.h")).read()
    for symbol, expected_calls in calls:
        count = ir.count("call @net__%s" % symbol)
        if count != expected_calls:
            fail("expected %d calls of %s, got %d"
                 % (expected_calls, symbol, count))
        if "aot_status_t %s(" % symbol not in header:
            fail("net.h does not declare %s" % symbol)
    check("small network, %s (%s) vs PyTorch" % (
              " ".join(offload),
              ", ".join("%d x %s" % (n, s) for s, n in calls)),
          call(library, [np.ascontiguousarray(x.numpy())]), expected, 1e-4)

    # resnet18: offloaded against native and against PyTorch.
    model = os.path.join(args.model_dir, "resnet18.onnx")
    reference = np.load(os.path.join(args.model_dir, "resnet18.npz"))
    xs = [np.ascontiguousarray(reference["input_0"])]
    _, native = build(args, model, "resnet18_native", [])
    _, offloaded = build(args, model, "resnet18_offload", offload)
    y_native = call(native, xs)
    y_offload = call(offloaded, xs)
    check("resnet18 offloaded vs native", y_offload, y_native, 1e-3)
    check("resnet18 offloaded vs PyTorch", y_offload, reference["output_0"],
          1e-3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
