#!/usr/bin/env python3
# ===- unsharp_mask.py - Python ctypes driver for unsharp_mask ---------------===#
#
# This file shows how a language without a C compiler at hand uses an aotc
# artifact: dlopen a shared library built from the object, read the model's
# self-description (unsharp_mask_info) through ctypes Structures that mirror
# aot_abi.h, allocate NumPy buffers from that description, and call the entry
# point. The result is checked against a NumPy reference.
#
#   python3 unsharp_mask.py path/to/libunsharp_mask_shared.so
#
# Exit status: 0 on a match, 1 on a mismatch or a failed call, 2 on bad usage.
#
# ===------------------------------------------------------------------------===#

import ctypes
import os
import sys
import time

import numpy as np

# ===------------------------------------------------------------------------===#
# Mirrors of aot_abi.h (AOT_ABI_VERSION 1). Field order and types are the ABI;
# tests/unit/StatusStringTest.cpp pins the offsets that ctypes computes here.
# ===------------------------------------------------------------------------===#

AOT_ABI_VERSION = 1

STATUS_NAMES = {
    0: "AOT_OK",
    1: "AOT_ERROR_INVALID_ARGUMENT",
    2: "AOT_ERROR_POOL_TOO_SMALL",
    3: "AOT_ERROR_SHAPE",
    4: "AOT_ERROR_NO_DEVICE",
    5: "AOT_ERROR_DEVICE",
    6: "AOT_ERROR_INTERNAL",
}

# aot dtype code -> (short name, NumPy dtype)
DTYPES = {
    1: ("f32", np.float32),
    2: ("f64", np.float64),
    3: ("f16", np.float16),
    4: ("bf16", np.uint16),  # NumPy has no bfloat16: raw bits
    5: ("i8", np.int8),
    6: ("u8", np.uint8),
    7: ("i16", np.int16),
    8: ("i32", np.int32),
    9: ("i64", np.int64),
    10: ("bool", np.bool_),
}


class AotTensorInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),  # -1: symbolic dimension
    ]


class AotModelInfo(ctypes.Structure):
    _fields_ = [
        ("abi_version", ctypes.c_uint32),
        ("name", ctypes.c_char_p),
        ("target", ctypes.c_char_p),
        ("num_inputs", ctypes.c_int32),
        ("num_outputs", ctypes.c_int32),
        ("inputs", ctypes.POINTER(AotTensorInfo)),
        ("outputs", ctypes.POINTER(AotTensorInfo)),
        ("pool_bytes", ctypes.c_uint64),
        ("pool_alignment", ctypes.c_uint32),
    ]


class AotCpuStream(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("num_threads", ctypes.c_int32)]


# ===------------------------------------------------------------------------===#
# Generic helpers (nothing below is specific to unsharp_mask)
# ===------------------------------------------------------------------------===#


def status_string(lib, status):
    """aot_status_string() when the library exports it, else a local table."""
    try:
        fn = lib.aot_status_string
    except AttributeError:
        return STATUS_NAMES.get(status, "unknown aot_status_t")
    fn.restype = ctypes.c_char_p
    fn.argtypes = [ctypes.c_int32]
    return fn(status).decode()


def describe(t):
    shape = [t.shape[i] for i in range(t.rank)]
    return f'{t.name.decode()}: {DTYPES[t.dtype][0]}[{",".join(map(str, shape))}]'


def aligned_empty(nbytes, alignment):
    """A NumPy byte buffer of nbytes whose data pointer is aligned: NumPy only
    guarantees element alignment, so over-allocate and slice."""
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    buf = raw[offset : offset + nbytes]
    assert buf.ctypes.data % alignment == 0
    return buf


def load_entry_point(lib, name):
    """Binds NAME and NAME_info; returns (function, info)."""
    info_fn = getattr(lib, name + "_info")
    info_fn.restype = ctypes.POINTER(AotModelInfo)
    info_fn.argtypes = []
    info = info_fn().contents
    if info.abi_version != AOT_ABI_VERSION:
        raise RuntimeError(f"ABI version {info.abi_version}, expected {AOT_ABI_VERSION}")
    fn = getattr(lib, name)
    fn.restype = ctypes.c_int32
    # inputs..., outputs..., pool, pool_bytes, stream
    fn.argtypes = [ctypes.c_void_p] * (info.num_inputs + info.num_outputs) + [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_void_p,
    ]
    return fn, info


# ===------------------------------------------------------------------------===#
# The reference (NumPy is the oracle)
# ===------------------------------------------------------------------------===#


def make_image(h, w, c):
    """Deterministic synthetic image covering every byte value 0..255."""
    rng = np.random.default_rng(2024)
    img = rng.integers(0, 32, size=(h, w, c), dtype=np.uint8)
    img[..., 0] = (np.arange(w) * 255 // (w - 1)).astype(np.uint8)[None, :]
    blocks = ((np.arange(h)[:, None] // 60) + (np.arange(w)[None, :] // 80)) % 2 == 1
    img[..., 1] = np.where(blocks, 230 + img[..., 1] % 16, img[..., 1])
    img[..., 2] += (np.arange(h) * 255 // (h - 1)).astype(np.uint8)[:, None]
    return img


def reference_unsharp_mask(img):
    x = img.astype(np.float32)
    h, w = x.shape[:2]
    xp = np.pad(x, ((1, 1), (1, 1), (0, 0)))  # zero padding
    k = np.array([1.0, 2.0, 1.0], dtype=np.float32) / 4.0
    blur = np.zeros_like(x)
    for dh in range(3):
        for dw in range(3):
            blur += (k[dh] * k[dw]) * xp[dh : dh + h, dw : dw + w]
    return np.clip(x + np.float32(1.5) * (x - blur), 0.0, 255.0)


# ===------------------------------------------------------------------------===#
# Driver
# ===------------------------------------------------------------------------===#


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} path/to/libunsharp_mask_shared.so", file=sys.stderr)
        return 2
    # dlopen only searches the library path for a name without a slash.
    path = os.path.abspath(argv[1]) if os.path.exists(argv[1]) else argv[1]
    lib = ctypes.CDLL(path)
    fn, info = load_entry_point(lib, "unsharp_mask")

    ins = [info.inputs[i] for i in range(info.num_inputs)]
    outs = [info.outputs[i] for i in range(info.num_outputs)]
    print(
        f"{info.name.decode()}({', '.join(map(describe, ins))}) -> "
        f"({', '.join(map(describe, outs))})  target={info.target.decode()} "
        f"pool={info.pool_bytes} bytes/{info.pool_alignment}"
    )

    (image_info,) = ins
    (out_info,) = outs
    shape = tuple(image_info.shape[i] for i in range(image_info.rank))
    img = make_image(*shape)
    # The model's i8 input carries raw bytes that it reads as unsigned; a
    # view shares the memory and keeps the bit patterns.
    image = np.ascontiguousarray(img).view(DTYPES[image_info.dtype][1])
    out = np.empty([out_info.shape[i] for i in range(out_info.rank)],
                   dtype=DTYPES[out_info.dtype][1])
    pool = aligned_empty(info.pool_bytes, info.pool_alignment)

    ref = reference_unsharp_mask(img)
    ok = True
    two_threads = AotCpuStream(ctypes.sizeof(AotCpuStream), 2)
    for label, stream in (("stream=None", None), ("2 threads", ctypes.byref(two_threads))):
        # Untimed warm-up (thread start-up, first touch of the pool).
        fn(image.ctypes.data, out.ctypes.data, pool.ctypes.data, info.pool_bytes, stream)
        out.fill(np.nan)  # a call that writes nothing cannot pass
        t0 = time.perf_counter()
        status = fn(image.ctypes.data, out.ctypes.data, pool.ctypes.data,
                    info.pool_bytes, stream)
        ms = (time.perf_counter() - t0) * 1e3
        if status != 0:
            print(f"[{label}] failed: {status} ({status_string(lib, status)})")
            ok = False
            continue
        err = np.abs(out.astype(np.float64) - ref)
        err[np.isnan(err)] = np.inf
        bad = int(np.count_nonzero(err > 1e-5 + 1e-4 * np.abs(ref)))
        print(f"[{label}] {ms:.2f} ms, out[0,0,:] = {out[0, 0]}, "
              f"out[540,960,:] = {out[540, 960]}")
        print(f"[{label}] max abs error {err.max():g}, {bad} of {out.size} "
              f"outside tolerance: {'MATCH' if bad == 0 else 'MISMATCH'}")
        ok &= bad == 0

    # Error handling through the same binding: a pool one byte too small.
    # The call must fail without writing to the output.
    if info.pool_bytes > 0:
        out.fill(np.nan)
        status = fn(image.ctypes.data, out.ctypes.data, pool.ctypes.data,
                    info.pool_bytes - 1, None)
        untouched = bool(np.isnan(out).all())
        print(f"pool_bytes - 1 -> {status} ({status_string(lib, status)}), "
              f"output {'untouched' if untouched else 'WRITTEN'}")
        ok &= status == 2 and untouched  # AOT_ERROR_POOL_TOO_SMALL

    print("MATCH" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
