#!/usr/bin/python3
"""DenseNet-style blocks (each layer's input the concatenation of the block's
input and every earlier layer's output) exported from PyTorch, against
PyTorch's own outputs.

aotc-grow-concats-in-place builds such concatenations as slices of one
tensor, each part inserted once. Each case is compiled with --dump-dir; the
tiled IR must insert the block's input (the function argument) into a
concatenation once, not once per layer, and the outputs, at 1 and 2
threads, must match PyTorch within 1e-4 * (1 + max |torch|). The BatchNorm
statistics are random, so that the normalisation matters.

Usage: dense_concat_test.py WORKDIR AOTC RUNTIME
"""

import ctypes
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "include", "aot_abi"))
import aot_abi  # noqa: E402
from compiled_model import CompiledModel  # noqa: E402

CASES = [
    # name, input shape, layers, growth
    ("dense4_28x28", (1, 64, 28, 28), 4, 32),
    ("dense3_batch2_odd", (2, 24, 9, 13), 3, 12),
]


class Layer(torch.nn.Module):
    def __init__(self, channels, growth):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(channels)
        self.conv1 = torch.nn.Conv2d(channels, 4 * growth, 1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(4 * growth)
        self.conv2 = torch.nn.Conv2d(4 * growth, growth, 3, padding=1,
                                     bias=False)

    def forward(self, x):
        y = self.conv1(torch.relu(self.bn1(x)))
        return self.conv2(torch.relu(self.bn2(y)))


class Block(torch.nn.Module):
    def __init__(self, channels, layers, growth):
        super().__init__()
        self.layers = torch.nn.ModuleList(
            Layer(channels + i * growth, growth) for i in range(layers))

    def forward(self, x):
        features = [x]
        for layer in self.layers:
            features.append(layer(torch.cat(features, 1)))
        return torch.cat(features, 1)


def main():
    work, aotc, runtime = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    failures = 0
    for name, shape, layers, growth in CASES:
        model = Block(shape[1], layers, growth).eval()
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-1, 1)
                m.running_var.uniform_(0.5, 2)
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.5, 0.5)
        x = torch.randn(*shape)
        with torch.no_grad():
            want = model(x).numpy()
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "dense.onnx")
        torch.onnx.export(model, x, path, opset_version=13)
        dump = os.path.join(d, "dump")
        subprocess.run([aotc, path, "--name=dense", "--emit=obj,header,json",
                        "-o", d, "--dump-dir", dump], check=True)
        with open(os.path.join(dump, "dense.tiled.mlir")) as f:
            inserts = f.read().count("tensor.insert_slice %arg0 ")
        compiled = CompiledModel(d, "dense", runtime)
        xs = np.ascontiguousarray(x.numpy())
        for threads in (1, 2):
            stream = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream),
                                       threads)
            got = np.full(want.shape, np.nan, np.float32)
            status = compiled([xs, got], ctypes.byref(stream))
            err = float(np.abs(got - want).max()) if status == 0 else np.inf
            ok = err <= 1e-4 * (1 + float(np.abs(want).max())) and inserts == 1
            failures += not ok
            print("%s %s, %d thread(s): status %d, max |aotc - torch| %.3g, "
                  "block input inserted %d time(s)" %
                  ("PASS" if ok else "FAIL", name, threads, status, err,
                   inserts))
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
