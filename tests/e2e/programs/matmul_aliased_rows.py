"""Oracle for matmul_aliased_rows.mlir: relu(A @ B + bias), f32 inputs,
products and sums in float64, rounded once to f32. B is scaled by 1/16 so
that f32 sums over K = 1024 stay within the default tolerance."""
import numpy as np

import e2e_common as common

r = common.rng(7)
a = r.uniform(-1.0, 1.0, (52, 1024)).astype(np.float32)
b = (r.uniform(-1.0, 1.0, (1024, 512)) / 16).astype(np.float32)
bias = r.uniform(-0.25, 0.25, (512,)).astype(np.float32)
c = np.einsum("mk,kn->mn", a.astype(np.float64), b.astype(np.float64))
c = np.maximum(c + bias.astype(np.float64), 0.0)
common.save([a, b, bias], [c.astype(np.float32)])
