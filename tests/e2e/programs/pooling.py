"""Oracle for pooling.mlir: 3x3 / stride 2 max pooling (padding 1, padded
cells never win) and average pooling (no padding, divide by 9).

Windows are enumerated with explicit loops over output positions.
"""
import numpy as np

import e2e_common as common

N, C, H, W, K, S = 2, 3, 15, 15, 3, 2
r = common.rng(8)
x = r.standard_normal((N, C, H, W)).astype(np.float32)

# Max pool: padding 1 on each side; only in-bounds cells take part, which is
# what -inf padding means.
OHm = (H + 2 - K) // S + 1
mx = np.empty((N, C, OHm, OHm), np.float32)
for i in range(OHm):
    for j in range(OHm):
        h0, w0 = S * i - 1, S * j - 1
        win = x[:, :, max(h0, 0):h0 + K, max(w0, 0):w0 + K]
        mx[:, :, i, j] = win.max(axis=(2, 3))

# Average pool without padding.
OHa = (H - K) // S + 1
avg = np.empty((N, C, OHa, OHa))
for i in range(OHa):
    for j in range(OHa):
        win = x[:, :, S * i:S * i + K, S * j:S * j + K].astype(np.float64)
        avg[:, :, i, j] = win.sum(axis=(2, 3)) / 9.0
common.save([x], [mx, avg.astype(np.float32)])
