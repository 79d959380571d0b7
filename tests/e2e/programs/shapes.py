"""Oracle for shapes.mlir: every result is built element by element from
index formulas (no np.transpose / reshape / concatenate on the way).
"""
import itertools

import numpy as np

import e2e_common as common

r = common.rng(11)
x = r.standard_normal((4, 6, 8)).astype(np.float32)
y = r.standard_normal((4, 3, 8)).astype(np.float32)

r0 = np.empty((8, 4, 6), np.float32)           # r0[k, i, j] = x[i, j, k]
for i, j, k in itertools.product(range(4), range(6), range(8)):
    r0[k, i, j] = x[i, j, k]

r1 = np.empty((24, 2, 4), np.float32)          # row-major linear order kept
for a, b, c in itertools.product(range(24), range(2), range(4)):
    lin = a * 8 + b * 4 + c
    r1[a, b, c] = x[lin // 48, (lin // 8) % 6, lin % 8]

r2 = np.empty((4, 9, 8), np.float32)
for i, j, k in itertools.product(range(4), range(9), range(8)):
    r2[i, j, k] = x[i, j, k] if j < 6 else y[i, j - 6, k]

r3 = np.empty((2, 3, 3), np.float32)           # offsets [1,0,1], strides [2,2,3]
for a, b, c in itertools.product(range(2), range(3), range(3)):
    r3[a, b, c] = x[1 + 2 * a, 0 + 2 * b, 1 + 3 * c]

r4 = np.empty((24, 8), np.float32)             # row a = (j, i) = (a // 4, a % 4)
for a, k in itertools.product(range(24), range(8)):
    r4[a, k] = x[a % 4, a // 4, k] + np.float32(1.0)

r5 = x.copy()
for i, j, k in itertools.product(range(4), range(3), range(8)):
    r5[i, 2 + j, k] = y[i, j, k]
common.save([x, y], [r0, r1, r2, r3, r4, r5])
