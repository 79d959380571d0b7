"""Oracle for softmax.mlir: y[i, j] = exp(x[i, j] - max_i) / sum_j exp(x[i, j] - max_i),
row by row in float64. Rows get different scales (one row has large logits)
so that the max subtraction matters.
"""
import numpy as np

import e2e_common as common

r = common.rng(10)
scale = np.array([0.1, 1.0, 3.0, 10.0, 1.0, 5.0, 30.0, 2.0])[:, None]
x = (r.standard_normal((8, 128)) * scale).astype(np.float32)
x[4] += 100.0  # exp(x) alone would overflow f32 (> 88.7) in this row
y = np.empty((8, 128))
for i in range(8):
    row = x[i].astype(np.float64)
    e = np.exp(row - row.max())
    y[i] = e / e.sum()
common.save([x], [y.astype(np.float32)])
