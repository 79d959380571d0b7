"""Oracle for matmul_f16.mlir: f16 inputs, products and sums in float64
(einsum), each result rounded once to the output type. Output 1's inputs lie
on a 1/8 grid so its exact result is representable in f16 whatever the
order of summation."""
import numpy as np

import e2e_common as common

r = common.rng(16)


def uniform(shape):
    return r.uniform(-1.0, 1.0, shape).astype(np.float16)


def grid(shape):
    return (r.randint(-4, 5, shape) / 8.0).astype(np.float16)


a, b = uniform((96, 80)), uniform((80, 72))
c, d = grid((64, 32)), grid((32, 128))
x, y = uniform((2, 40, 48)), uniform((2, 48, 24))
p, qt = uniform((128, 64)), uniform((96, 64))
f64 = lambda t: t.astype(np.float64)  # noqa: E731
o0 = np.einsum("mk,kn->mn", f64(a), f64(b)).astype(np.float32)
o1 = np.einsum("mk,kn->mn", f64(c), f64(d)).astype(np.float16)
o2 = np.einsum("bmk,bkn->bmn", f64(x), f64(y)).astype(np.float32)
o3 = np.einsum("mk,nk->mn", f64(p), f64(qt)).astype(np.float32)
common.save([a, b, c, d, x, y, p, qt], [o0, o1, o2, o3])
