"""Oracle for multi_result.mlir: (x, constant, x*x + 0.5)."""
import numpy as np

import e2e_common as common

r = common.rng(16)
x = r.uniform(-3.0, 3.0, (3, 4)).astype(np.float32)
k = np.array([[1, -2], [3, 2**31 - 1]], dtype=np.int32)
y = x.astype(np.float64) ** 2 + 0.5
common.save([x], [x.copy(), k, y.astype(np.float32)])
