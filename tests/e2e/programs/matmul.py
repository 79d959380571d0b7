"""Oracle for matmul.mlir: f32 [64x96] x [96x80], accumulated in float64."""
import numpy as np

import e2e_common as common

r = common.rng(1)
a = r.uniform(-1.0, 1.0, (64, 96)).astype(np.float32)
b = r.uniform(-1.0, 1.0, (96, 80)).astype(np.float32)
# Exact products and sums in float64, rounded once to f32.
c = np.einsum("mk,kn->mn", a.astype(np.float64), b.astype(np.float64))
common.save([a, b], [c.astype(np.float32)])
