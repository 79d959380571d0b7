"""Oracle for erf_accuracy.mlir.

Inputs: 32768 f32 values, a uniform sweep of [-4.5, 4.5] (where erf moves
away from +-1), log-spaced magnitudes down to 1e-38 of both signs, zeros
and large values. Expected outputs: math.erf (Python's standard library) in
float64 of the f32 input, and of the f32 quotient x / 1.41421354 (the
program divides in f32), each rounded once to f32.
"""
import math

import numpy as np

import e2e_common as common

sweep = np.linspace(-4.5, 4.5, 28672)
tiny = np.geomspace(1e-38, 1e-2, 2042)
special = [0.0, -0.0, 3.9, -3.9, 3.9193, 3.92, 10.0, -10.0, 1e30, -1e30,
           3e38, -3e38]
x = np.concatenate([sweep, tiny, -tiny, special]).astype(np.float32)
assert x.size == 32768, x.size

erf = np.vectorize(math.erf, otypes=[np.float64])
quotient = (x / np.float32(1.41421354)).astype(np.float32)
common.save([x], [erf(x.astype(np.float64)).astype(np.float32),
                  erf(quotient.astype(np.float64)).astype(np.float32)])
