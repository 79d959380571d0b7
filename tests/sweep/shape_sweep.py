#!/usr/bin/python3
"""A shape sweep: random single-op and small-chain PyTorch programs, each
exported to ONNX, compiled by aotc, called through ctypes and compared with
PyTorch.

The generator draws the shapes a tuned compiler is least likely to have seen:
convolutions with random kernel (square or not), stride, padding, dilation
and groups, channel counts that are not multiples of 8, odd and tiny images,
batch > 1; transposed convolutions; max and average pools (with and without
ceil mode and padding counted); MatMul and Gemm of odd sizes with batch
broadcasting; nearest and bilinear resizes; and chains of these with reshapes, transposes, concatenations,
activations and reductions between them. Every case is reproducible from
(seed, index): `--only INDEX` reruns one.

Outcomes (one line per case, then a summary):
- PASS: outputs match, max |aotc - torch| <= TOL * (1 + max |torch|), and
  the non-finite outputs are the same;
- MISMATCH: a larger error, another shape, or a non-zero status;
- CRASH: aotc or the call ended by a signal or an exit code other than 0/1,
  or aotc wrote no object;
- UNSUPPORTED: aotc exited with 1 and printed `error:` (counted, not a
  failure: the op or attribute is documented as unsupported);
- EXPORT_FAILED: PyTorch could not run or export the case (a generated
  shape PyTorch rejects), or the exported graph declares other output
  shapes than PyTorch computes (the graph means something else; not
  aotc's).
A MISMATCH or CRASH fails the run. Each failure prints the command that
reproduces it. REGRESSIONS below lists cases the sweep once failed on, run
first every time.

Usage:
  shape_sweep.py --aotc AOTC --runtime LIBAOT_RUNTIME --work DIR
                 [--seed S] [--cases N] [--seconds T] [--only I] [--generic]
                 [--cc CC] [--omp LIBOMP]
"""

import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

TOL = 1e-4

# Cases the sweep once failed on (seed, index), kept as regression tests.
REGRESSIONS = [
    # An average pool counting its padding (Pad, then AveragePool): the
    # padding fused into the pool's sum, whose body reads its loop index,
    # was split into register lanes with the index naming the wrong loop.
    (2, 17),
]


# ===----------------------------------------------------------------------=== #
# Random programs
# ===----------------------------------------------------------------------=== #


def activation(rng):
    """A random activation module (or none)."""
    return rng.choice([nn.Identity, nn.ReLU, nn.ReLU6, nn.Hardswish,
                       nn.Sigmoid, nn.SiLU, nn.Tanh, nn.GELU,
                       nn.LeakyReLU])()


def odd_channels(rng, low=1, high=48):
    """Channel counts, mostly not multiples of 8."""
    return int(rng.integers(low, high + 1))


def conv_case(rng):
    """One Conv2d (with an activation), random in every attribute."""
    groups = int(rng.choice([1, 1, 1, 2, 3, 0]))  # 0: depthwise
    cin = odd_channels(rng)
    if groups == 0:
        groups = cin
        cout = cin * int(rng.choice([1, 1, 2]))
    else:
        cin = max(groups, cin // groups * groups)
        cout = max(groups, odd_channels(rng) // groups * groups)
    kh, kw = int(rng.integers(1, 8)), int(rng.integers(1, 8))
    if rng.random() < 0.6:
        kw = kh
    stride = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    if rng.random() < 0.6:
        stride = (stride[0], stride[0])
    dilation = (1, 1) if rng.random() < 0.7 else (
        int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    padding = (int(rng.integers(0, kh * dilation[0] // 2 + 2)),
               int(rng.integers(0, kw * dilation[1] // 2 + 2)))
    span = ((kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1)
    h = int(rng.integers(max(1, span[0] - 2 * padding[0]), 40))
    w = int(rng.integers(max(1, span[1] - 2 * padding[1]), 40))
    batch = int(rng.choice([1, 1, 1, 2, 3]))
    conv = nn.Conv2d(cin, cout, (kh, kw), stride=stride, padding=padding,
                     dilation=dilation, groups=groups,
                     bias=bool(rng.random() < 0.8))
    desc = "conv %dx%dx%dx%d -> %d k%dx%d s%s p%s d%s g%d" % (
        batch, cin, h, w, cout, kh, kw, stride, padding, dilation, groups)
    return desc, nn.Sequential(conv, activation(rng)), [(batch, cin, h, w)]


def conv_transpose_case(rng):
    """One ConvTranspose2d."""
    groups = int(rng.choice([1, 1, 2]))
    cin = max(groups, odd_channels(rng, 1, 24) // groups * groups)
    cout = max(groups, odd_channels(rng, 1, 24) // groups * groups)
    k = int(rng.integers(1, 5))
    stride = int(rng.integers(1, 4))
    padding = int(rng.integers(0, k))
    output_padding = int(rng.integers(0, stride)) if stride > 1 else 0
    if output_padding >= stride:
        output_padding = 0
    h, w = int(rng.integers(1, 16)), int(rng.integers(1, 16))
    batch = int(rng.choice([1, 2]))
    conv = nn.ConvTranspose2d(cin, cout, k, stride=stride, padding=padding,
                              output_padding=output_padding, groups=groups)
    desc = "conv_transpose %dx%dx%dx%d -> %d k%d s%d p%d op%d g%d" % (
        batch, cin, h, w, cout, k, stride, padding, output_padding, groups)
    return desc, conv, [(batch, cin, h, w)]


def pool_case(rng):
    """One MaxPool2d, AvgPool2d or adaptive average pool."""
    kind = rng.choice(["max", "avg", "global"])
    batch, c = int(rng.choice([1, 2])), odd_channels(rng, 1, 40)
    h, w = int(rng.integers(1, 36)), int(rng.integers(1, 36))
    if kind == "global":
        return ("global_avg_pool %dx%dx%dx%d" % (batch, c, h, w),
                nn.AdaptiveAvgPool2d(1), [(batch, c, h, w)])
    k = (int(rng.integers(1, min(h, 7) + 1)), int(rng.integers(1, min(w, 7)
                                                                + 1)))
    stride = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    padding = (int(rng.integers(0, k[0] // 2 + 1)),
               int(rng.integers(0, k[1] // 2 + 1)))
    ceil = bool(rng.random() < 0.3)
    if kind == "max":
        pool = nn.MaxPool2d(k, stride, padding, ceil_mode=ceil)
        counted = ""
    else:
        include = bool(rng.random() < 0.5)
        pool = nn.AvgPool2d(k, stride, padding, ceil_mode=ceil,
                            count_include_pad=include)
        counted = " pad_counted=%d" % include
    desc = "%s_pool %dx%dx%dx%d k%s s%s p%s ceil=%d%s" % (
        kind, batch, c, h, w, k, stride, padding, ceil, counted)
    return desc, pool, [(batch, c, h, w)]


class Interpolate(nn.Module):
    def __init__(self, size, mode, align):
        super().__init__()
        self.size, self.mode, self.align = size, mode, align

    def forward(self, x):
        return F.interpolate(x, size=self.size, mode=self.mode,
                             align_corners=self.align)


def resize_case(rng):
    """Upsampling (Resize): nearest or bilinear, to a random size or by an
    integer scale, align_corners or not (segmentation heads, FPNs)."""
    batch, c = int(rng.choice([1, 2])), odd_channels(rng, 1, 24)
    h, w = int(rng.integers(1, 20)), int(rng.integers(1, 20))
    mode = str(rng.choice(["nearest", "bilinear"]))
    if rng.random() < 0.5:
        size = (h * int(rng.integers(1, 5)), w * int(rng.integers(1, 5)))
    else:
        size = (int(rng.integers(1, 48)), int(rng.integers(1, 48)))
    align = bool(rng.random() < 0.5) if mode == "bilinear" else None
    desc = "resize %s %dx%dx%dx%d -> %s align_corners=%s" % (
        mode, batch, c, h, w, size, align)
    return desc, Interpolate(size, mode, align), [(batch, c, h, w)]


class MatMul(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def matmul_case(rng):
    """MatMul of two inputs (batch broadcast) or a Linear (Gemm)."""
    m, k, n = (int(rng.integers(1, 70)) for _ in range(3))
    if rng.random() < 0.5:
        batch = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0,
                                                                         3)))]
        b_batch = [1 if rng.random() < 0.3 else d for d in batch]
        if rng.random() < 0.3:
            b_batch = []
        desc = "matmul %s x %s" % (batch + [m, k], b_batch + [k, n])
        return desc, MatMul(), [tuple(batch + [m, k]), tuple(b_batch + [k, n])]
    batch = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 2)))]
    desc = "linear %s -> %d" % (batch + [m, k], n)
    return (desc, nn.Sequential(nn.Linear(k, n, bias=bool(rng.random() < 0.8)),
                                activation(rng)),
            [tuple(batch + [m, k])])


class ConvToLinear(nn.Module):
    """conv -> activation -> (pool) -> flatten or tokens -> linear."""

    def __init__(self, rng, cin, cout, h, w):
        super().__init__()
        k = int(rng.choice([1, 3, 5]))
        self.conv = nn.Conv2d(cin, cout, k, stride=int(rng.integers(1, 3)),
                              padding=k // 2)
        self.act = activation(rng)
        self.pool = bool(rng.random() < 0.5)
        self.tokens = bool(rng.random() < 0.5)
        with torch.no_grad():
            y = self.conv(torch.zeros(1, cin, h, w))
            if self.pool:
                y = F.max_pool2d(y, 2, ceil_mode=True)
        oh, ow = y.shape[2], y.shape[3]
        features = cout if self.tokens else cout * oh * ow
        self.linear = nn.Linear(features, int(rng.integers(1, 40)))

    def forward(self, x):
        y = self.act(self.conv(x))
        if self.pool:
            y = F.max_pool2d(y, 2, ceil_mode=True)
        if self.tokens:  # (N, C, H, W) -> (N, H*W, C): a transformer's tokens
            y = y.flatten(2).transpose(1, 2)
        else:
            y = y.reshape(y.shape[0], -1)
        return self.linear(y)


class Branches(nn.Module):
    """Two convolutions of one input, concatenated, then a channel shuffle
    or a residual add, a normalisation-like reduction and a softmax."""

    def __init__(self, rng, c):
        super().__init__()
        self.a = nn.Conv2d(c, c, 3, padding=1, groups=c)
        self.b = nn.Conv2d(c, c, 1)
        self.shuffle = bool(rng.random() < 0.5)
        self.softmax_dim = int(rng.choice([1, -1]))

    def forward(self, x):
        y = torch.cat([F.relu(self.a(x)), self.b(x)], 1)
        n, c2, h, w = y.shape
        if self.shuffle:
            y = y.reshape(n, 2, c2 // 2, h, w).transpose(1, 2).reshape(
                n, c2, h, w)
        else:
            y = y + torch.cat([x, x], 1)
        y = y - y.mean(dim=(2, 3), keepdim=True)
        return torch.softmax(y, self.softmax_dim)


class Attention(nn.Module):
    """Single-head attention over a (batch, tokens, features) input."""

    def __init__(self, rng, d):
        super().__init__()
        self.q, self.k, self.v = (nn.Linear(d, d) for _ in range(3))
        self.scale = float(d) ** -0.5

    def forward(self, x):
        scores = torch.matmul(self.q(x), self.k(x).transpose(-1, -2))
        return torch.matmul(torch.softmax(scores * self.scale, -1), self.v(x))


def chain_case(rng):
    """A small chain of ops with reshapes and transposes between them."""
    kind = rng.choice(["conv_linear", "branches", "attention"])
    batch = int(rng.choice([1, 2, 3]))
    if kind == "conv_linear":
        cin, cout = odd_channels(rng, 1, 20), odd_channels(rng, 1, 24)
        h, w = int(rng.integers(2, 20)), int(rng.integers(2, 20))
        return ("chain conv_linear %dx%dx%dx%d -> %d" % (batch, cin, h, w,
                                                         cout),
                ConvToLinear(rng, cin, cout, h, w), [(batch, cin, h, w)])
    if kind == "branches":
        c = odd_channels(rng, 1, 24)
        h, w = int(rng.integers(1, 20)), int(rng.integers(1, 20))
        return ("chain branches %dx%dx%dx%d" % (batch, c, h, w),
                Branches(rng, c), [(batch, c, h, w)])
    t, d = int(rng.integers(1, 40)), odd_channels(rng, 1, 48)
    return ("chain attention %dx%dx%d" % (batch, t, d), Attention(rng, d),
            [(batch, t, d)])


KINDS = [(conv_case, 5), (conv_transpose_case, 1), (pool_case, 2),
         (matmul_case, 2), (chain_case, 2), (resize_case, 1)]


def make_case(seed, index):
    """(description, module, input shapes) of case `index` of `seed`."""
    rng = np.random.default_rng([seed, index])
    weights = np.array([w for _, w in KINDS], float)
    kind = KINDS[rng.choice(len(KINDS), p=weights / weights.sum())][0]
    torch.manual_seed(seed * 1000003 + index)
    desc, module, shapes = kind(rng)
    return desc, module.eval(), shapes


# ===----------------------------------------------------------------------=== #
# Compile, call, compare
# ===----------------------------------------------------------------------=== #


def run_case(args, seed, index, generic):
    """(outcome, detail) of one case."""
    desc, module, shapes = make_case(seed, index)
    rng = np.random.default_rng([seed, index, 1])
    inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    case = "s%d_c%d%s" % (seed, index, "_generic" if generic else "")
    work = os.path.join(args.work, case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    model = os.path.join(work, "sweep.onnx")
    with torch.no_grad():
        try:
            want = module(*[torch.from_numpy(x) for x in inputs])
            wants = [t.numpy() for t in (want if isinstance(want, tuple)
                                         else (want,))]
            torch.onnx.export(module, tuple(torch.from_numpy(x)
                                            for x in inputs),
                              model, opset_version=13)
        except Exception as e:  # noqa: BLE001 - PyTorch rejects the case
            return desc, "EXPORT_FAILED", str(e).strip().splitlines()[-1]
    # The exporter can declare other output shapes than PyTorch computes
    # (an AvgPool counting its padding with ceil_mode becomes Pad +
    # AveragePool, whose ONNX shape keeps a last window PyTorch drops):
    # such a graph means something else than the module.
    declared = [[d.dim_value for d in o.type.tensor_type.shape.dim]
                for o in onnx.load(model).graph.output]
    if declared != [list(w.shape) for w in wants]:
        return desc, "EXPORT_FAILED", "the graph declares outputs %s, " \
            "PyTorch computes %s" % (declared, [list(w.shape) for w in wants])
    command = [args.aotc, model, "--name=sweep", "--emit=obj,header,json",
               "-o", work]
    if generic:
        command.append("--strategy=generic")
    try:
        compiled = subprocess.run(command, capture_output=True, text=True,
                                  timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return desc, "CRASH", "aotc timed out: " + " ".join(command)
    obj = os.path.join(work, "sweep.o")
    if compiled.returncode == 1 and "error:" in compiled.stderr and \
            not os.path.exists(obj):
        line = [l for l in compiled.stderr.splitlines() if "error:" in l][0]
        return desc, "UNSUPPORTED", line
    if compiled.returncode != 0 or not os.path.exists(obj):
        tail = compiled.stderr.strip().splitlines()[-3:]
        return desc, "CRASH", "aotc exit %d: %s\n  %s" % (
            compiled.returncode, " ".join(command), "\n  ".join(tail))
    with open(os.path.join(work, "sweep.json")) as f:
        entry = json.load(f)["entry_points"][0]
    shapes = [o["shape"] for o in entry["outputs"]]
    if shapes != [list(w.shape) for w in wants]:
        return desc, "MISMATCH", "output shapes %s, PyTorch's %s" % (
            shapes, [list(w.shape) for w in wants])
    so = os.path.join(work, "sweep.so")
    subprocess.run([args.cc, "-shared", "-o", so, obj, args.runtime,
                    args.omp, "-Wl,-rpath," + os.path.dirname(args.omp)],
                   check=True)
    # The call runs in a child: a crash of the generated code is a CRASH of
    # this case, not of the sweep.
    np.savez(os.path.join(work, "io.npz"), *inputs)
    call = subprocess.run(
        [sys.executable, "-B", os.path.abspath(__file__), "--call", so,
         os.path.join(work, "io.npz"), str(entry["pool_bytes"])] +
        [",".join(map(str, w.shape)) for w in wants],
        capture_output=True, text=True, timeout=args.timeout)
    if call.returncode != 0:
        return desc, "CRASH", "call exit %d: %s" % (
            call.returncode, call.stderr.strip()[-300:])
    got = np.load(os.path.join(work, "out.npz"))
    status = int(got["status"])
    if status != 0:
        return desc, "MISMATCH", "status %d" % status
    worst = 0.0
    for i, w in enumerate(wants):
        g = got["arr_%d" % i]
        finite = np.isfinite(w)
        if not np.array_equal(g[~finite], w[~finite], equal_nan=True):
            return desc, "MISMATCH", "output %d: non-finite values differ" % i
        if not finite.any():
            continue
        err = float(np.abs(g[finite] - w[finite]).max())
        if not err <= TOL * (1.0 + float(np.abs(w[finite]).max())):
            return desc, "MISMATCH", "output %d: max error %.3g (max %.3g)" % (
                i, err, float(np.abs(w[finite]).max()))
        worst = max(worst, err)
    shutil.rmtree(work, ignore_errors=True)
    return desc, "PASS", "max error %.2g" % worst


def call_library(so, io, pool, shapes):
    """The child of run_case: loads `so`, calls sweep(inputs..., outputs...,
    pool, pool_bytes, NULL) with a pool of exactly `pool` bytes (64-byte
    aligned), saves the outputs and the status next to `io`."""
    inputs = list(np.load(io).values())
    outputs = [np.full(tuple(int(d) for d in s.split(",") if d), np.nan,
                       np.float32) for s in shapes]
    raw = np.zeros(pool + 64, np.uint8)
    offset = (-raw.ctypes.data) % 64
    lib = ctypes.CDLL(so)
    lib.sweep.restype = ctypes.c_int32
    P = ctypes.c_void_p
    args = [P(a.ctypes.data) for a in inputs + outputs]
    status = lib.sweep(*args, P(raw.ctypes.data + offset),
                       ctypes.c_size_t(pool), None)
    np.savez(os.path.join(os.path.dirname(io), "out.npz"), *outputs,
             status=status)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--call":
        call_library(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--runtime", required=True)
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
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    torch.set_num_threads(1)
    if args.only is not None:
        todo = [(args.seed, args.only)]
    else:
        todo = list(REGRESSIONS)
    start = time.monotonic()
    counts = {}
    failures = []
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
        for generic in ([False, True] if args.generic else [False]):
            desc, outcome, detail = run_case(args, seed, i, generic)
            counts[outcome] = counts.get(outcome, 0) + 1
            label = "s%d #%d%s" % (seed, i, " generic" if generic else "")
            print("%-13s %-18s %s: %s" % (outcome, label, desc, detail),
                  flush=True)
            if outcome in ("MISMATCH", "CRASH"):
                failures.append("%s --seed %d --only %d%s  # %s" % (
                    os.path.basename(__file__), seed, i,
                    " --generic" if generic else "", desc))
    print("%d cases in %.0f s: %s" % (
        sum(counts.values()), time.monotonic() - start,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    for f in failures:
        print("reproduce: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
