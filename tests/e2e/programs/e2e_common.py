"""Shared helpers for the e2e oracles (tests/e2e/programs/<name>.py).

Every oracle is run as `python3 <name>.py OUT.npz`. It draws its inputs from a
fixed seed, computes the expected outputs with NumPy (independently of the
MLIR program: explicit loops, einsum, float64 references, ...) and writes an
uncompressed .npz with keys input_0.., output_0.. in argument order and with
exactly the model's dtypes (i1 as numpy bool), as docs/contracts.md asks.

Random numbers come from the legacy np.random.RandomState, whose streams NumPy
keeps bit-for-bit stable across releases, so a reference is reproducible on
any NumPy version.
"""
import sys

import numpy as np

# Element types the programs use; anything else in a reference is a bug.
ALLOWED_DTYPES = {np.dtype(t) for t in
                  (np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.bool_)}


def rng(seed):
    """The one random source of an oracle (legacy, stable stream)."""
    return np.random.RandomState(seed)


def out_path():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT.npz")
    return sys.argv[1]


def save(inputs, outputs, path=None):
    """Writes input_i / output_i; dtypes must already be the model's."""
    path = path or out_path()
    arrays = {}
    for prefix, values in (("input", inputs), ("output", outputs)):
        for i, a in enumerate(values):
            a = np.asarray(a, order="C")  # (ascontiguousarray would make 0-d 1-d)
            if a.dtype not in ALLOWED_DTYPES:
                raise TypeError(f"{prefix}_{i}: unexpected dtype {a.dtype}")
            if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
                raise ValueError(f"{prefix}_{i}: non-finite values")
            arrays[f"{prefix}_{i}"] = a
    np.savez(path, **arrays)


# Per-dtype (rtol, atol) of cmake/aot_test_support/aot_tolerance.h, for the
# Python runners that check a program's outputs against its reference.
TOLERANCES = {np.dtype(np.float16): (1e-2, 1e-3),
              np.dtype(np.float32): (1e-4, 1e-5),
              np.dtype(np.float64): (1e-10, 1e-12)}


def compare(actual, expected, tolerance=None):
    """None when `actual` matches `expected`, else a description: the rule
    of aot_tolerance.h (|a - e| <= atol + rtol * |e|, `tolerance` or the
    dtype's; integers and bools exactly), NaN only for NaN, an infinity
    only for the same infinity."""
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != {expected.shape}"
    rtol, atol = tolerance or TOLERANCES.get(expected.dtype, (0, 0))
    if rtol == 0 and atol == 0:
        bad = np.count_nonzero(actual != expected)
        return f"{bad} elements differ" if bad else None
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - e)
        close = diff <= atol + rtol * np.abs(e)
    special = np.isnan(a) | np.isnan(e) | np.isinf(a) | np.isinf(e)
    same = (np.isnan(a) & np.isnan(e)) | (a == e)
    ok = np.where(special, same, close)
    if ok.all():
        return None
    worst = int(np.argmax(np.where(ok, 0, np.nan_to_num(diff, nan=np.inf))))
    return (f"{np.count_nonzero(~ok)} of {ok.size} elements out of "
            f"tolerance (rtol {rtol}, atol {atol}), e.g. {a.flat[worst]} vs "
            f"{e.flat[worst]}")
