#!/usr/bin/env python3
#===- tests/gpu/run_on_device.py - CUDA e2e test against NumPy -----------===#
#
# Compiles a program with `aotc --target=cuda` into a shared library, runs it
# on the first CUDA device with the inputs of the program's NumPy reference
# (.npz from tests/e2e) and compares every output with the per-dtype
# tolerances of docs/contracts.md. The pool is allocated with the driver API
# (cuMemAlloc) and the call is enqueued on a stream of our own; with
# --on-device-tensors the tensors are device buffers too and the script
# synchronizes the stream itself.
#
# Exits 77 (ctest SKIP_RETURN_CODE) when there is no CUDA driver or device.
#
#===----------------------------------------------------------------------===#

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

SKIP = 77
# docs/contracts.md: |actual - expected| <= atol + rtol * |expected|.
TOLERANCES = {np.dtype(np.float16): (1e-2, 1e-3),
              np.dtype(np.float32): (1e-4, 1e-5),
              np.dtype(np.float64): (1e-10, 1e-12)}


def load_driver():
    """libcuda with a current context on device 0, or None (skip)."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None, "no CUDA driver (libcuda.so.1)"
    if cuda.cuInit(0) != 0:
        return None, "cuInit failed"
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return None, "no CUDA device"
    device = ctypes.c_int(0)
    context = ctypes.c_void_p()
    check(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device),
          "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
    return cuda, ""


def check(result, what):
    if result != 0:
        sys.exit(f"FAIL: {what} returned CUDA error {result}")


def device_alloc(cuda, nbytes):
    pointer = ctypes.c_uint64()
    check(cuda.cuMemAlloc_v2(ctypes.byref(pointer), ctypes.c_size_t(max(nbytes, 1))),
          "cuMemAlloc")
    return pointer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--aotc", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--reference", required=True)
    p.add_argument("--cc", required=True)
    p.add_argument("--cuda-path", required=True)
    p.add_argument("--runtime-libs", required=True, nargs="+")
    p.add_argument("--on-device-tensors", action="store_true")
    args = p.parse_args()

    cuda, why = load_driver()
    if cuda is None:
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
        subprocess.run([args.aotc, args.source, "--target=cuda",
                        f"--cuda-path={args.cuda_path}",
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
    pool = device_alloc(cuda, info.pool_bytes)  # 256-byte aligned
    stream = ctypes.c_void_p()
    check(cuda.cuStreamCreate(ctypes.byref(stream), 0), "cuStreamCreate")
    device_buffers = []
    if args.on_device_tensors:
        for a in inputs + outputs:
            device_buffers.append(device_alloc(cuda, a.nbytes))
        for a, d in zip(inputs, device_buffers):
            check(cuda.cuMemcpyHtoD_v2(d, a.ctypes.data_as(ctypes.c_void_p),
                                       ctypes.c_size_t(a.nbytes)), "cuMemcpyHtoD")
        pointers = [ctypes.c_void_p(d.value) for d in device_buffers]
    else:
        pointers = [a.ctypes.data_as(ctypes.c_void_p) for a in inputs + outputs]
    status = entry(*pointers, ctypes.c_void_p(pool.value),
                   ctypes.c_size_t(info.pool_bytes), stream)
    if status != 0:
        sys.exit(f"FAIL: {name} returned status {status}")
    check(cuda.cuStreamSynchronize(stream), "cuStreamSynchronize")
    if args.on_device_tensors:
        for a, d in zip(outputs, device_buffers[len(inputs):]):
            check(cuda.cuMemcpyDtoH_v2(a.ctypes.data_as(ctypes.c_void_p), d,
                                       ctypes.c_size_t(a.nbytes)), "cuMemcpyDtoH")
    for d in device_buffers + [pool]:
        cuda.cuMemFree_v2(d)
    cuda.cuStreamDestroy_v2(stream)

    failed = False
    for i, (got, want) in enumerate(zip(outputs, expected)):
        rtol, atol = TOLERANCES.get(want.dtype, (0, 0))
        bad = np.abs(got.astype(np.float64) - want.astype(np.float64)) > \
            atol + rtol * np.abs(want.astype(np.float64))
        if bad.any():
            failed = True
            print(f"output {i}: {int(bad.sum())} of {want.size} elements "
                  f"outside rtol {rtol} atol {atol}")
    if failed:
        sys.exit(1)
    print(f"{name}: {len(outputs)} outputs match the NumPy reference")


if __name__ == "__main__":
    main()
