"""Oracle for reuse_chain.mlir: the 12-step chain in float64 (see the .mlir).

    t1 = 0.5 x + 0.25           t7  = max(t6, -1) * 0.5
    t2 = t1 @ w1                t8  = t7 @ w1
    t3 = max(t2, 0)             t9  = t8 - t5
    t4 = 0.1 t3 t3 - t1         t10 = |t9| + t4
    t5 = t4 @ w2                t11 = t10 @ w2
    t6 = t5 + t2                out = 0.25 t11 + t7
"""
import numpy as np

import e2e_common as common

N = 64
r = common.rng(18)
x = r.standard_normal((N, N)).astype(np.float32)
w1 = (r.standard_normal((N, N)) / np.sqrt(N)).astype(np.float32)
w2 = (r.standard_normal((N, N)) / np.sqrt(N)).astype(np.float32)


def mm(p, q):
    out = np.zeros((N, N))
    for k in range(N):
        out += np.outer(p[:, k], q[k, :])
    return out


xd, w1d, w2d = (v.astype(np.float64) for v in (x, w1, w2))
t1 = 0.5 * xd + 0.25
t2 = mm(t1, w1d)
t3 = np.maximum(t2, 0.0)
t4 = 0.1 * t3 * t3 - t1
t5 = mm(t4, w2d)
t6 = t5 + t2
t7 = np.maximum(t6, -1.0) * 0.5
t8 = mm(t7, w1d)
t9 = t8 - t5
t10 = np.abs(t9) + t4
t11 = mm(t10, w2d)
out = 0.25 * t11 + t7
common.save([x, w1, w2], [out.astype(np.float32)])
