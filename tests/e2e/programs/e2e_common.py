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
