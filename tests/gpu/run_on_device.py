#!/usr/bin/env python3
#===- tests/gpu/run_on_device.py - GPU e2e test against NumPy ------------===#
#
# Compiles a program with `aotc --target=cuda` (or hip) into a shared
# library, runs it on the first device with the inputs of the program's
# NumPy reference (.npz from tests/e2e) and compares every output with the
# per-dtype tolerances of docs/contracts.md. The pool is allocated with the
# driver API (cuMemAlloc; HIP: hipMalloc) and the call is enqueued on a
# stream of our own; with --on-device-tensors the tensors are device buffers
# too and the script synchronizes the stream itself.
#
# Exits 77 (ctest SKIP_RETURN_CODE) when there is no driver or device: no
# libcuda.so.1 (libamdhip64), cuInit (hipInit) failing, or no device.
#
#===----------------------------------------------------------------------===#

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e", "programs"))
# docs/contracts.md: |actual - expected| <= atol + rtol * |expected|.
from e2e_common import compare  # noqa: E402

SKIP = 77


class Device:
    """Device 0 of one GPU API, through the entry points named in `api`
    (the same calls in CUDA's driver API and in HIP's)."""

    def __init__(self, lib, name, api, pointer_type, stream_flags):
        self.lib = lib
        self.name = name
        self.api = api
        self.pointer_type = pointer_type  # CUdeviceptr / hipDeviceptr_t
        self.stream_flags = stream_flags  # cuStreamCreate's extra argument

    def call(self, what, *args):
        symbol = self.api[what]
        result = getattr(self.lib, symbol)(*args)
        if result != 0:
            sys.exit(f"FAIL: {symbol} returned {self.name} error {result}")

    def alloc(self, nbytes):
        """Device memory (256-byte aligned) as an integer address."""
        pointer = self.pointer_type()
        self.call("alloc", ctypes.byref(pointer),
                  ctypes.c_size_t(max(nbytes, 1)))
        return pointer.value

    def free(self, pointer):
        getattr(self.lib, self.api["free"])(self.pointer_type(pointer))

    def to_device(self, pointer, array):
        self.call("htod", self.pointer_type(pointer),
                  array.ctypes.data_as(ctypes.c_void_p),
                  ctypes.c_size_t(array.nbytes))

    def to_host(self, array, pointer):
        self.call("dtoh", array.ctypes.data_as(ctypes.c_void_p),
                  self.pointer_type(pointer), ctypes.c_size_t(array.nbytes))

    def create_stream(self):
        stream = ctypes.c_void_p()
        self.call("stream_create", ctypes.byref(stream), *self.stream_flags)
        return stream

    def synchronize(self, stream):
        self.call("synchronize", stream)

    def destroy_stream(self, stream):
        getattr(self.lib, self.api["stream_destroy"])(stream)


def load_library(api, libraries, init, get_count):
    """The first of `libraries` that loads, initialised (`init(0)`) and with
    a device (`get_count`), or None and why not (skip)."""
    lib = None
    for library in libraries:
        try:
            lib = ctypes.CDLL(library)
            break
        except OSError:
            continue
    if lib is None:
        return None, f"no {api} library ({', '.join(libraries)})"
    # ROCm 5 reports a machine without an AMD GPU from hipInit itself.
    if getattr(lib, init)(0) != 0:
        return None, f"{init} failed"
    count = ctypes.c_int(0)
    if getattr(lib, get_count)(ctypes.byref(count)) != 0 or count.value == 0:
        return None, f"no {api} device"
    return lib, ""


def open_cuda():
    """libcuda with device 0's primary context current, or None and why
    not (skip)."""
    cuda, why = load_library("CUDA", ("libcuda.so.1",), "cuInit",
                             "cuDeviceGetCount")
    if cuda is None:
        return None, why
    device = Device(cuda, "CUDA", {
        "alloc": "cuMemAlloc_v2", "free": "cuMemFree_v2",
        "htod": "cuMemcpyHtoD_v2", "dtoh": "cuMemcpyDtoH_v2",
        "stream_create": "cuStreamCreate",
        "synchronize": "cuStreamSynchronize",
        "stream_destroy": "cuStreamDestroy_v2", "get": "cuDeviceGet",
        "retain": "cuDevicePrimaryCtxRetain", "set": "cuCtxSetCurrent"},
        ctypes.c_uint64, (0,))
    ordinal = ctypes.c_int(0)
    context = ctypes.c_void_p()
    device.call("get", ctypes.byref(ordinal), 0)
    device.call("retain", ctypes.byref(context), ordinal)
    device.call("set", context)
    return device, ""


# The HIP library names aot_runtime_hip tries, in its order.
HIP_LIBRARIES = ("libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                 "libamdhip64.so.5")


def open_hip():
    """libamdhip64 on device 0, or None and why not (skip)."""
    hip, why = load_library("HIP", HIP_LIBRARIES, "hipInit",
                            "hipGetDeviceCount")
    if hip is None:
        return None, why
    device = Device(hip, "HIP", {
        "alloc": "hipMalloc", "free": "hipFree", "htod": "hipMemcpyHtoD",
        "dtoh": "hipMemcpyDtoH", "stream_create": "hipStreamCreate",
        "synchronize": "hipStreamSynchronize",
        "stream_destroy": "hipStreamDestroy", "set": "hipSetDevice"},
        ctypes.c_void_p, ())
    device.call("set", 0)
    return device, ""


OPEN_DEVICE = {"cuda": open_cuda, "hip": open_hip}
# The aotc flag that names each target's toolkit.
TOOLKIT_FLAGS = {"cuda": "--cuda-path=", "hip": "--rocm-device-libs="}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--aotc", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--reference", required=True)
    p.add_argument("--cc", required=True)
    p.add_argument("--target", choices=sorted(OPEN_DEVICE), default="cuda")
    p.add_argument("--chips", required=True,
                   help="--chip for aotc: must include the device's")
    p.add_argument("--toolkit", required=True,
                   help="CUDA toolkit, or ROCm device libraries for hip")
    p.add_argument("--runtime-libs", required=True, nargs="+")
    p.add_argument("--on-device-tensors", action="store_true")
    args = p.parse_args()

    device, why = OPEN_DEVICE[args.target]()
    if device is None:
        print(f"SKIP: {why}")
        sys.exit(SKIP)

    name = os.path.splitext(os.path.basename(args.source))[0]
    ref = np.load(args.reference)
    inputs = [ref[f"input_{i}"] for i in range(len(ref.files))
              if f"input_{i}" in ref.files]
    expected = [ref[f"output_{i}"] for i in range(len(ref.files))
                if f"output_{i}" in ref.files]
    with tempfile.TemporaryDirectory(prefix="aotc-gpu-run-") as tmp:
        flags = ["--on-device-tensors"] if args.on_device_tensors else []
        subprocess.run([args.aotc, args.source, f"--target={args.target}",
                        f"--chip={args.chips}",
                        TOOLKIT_FLAGS[args.target] + args.toolkit,
                        f"--name={name}", "--emit=obj,header,json", "-o", tmp,
                        *flags], check=True)
        library = os.path.join(tmp, f"lib{name}.so")
        subprocess.run([args.cc, "-shared", "-o", library,
                        os.path.join(tmp, name + ".o"), "-Wl,--whole-archive",
                        *args.runtime_libs, "-Wl,--no-whole-archive", "-ldl",
                        "-lpthread"], check=True)
        lib = ctypes.CDLL(library)

    class ModelInfo(ctypes.Structure):
        _fields_ = [("abi_version", ctypes.c_uint32), ("name", ctypes.c_char_p),
                    ("target", ctypes.c_char_p), ("num_inputs", ctypes.c_int32),
                    ("num_outputs", ctypes.c_int32), ("inputs", ctypes.c_void_p),
                    ("outputs", ctypes.c_void_p), ("pool_bytes", ctypes.c_uint64),
                    ("pool_alignment", ctypes.c_uint32)]
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(ModelInfo)
    info = info_fn().contents
    entry = getattr(lib, name)
    entry.restype = ctypes.c_int32

    outputs = [np.empty_like(e) for e in expected]
    pool = device.alloc(info.pool_bytes)
    stream = device.create_stream()
    device_buffers = []
    if args.on_device_tensors:
        for a in inputs + outputs:
            device_buffers.append(device.alloc(a.nbytes))
        for a, d in zip(inputs, device_buffers):
            device.to_device(d, a)
        pointers = [ctypes.c_void_p(d) for d in device_buffers]
    else:
        pointers = [a.ctypes.data_as(ctypes.c_void_p) for a in inputs + outputs]
    status = entry(*pointers, ctypes.c_void_p(pool),
                   ctypes.c_size_t(info.pool_bytes), stream)
    if status != 0:
        sys.exit(f"FAIL: {name} returned status {status}")
    device.synchronize(stream)
    if args.on_device_tensors:
        for a, d in zip(outputs, device_buffers[len(inputs):]):
            device.to_host(a, d)
    for d in device_buffers + [pool]:
        device.free(d)
    device.destroy_stream(stream)

    failed = False
    for i, (got, want) in enumerate(zip(outputs, expected)):
        # NaN only for NaN: a test of |got - want| > tolerance alone is
        # false for a NaN output, which would pass.
        problem = compare(got, want)
        if problem:
            failed = True
            print(f"output {i}: {problem}")
    if failed:
        sys.exit(1)
    print(f"{name}: {len(outputs)} outputs match the NumPy reference")


if __name__ == "__main__":
    main()
