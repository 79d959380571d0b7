"""An entry point compiled by aotc (--emit=obj,header,json), linked with the
runtime into a shared library and loaded through ctypes, with a 64-byte
aligned pool of the size its JSON description gives: shared by the ONNX
tests that call one entry point on NumPy arrays."""

import ctypes
import json
import os
import subprocess

import numpy as np


class CompiledModel:
    def __init__(self, directory, name, runtime):
        so = os.path.join(directory, name + ".so")
        subprocess.run(["clang-22", "-shared", "-o", so,
                        os.path.join(directory, name + ".o"), runtime,
                        "-L/usr/lib/llvm-22/lib", "-lomp",
                        "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
        with open(os.path.join(directory, name + ".json")) as f:
            self.pool_bytes = json.load(f)["entry_points"][0]["pool_bytes"]
        self.lib = ctypes.CDLL(so)
        self.fn = getattr(self.lib, name)
        self.fn.restype = ctypes.c_int32
        self.raw = np.zeros(self.pool_bytes + 64, np.uint8)
        self.offset = (-self.raw.ctypes.data) % 64

    def __call__(self, arrays, stream=None):
        """Status of the call on `arrays` (inputs, then outputs, each
        C-contiguous), with `stream` (a ctypes pointer or None)."""
        P = ctypes.c_void_p
        return self.fn(*[P(a.ctypes.data) for a in arrays],
                       P(self.raw.ctypes.data + self.offset),
                       ctypes.c_size_t(self.pool_bytes), stream)
