"""Oracle for conv2d_basic.mlir: valid (unpadded) stride-1 convolution.

Cross-correlation as a sum of shifted windows, one einsum per kernel tap:
  y[n, f, i, j] = sum_{c, kh, kw} x[n, c, i + kh, j + kw] * w[f, c, kh, kw]
"""
import numpy as np

import e2e_common as common

r = common.rng(7)
x = r.standard_normal((2, 3, 16, 16)).astype(np.float32)
w = r.standard_normal((8, 3, 3, 3)).astype(np.float32)
xd, wd = x.astype(np.float64), w.astype(np.float64)
y = np.zeros((2, 8, 14, 14))
for kh in range(3):
    for kw in range(3):
        window = xd[:, :, kh:kh + 14, kw:kw + 14]  # [n, c, i, j]
        y += np.einsum("ncij,fc->nfij", window, wd[:, :, kh, kw])
common.save([x, w], [y.astype(np.float32)])
