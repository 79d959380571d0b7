"""Oracle for conv2d.mlir: grouped (G=2), stride 2, dilation 2, padding 1.

Direct definition over an explicitly zero-padded input, in float64:
  y[n, o, i, j] = b[o] + sum_{c, kh, kw} xpad[n, g*Cg + c, 2i + 2kh, 2j + 2kw] * w[o, c, kh, kw]
with g = o // Fg (Cg = 2 input and Fg = 3 output channels per group).
"""
import numpy as np

import e2e_common as common

N, C, H, W = 2, 4, 17, 17
F, G, K = 6, 2, 3
STRIDE, DIL, PAD = 2, 2, 1
Cg, Fg = C // G, F // G
OH = (H + 2 * PAD - DIL * (K - 1) - 1) // STRIDE + 1
OW = (W + 2 * PAD - DIL * (K - 1) - 1) // STRIDE + 1

r = common.rng(6)
x = r.standard_normal((N, C, H, W)).astype(np.float32)
w = r.standard_normal((F, Cg, K, K)).astype(np.float32)
b = r.standard_normal(F).astype(np.float32)

xpad = np.zeros((N, C, H + 2 * PAD, W + 2 * PAD))
xpad[:, :, PAD:PAD + H, PAD:PAD + W] = x
y = np.zeros((N, F, OH, OW))
for n in range(N):
    for o in range(F):
        g = o // Fg
        for i in range(OH):
            for j in range(OW):
                acc = float(b[o])
                for c in range(Cg):
                    for kh in range(K):
                        for kw in range(K):
                            acc += (xpad[n, g * Cg + c, STRIDE * i + DIL * kh,
                                         STRIDE * j + DIL * kw]
                                    * float(w[o, c, kh, kw]))
                y[n, o, i, j] = acc
common.save([x, w, b], [y.astype(np.float32)])
