"""Oracle for dtypes_ints.mlir.

Integer results are computed on Python ints (arbitrary precision) with the
wrap-around, truncating division and unsigned reads written out explicitly,
then stored in the model's dtypes; the f64 result uses the same two f64
roundings as the program (product, then sum).
"""
import numpy as np

import e2e_common as common

SHAPE = (2, 3, 1, 4, 1, 5)
r = common.rng(15)
a = r.randint(-128, 128, SHAPE).astype(np.int8)
a.flat[:4] = [0, -128, 127, -1]              # edge values
b = r.randint(-10**6, 10**6, SHAPE).astype(np.int32)
b.flat[:3] = [-7, 7, -10**6]
c = np.array(3 * 2**40 + 12345, dtype=np.int64)   # needs more than 32 bits


def wrap(v, bits):
    """Two's-complement wrap of a Python int to a signed `bits`-bit value."""
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def trunc_div(n, d):
    """Signed division rounding toward zero (C semantics), and its remainder."""
    q = abs(n) // abs(d)
    if (n < 0) != (d < 0):
        q = -q
    return q, n - q * d


r0 = np.empty(SHAPE, np.int8)
r1 = np.empty(SHAPE, np.int32)
r3 = np.empty(SHAPE, np.bool_)
r4 = np.empty(SHAPE, np.float64)
total = int(c)
for idx in np.ndindex(SHAPE):
    av, bv = int(a[idx]), int(b[idx])
    au = av & 0xFF                           # the byte read as unsigned
    t = wrap(av * 3 + 100, 8)
    t = t // 2 if t >= 0 else -((-t + 1) // 2)   # arithmetic shift right by 1
    t = wrap(t ^ 0x55, 8)                         # xor of the two's-complement bits
    r0[idx] = max(t, -50)
    d = 7 if av == 0 else av
    q, rem = trunc_div(bv, d)
    r1[idx] = wrap(q * 1000 + rem, 32)
    r3[idx] = (av * 1000 > bv) != (au < 100)
    r4[idx] = float(bv) * 0.001 + float(au)
    total += bv * 3
r2 = np.array(wrap(total, 64), dtype=np.int64)
common.save([a, b, c], [r0, r1, r2, r3, r4])
