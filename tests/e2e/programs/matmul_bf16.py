"""Oracle for matmul_bf16.mlir: f32 inputs rounded to bf16 here (round to
nearest even on the bit pattern, as arith.truncf does), products and sums in
float64 (einsum), each result rounded once to f32."""
import numpy as np

import e2e_common as common

r = common.rng(1616)


def to_bf16(a):
    """The f32 values of a rounded to bf16 (nearest even), as f64."""
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)


a = r.uniform(-1.0, 1.0, (80, 96)).astype(np.float32)
b = r.uniform(-1.0, 1.0, (96, 48)).astype(np.float32)
x = r.uniform(-1.0, 1.0, (3, 33, 40)).astype(np.float32)
y = r.uniform(-1.0, 1.0, (3, 40, 70)).astype(np.float32)
o0 = np.einsum("mk,kn->mn", to_bf16(a), to_bf16(b)).astype(np.float32)
o1 = np.einsum("bmk,bkn->bmn", to_bf16(x), to_bf16(y)).astype(np.float32)
common.save([a, b, x, y], [o0, o1])
