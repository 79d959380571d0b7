#!/usr/bin/env python3
"""Library offload to cuBLAS, run without a GPU.

A PyTorch network of a Linear (ONNX Gemm, transB, a bias of N) and a
MatMul, its weights graph inputs (so that no kernel of aotc's has to run:
the fake driver executes none), is compiled with `--target=cuda --offload
matmul=cublas`, linked with aot_runtime_cublas and the fake driver whose
cuBLAS (fake_cublas.cpp) computes on its "device" memory, which is host
memory, and called through ctypes, with host tensors and with device
tensors. Checked: two aot_cublas_gemm_f32 calls in the IR, the header's
declaration, the output against PyTorch, the cuBLAS work (the bias copies,
then the GEMMs) on the caller's stream between the tensor copies.

Usage: offload_cublas_test.py --aotc AOTC --cuda-path DIR --link LIB...
                              [--cc CC] --workdir DIR
(--link: aot_runtime_cublas, the fake driver's library, aot_runtime_cuda,
aot_runtime, in that order)
"""

import argparse
import ctypes
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "extern"))
from extern_common import aot_abi, call_entry, check, fail  # noqa: E402


class Net(torch.nn.Module):
    def forward(self, x, w, b, m):
        return torch.nn.functional.linear(x, w, b) @ m


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--cuda-path", required=True)
    parser.add_argument("--link", nargs="+", required=True)
    parser.add_argument("--cc", default="clang-22")
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    # Five rows: the bias row is copied once, then doubled twice and the
    # last row copied (1, 2, 4, 5 rows).
    torch.manual_seed(0)
    xs = [torch.randn(5, 32), torch.randn(24, 32), torch.randn(24),
          torch.randn(24, 8)]
    with torch.no_grad():
        expected = Net()(*xs).numpy()
    path = os.path.join(args.workdir, "net.onnx")
    torch.onnx.export(Net(), tuple(xs), path, opset_version=13,
                      input_names=["x", "w", "b", "m"])

    for device_tensors in (False, True):
        label = "device" if device_tensors else "host"
        work = os.path.join(args.workdir, label)
        flags = ["--target=cuda", "--cuda-path=" + args.cuda_path,
                 "--offload", "matmul=cublas", "--name=net", "-o", work,
                 "--dump-dir", work]
        if device_tensors:
            flags.append("--on-device-tensors")
        subprocess.run([args.aotc, path] + flags, check=True)
        ir = open(os.path.join(work, "net.linalg.mlir")).read()
        calls = ir.count("call @net__aot_cublas_gemm_f32")
        if calls != 2:
            fail("expected 2 aot_cublas_gemm_f32 calls, got %d" % calls)
        header = open(os.path.join(work, "net.h")).read()
        if "aot_status_t aot_cublas_gemm_f32(" not in header:
            fail("net.h does not declare aot_cublas_gemm_f32")
        library = os.path.join(work, "libnet.so")
        subprocess.run([args.cc, "-shared", "-o", library,
                        os.path.join(work, "net.o"), "-Wl,--start-group"] +
                       args.link + ["-Wl,--end-group", "-lstdc++", "-ldl",
                                    "-pthread"], check=True)

        lib = ctypes.CDLL(library)
        lib.fake_install()
        lib.fake_stream.restype = ctypes.c_void_p
        lib.fake_events.restype = ctypes.c_char_p
        inputs = [np.ascontiguousarray(x.numpy()) for x in xs]
        status, y = call_entry(lib, "net", inputs,
                               ctypes.c_void_p(lib.fake_stream()))
        if status != aot_abi.AOT_OK:
            fail("%s tensors: status %d" % (label, status))
        events = [e for e in lib.fake_events().decode().split(";") if e]
        cublas = [e for e in events if e.startswith("cublas")]
        # The Linear's bias: 1 row copied, doubled to 2 and 4, 1 more; its
        # GEMM; the MatMul's GEMM.
        if cublas != ["cublas copy"] * 4 + ["cublas gemm"] * 2:
            fail("%s tensors: cuBLAS work %s" % (label, cublas))
        if lib.fake_foreign_stream():
            fail("%s tensors: work on another stream than the caller's"
                 % label)
        if not device_tensors and (events[:4] != ["htod"] * 4 or
                                   events[-2:] != ["dtoh", "sync"]):
            fail("host tensors: expected the inputs copied in first, the "
                 "output copied out and one sync last, got %s" % events)
        check("%s tensors: 2 cuBLAS GEMMs (%s) vs PyTorch"
              % (label, ", ".join(events)), y, expected, 1e-4)
    return 0


if __name__ == "__main__":
    sys.exit(main())
