"""Oracle for reductions.mlir: sums and means in float64 (math.fsum for the
total), maxima and the i32 minimum exact.
"""
import math

import numpy as np

import e2e_common as common

r = common.rng(9)
# Mean 0.5: sums stay well away from zero, so rtol is meaningful.
x = r.uniform(-1.0, 2.0, (6, 40, 50)).astype(np.float32)
y = r.randint(-2**31, 2**31 - 1, (6, 40), dtype=np.int64).astype(np.int32)
xd = x.astype(np.float64)

s = np.zeros((6, 40))
for k in range(50):
    s += xd[:, :, k]
mx = np.full((40, 50), -np.inf, np.float32)
for i in range(6):
    mx = np.maximum(mx, x[i])
mean = np.array([math.fsum(xd[:, j, :].ravel()) for j in range(40)]) / 300.0
total = np.array(math.fsum(xd.ravel()))
mn = np.array([min(int(v) for v in row) for row in y], dtype=np.int32)
common.save([x, y], [s.astype(np.float32), mx, mean.astype(np.float32),
                     total.astype(np.float32), mn])
