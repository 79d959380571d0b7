"""Oracle for gpu_tiled_matmuls.mlir: products in float64 (einsum), the
max-plus product with explicit broadcasting; each rounded once to f32."""
import numpy as np

import e2e_common as common

r = common.rng(7)
a = r.uniform(-1.0, 1.0, (100, 70)).astype(np.float32)
b = r.uniform(-1.0, 1.0, (70, 130)).astype(np.float32)
bt = r.uniform(-1.0, 1.0, (130, 70)).astype(np.float32)
x = r.uniform(-1.0, 1.0, (3, 33, 17)).astype(np.float32)
y = r.uniform(-1.0, 1.0, (3, 17, 65)).astype(np.float32)
v = r.uniform(-1.0, 1.0, (1, 70)).astype(np.float32)
a64, b64 = a.astype(np.float64), b.astype(np.float64)
c0 = np.einsum("mk,kn->mn", a64, b64)
c1 = np.einsum("mk,nk->mn", a64, bt.astype(np.float64))
c2 = np.einsum("bmk,bkn->bmn", x.astype(np.float64), y.astype(np.float64))
c3 = np.einsum("mk,kn->mn", v.astype(np.float64), b64)
# f32 sums of two f32 values, as the program computes them, then the max.
c4 = (a[:, :, None] + b[None, :, :]).max(axis=1)
common.save([a, b, bt, x, y, v],
            [c.astype(np.float32) for c in (c0, c1, c2, c3)] + [c4])
