"""Oracle for matmul_f64.mlir: f64 [37x53] x [53x29].

The reference is accumulated in extended precision (np.longdouble) with an
explicit loop over k, then rounded to f64.
"""
import numpy as np

import e2e_common as common

r = common.rng(2)
a = r.uniform(-1.0, 1.0, (37, 53))
b = r.uniform(-1.0, 1.0, (53, 29))
acc = np.zeros((37, 29), dtype=np.longdouble)
for k in range(53):
    acc += np.outer(a[:, k].astype(np.longdouble), b[k, :].astype(np.longdouble))
common.save([a, b], [acc.astype(np.float64)])
