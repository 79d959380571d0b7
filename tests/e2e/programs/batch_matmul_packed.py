"""Oracle for batch_matmul_packed.mlir: 2 x ([64x260] x [260x80]) f32, in float64."""
import numpy as np

import e2e_common as common

r = common.rng(5)
a = r.standard_normal((2, 64, 260)).astype(np.float32)
b = r.standard_normal((2, 260, 80)).astype(np.float32)
c = np.einsum("bmk,bkn->bmn", a.astype(np.float64), b.astype(np.float64))
common.save([a, b], [c.astype(np.float32)])
