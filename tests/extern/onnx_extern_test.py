#!/usr/bin/env python3
"""Extern kernels in an ONNX model exported from PyTorch with a custom op.

A network whose activation is a custom autograd function, Swish (x *
sigmoid(beta x)), exported through its `symbolic` as the node
`custom::Swish` with attributes beta (float) and name (string). Its
outputs' shapes are set in the graph's value_info (the exporter does not
know them; PyTorch's forward pass does). The model is compiled with
`--extern custom::Swish=swish_kernel --extern-scratch swish_kernel=1024`,
linked with swish_kernel.c and called through ctypes:

  * the output matches PyTorch's (error below 1e-4 of its largest
    magnitude), at the default thread count and at 1 thread;
  * the kernel saw its tensors, attributes, scratch and stream as
    aot_extern.h promises (it returns AOT_ERROR_INVALID_ARGUMENT
    otherwise);
  * a failing kernel's status is the entry point's, the output is not
    written and the second Swish is not called;
  * without value_info for a custom node's output, aotc stops with an
    error naming the output.

Usage: onnx_extern_test.py --aotc AOTC --runtime LIB --omp LIBOMP
                           --include DIR [--cc CC] --workdir DIR
"""

import ctypes
import os
import subprocess
import sys

import numpy as np
import onnx
import torch

from extern_common import aot_abi, arguments, fail, kernel_library


class Swish(torch.autograd.Function):
    shapes = []  # of each call's output, in order (for value_info)

    @staticmethod
    def forward(ctx, x, beta):
        y = x * torch.sigmoid(beta * x)
        Swish.shapes.append([int(d) for d in y.shape])
        return y

    @staticmethod
    def symbolic(g, x, beta):
        y = g.op("custom::Swish", x, beta_f=beta, name_s="swish")
        y.setType(x.type())
        return y


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.b = torch.nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        x = Swish.apply(self.a(x), 1.5)
        x = Swish.apply(self.b(x), 0.75)
        return self.fc(x.mean(dim=(2, 3)))


def main():
    args = arguments()
    work = args.workdir

    torch.manual_seed(0)
    net = Net().eval()
    x = torch.randn(2, 3, 32, 32)
    with torch.no_grad():
        expected = net(x).numpy()
    raw = os.path.join(work, "swish_raw.onnx")
    Swish.shapes.clear()
    torch.onnx.export(net, x, raw, opset_version=13, input_names=["x"],
                      output_names=["y"], custom_opsets={"custom": 1})
    model = onnx.load(raw)
    swish_outputs = [n.output[0] for n in model.graph.node
                     if n.domain == "custom" and n.op_type == "Swish"]
    if len(swish_outputs) != 2 or len(Swish.shapes) < 2:
        fail("expected two custom::Swish nodes, got %d" % len(swish_outputs))
    del model.graph.value_info[:]
    for name, shape in zip(swish_outputs, Swish.shapes[-2:]):
        model.graph.value_info.append(onnx.helper.make_tensor_value_info(
            name, onnx.TensorProto.FLOAT, shape))
    path = os.path.join(work, "swish.onnx")
    onnx.save(model, path)

    flags = ["--extern", "custom::Swish=swish_kernel",
             "--extern-scratch", "swish_kernel=1024"]
    subprocess.run([args.aotc, path, "--name=swishnet", "-o", work] + flags,
                   check=True)
    lib, pool = kernel_library(args, "swishnet", "swish_kernel.c")
    size = len(pool)
    problem = ctypes.c_char.in_dll(lib, "swish_problem")
    calls = ctypes.c_int32.in_dll(lib, "swish_calls")
    fail_with = ctypes.c_int32.in_dll(lib, "swish_fail")
    xs = np.ascontiguousarray(x.numpy())

    def run(stream=None):
        y = np.full(expected.shape, 7.0, np.float32)
        P = ctypes.c_void_p
        lib.swishnet.restype = ctypes.c_int32
        status = lib.swishnet(xs.ctypes.data_as(P), y.ctypes.data_as(P),
                              pool.ctypes.data_as(P), ctypes.c_size_t(size),
                              stream)
        return status, y

    one = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream), 1)
    for label, stream in (("default threads", None),
                          ("1 thread", ctypes.byref(one))):
        status, y = run(stream)
        if status != aot_abi.AOT_OK:
            fail("%s: status %d (%s)" % (
                label, status, ctypes.string_at(ctypes.addressof(problem))))
        error = float(np.abs(y - expected).max())
        limit = 1e-4 * float(np.abs(expected).max())
        if not error <= limit:
            fail("%s: error %g above %g" % (label, error, limit))
        print("PASS %s: max|error| %.3g (limit %.3g)" % (label, error, limit))

    calls.value = 0
    fail_with.value = 77
    status, y = run()
    if status != 77 or calls.value != 1 or not (y == 7.0).all():
        fail("failing kernel: status %d, %d calls, output %s" %
             (status, calls.value,
              "untouched" if (y == 7.0).all() else "written"))
    print("PASS failing kernel: status 77, one call, output untouched")

    # Without value_info for a custom output: a clear error naming it.
    del model.graph.value_info[:]
    bare = os.path.join(work, "swish_bare.onnx")
    onnx.save(model, bare)
    result = subprocess.run([args.aotc, bare, "--name=bare", "-o",
                             os.path.join(work, "bare")] + flags,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    wanted = "output '%s' has no value_info" % swish_outputs[0]
    if result.returncode != 1 or wanted not in result.stdout:
        fail("missing value_info: exit %d, %s" %
             (result.returncode, result.stdout))
    print("PASS missing value_info: %s" % result.stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
