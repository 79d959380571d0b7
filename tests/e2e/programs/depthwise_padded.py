"""Oracle for depthwise_padded.mlir: depthwise convolutions over
explicitly zero-padded inputs (3x3, 3x3, 5x5), in float64:
  y1[0, c, i, j] = clip(b1[c] + sum_{kh, kw} x1pad[0, c, 2i + kh, 2j + kw]
                                 * w1[c, 0, 0, kh, kw], 0, 6)
    x1pad: 0 rows above, 2 below, 1 column on each side
  y2[0, c, i, j] = sum_{kh, kw} x2pad[0, c, i + 2kh, j + 2kw] * w2[c, 0, 0, kh, kw]
    x2pad: 2 rows and columns on each side
  y3[0, c, i, j] = sum_{kh, kw < 5} x3pad[0, c, i + kh, j + kw] * w3[c, 0, 0, kh, kw]
    x3pad: 2 rows and columns on each side; w3 the program's constant,
    ((25c + 5kh + kw) mod 7 - 3) / 4
"""
import numpy as np

import e2e_common as common


def depthwise(xpad, w, stride, dilation, oh, ow):
    c = xpad.shape[1]
    y = np.zeros((1, c, oh, ow))
    for kh in range(w.shape[3]):
        for kw in range(w.shape[4]):
            rows = xpad[0, :, dilation * kh:dilation * kh + stride * (oh - 1) + 1:stride,
                        dilation * kw:dilation * kw + stride * (ow - 1) + 1:stride]
            y[0] += rows * w[:, 0, 0, kh, kw].astype(np.float64)[:, None, None]
    return y


r = common.rng(11)
x1 = r.standard_normal((1, 8, 37, 45)).astype(np.float32)
w1 = r.standard_normal((8, 1, 1, 3, 3)).astype(np.float32)
b1 = r.standard_normal((8, 1)).astype(np.float32)
x2 = r.standard_normal((1, 4, 10, 40)).astype(np.float32)
w2 = r.standard_normal((4, 1, 1, 3, 3)).astype(np.float32)

x1pad = np.zeros((1, 8, 39, 47))
x1pad[:, :, 0:37, 1:46] = x1
y1 = depthwise(x1pad, w1, 2, 1, 19, 23) + b1.astype(np.float64)[None, :, :, None]
y1 = np.clip(y1, 0.0, 6.0)

x2pad = np.zeros((1, 4, 14, 44))
x2pad[:, :, 2:12, 2:42] = x2
y2 = depthwise(x2pad, w2, 1, 2, 10, 40)

x3 = r.standard_normal((1, 4, 11, 70)).astype(np.float32)
w3 = np.array([[[[[((25 * c + 5 * kh + kw) % 7 - 3) / 4 for kw in range(5)]
                  for kh in range(5)]]] for c in range(4)])
x3pad = np.zeros((1, 4, 15, 74))
x3pad[:, :, 2:13, 2:72] = x3
y3 = depthwise(x3pad, w3, 1, 1, 11, 70)
common.save([x1, w1, b1, x2, w2, x3],
            [y1.astype(np.float32), y2.astype(np.float32), y3.astype(np.float32)])
