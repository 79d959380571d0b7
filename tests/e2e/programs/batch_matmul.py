"""Oracle for batch_matmul.mlir: 3 x ([33x47] x [47x21]) f32, in float64."""
import numpy as np

import e2e_common as common

r = common.rng(3)
a = r.standard_normal((3, 33, 47)).astype(np.float32)
b = r.standard_normal((3, 47, 21)).astype(np.float32)
c = np.zeros((3, 33, 21))
for batch in range(3):  # one plain 2-D product per batch
    c[batch] = a[batch].astype(np.float64) @ b[batch].astype(np.float64)
common.save([a, b], [c.astype(np.float32)])
