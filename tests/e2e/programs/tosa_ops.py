"""Oracle for tosa_ops.mlir, following the TOSA specification's definitions:

- MATMUL, ADD (broadcast of size-1 dims), CLAMP, REDUCE_SUM, RESHAPE in f64;
- MUL on i32 with shift s > 0: product = i*j in 64 bits,
  (product + (1 << (s-1))) >> s (arithmetic shift), must fit i32;
- CONV2D NHWC x OHWI with bias, zero padding 1, stride 1, dilation 1.
"""
import numpy as np

import e2e_common as common

r = common.rng(17)
a = r.standard_normal((1, 8, 16)).astype(np.float32)
b = r.standard_normal((1, 16, 12)).astype(np.float32)
bias = r.standard_normal((1, 1, 12)).astype(np.float32)
# |i*j| up to 2.5e9 overflows i32 before the shift: the 64-bit product matters.
i = r.randint(-50000, 50001, (2, 8)).astype(np.int32)
j = r.randint(-50000, 50001, (2, 8)).astype(np.int32)
i[0, :4] = [5, -9, 7, -7]                       # rounding ties of the shift
j[0, :4] = [4, 4, 1, 1]
img = r.standard_normal((1, 6, 6, 3)).astype(np.float32)
w = r.standard_normal((4, 3, 3, 3)).astype(np.float32)
cbias = r.standard_normal(4).astype(np.float32)

mm = np.zeros((1, 8, 12))
for k in range(16):
    mm[0] += np.outer(a[0, :, k].astype(np.float64), b[0, k, :].astype(np.float64))
clamp = np.minimum(np.maximum(mm + bias[0, 0].astype(np.float64), 0.0), 6.0)
clamp32 = clamp.astype(np.float32)
# REDUCE_SUM reads the f32 clamp result.
flat = np.array([sum(float(v) for v in clamp32[0, m, :]) for m in range(8)])

SHIFT = 3
prod = np.empty((2, 8), np.int32)
for idx in np.ndindex(2, 8):
    p = int(i[idx]) * int(j[idx])
    p = (p + (1 << (SHIFT - 1))) >> SHIFT         # Python >> floors: arithmetic
    assert -2**31 <= p < 2**31
    prod[idx] = p

pad = np.zeros((1, 8, 8, 3))
pad[:, 1:7, 1:7, :] = img
conv = np.empty((1, 6, 6, 4))
for y in range(6):
    for x in range(6):
        for o in range(4):
            conv[0, y, x, o] = cbias[o] + np.sum(pad[0, y:y + 3, x:x + 3, :] * w[o])
common.save([a, b, bias, i, j, img, w, cbias],
            [flat.astype(np.float32), clamp32, prod, conv.astype(np.float32)])
