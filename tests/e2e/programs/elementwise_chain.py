"""Oracle for elementwise_chain.mlir.

Computed in float64 from the f32 inputs (math.erf from the Python standard
library, vectorized), rounded once to f32 at the end:
  out = max((exp(-x^2/2) * tanh(x) * y + erf(x / sqrt 2)) / (1 + |y|), -0.75) - x/8
"""
import math

import numpy as np

import e2e_common as common

r = common.rng(5)
x = r.uniform(-4.0, 4.0, (4, 1000)).astype(np.float32)
y = r.standard_normal((4, 1000)).astype(np.float32)

xd, yd = x.astype(np.float64), y.astype(np.float64)
erf = np.vectorize(math.erf, otypes=[np.float64])
# The program multiplies by the f32 constant 0.70710678, not by 1/sqrt(2).
rsqrt2 = float(np.float32(0.70710678))
g = np.exp(-0.5 * xd * xd)
t = np.tanh(xd) * yd
e = erf(xd * rsqrt2)
d = (g * t + e) / (1.0 + np.abs(yd))
out = np.maximum(d, -0.75) - 0.125 * xd
common.save([x, y], [out.astype(np.float32)])
