#!/usr/bin/python3
"""A structure-aware fuzzer of the whole pipeline: random small valid ONNX
graphs, each compiled to an object by aotc, linked, called through ctypes
and compared with ONNX Runtime.

The byte-level fuzzers (onnx_import_fuzzer, mlir_input_fuzzer) rarely get
past the importer, and the shape sweep draws only what PyTorch exports. This
generator builds graphs with onnx.helper directly: 1 to ~8 nodes (plus the
adapters a node needs: a Reshape to the rank a convolution reads, an Abs
and an Add that keep a Log's input positive) drawn from the ops of
docs/onnx.md, each with random but valid attributes, chained so that the
outputs of earlier nodes feed later ones (elementwise broadcasting against
earlier values, convolutions after convolutions, reshapes and transposes
between them, splits whose parts meet again), since the interactions
between fusion, the strategy passes and the memory planner are where
crashes hide. It tracks every value's shape, and each draft must pass
onnx.checker (full check) and strict shape inference against the declared
shapes; a draft that does not is redrawn.

Coverage: opsets 13 to 17; f32 data, int64 (and int32) on index, shape and
integer paths, bool from comparisons. Elementwise math (unary with random
alpha/beta/bounds, binary and variadic with broadcasting), comparisons, the
logical ops and Where, Cast (f64, f16, i32, i64, bool and back), Conv
(1-3 spatial dims, kernel 1-7, stride 1-3, dilation 1-3, explicit or auto
padding, groups including depthwise, channel counts not multiples of 8),
ConvTranspose (stride, padding, output padding, groups, output_shape),
MaxPool (dilations, Indices) and AveragePool (ceil mode, padding counted or
not, auto padding), the global pools, Gemm (transposes, alpha, beta, every
bias shape), MatMul (1-D operands, batch broadcasting, a value times its
own transpose), Einsum, BatchNormalization, LayerNormalization, Softmax,
LogSoftmax, the ten Reduce ops (random axes, keepdims, reductions to a
scalar), ArgMax/ArgMin (select_last_index, indices feeding a Gather),
CumSum, Concat, Split, Slice (negative steps, clamped bounds), Transpose,
Reshape (0 and -1 entries), Flatten, Squeeze, Unsqueeze, Expand, Tile, Pad
(constant, reflect, edge, negative pads), Resize (nearest and linear, every
coordinate mode, scales or sizes), Gather, ScatterND, Shape / Size /
ConstantOfShape / Range / Constant chains folded at compile time,
Identity and Dropout.

Ops that are discontinuous in their input (Floor, Ceil, Mod, Equal,
ArgMax, casts to integers, MaxPool's indices) read only values that ONNX
Runtime and aotc compute bit for bit alike (graph inputs, initializers and
what data movement, Abs, Neg, Relu, Max, Min, Clip and the like make of
them), so a rounding difference upstream cannot flip an index or an
integer. Log, Sqrt, Reciprocal, ReduceLogSum, a Div's divisor and a Pow's
base with a fractional exponent read Add(Abs(x), c), c > 0.

Each case is reproducible from (seed, index): `--only INDEX` reruns one.
Outcomes (one line per case, then a summary):
- PASS: compiled, linked and called with a pool of exactly the manifest's
  pool_bytes (status AOT_OK); with onnxruntime importable, every output has
  ONNX Runtime's dtype and shape, floats within
  TOL * (1 + max |reference|) with the same non-finite values, integers and
  bools equal;
- MISMATCH: another value, dtype or shape, or a status other than AOT_OK;
- CRASH: aotc ended by a signal, a timeout or an exit code other than 0/1;
  exit 1 with an internal error (internal error, failed to legalize,
  verification failed, LLVM ERROR, an MLIR op verifier message) or with an
  error after the frontend stage (the graph was imported, so a later
  stage failed on valid input); a sanitizer report (an ASan/UBSan build
  of aotc, as scripts/fuzz.sh uses); no object written; an object that
  does not link; a call ended by a signal or a timeout;
- UNSUPPORTED: aotc exited with 1 and an `error:` line during import (not a
  failure; counted by op and message, so the generator can be tuned to what
  aotc supports);
- NO_REFERENCE: aotc compiled and ran the case but ONNX Runtime refused it
  (not a failure; counted with its reason).
Without onnxruntime every case is still compiled, linked and called (a
crash or a non-OK status is found), and the summary says that the outputs
were not compared. A MISMATCH or CRASH fails the run and prints the command
that reproduces it. REGRESSIONS below lists cases the fuzzer once failed
on, run first every time.

Usage:
  graph_fuzz.py --aotc AOTC --runtime LIBAOT_RUNTIME --work DIR
                [--seed S] [--cases N] [--seconds T] [--only I] [--generic]
                [--keep] [--cc CC] [--omp LIBOMP] [--timeout T]
"""

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

try:
    import onnxruntime
    onnxruntime.set_default_logger_severity(4)
except ImportError:  # CI machines have no onnxruntime: compile-only checks
    onnxruntime = None

TOL = 1e-4
MIN_OPSET, MAX_OPSET = 13, 17
MAX_ELEMENTS = 1 << 15       # per value
MAX_WEIGHT_ELEMENTS = 1 << 15
INT64_MAX = (1 << 63) - 1

# Cases the fuzzer once failed on (seed, index), kept as regression tests.
REGRESSIONS = [
    # Slice with a negative step on one axis and a truncated unit-step axis:
    # the imported generic read the truncated axis with its full size.
    (7, 7624),
    # Gather of a scalar index from a 1-D tensor (a rank-0 result): upstream
    # vectorization made a vector.gather of a scalar index.
    (7, 5993),
    # A broadcast operand (map (d0, 0), d1 mod 2 of a Tile) in a row
    # reduction split by aotc-split-row-reductions: an invalid generic, or
    # silently the wrong input elements.
    (7, 8067),
    (7, 3870),
    # A 0-d read of a column sliced with stride 2 (SIGSEGV in
    # ContiguousStridedRead) or 3 (an unlowered transfer_read).
    (7, 5592),
    (7, 5635),
    # A reduction to [1] then an identity reflect Pad: fold-memref-alias-ops
    # made a vector.load of a 0-d memref.
    (7, 4441),
    # math.absi on a 2-D vector (integer Abs of a transposed tile) reached
    # convert-math-to-libm.
    (7, 2418),
    # Pad before a strided ConvTranspose: the pad folded into the strided
    # insert_slice of the dilated input at the wrong offset.
    (7, 383),
    # Einsum without summed indices (an accumulating payload) fused into a
    # window or broadcast consumer: accumulated once per read.
    (7, 2605),
    (7, 8055),
]

ONNX_TYPES = {"float32": TensorProto.FLOAT, "float64": TensorProto.DOUBLE,
              "float16": TensorProto.FLOAT16, "int64": TensorProto.INT64,
              "int32": TensorProto.INT32, "bool": TensorProto.BOOL}
ABI_TYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
             "bf16": np.uint16, "i8": np.int8, "u8": np.uint8,
             "i16": np.int16, "i32": np.int32, "i64": np.int64,
             "i1": np.uint8}

# Ops whose output is bit-identical in any correct implementation when
# their inputs are (no rounding, or one correctly rounded operation that
# no compiler may contract with its neighbours).
EXACT_OPS = {
    "Abs", "Neg", "Relu", "Max", "Min", "Clip", "Floor", "Ceil", "Mod",
    "Where", "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual",
    "Not", "And", "Or", "Xor", "Cast", "MaxPool", "GlobalMaxPool",
    "ReduceMax", "ReduceMin", "ArgMax", "ArgMin", "Identity", "Dropout",
    "Concat", "Split", "Slice", "Transpose", "Reshape", "Flatten", "Squeeze",
    "Unsqueeze", "Expand", "Tile", "Pad", "Gather", "ScatterND", "Shape",
    "Size", "ConstantOfShape", "Constant", "Range"}


# ===----------------------------------------------------------------------=== #
# Graph building with shape tracking
# ===----------------------------------------------------------------------=== #


class Draw(Exception):
    """A draft the generator cannot complete: redraw the op."""


class Value:
    """A tensor of the graph: name, static shape, numpy dtype name."""

    def __init__(self, name, shape, dtype, exact):
        self.name = name
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype
        self.exact = exact        # bit-identical in ORT and aotc
        self.positive = False     # every element > 0 (from a guard)

    @property
    def rank(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))


def size_of(shape):
    return int(np.prod(shape, dtype=np.int64))


def fmt_shape(shape):
    return "x".join(map(str, shape)) if shape else "scalar"


class Graph:
    """A graph under construction: nodes, initializers, graph inputs and
    the values ops may read next."""

    def __init__(self, rng, opset):
        self.rng = rng
        self.opset = opset
        self.nodes = []
        self.initializers = []
        self.inputs = []
        self.produced = []        # graph inputs and node outputs, in order
        self.consumed = set()
        self.steps = []           # a short description per generated op
        self.last = None
        self.count = 0

    # Random draws.
    def int(self, low, high):
        return int(self.rng.integers(low, high + 1))

    def chance(self, p):
        return bool(self.rng.random() < p)

    def pick(self, items):
        return items[int(self.rng.integers(len(items)))]

    def uniform(self, low, high):
        return round(float(self.rng.uniform(low, high)), 3)

    def fresh(self, prefix):
        self.count += 1
        return "%s%d" % (prefix, self.count)

    # Values.
    def input(self, shape):
        v = Value(self.fresh("x"), shape, "float32", True)
        self.inputs.append(v)
        self.produced.append(v)
        return v

    def const(self, array):
        array = np.asarray(array)
        v = Value(self.fresh("w"), array.shape, array.dtype.name, True)
        self.initializers.append(numpy_helper.from_array(array, v.name))
        v.positive = array.dtype.kind in "fi" and bool((array > 0).all())
        return v

    def ints(self, values):
        return self.const(np.array(values, np.int64))

    def scalar(self, value, dtype="float32"):
        return self.const(np.array(value, dtype))

    def weight(self, shape, scale=1.0):
        if size_of(shape) > MAX_WEIGHT_ELEMENTS:
            raise Draw("weight too large")
        return self.const(np.asarray(
            self.rng.standard_normal(shape) * scale, np.float32))

    def dyadic(self, shape, nonzero=False):
        """Small multiples of 1/4: exact in any float arithmetic."""
        values = np.asarray(self.rng.integers(-8, 9, size=shape) / 4,
                            np.float32)
        if nonzero:
            values[values == 0] = 0.5
        return self.const(values)

    def node(self, op, inputs, outputs, step=None, **attrs):
        """Adds a node reading `inputs` (Values, or None for an omitted
        optional input); `outputs` lists (shape, dtype, exact)."""
        inputs = list(inputs)
        while inputs and inputs[-1] is None:
            inputs.pop()
        for v in inputs:
            if v is not None:
                self.consumed.add(v.name)
        outs = []
        for shape, dtype, exact in outputs:
            if size_of(shape) > MAX_ELEMENTS:
                raise Draw("value too large")
            outs.append(Value(self.fresh("t"), shape, dtype, exact))
        self.nodes.append(helper.make_node(
            op, [v.name if v is not None else "" for v in inputs],
            [o.name for o in outs], name="n%d_%s" % (len(self.nodes), op),
            **attrs))
        self.produced.extend(outs)
        self.steps.append(step or op)
        return outs

    def op(self, op, inputs, shape, dtype="float32", exact=None, step=None,
           **attrs):
        """A node with one output."""
        if exact is None:
            exact = op in EXACT_OPS and all(v.exact for v in inputs
                                            if v is not None)
        return self.node(op, inputs, [(shape, dtype, exact)], step,
                         **attrs)[0]


def broadcast(*shapes):
    try:
        return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        raise Draw("shapes do not broadcast")


def factorize(g, n, rank, caps=None):
    """A random shape of `rank` dims with `n` elements; caps[i] bounds dim i
    where it can (a factor that fits no capped dim goes to the last)."""
    dims = [1] * rank
    if rank == 0:
        return dims
    factors, p, m = [], 2, n
    while p * p <= m:
        while m % p == 0:
            factors.append(p)
            m //= p
        p += 1
    if m > 1:
        factors.append(m)
    g.rng.shuffle(factors)
    for f in factors:
        order = list(g.rng.permutation(rank))
        for i in order:
            if caps is None or caps[i] is None or dims[i] * f <= caps[i]:
                dims[i] *= f
                break
        else:
            dims[-1] *= f
    return dims


def reshape(g, x, shape):
    """Reshape with a shape initializer, sometimes with -1 and 0 entries."""
    spec = list(shape)
    if x.size > 0:
        if g.chance(0.3):
            for i in range(min(len(spec), x.rank)):
                if spec[i] == x.shape[i] and g.chance(0.5):
                    spec[i] = 0
        if spec and g.chance(0.4):
            spec[g.int(0, len(spec) - 1)] = -1
    attrs = {}
    if g.opset >= 14 and g.chance(0.15):
        attrs["allowzero"] = 0
    return g.op("Reshape", [x, g.ints(spec)], shape,
                step="Reshape[%s]" % fmt_shape(shape), **attrs)


def to_rank(g, x, ranks, caps=None):
    """x itself if its rank is among `ranks`, else x reshaped to one."""
    if x.rank in ranks:
        return x
    if x.size == 0:
        raise Draw("empty")
    r = g.pick(ranks)
    if r == x.rank + 1 and g.chance(0.4):
        axis = g.int(0, x.rank)
        shape = list(x.shape)
        shape.insert(axis, 1)
        return g.op("Unsqueeze", [x, g.ints([axis])], shape,
                    step="Unsqueeze[%d]" % axis)
    return reshape(g, x, factorize(g, x.size, r, caps and caps[:r]))


def positive(g, x):
    """Add(Abs(x), c) with c > 0 (x itself when already positive)."""
    if x.positive:
        return x
    a = g.op("Abs", [x], x.shape)
    y = g.op("Add", [a, g.scalar(g.pick([0.1, 0.5, 1.0]))], x.shape,
             step="+c")
    y.positive = True
    return y


def operand(g):
    """The value the next op reads: mostly the newest, else an unread or any
    float value."""
    floats = [v for v in g.produced if v.dtype == "float32"]
    if g.last is not None and g.last.dtype == "float32" and g.chance(0.65):
        return g.last
    unread = [v for v in floats if v.name not in g.consumed]
    if unread and g.chance(0.6):
        return g.pick(unread)
    return g.pick(floats)


def broadcastable_shape(g, shape):
    """A shape that broadcasts against `shape`."""
    r = g.rng.random()
    if r < 0.3 or not shape:
        return tuple(shape) if g.chance(0.8) else ()
    if r < 0.4:
        return ()
    if r < 0.45:
        return (1,)
    if r < 0.9:
        suffix = list(shape[g.int(0, len(shape) - 1):])
        return tuple(1 if g.chance(0.3) else d for d in suffix)
    return (g.int(1, 3),) + tuple(1 if g.chance(0.3) else d for d in shape)


def partner(g, x, dtype="float32", exact=False):
    """A second operand that broadcasts with x: an earlier value, a new
    graph input, a Constant node or an initializer."""
    r = g.rng.random()
    if r < 0.3:
        found = []
        for v in g.produced:
            if v is x or v.dtype != dtype or (exact and not v.exact):
                continue
            try:
                out = broadcast(v.shape, x.shape)
            except Draw:
                continue
            if size_of(out) <= MAX_ELEMENTS and len(out) <= 6:
                found.append(v)
        if found:
            return g.pick(found)
    shape = broadcastable_shape(g, x.shape)
    if dtype == "float32" and r < 0.4:
        return g.input(shape)
    if exact or dtype != "float32":
        if dtype == "float32":
            array = np.asarray(g.rng.integers(-8, 9, size=shape) / 4,
                               np.float32)
        else:
            array = np.asarray(g.rng.integers(-4, 5, size=shape), dtype)
    else:
        array = np.asarray(g.rng.standard_normal(shape), np.float32)
    if r < 0.5:
        return g.op("Constant", [], shape, dtype=array.dtype.name,
                    exact=True, value=numpy_helper.from_array(array))
    return g.const(array)


def norm_axis(axis, rank):
    return axis + rank if axis < 0 else axis


def some_axis(g, rank):
    """An axis in [-rank, rank), sometimes written negative."""
    a = g.int(0, rank - 1)
    return a - rank if g.chance(0.3) else a


# ===----------------------------------------------------------------------=== #
# Op generators: each reads x (and may draw more operands), adds its nodes
# and returns the value later ops should read, or raises Draw.
# ===----------------------------------------------------------------------=== #


def gen_unary(g, x):
    op = g.pick(["Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Exp", "Erf",
                 "Softplus", "Elu", "Selu", "LeakyRelu", "HardSigmoid",
                 "HardSwish", "Clip", "Clip", "Floor", "Ceil", "Log", "Sqrt",
                 "Reciprocal", "Relu", "Sigmoid"])
    if op in ("Floor", "Ceil") and not x.exact:
        op = "Relu"
    if op == "HardSwish" and g.opset < 14:
        op = "HardSigmoid"
    if op in ("Log", "Sqrt", "Reciprocal"):
        x = positive(g, x)
    inputs, attrs, step = [x], {}, op
    if op == "Elu" and g.chance(0.7):
        attrs["alpha"] = g.uniform(0.1, 2.0)
    elif op == "Selu":
        attrs = {"alpha": g.uniform(1.0, 2.0), "gamma": g.uniform(0.5, 1.5)}
    elif op == "LeakyRelu" and g.chance(0.7):
        attrs["alpha"] = g.uniform(0.01, 0.5)
    elif op == "HardSigmoid":
        attrs = {"alpha": g.uniform(0.1, 0.5), "beta": g.uniform(0.3, 0.7)}
    elif op == "Clip":
        low = float(g.int(-8, 0)) / 4
        high = low + float(g.int(1, 12)) / 4
        lo = g.scalar(low) if g.chance(0.8) else None
        hi = g.scalar(high) if g.chance(0.8) else None
        inputs = [x, lo] + ([hi] if hi is not None else [])
        step = "Clip[%s,%s]" % (low if lo else "", high if hi else "")
    if attrs:
        step += "(%s)" % ",".join("%s=%g" % kv for kv in attrs.items())
    return g.op(op, inputs, x.shape, step=step, **attrs)


def gen_binary(g, x):
    op = g.pick(["Add", "Add", "Sub", "Mul", "Mul", "Div", "Max", "Min",
                 "Pow", "Mean", "Sum", "Mod"])
    if op == "Mod" and not x.exact:
        op = "Sub"
    attrs = {}
    if op in ("Mean", "Sum", "Max", "Min") and g.chance(0.3):
        others = [partner(g, x) for _ in range(g.int(0, 2))]
        ins = [x] + others
        g.rng.shuffle(ins)
        return g.op(op, ins, broadcast(*[v.shape for v in ins]),
                    step="%s/%d" % (op, len(ins)))
    if op == "Div":
        a, b = x, positive(g, partner(g, x))
        if g.chance(0.3):
            a, b = partner(g, x), positive(g, x)
    elif op == "Pow":
        if g.chance(0.5):
            a, b = x, g.scalar(g.pick([0.0, 1.0, 2.0, 2.0, 3.0]))
        else:
            a = positive(g, x)
            b = g.const(np.asarray(g.rng.uniform(-2, 2, size=(
                broadcastable_shape(g, x.shape))), np.float32))
    elif op == "Mod":
        a = x
        b = g.dyadic(broadcastable_shape(g, x.shape), nonzero=True)
        attrs["fmod"] = 1
    else:
        a, b = x, partner(g, x)
        if g.chance(0.3):
            a, b = b, a
    return g.op(op, [a, b], broadcast(a.shape, b.shape), **attrs)


def comparison(g, x):
    op = g.pick(["Greater", "Less", "GreaterOrEqual", "LessOrEqual",
                 "Equal"])
    if x.exact:
        y = partner(g, x, exact=True)
    else:
        # Rounding can flip a comparison of near-equal values; compare
        # inexact values with 0 only, and never for equality.
        y = g.scalar(0.0)
        if op == "Equal":
            op = "Greater"
    a, b = (x, y) if g.chance(0.7) else (y, x)
    return g.op(op, [a, b], broadcast(a.shape, b.shape), "bool", exact=True)


def gen_compare_where(g, x):
    cond = comparison(g, x)
    if g.chance(0.25):
        cond = g.op("Not", [cond], cond.shape, "bool")
    if g.chance(0.25):
        other = comparison(g, x)
        op = g.pick(["And", "Or", "Xor"])
        cond = g.op(op, [cond, other], broadcast(cond.shape, other.shape),
                    "bool")
    r = g.rng.random()
    if r < 0.65:
        a, b = x, partner(g, x)
        if g.chance(0.5):
            a, b = b, a
        return g.op("Where", [cond, a, b],
                    broadcast(cond.shape, a.shape, b.shape))
    if r < 0.9:
        return g.op("Cast", [cond], cond.shape, to=TensorProto.FLOAT,
                    step="Cast(bool>f32)")
    return cond


def gen_int_path(g, x):
    """f32 -> int64 (or int32) -> integer ops -> f32 (or left integer)."""
    if not x.exact:
        raise Draw("inexact")
    scale = g.pick([1.0, 4.0, 8.0])
    if scale != 1.0:
        x = g.op("Mul", [x, g.scalar(scale)], x.shape, exact=x.exact,
                 step="*%g" % scale)
    dtype = "int64" if g.chance(0.8) else "int32"
    v = g.op("Cast", [x], x.shape, dtype, to=ONNX_TYPES[dtype],
             step="Cast(f32>%s)" % dtype)
    for _ in range(g.int(1, 2)):
        op = g.pick(["Add", "Sub", "Mul", "Max", "Min", "Abs", "Neg", "Mod",
                     "ReduceSum", "ReduceMax", "CumSum", "Clip"])
        if op in ("Abs", "Neg"):
            v = g.op(op, [v], v.shape, dtype)
        elif op == "Mod":
            shape = broadcastable_shape(g, v.shape)
            d = g.rng.integers(1, 6, size=shape) * g.rng.choice([-1, 1],
                                                                size=shape)
            b = g.const(np.asarray(d).astype(dtype))
            v = g.op("Mod", [v, b], broadcast(v.shape, b.shape), dtype)
        elif op == "Clip":
            v = g.op("Clip", [v, g.scalar(g.int(-6, 0), dtype),
                              g.scalar(g.int(1, 6), dtype)], v.shape, dtype)
        elif op == "ReduceSum" and v.rank > 0:
            v = reduce_node(g, v, op)
        elif op == "ReduceMax" and v.rank > 0:
            v = reduce_node(g, v, op)
        elif op == "CumSum" and v.rank > 0:
            v = cumsum_node(g, v)
        elif op in ("Add", "Sub", "Mul", "Max", "Min"):
            b = partner(g, v, dtype)
            v = g.op(op, [v, b], broadcast(v.shape, b.shape), dtype)
    r = g.rng.random()
    if r < 0.7:
        return g.op("Cast", [v], v.shape, to=TensorProto.FLOAT,
                    step="Cast(%s>f32)" % dtype)
    if r < 0.8:
        return g.op("Cast", [v], v.shape, "float64", to=TensorProto.DOUBLE,
                    step="Cast(%s>f64)" % dtype)
    return v


def gen_cast(g, x):
    targets = ["float64"] + (["float16", "int32", "bool"] if x.exact else [])
    to = g.pick(targets)
    v = g.op("Cast", [x], x.shape, to, to=ONNX_TYPES[to],
             step="Cast(f32>%s)" % to)
    if to == "float64" and g.chance(0.5):
        v = g.op(g.pick(["Add", "Mul", "Sub"]), [v, v], v.shape, "float64")
    if g.chance(0.7):
        return g.op("Cast", [v], v.shape, to=TensorProto.FLOAT,
                    step="Cast(%s>f32)" % to)
    return v


def conv_input(g, x, ranks, max_channels):
    return to_rank(g, x, ranks, [4, max_channels, None, None, None])


def gen_conv(g, x):
    x = conv_input(g, x, [4, 4, 4, 3, 5], 32)
    n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
    if c > 1 and g.chance(0.2):
        group = c
        cout = c * g.pick([1, 1, 2])
    elif g.chance(0.2):
        divisors = [d for d in range(2, c + 1) if c % d == 0]
        group = g.pick(divisors) if divisors else 1
        cout = group * g.int(1, max(1, 24 // group))
    else:
        group, cout = 1, g.int(1, 32)
    auto = g.pick(["NOTSET"] * 17 + ["SAME_UPPER", "SAME_LOWER", "VALID"])
    kernel, strides, dilations, pads_b, pads_e, out = [], [], [], [], [], []
    for d in spatial:
        k = g.int(1, 7 if len(spatial) < 3 else 3)
        s = g.pick([1, 1, 1, 2, 2, 3])
        # ONNX Runtime refuses dilated kernels with auto padding.
        dil = 1 if g.chance(0.8) or auto.startswith("SAME") else g.int(2, 3)
        pb = pe = 0
        for _ in range(8):
            span = (k - 1) * dil + 1
            if auto == "NOTSET":
                if g.chance(0.5):
                    pb = pe = min((span - 1) // 2 + g.int(0, 1), span - 1)
                else:
                    pb, pe = g.int(0, span - 1), g.int(0, span - 1)
                if d + pb + pe >= span:
                    break
            elif auto == "VALID":
                if d >= span:
                    break
            else:
                break
            k, dil = max(1, k - 1), 1 if k <= 2 else dil
        span = (k - 1) * dil + 1
        if auto == "NOTSET":
            if d + pb + pe < span:
                raise Draw("conv window")
            o = (d + pb + pe - span) // s + 1
        elif auto == "VALID":
            if d < span:
                raise Draw("conv window")
            o = (d - span) // s + 1
        else:
            o = -(-d // s)
        kernel.append(k)
        strides.append(s)
        dilations.append(dil)
        pads_b.append(pb)
        pads_e.append(pe)
        out.append(o)
    fan_in = c // group * size_of(kernel)
    w = g.weight([cout, c // group] + kernel, fan_in ** -0.5)
    b = g.weight([cout], 0.5) if g.chance(0.7) else None
    attrs = {}
    if g.chance(0.7):
        attrs["kernel_shape"] = kernel
    if any(s != 1 for s in strides) or g.chance(0.5):
        attrs["strides"] = strides
    if any(d != 1 for d in dilations) or g.chance(0.3):
        attrs["dilations"] = dilations
    if auto == "NOTSET":
        if any(pads_b + pads_e) or g.chance(0.5):
            attrs["pads"] = pads_b + pads_e
    else:
        attrs["auto_pad"] = auto
    if group != 1 or g.chance(0.3):
        attrs["group"] = group
    step = "Conv(%s>%d k%s s%s d%s %s g%d%s)" % (
        fmt_shape(x.shape), cout, fmt_shape(kernel), fmt_shape(strides),
        fmt_shape(dilations), ("p" + ",".join(map(str, pads_b + pads_e)))
        if auto == "NOTSET" else auto, group, "" if b else " nobias")
    return g.op("Conv", [x, w] + ([b] if b else []), [n, cout] + out,
                step=step, **attrs)


def gen_conv_transpose(g, x):
    x = conv_input(g, x, [4, 4, 3], 24)
    n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
    if c > 1 and g.chance(0.1):
        group = c
    elif g.chance(0.2):
        divisors = [d for d in range(2, c + 1) if c % d == 0]
        group = g.pick(divisors) if divisors else 1
    else:
        group = 1
    cout = group * g.int(1, max(1, 16 // group))
    use_shape = g.chance(0.1)
    kernel, strides, dilations, pads, opads, out = [], [], [], [], [], []
    for d in spatial:
        k, s = g.int(1, 4), g.int(1, 3)
        dil = 1 if g.chance(0.85) else 2
        span = (k - 1) * dil + 1
        pb, pe = g.int(0, span - 1), g.int(0, span - 1)
        if use_shape:
            # An odd total padding is placed differently by ONNX Runtime
            # and the ONNX spec; aotc refuses it.
            pe = pb
        op = g.int(0, s - 1) if s > 1 and g.chance(0.4) else 0
        o = s * (d - 1) + op + span - pb - pe
        if o < 1:
            pb = pe = 0
            o = s * (d - 1) + op + span
        kernel.append(k)
        strides.append(s)
        dilations.append(dil)
        pads.append((pb, pe))
        opads.append(op)
        out.append(o)
    fan_in = c // group * size_of(kernel)
    w = g.weight([c, cout // group] + kernel, fan_in ** -0.5)
    b = g.weight([cout], 0.5) if g.chance(0.6) else None
    # ONNX 1.12's shape inference gives up on an output_shape smaller than
    # the input.
    use_shape = use_shape and all(o >= d for o, d in zip(out, spatial))
    attrs = {"kernel_shape": kernel} if g.chance(0.7) else {}
    if any(s != 1 for s in strides) or g.chance(0.5):
        attrs["strides"] = strides
    if any(d != 1 for d in dilations):
        attrs["dilations"] = dilations
    if group != 1:
        attrs["group"] = group
    if use_shape:
        attrs["output_shape"] = out
        if any(opads):
            attrs["output_padding"] = opads
    else:
        if any(p != (0, 0) for p in pads) or g.chance(0.3):
            attrs["pads"] = [p[0] for p in pads] + [p[1] for p in pads]
        if any(opads):
            attrs["output_padding"] = opads
    step = "ConvTranspose(%s>%d k%s s%s%s g%d%s)" % (
        fmt_shape(x.shape), cout, fmt_shape(kernel), fmt_shape(strides),
        (" out%s" % fmt_shape(out)) if use_shape else
        (" p%s op%s" % (",".join("%d,%d" % p for p in pads),
                        fmt_shape(opads))), group,
        " d%s" % fmt_shape(dilations) if "dilations" in attrs else "")
    return g.op("ConvTranspose", [x, w] + ([b] if b else []),
                [n, cout] + out, step=step, **attrs)


def gen_pool(g, x):
    x = conv_input(g, x, [4, 4, 3, 5], 48)
    op = g.pick(["MaxPool", "AveragePool"])
    spatial = x.shape[2:]
    auto = "NOTSET" if g.chance(0.9) else "SAME_UPPER"
    ceil = g.chance(0.3) and auto == "NOTSET"
    kernel, strides, dilations, pads_b, pads_e = [], [], [], [], []
    for d in spatial:
        k = g.int(1, min(5, d + 2))
        dil = 2 if op == "MaxPool" and g.chance(0.15) else 1
        if auto != "NOTSET":
            # ONNX Runtime sizes a dilated SAME pool otherwise than the
            # spec (ceil(input / stride)) and aotc.
            dil = 1
        pb = g.int(0, k - 1) if g.chance(0.6) else 0
        pe = g.int(0, k - 1) if g.chance(0.6) else pb
        while d + pb + pe < (k - 1) * dil + 1:
            k, dil = k - 1, 1
            pb, pe = min(pb, k - 1), min(pe, k - 1)
        kernel.append(k)
        strides.append(g.int(1, 3))
        dilations.append(dil)
        pads_b.append(pb)
        pads_e.append(pe)

    def out_dims(ceil_mode):
        dims = []
        for d, k, s, dil, pb, pe in zip(spatial, kernel, strides, dilations,
                                        pads_b, pads_e):
            if auto != "NOTSET":
                dims.append(-(-d // s))
                continue
            span = (k - 1) * dil + 1
            q = (d + pb + pe - span)
            dims.append((-(-q // s) if ceil_mode else q // s) + 1)
        return dims

    out = out_dims(ceil)
    if auto != "NOTSET" and any(
            (o - 1) * s + k - d < 0 for o, s, k, d in zip(out, strides,
                                                          kernel, spatial)):
        # ONNX Runtime refuses a SAME pool whose padding would be negative
        # (stride larger than the kernel).
        auto = "NOTSET"
        out = out_dims(ceil)
    if ceil:
        # A last window starting in the end padding: ONNX 1.12's shape
        # inference keeps it, ORT and aotc drop it (docs/onnx.md).
        if any((o - 1) * s >= d + pb for o, s, d, pb in
               zip(out, strides, spatial, pads_b)):
            ceil = False
            out = out_dims(False)
    attrs = {"kernel_shape": kernel}
    if any(s != 1 for s in strides) or g.chance(0.5):
        attrs["strides"] = strides
    if auto != "NOTSET":
        attrs["auto_pad"] = auto
    elif any(pads_b + pads_e) or g.chance(0.3):
        attrs["pads"] = pads_b + pads_e
    if ceil:
        attrs["ceil_mode"] = 1
    if any(d != 1 for d in dilations):
        attrs["dilations"] = dilations
    extra = ""
    if op == "AveragePool" and g.chance(0.5):
        attrs["count_include_pad"] = g.int(0, 1)
        extra = " count_pad=%d" % attrs["count_include_pad"]
    shape = list(x.shape[:2]) + out
    step = "%s(%s k%s s%s %s%s%s%s)" % (
        op, fmt_shape(x.shape), fmt_shape(kernel), fmt_shape(strides),
        auto if auto != "NOTSET" else "p" + ",".join(map(str,
                                                         pads_b + pads_e)),
        " ceil" if ceil else "", " d%s" % fmt_shape(dilations)
        if "dilations" in attrs else "", extra)
    # Indices only of graph inputs: random normal values have no ties.
    if op == "MaxPool" and x in g.inputs and g.chance(0.3) and \
            "dilations" not in attrs:
        y, _ = g.node("MaxPool", [x], [(shape, "float32", True),
                                       (shape, "int64", True)],
                      step=step + "+indices", **attrs)
        return y
    return g.op(op, [x], shape, step=step, **attrs)


def gen_global_pool(g, x):
    x = conv_input(g, x, [4, 4, 3, 5], 64)
    op = g.pick(["GlobalAveragePool", "GlobalMaxPool"])
    return g.op(op, [x], list(x.shape[:2]) + [1] * (x.rank - 2))


def gen_gemm(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    if x.rank == 1:
        x = g.op("Unsqueeze", [x, g.ints([0])], (1,) + x.shape,
                 step="Unsqueeze[0]")
    elif x.rank > 2:
        axis = g.int(1, x.rank - 1)
        x = g.op("Flatten", [x], (size_of(x.shape[:axis]),
                                  size_of(x.shape[axis:])),
                 step="Flatten(%d)" % axis, axis=axis)
    trans_a = g.chance(0.2)
    m, k = (x.shape[1], x.shape[0]) if trans_a else x.shape
    attrs = {"transA": 1} if trans_a else {}
    if g.chance(0.12):
        b, n = x, m
        attrs["transB"] = 0 if trans_a else 1
        if trans_a:
            attrs["transB"] = 0
    else:
        n = g.int(1, 48)
        trans_b = g.chance(0.4)
        b = g.weight([n, k] if trans_b else [k, n], k ** -0.5)
        if trans_b:
            attrs["transB"] = 1
    c = None
    bias = g.pick(["none", "n", "1n", "m1", "mn", "scalar", "1"])
    shapes = {"n": [n], "1n": [1, n], "m1": [m, 1], "mn": [m, n],
              "scalar": [], "1": [1]}
    if bias != "none":
        c = g.weight(shapes[bias], 0.5)
    if g.chance(0.3):
        attrs["alpha"] = g.pick([0.5, 2.0, g.uniform(-1.5, 1.5)])
    if c is not None and g.chance(0.3):
        attrs["beta"] = g.pick([0.0, 0.5, g.uniform(-1.5, 1.5)])
    step = "Gemm(%dx%dx%d%s%s bias=%s%s)" % (
        m, k, n, " tA" if trans_a else "",
        " tB" if attrs.get("transB") else "", bias,
        "".join(" %s=%g" % (a, attrs[a]) for a in ("alpha", "beta")
                if a in attrs))
    return g.op("Gemm", [x, b] + ([c] if c is not None else []), [m, n],
                step=step, **attrs)


def gen_matmul(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    if x.rank >= 2 and g.chance(0.2):
        perm = list(range(x.rank))
        perm[-1], perm[-2] = perm[-2], perm[-1]
        t = g.op("Transpose", [x], [x.shape[p] for p in perm], perm=perm)
        a, b = (x, t) if g.chance(0.5) else (t, x)
        shape = broadcast(a.shape[:-2], b.shape[:-2]) + (a.shape[-2],
                                                         b.shape[-1])
        return g.op("MatMul", [a, b], shape, step="MatMul(self %s)" %
                    fmt_shape(a.shape))
    k = x.shape[-1]
    batch = list(x.shape[:-2])
    r = g.rng.random()
    if x.rank >= 2 and r < 0.15:
        b = g.weight([k], k ** -0.5)
        return g.op("MatMul", [x, b], x.shape[:-1],
                    step="MatMul(%s @ %d)" % (fmt_shape(x.shape), k))
    if x.rank >= 2 and r < 0.3:
        # A weight on the left: (.., m2, m) @ x(.., m, n)
        m2 = g.int(1, 40)
        a = g.weight([m2, x.shape[-2]], x.shape[-2] ** -0.5)
        return g.op("MatMul", [a, x], x.shape[:-2] + (m2, x.shape[-1]),
                    step="MatMul(%s @ %s)" % (fmt_shape(a.shape),
                                              fmt_shape(x.shape)))
    n = g.int(1, 48)
    choice = g.rng.random()
    if choice < 0.5 or not batch:
        b_batch = [] if g.chance(0.7) else [g.int(1, 3)]
    elif choice < 0.8:
        b_batch = [1 if g.chance(0.3) else d for d in batch]
    else:
        b_batch = [g.int(1, 2)] + [1 if g.chance(0.3) else d for d in batch]
    if x.rank == 1 and b_batch:
        b_batch = b_batch[-1:]
    b = g.weight(b_batch + [k, n], k ** -0.5)
    out_batch = broadcast(batch, b_batch)
    shape = out_batch + ((x.shape[-2],) if x.rank >= 2 else ()) + (n,)
    return g.op("MatMul", [x, b], shape, step="MatMul(%s @ %s)" % (
        fmt_shape(x.shape), fmt_shape(b.shape)))


EINSUMS = {
    1: ["i,i->", "i,ij->j", "i,j->ij", "i->i"],
    2: ["ij,jk->ik", "ij->ji", "ij->i", "ij->j", "ij,kj->ik", "ij,ij->ij",
        "ij,ij->i", "ij->", "ij,j->i"],
    3: ["bij,bjk->bik", "bij->bji", "bij,bkj->bik", "bij,jk->bik",
        "bij->bj", "bij,bij->bi"],
    4: ["bhid,bhjd->bhij", "nchw->nhwc", "bhij,bhjd->bhid", "nchw,c->nhw"],
}


def gen_einsum(g, x):
    if x.rank not in EINSUMS:
        raise Draw("rank")
    equation = g.pick(EINSUMS[x.rank])
    lhs, rhs = equation.split("->")
    terms = lhs.split(",")
    dims = dict(zip(terms[0], x.shape))
    operands = [x]
    for term in terms[1:]:
        if all(c in dims for c in term) and len(term) == x.rank and \
                g.chance(0.5) and [dims[c] for c in term] == list(x.shape):
            operands.append(x)
            continue
        for c in term:
            if c not in dims:
                dims[c] = g.int(1, 24)
        shape = [dims[c] for c in term]
        if shape == list(x.shape) and g.chance(0.5):
            operands.append(x)
        else:
            operands.append(g.weight(shape, 0.5))
    if g.chance(0.15):
        # Implicit output: the letters used once, in alphabetical order.
        counts = {}
        for c in "".join(terms):
            counts[c] = counts.get(c, 0) + 1
        rhs = "".join(sorted(c for c, n in counts.items() if n == 1))
        equation = lhs
    return g.op("Einsum", operands, [dims[c] for c in rhs],
                step="Einsum(%s)" % equation, equation=equation)


def gen_batchnorm(g, x):
    x = to_rank(g, x, [4, 4, 2, 3, 5], [4, 64, None, None, None])
    c = x.shape[1]
    scale, bias, mean = (g.weight([c], 1.0) for _ in range(3))
    var = g.const((np.abs(g.rng.standard_normal(c)) + 0.1)
                  .astype(np.float32))
    attrs = {}
    if g.chance(0.5):
        attrs["epsilon"] = g.pick([1e-5, 1e-3, 0.1])
    if g.opset >= 14 and g.chance(0.3):
        attrs["training_mode"] = 0
    return g.op("BatchNormalization", [x, scale, bias, mean, var], x.shape,
                step="BatchNormalization(%s)" % fmt_shape(x.shape), **attrs)


def gen_layernorm(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    axis = some_axis(g, x.rank) if g.chance(0.7) else -1
    norm = x.shape[norm_axis(axis, x.rank):]
    scale = g.weight(list(norm), 1.0)
    bias = g.weight(list(norm), 0.5) if g.chance(0.6) else None
    attrs = {"axis": axis}
    if g.chance(0.4):
        attrs["epsilon"] = g.pick([1e-5, 1e-3, 0.1])
    return g.op("LayerNormalization", [x, scale] + ([bias] if bias else []),
                x.shape, step="LayerNormalization(%s axis=%d)" % (
                    fmt_shape(x.shape), axis), **attrs)


def gen_softmax(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    op = g.pick(["Softmax", "LogSoftmax"])
    if g.chance(0.8):
        axis = some_axis(g, x.rank)
        return g.op(op, [x], x.shape, step="%s(%d)" % (op, axis), axis=axis)
    return g.op(op, [x], x.shape)


REDUCE_OPS = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
              "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
              "ReduceLogSumExp", "ReduceSumSquare"]


def reduce_node(g, x, op):
    rank = x.rank
    everything = g.chance(0.12)
    axes = sorted(int(a) for a in g.rng.choice(
        rank, g.int(1, rank), replace=False)) if not everything else []
    written = [a - rank if g.chance(0.3) else a for a in axes]
    keep = g.chance(0.5)
    attrs = {}
    if not keep or g.chance(0.5):
        attrs["keepdims"] = int(keep)
    reduced = set(axes) if axes else set(range(rank))
    shape = [1 if i in reduced else d for i, d in enumerate(x.shape)
             if keep or i not in reduced]
    if op == "ReduceSum":
        inputs = [x, g.ints(written)] if axes else [x]
        if not axes and g.chance(0.2):
            attrs["noop_with_empty_axes"] = 1
            shape = list(x.shape)
    else:
        inputs = [x]
        if axes:
            attrs["axes"] = written
    return g.op(op, inputs, shape, dtype=x.dtype, step="%s(%s%s)" % (
        op, written if axes else "all", "" if keep else " drop"), **attrs)


def gen_reduce(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    op = g.pick(REDUCE_OPS)
    if op == "ReduceLogSum":
        x = positive(g, x)
    return reduce_node(g, x, op)


def gen_argmax(g, x):
    if not x.exact or x.rank == 0:
        raise Draw("inexact")
    op = g.pick(["ArgMax", "ArgMin"])
    axis = some_axis(g, x.rank)
    keep = g.chance(0.5)
    attrs = {"axis": axis}
    if not keep or g.chance(0.5):
        attrs["keepdims"] = int(keep)
    if g.chance(0.5):
        attrs["select_last_index"] = g.int(0, 1)
    a = norm_axis(axis, x.rank)
    shape = [1 if i == a else d for i, d in enumerate(x.shape)
             if keep or i != a]
    idx = g.op(op, [x], shape, "int64", step="%s(%d%s%s)" % (
        op, axis, "" if keep else " drop",
        " last" if attrs.get("select_last_index") else ""), **attrs)
    r = g.rng.random()
    if r < 0.4:
        return g.op("Cast", [idx], idx.shape, to=TensorProto.FLOAT,
                    step="Cast(i64>f32)")
    if r < 0.7:
        table = g.weight([x.shape[a]] + ([g.int(1, 8)] if g.chance(0.7)
                                         else []), 1.0)
        return g.op("Gather", [table, idx], idx.shape + table.shape[1:],
                    step="Gather(table %s)" % fmt_shape(table.shape))
    return idx


def cumsum_node(g, x):
    axis = some_axis(g, x.rank)
    attrs = {}
    if g.chance(0.4):
        attrs["exclusive"] = 1
    if g.chance(0.4):
        attrs["reverse"] = 1
    a = g.scalar(axis, "int64" if g.chance(0.7) else "int32")
    return g.op("CumSum", [x, a], x.shape, dtype=x.dtype,
                step="CumSum(%d%s)" % (axis, "".join(" " + k for k in attrs)),
                **attrs)


def gen_cumsum(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    return cumsum_node(g, x)


def gen_concat(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    axis = some_axis(g, x.rank)
    a = norm_axis(axis, x.rank)
    parts = [x]
    for _ in range(g.int(1, 2)):
        r = g.rng.random()
        if r < 0.3:
            parts.append(x)
            continue
        if r < 0.55:
            found = [v for v in g.produced if v.dtype == "float32" and
                     v.rank == x.rank and v is not x and all(
                         v.shape[i] == x.shape[i] for i in range(x.rank)
                         if i != a)]
            if found:
                parts.append(g.pick(found))
                continue
        shape = list(x.shape)
        shape[a] = g.int(1, 8)
        parts.append(g.input(shape) if g.chance(0.3) else
                     g.weight(shape, 1.0))
    g.rng.shuffle(parts)
    shape = list(x.shape)
    shape[a] = sum(p.shape[a] for p in parts)
    return g.op("Concat", parts, shape, step="Concat(%d,%d parts)" % (
        axis, len(parts)), axis=axis)


def gen_split(g, x):
    big = [i for i, d in enumerate(x.shape) if d >= 2]
    if not big:
        raise Draw("no axis to split")
    a = g.pick(big)
    axis = a - x.rank if g.chance(0.3) else a
    d = x.shape[a]
    n = g.int(2, min(4, d))
    inputs = [x]
    if d % n == 0 and g.chance(0.5):
        sizes = [d // n] * n
        desc = "equal"
    else:
        cuts = sorted(int(c) for c in g.rng.choice(np.arange(1, d), n - 1,
                                                   replace=False))
        sizes = [b - e for b, e in zip(cuts + [d], [0] + cuts)]
        inputs.append(g.ints(sizes))
        desc = ",".join(map(str, sizes))
    outs = []
    for s in sizes:
        shape = list(x.shape)
        shape[a] = s
        outs.append((shape, "float32", x.exact))
    values = g.node("Split", inputs, outs, step="Split(%d: %s)" % (axis,
                                                                   desc),
                    axis=axis)
    return g.pick(values)


def slice_length(d, start, end, step):
    """ONNX Slice semantics for one axis."""
    if start < 0:
        start += d
    if end < 0:
        end += d
    if step > 0:
        start, end = min(max(start, 0), d), min(max(end, 0), d)
    else:
        start, end = min(max(start, 0), d - 1), min(max(end, -1), d - 1)
    return len(range(start, end, step))


def gen_slice(g, x):
    if x.rank == 0 or x.size == 0:
        raise Draw("scalar")
    axes = [int(a) for a in g.rng.choice(x.rank, g.int(1, x.rank),
                                         replace=False)]
    starts, ends, steps, shape = [], [], [], list(x.shape)
    for a in axes:
        d = x.shape[a]
        for _ in range(10):
            step = g.pick([1, 1, 1, 2, 3, -1, -2])
            start = g.int(-d - 2, d + 1)
            end = g.pick([g.int(-d - 2, d + 1), g.int(-d - 2, d + 1),
                          INT64_MAX, -INT64_MAX])
            if slice_length(d, start, end, step) > 0:
                break
        else:
            start, end, step = 0, d, 1
        starts.append(start)
        ends.append(end)
        steps.append(step)
        shape[a] = slice_length(d, start, end, step)
    inputs = [x, g.ints(starts), g.ints(ends)]
    written = [a - x.rank if g.chance(0.3) else a for a in axes]
    if sorted(axes) != list(range(x.rank)) or axes != sorted(axes) or \
            g.chance(0.7) or any(s != 1 for s in steps):
        inputs.append(g.ints(written))
    else:
        written = None
    if any(s != 1 for s in steps) or (len(inputs) == 4 and g.chance(0.3)):
        inputs.append(g.ints(steps))
    return g.op("Slice", inputs, shape, step="Slice(%s)" % " ".join(
        "%d:%s:%s:%d" % (a, s, "max" if e == INT64_MAX else
                         "-max" if e == -INT64_MAX else e, st)
        for a, s, e, st in zip(axes, starts, ends, steps)))


def gen_transpose(g, x):
    if x.rank < 2:
        raise Draw("rank")
    if g.chance(0.15):
        return g.op("Transpose", [x], x.shape[::-1])
    perm = [int(p) for p in g.rng.permutation(x.rank)]
    return g.op("Transpose", [x], [x.shape[p] for p in perm],
                step="Transpose%s" % perm, perm=perm)


def gen_reshape(g, x):
    if x.size == 0:
        raise Draw("empty")
    r = g.rng.random()
    shape = list(x.shape)
    if r < 0.35 and x.rank >= 2:
        i = g.int(0, x.rank - 2)
        shape[i:i + 2] = [shape[i] * shape[i + 1]]
    elif r < 0.65 and x.rank >= 1 and x.rank < 6:
        i = g.int(0, x.rank - 1)
        shape[i:i + 1] = factorize(g, shape[i], 2)
    else:
        shape = factorize(g, x.size, g.int(1, 5))
    return reshape(g, x, shape)


def gen_flatten(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    axis = g.int(-x.rank, x.rank) if x.rank > 0 else 0
    a = norm_axis(axis, x.rank)
    attrs = {"axis": axis} if axis != 1 or g.chance(0.5) else {}
    return g.op("Flatten", [x], (size_of(x.shape[:a]), size_of(x.shape[a:])),
                step="Flatten(%d)" % axis, **attrs)


def gen_squeeze_unsqueeze(g, x):
    ones = [i for i, d in enumerate(x.shape) if d == 1]
    if ones and g.chance(0.5):
        if g.chance(0.2):
            return g.op("Squeeze", [x], [d for d in x.shape if d != 1],
                        step="Squeeze(all)")
        axes = sorted(int(a) for a in g.rng.choice(
            ones, g.int(1, len(ones)), replace=False))
        written = [a - x.rank if g.chance(0.3) else a for a in axes]
        return g.op("Squeeze", [x, g.ints(written)],
                    [d for i, d in enumerate(x.shape) if i not in axes],
                    step="Squeeze%s" % written)
    if x.rank >= 6:
        raise Draw("rank")
    k = g.int(1, 2)
    out_rank = x.rank + k
    axes = sorted(int(a) for a in g.rng.choice(out_rank, k, replace=False))
    written = [a - out_rank if g.chance(0.3) else a for a in axes]
    shape, it = [], iter(x.shape)
    for i in range(out_rank):
        shape.append(1 if i in axes else next(it))
    return g.op("Unsqueeze", [x, g.ints(written)], shape,
                step="Unsqueeze%s" % written)


def gen_expand(g, x):
    spec = []
    for d in x.shape:
        spec.append(g.pick([1, 2, 3, 4]) if d == 1 else g.pick([d, d, 1]))
    if g.chance(0.3) and x.rank < 5:
        spec = [g.int(1, 3)] + spec
    if g.chance(0.1) and spec:
        spec = spec[g.int(0, len(spec) - 1):]
    shape = broadcast(x.shape, spec)
    return g.op("Expand", [x, g.ints(spec)], shape,
                step="Expand%s" % spec)


def gen_tile(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    repeats = [g.pick([1, 1, 2, 3]) for _ in x.shape]
    return g.op("Tile", [x, g.ints(repeats)],
                [d * r for d, r in zip(x.shape, repeats)],
                step="Tile%s" % repeats)


def gen_pad(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    mode = g.pick(["constant", "constant", "constant", "reflect", "edge"])
    begin, end = [], []
    for d in x.shape:
        for side in (begin, end):
            if g.chance(0.4):
                side.append(0)
            elif mode == "reflect":
                side.append(g.int(0, d - 1))
            elif mode == "constant" and d >= 2 and g.chance(0.15):
                side.append(-g.int(1, (d - 1) // 2 or 1))
            else:
                side.append(g.int(0, 3))
    shape = [d + b + e for d, b, e in zip(x.shape, begin, end)]
    if min(shape) < 1:
        raise Draw("pad empties")
    inputs = [x, g.ints(begin + end)]
    attrs = {}
    if mode != "constant" or g.chance(0.3):
        attrs["mode"] = mode
    value = None
    if mode == "constant" and g.chance(0.5):
        value = float(g.int(-8, 8)) / 4
        inputs.append(g.scalar(value))
    return g.op("Pad", inputs, shape, step="Pad(%s %s%s)" % (
        mode, ",".join(map(str, begin + end)),
        "" if value is None else " v=%g" % value), **attrs)


SCALES = [0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0]


def gen_resize(g, x):
    mode = g.pick(["nearest"] * 9 + ["linear"] * 10 + ["cubic"])
    if mode == "nearest":
        x = to_rank(g, x, [4, 4, 4, 3], [4, 32, None, None])
    else:
        x = to_rank(g, x, [4], [4, 32, None, None])
    lead = x.rank - 2
    modes = ["half_pixel", "asymmetric", "align_corners",
             "pytorch_half_pixel"]
    if mode == "nearest":
        modes.append("tf_half_pixel_for_nn")
    ctm = g.pick(modes) if g.chance(0.85) else None
    attrs = {"mode": mode}
    if ctm:
        attrs["coordinate_transformation_mode"] = ctm
    if mode == "nearest" and g.chance(0.7):
        attrs["nearest_mode"] = g.pick(["round_prefer_floor",
                                        "round_prefer_ceil", "floor",
                                        "ceil"])
        if ctm == "tf_half_pixel_for_nn":
            # (x + 0.5) / 1 rounded up moves an axis that is not resized
            # (N, C) by one in aotc, as the formula says; ONNX Runtime
            # copies such axes.
            attrs["nearest_mode"] = attrs["nearest_mode"].replace(
                "round_prefer_ceil", "round_prefer_floor").replace(
                    "ceil", "floor")
    # align_corners and pytorch_half_pixel read the output length: ONNX
    # Runtime takes the integral one, the ONNX reference (and aotc) the
    # input length times the scale; such scales keep that product integral.
    # A scale other than 1 that leaves the length as it is (2 x 1.25):
    # ONNX Runtime copies the axis, aotc interpolates at x / scale.
    whole = ctm in ("align_corners", "pytorch_half_pixel")
    if g.chance(0.5):
        scales = [1.0] * lead
        out = list(x.shape[:lead])
        for d in x.shape[lead:]:
            s = g.pick([c for c in SCALES if d * c >= 1 and (
                not whole or float(d * c).is_integer()) and (
                    c == 1.0 or int(np.floor(d * c)) != d)])
            scales.append(s)
            out.append(int(np.floor(d * s)))
        inputs = [x, None, g.const(np.array(scales, np.float32))]
        how = "scales %s" % scales[lead:]
    else:
        out = list(x.shape[:lead]) + [g.int(1, 2 * d + 2)
                                      for d in x.shape[lead:]]
        inputs = [x, None, None, g.ints(out)]
        how = "sizes %s" % out[lead:]
    exact = mode == "nearest" and x.exact
    return g.op("Resize", inputs, out, exact=exact, step="Resize(%s %s %s%s)"
                % (mode, fmt_shape(x.shape), how,
                   "".join(" " + str(attrs[k]) for k in
                           ("coordinate_transformation_mode", "nearest_mode")
                           if k in attrs)), **attrs)


def gen_gather(g, x):
    if x.rank == 0:
        raise Draw("scalar")
    axis = some_axis(g, x.rank)
    a = norm_axis(axis, x.rank)
    d = x.shape[a]
    ishape = g.pick([(), (g.int(1, 6),), (g.int(1, 6),),
                     (g.int(1, 3), g.int(1, 4))])
    idx = g.const(g.rng.integers(-d, d, size=ishape).astype(np.int64))
    shape = x.shape[:a] + tuple(ishape) + x.shape[a + 1:]
    return g.op("Gather", [x, idx], shape, step="Gather(%d, %s)" % (
        axis, fmt_shape(ishape)), axis=axis)


def gen_shape_chain(g, x):
    """Shape arithmetic aotc folds at compile time, as PyTorch exports it."""
    kind = g.pick(["flatten_tail", "flatten_tail", "merge", "size",
                   "constant_of_shape", "range"])
    if kind in ("flatten_tail", "merge") and x.rank < 2:
        kind = "size"
    if kind == "flatten_tail":
        k = g.int(1, x.rank - 1)
        if g.opset >= 15 and g.chance(0.4):
            head = g.op("Shape", [x], [k], "int64", start=0, end=k,
                        step="Shape(0:%d)" % k)
        else:
            s = g.op("Shape", [x], [x.rank], "int64")
            if g.chance(0.5):
                head = g.op("Slice", [s, g.ints([0]), g.ints([k])], [k],
                            "int64", step="Slice(0:%d)" % k)
            else:
                head = g.op("Gather", [s, g.ints(list(range(k)))], [k],
                            "int64", axis=0, step="Gather(0..%d)" % k)
        spec = g.op("Concat", [head, g.ints([-1])], [k + 1], "int64", axis=0)
        return g.op("Reshape", [x, spec], list(x.shape[:k]) +
                    [size_of(x.shape[k:])], step="Reshape(dynamic)")
    if kind == "merge":
        i = g.int(0, x.rank - 2)
        s = g.op("Shape", [x], [x.rank], "int64")
        parts = []
        if i > 0:
            parts.append(g.op("Slice", [s, g.ints([0]), g.ints([i])], [i],
                              "int64"))
        d0 = g.op("Gather", [s, g.ints([i])], [1], "int64", axis=0)
        d1 = g.op("Gather", [s, g.ints([i + 1])], [1], "int64", axis=0)
        parts.append(g.op("Mul", [d0, d1], [1], "int64"))
        if i + 2 < x.rank:
            parts.append(g.op("Slice", [s, g.ints([i + 2]),
                                        g.ints([INT64_MAX])],
                              [x.rank - i - 2], "int64"))
        spec = g.op("Concat", parts, [x.rank - 1], "int64", axis=0)
        shape = list(x.shape)
        shape[i:i + 2] = [shape[i] * shape[i + 1]]
        return g.op("Reshape", [x, spec], shape, step="Reshape(merge %d)" % i)
    if kind == "size":
        n = g.op("Size", [x], [], "int64")
        f = g.op("Cast", [n], [], to=TensorProto.FLOAT, step="Cast(i64>f32)")
        return g.op("Div", [x, f], x.shape, step="/size")
    if kind == "constant_of_shape":
        value = float(g.int(-8, 8)) / 4
        if g.chance(0.5):
            spec, shape = g.op("Shape", [x], [x.rank], "int64"), x.shape
        else:
            shape = broadcastable_shape(g, x.shape) or (1,)
            spec = g.ints(list(shape))
        attrs = {}
        if value != 0 or g.chance(0.5):
            attrs["value"] = numpy_helper.from_array(
                np.array([value], np.float32))
        c = g.op("ConstantOfShape", [spec], shape, exact=True,
                 step="ConstantOfShape(%g)" % value, **attrs)
        return g.op(g.pick(["Add", "Mul", "Sub"]), [x, c],
                    broadcast(x.shape, c.shape))
    # range
    if x.rank == 0:
        raise Draw("scalar")
    n = x.shape[-1]
    if g.chance(0.5):
        start, delta = g.int(-3, 3), g.pick([1, 2, -1, -3])
        r = g.op("Range", [g.scalar(start, "int64"),
                           g.scalar(start + delta * n, "int64"),
                           g.scalar(delta, "int64")], [n], "int64",
                 step="Range(i64 %d,%d)" % (start, delta))
        r = g.op("Cast", [r], [n], to=TensorProto.FLOAT, step="Cast(i64>f32)")
    else:
        start, delta = float(g.int(-4, 4)) / 4, g.pick([0.25, 0.5, 1.0,
                                                        -0.5])
        r = g.op("Range", [g.scalar(start), g.scalar(start + delta * n -
                                                     delta / 2),
                           g.scalar(delta)], [n],
                 step="Range(f32 %g,%g)" % (start, delta))
    return g.op(g.pick(["Add", "Mul"]), [x, r], x.shape)


def gen_scatter_nd(g, x):
    if x.rank == 0 or x.size == 0:
        raise Draw("scalar")
    q = g.int(1, x.rank)
    cells = size_of(x.shape[:q])
    k = g.int(1, min(4, cells))
    flat = g.rng.choice(cells, k, replace=False)
    idx = np.stack(np.unravel_index(flat, x.shape[:q]), -1).astype(np.int64)
    updates = g.weight([k] + list(x.shape[q:]), 1.0)
    return g.op("ScatterND", [x, g.const(idx), updates], x.shape,
                step="ScatterND(%dx%d)" % (k, q))


def gen_identity(g, x):
    if g.chance(0.5):
        return g.op("Identity", [x], x.shape)
    inputs = [x, g.scalar(g.pick([0.0, 0.5])) if g.chance(0.5) else None,
              g.const(np.array(False)) if g.chance(0.5) else None]
    if g.chance(0.3):
        y, _ = g.node("Dropout", inputs, [(x.shape, "float32", x.exact),
                                          (x.shape, "bool", True)],
                      step="Dropout+mask")
        return y
    return g.op("Dropout", inputs, x.shape)


# (generator, weight, lowest opset)
GENERATORS = [
    (gen_unary, 10, 13), (gen_binary, 10, 13), (gen_compare_where, 4, 13),
    (gen_int_path, 3, 13), (gen_cast, 2, 13), (gen_conv, 10, 13),
    (gen_conv_transpose, 3, 13), (gen_pool, 5, 13), (gen_global_pool, 2, 13),
    (gen_gemm, 4, 13), (gen_matmul, 6, 13), (gen_einsum, 2, 13),
    (gen_batchnorm, 3, 13), (gen_layernorm, 3, 17), (gen_softmax, 4, 13),
    (gen_reduce, 6, 13), (gen_argmax, 2, 13), (gen_cumsum, 2, 13),
    (gen_concat, 4, 13), (gen_split, 3, 13), (gen_slice, 4, 13),
    (gen_transpose, 4, 13), (gen_reshape, 4, 13), (gen_flatten, 2, 13),
    (gen_squeeze_unsqueeze, 3, 13), (gen_expand, 2, 13), (gen_tile, 2, 13),
    (gen_pad, 3, 13), (gen_resize, 3, 13), (gen_gather, 3, 13),
    (gen_shape_chain, 3, 13), (gen_scatter_nd, 1, 13), (gen_identity, 1, 13),
]


def first_input_shape(g):
    kind = g.pick(["image"] * 5 + ["sequence"] * 2 + ["matrix"] * 2 +
                  ["vector", "volume", "scalar"])
    if kind == "image":
        return [g.pick([1, 1, 1, 2, 3]), g.int(1, 20), g.int(1, 24),
                g.int(1, 24)]
    if kind == "sequence":
        return [g.int(1, 3), g.int(1, 20), g.int(1, 40)]
    if kind == "matrix":
        return [g.int(1, 40), g.int(1, 40)]
    if kind == "vector":
        return [g.int(1, 64)]
    if kind == "volume":
        return [g.int(1, 2), g.int(1, 6), g.int(2, 8), g.int(2, 8),
                g.int(2, 8)]
    return []


def draft(rng, opset):
    """One random graph (not yet checked)."""
    g = Graph(rng, opset)
    g.last = g.input(first_input_shape(g))
    table = [(f, w) for f, w, low in GENERATORS if opset >= low]
    weights = np.array([w for _, w in table], float)
    weights /= weights.sum()
    want = g.int(1, 8)
    tries = 0
    while len(g.steps) < want and tries < 60:
        tries += 1
        gen = table[int(rng.choice(len(table), p=weights))][0]
        x = operand(g)
        mark = (len(g.nodes), len(g.initializers), len(g.inputs),
                len(g.produced), set(g.consumed), len(g.steps))
        try:
            y = gen(g, x)
        except Draw:
            # Undo the op's partial nodes: an op either lands whole or not.
            del g.nodes[mark[0]:], g.initializers[mark[1]:]
            del g.inputs[mark[2]:], g.produced[mark[3]:], g.steps[mark[5]:]
            g.consumed = mark[4]
            continue
        g.last = y
    return g


def to_model(g):
    """The ModelProto of g: its unread node outputs are the graph outputs."""
    inputs = [v for v in g.inputs if v.name in g.consumed]
    outputs = [v for v in g.produced if v not in g.inputs and
               v.name not in g.consumed]
    inner = [v for v in g.produced if v not in g.inputs and
             v.name in g.consumed]

    def info(v):
        return helper.make_tensor_value_info(v.name, ONNX_TYPES[v.dtype],
                                             list(v.shape))
    graph = helper.make_graph(g.nodes, "graph_fuzz", [info(v) for v in inputs],
                              [info(v) for v in outputs], g.initializers,
                              value_info=[info(v) for v in inner])
    model = helper.make_model(graph, producer_name="graph_fuzz",
                              opset_imports=[helper.make_opsetid("",
                                                                 g.opset)])
    model.ir_version = 8
    return model, inputs, outputs


def make_case(seed, index):
    """(description, ModelProto, input arrays, rejected drafts) of case
    `index` of `seed`."""
    rng = np.random.default_rng([seed, index])
    opset = int(rng.integers(MIN_OPSET, MAX_OPSET + 1))
    rejected = []
    for _ in range(30):
        g = draft(rng, opset)
        if not g.nodes:
            continue
        model, inputs, outputs = to_model(g)
        try:
            onnx.checker.check_model(model, full_check=True)
            onnx.shape_inference.infer_shapes(model, check_type=True,
                                              strict_mode=True)
        except Exception as e:  # noqa: BLE001 - the checker's many types
            rejected.append(str(e).strip().splitlines()[0][:200])
            continue
        data_rng = np.random.default_rng([seed, index, 1])
        arrays = [data_rng.standard_normal(v.shape).astype(np.float32)
                  for v in inputs]
        desc = "opset%d %s: %s" % (opset, ",".join(
            fmt_shape(v.shape) for v in inputs), " > ".join(g.steps))
        return desc, model, arrays, rejected
    raise RuntimeError("no valid draft for case %d of seed %d: %s" % (
        index, seed, rejected[-3:]))


# ===----------------------------------------------------------------------=== #
# Compile, call, compare
# ===----------------------------------------------------------------------=== #

# An exit 1 whose message says the compiler itself went wrong.
INTERNAL = re.compile(
    r"internal error|failed to legalize|verification failed|LLVM ERROR|"
    r"Assertion|does not dominate|failed to bufferize|"
    r"error: '[\w.]+' op |PLEASE submit|Stack dump")


# A report of ASan, UBSan or LSan (the sanitized build of scripts/fuzz.sh).
SANITIZER = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|"
                       r"runtime error: ")


def reference(model, arrays):
    """ONNX Runtime's outputs, or the first line of its error."""
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = \
        onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = 1
    options.log_severity_level = 4
    try:
        session = onnxruntime.InferenceSession(
            model.SerializeToString(), options,
            providers=["CPUExecutionProvider"])
        names = [i.name for i in session.get_inputs()]
        return session.run(None, dict(zip(names, arrays))), None
    except Exception as e:  # noqa: BLE001 - ORT raises its own types
        text = str(e).strip().splitlines()
        return None, (text[0] if text else type(e).__name__)[:200]


def unsupported_reason(line):
    """The error line grouped by op and message, numbers and names
    elided."""
    m = re.search(r"error: node '[^']*' \((\w+)\): (.*)", line)
    text = "%s: %s" % (m.group(1), m.group(2)) if m else \
        line.split("error:", 1)[-1].strip()
    text = re.sub(r"'[xtwn]\d+[^']*'", "'V'", text)
    return re.sub(r"-?\d+", "N", text)[:160]


def compile_case(args, work, model_path, generic):
    """(outcome or None, detail, object path) of aotc on the model."""
    out = os.path.join(work, "generic" if generic else "default")
    command = [args.aotc, model_path, "--name=fuzz",
               "--emit=obj,header,json", "-v", "-o", out]
    if generic:
        command.append("--strategy=generic")
    shown = " ".join(command)
    try:
        compiled = subprocess.run(command, capture_output=True, text=True,
                                  timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "CRASH", "aotc timed out after %g s: %s" % (args.timeout,
                                                           shown), None
    err = compiled.stderr
    lines = err.strip().splitlines()
    obj = os.path.join(out, "fuzz.o")
    if SANITIZER.search(err):
        # A sanitized aotc (scripts/fuzz.sh) reports and may go on.
        report = [l for l in lines if SANITIZER.search(l)]
        return "CRASH", "aotc exit %d with a sanitizer report: %s\n  %s" % (
            compiled.returncode, shown, "\n  ".join(report[:3])), None
    errors = [l for l in lines if "error:" in l]
    if compiled.returncode == 1 and errors:
        imported = any(l.startswith("aotc: linalg.mlir") for l in lines)
        if INTERNAL.search(err) or imported:
            return "CRASH", "aotc exit 1%s: %s\n  %s" % (
                " after the frontend stage" if imported else "", shown,
                "\n  ".join(errors[:3])), None
        if os.path.exists(out) and os.listdir(out):
            return "CRASH", "aotc exit 1 wrote files: %s" % shown, None
        return "UNSUPPORTED", errors[0], None
    if compiled.returncode != 0 or not os.path.exists(obj):
        tail = [l for l in lines if not l.startswith("aotc: ")][-4:]
        return "CRASH", "aotc exit %d: %s\n  %s" % (
            compiled.returncode, shown, "\n  ".join(tail)), None
    remarks = [l.split("remark:", 1)[1].strip() for l in lines
               if "remark:" in l]
    return None, remarks, obj


def run_compiled(args, work, obj, want):
    """(outcome, detail) of linking and calling the object; `want` is ONNX
    Runtime's outputs or None."""
    out = os.path.dirname(obj)
    with open(os.path.join(out, "fuzz.json")) as f:
        entry = json.load(f)["entry_points"][0]
    so = os.path.join(out, "fuzz.so")
    linked = subprocess.run([args.cc, "-shared", "-o", so, obj, args.runtime,
                             args.omp, "-Wl,-rpath," +
                             os.path.dirname(args.omp)],
                            capture_output=True, text=True)
    if linked.returncode != 0:
        return "CRASH", "the object does not link: %s" % \
            linked.stderr.strip()[-300:]
    io = os.path.join(work, "inputs.npz")
    result = os.path.join(out, "outputs.npz")
    try:
        call = subprocess.run(
            [sys.executable, "-B", os.path.abspath(__file__), "--call", so,
             os.path.join(out, "fuzz.json"), io, result],
            capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "CRASH", "the call timed out after %g s" % args.timeout
    if call.returncode != 0:
        return "CRASH", "call exit %d: %s" % (call.returncode,
                                              call.stderr.strip()[-300:])
    got = np.load(result)
    status = int(got["status"])
    if status != 0:
        return "MISMATCH", "status %d" % status
    outs = entry["outputs"]
    if want is None:
        return "PASS", "ran, not compared"
    if len(outs) != len(want):
        return "MISMATCH", "%d outputs, ONNX Runtime's %d" % (len(outs),
                                                              len(want))
    worst = 0.0
    for i, (o, w) in enumerate(zip(outs, want)):
        g = got["arr_%d" % i]
        if list(o["shape"]) != list(w.shape):
            return "MISMATCH", "output %d: shape %s, ONNX Runtime's %s" % (
                i, o["shape"], list(w.shape))
        if o["dtype"] == "i1":
            if w.dtype != np.bool_:
                return "MISMATCH", "output %d: bool, ONNX Runtime's %s" % (
                    i, w.dtype)
            if g.size and g.max() > 1:
                return "MISMATCH", "output %d: a bool byte is %d" % (
                    i, g.max())
            g = g.astype(np.bool_)
        elif np.dtype(ABI_TYPES[o["dtype"]]) != w.dtype:
            return "MISMATCH", "output %d: %s, ONNX Runtime's %s" % (
                i, o["dtype"], w.dtype)
        if w.dtype.kind != "f":
            bad = np.flatnonzero(g.reshape(-1) != w.reshape(-1))
            if bad.size:
                return "MISMATCH", "output %d: %d of %d elements differ " \
                    "(first at %d: %s, ONNX Runtime's %s)" % (
                        i, bad.size, w.size, bad[0], g.reshape(-1)[bad[0]],
                        w.reshape(-1)[bad[0]])
            continue
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        finite = np.isfinite(w64)
        if not np.array_equal(g64[~finite], w64[~finite], equal_nan=True) \
                or not np.isfinite(g64[finite]).all():
            return "MISMATCH", "output %d: non-finite values differ " \
                "(%d non-finite, ONNX Runtime's %d)" % (
                    i, int((~np.isfinite(g64)).sum()), int((~finite).sum()))
        if not finite.any():
            continue
        err = float(np.abs(g64[finite] - w64[finite]).max())
        top = float(np.abs(w64[finite]).max())
        if not err <= TOL * (1.0 + top):
            at = int(np.argmax(np.where(finite, np.abs(g64 - w64), -1)))
            return "MISMATCH", "output %d: max error %.3g (max %.3g; at " \
                "flat index %d: %.6g, ONNX Runtime's %.6g)" % (
                    i, err, top, at, g64.reshape(-1)[at],
                    w64.reshape(-1)[at])
        worst = max(worst, err)
    return "PASS", "max error %.2g" % worst


def call_library(so, manifest, io, result):
    """The child of run_compiled: loads `so`, calls fuzz(inputs...,
    outputs..., pool, pool_bytes, NULL) with a pool of exactly pool_bytes
    (at its alignment) and outputs pre-filled with 0xff bytes, saves the
    outputs and the status to `result`."""
    with open(manifest) as f:
        entry = json.load(f)["entry_points"][0]
    inputs = list(np.load(io).values())
    outputs = []
    for o in entry["outputs"]:
        t = np.empty(o["shape"], ABI_TYPES[o["dtype"]])
        ctypes.memset(t.ctypes.data, 0xFF, t.nbytes)
        outputs.append(t)
    pool, align = entry["pool_bytes"], entry["pool_alignment"]
    raw = np.zeros(pool + align, np.uint8)
    start = raw.ctypes.data + (-raw.ctypes.data) % align
    lib = ctypes.CDLL(so)
    fn = getattr(lib, entry["name"])
    fn.restype = ctypes.c_int32
    P = ctypes.c_void_p
    status = fn(*[P(a.ctypes.data) for a in inputs + outputs], P(start),
                ctypes.c_size_t(pool), None)
    np.savez(result, *outputs, status=status)


def run_case(args, seed, index):
    """(description, [(label, outcome, detail, remarks)], ONNX Runtime's
    error or None, drafts redrawn) of one case: the default strategy, and
    with --generic also --strategy=generic."""
    desc, model, arrays, rejected = make_case(seed, index)
    work = os.path.join(args.work, "s%d_c%d" % (seed, index))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    model_path = os.path.join(work, "model.onnx")
    onnx.save(model, model_path)
    np.savez(os.path.join(work, "inputs.npz"), *arrays)
    want, ort_error = (reference(model, arrays) if onnxruntime
                       else (None, None))
    results = []
    for generic in ([False, True] if args.generic else [False]):
        outcome, detail, obj = compile_case(args, work, model_path, generic)
        remarks = []
        if outcome is None:
            remarks = detail
            outcome, detail = run_compiled(args, work, obj, want)
            if outcome == "PASS" and ort_error:
                outcome, detail = "NO_REFERENCE", "ONNX Runtime: " + ort_error
        results.append(("generic" if generic else "", outcome, detail,
                        remarks))
    failed = any(r[1] in ("CRASH", "MISMATCH") for r in results)
    if not (failed and args.keep):
        shutil.rmtree(work, ignore_errors=True)
    return desc, results, ort_error, len(rejected)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--call":
        call_library(*sys.argv[2:6])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--runtime", required=True,
                        help="libaot_runtime.a, linked into each object")
    parser.add_argument("--work", required=True)
    parser.add_argument("--cc", default="clang-22",
                        help="links each object into a shared library")
    parser.add_argument("--omp", default="/usr/lib/llvm-22/lib/libomp.so",
                        help="the OpenMP runtime the objects link")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=0,
                        help="cases to run (0: until --seconds)")
    parser.add_argument("--seconds", type=float, default=0,
                        help="stop starting cases after this long")
    parser.add_argument("--only", type=int, default=None,
                        help="run case INDEX of --seed alone")
    parser.add_argument("--generic", action="store_true",
                        help="also compile every case with --strategy=generic")
    parser.add_argument("--keep", action="store_true",
                        help="keep the work files of failed cases")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds per compile and per call")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if args.only is not None:
        todo = [(args.seed, args.only)]
    else:
        todo = list(REGRESSIONS)
    start = time.monotonic()
    counts, reasons, remarks, refused = {}, {}, {}, {}
    failures = []
    rejected = 0
    index = 0
    while True:
        if todo:
            seed, i = todo.pop(0)
        elif args.only is not None:
            break
        elif (args.cases and index >= args.cases) or (
                not args.cases and time.monotonic() - start >= args.seconds):
            break
        else:
            seed, i = args.seed, index
            index += 1
        desc, results, ort_error, drafts = run_case(args, seed, i)
        rejected += drafts
        if ort_error:
            refused[ort_error] = refused.get(ort_error, 0) + 1
        for label, outcome, detail, notes in results:
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome == "UNSUPPORTED":
                key = unsupported_reason(detail)
                reasons[key] = reasons.get(key, 0) + 1
            for r in notes:
                key = re.sub(r"-?\d+", "N", r)
                remarks[key] = remarks.get(key, 0) + 1
            name = "s%d #%d%s" % (seed, i, " " + label if label else "")
            print("%-12s %-16s %s: %s" % (outcome, name, desc, detail),
                  flush=True)
            if outcome in ("MISMATCH", "CRASH"):
                failures.append("%s --seed %d --only %d%s  # %s" % (
                    os.path.basename(__file__), seed, i,
                    " --generic" if label else "", desc))
    oracle = ("outputs compared with ONNX Runtime %s" %
              onnxruntime.__version__ if onnxruntime else
              "onnxruntime not importable: compiled, linked and called, "
              "outputs not compared")
    print("%d compiles in %.0f s (seed %d; %s): %s" % (
        sum(counts.values()), time.monotonic() - start, args.seed, oracle,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    if rejected:
        print("drafts redrawn after the ONNX checker: %d" % rejected)
    for title, table in (("unsupported", reasons),
                         ("ONNX Runtime refused", refused),
                         ("remarks", remarks)):
        for key, n in sorted(table.items(), key=lambda kv: -kv[1]):
            print("  %s %5d  %s" % (title, n, key))
    for f in failures:
        print("reproduce: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
