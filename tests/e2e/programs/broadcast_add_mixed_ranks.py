"""Oracle for broadcast_add_mixed_ranks.mlir (0-d, 1-d and 2-d operands).

Every broadcast is spelled out with explicit index loops over the output
rather than NumPy's implicit broadcasting.
"""
import numpy as np

import e2e_common as common

r = common.rng(4)
s = np.array(r.uniform(-2, 2), dtype=np.float32)          # rank 0
v = r.uniform(-2, 2, 17).astype(np.float32)
m = r.uniform(-2, 2, (5, 17)).astype(np.float32)
c = r.uniform(-2, 2, 5).astype(np.float32)

r0 = np.empty(17, np.float32)
for j in range(17):
    r0[j] = np.float32(s) + v[j]
r1 = np.empty((5, 17), np.float32)
r2 = np.empty((5, 17), np.float32)
for i in range(5):
    for j in range(17):
        r1[i, j] = m[i, j] + v[j]
        # (m * s) rounded to f32 first, then the subtraction, as in f32 ops.
        r2[i, j] = np.float32(m[i, j] * np.float32(s)) - c[i]
common.save([s, v, m, c], [r0, r1, r2])
