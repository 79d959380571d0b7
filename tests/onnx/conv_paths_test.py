#!/usr/bin/python3
"""Convolutions (bias, ReLU) exported from PyTorch, one per code path that
aotc picks for them by shape, against PyTorch's own outputs.

The models' tests cover the paths with the shapes of resnet18, mobilenet_v2
and squeezenet1_1; these cases add groups, dilation, batch and image sizes
those models do not have, on the same paths:
- output channels as lanes (aotc-channel-lane-convolutions) at stride 1 and
  2, with 2 groups and dilation 2 (each group 64 -> 32 channels: 576 reduced
  elements, one block of 32 lanes), on 14 x 14 and 7 x 7 outputs, and on
  17- and 13-pixel rows split into register tiles and a remainder; groups
  of 16 channels (blocks of one register) at stride 1 and 2, on rows of 14
  and 15 pixels, and groups of 32 on a batch of 2 (shallow reductions,
  blocked because grouped);
- Winograd F(2x2, 3x3) (64 channels, 14 x 14; batches of 3 and 2) and
  F(4x4, 3x3) (an odd 29 x 26 image; a batch of 2 with output channels as
  lanes), im2col (16 input channels
  on 20 x 20), the flattened padded grid (16 input channels on 28 x 28: too
  few for Winograd's 32 and for channel lanes, rows wide enough for the
  grid), a depthwise layer reading its padded input in place, depthwise
  layers whose border strips would be too large a part of them, reading
  their input padded in each thread tile, a 1x1 convolution as a
  contraction;
- depthwise convolutions on flattened images, and with channels as lanes;
- average pools, padded and on rows that are not whole registers.

Each case is exported with torch.onnx.export (opset 13), compiled by aotc,
linked with the runtime into a shared library, called through ctypes and
compared with the module's output: non-finite outputs equal (infinities of
the same sign, NaN for NaN), finite ones within max |aotc - torch| <= 1e-4 *
(1 + max |torch|) (float32 sums in another order). On a host with 512-bit
vectors (the shapes' paths depend on the register width) the strategy
table of `--dump-dir` must name the case's path for its convolution. Each
case is compiled a second time with --strategy=generic (no specialised
path) and compared with PyTorch in the same way.

Usage: conv_paths_test.py WORKDIR AOTC RUNTIME
"""

import ctypes
import os
import subprocess
import sys

import numpy as np
import torch

CASES = [
    # name, (N, C, H, W), Conv2d(in, out, kernel, stride, padding, dilation,
    # groups) or a function making the layer, the path with 512-bit vectors
    # (docs/architecture.md), or the paths of the parts it is split into
    ("lanes_s1_groups_dilated", (1, 128, 14, 14), (128, 64, 3, 1, 2, 2, 2),
     "channel-lanes"),
    ("lanes_s1_7x7", (1, 64, 7, 7), (64, 64, 3, 1, 1, 1, 1), "channel-lanes"),
    ("lanes_s2_groups", (1, 128, 14, 14), (128, 64, 3, 2, 1, 1, 2),
     "channel-lanes"),
    ("lanes_s1_batch2", (2, 64, 7, 7), (64, 32, 3, 1, 1, 1, 1),
     "channel-lanes"),
    # Grouped: 10 groups of 16 channels (144 reduced elements, blocks of
    # one register), 4 groups of 16 at stride 2 on 15-pixel rows, 3 groups
    # of 32 on a batch of two 9 x 11 images (288 elements).
    ("lanes_groups_of_16", (1, 160, 14, 14), (160, 160, 3, 1, 1, 1, 10),
     "channel-lanes"),
    ("lanes_groups_of_16_s2", (1, 64, 29, 29), (64, 64, 3, 2, 1, 1, 4),
     "channel-lanes"),
    ("lanes_groups_of_32_batch2", (2, 96, 9, 11), (96, 96, 3, 1, 1, 1, 3),
     "channel-lanes"),
    # Output rows that no register tile divides, split into tiles and a
    # remainder part: Inception's 1x7 layers on 17-pixel rows (12 + 5), a
    # stride-2 3x3 on 13-pixel rows (8 + 5), a 7x7 RGB stem on 17-pixel
    # rows straight into NCHW (12 + 5).
    ("lanes_prime_rows_1x7", (1, 128, 17, 17),
     lambda: torch.nn.Conv2d(128, 64, (1, 7), padding=(0, 3)),
     "channel-lanes"),
    ("lanes_prime_rows_s2", (1, 64, 27, 27), (64, 64, 3, 2, 0, 1, 1),
     "channel-lanes"),
    ("lanes_prime_rows_stem", (1, 3, 39, 39), (3, 32, 7, 2, 0, 1, 1),
     "channel-lanes"),
    ("winograd", (1, 64, 14, 14), (64, 64, 3, 1, 1, 1, 1), "winograd"),
    # Winograd on a batch: the tiles of all images are the contractions'
    # columns (3 x 7 x 7 = 147 of them), or, with output channels as lanes
    # (one image's 49 tiles would pad to 64 columns), the rows. Whether a
    # convolution takes Winograd, and how, is decided on one image (the
    # 7 x 7 images of lanes_s1_batch2 have 16 tiles each: channel lanes).
    ("winograd_batch3", (3, 48, 13, 14), (48, 40, 3, 1, 1, 1, 1),
     "winograd"),
    ("winograd_batch2_channels_last", (2, 128, 14, 14),
     (128, 64, 3, 1, 1, 1, 1), "winograd"),
    # F(4x4, 3x3) where its 4 x 4 tiles are 32 or more per image: 8 x 7 of
    # them on a 29 x 26 output (the input padded by 3 rows and 2 columns
    # more), 7 x 7 on 28 x 28 (49 would pad to 64 columns: output channels
    # as lanes).
    ("winograd_f4_odd", (1, 48, 29, 26), (48, 40, 3, 1, 1, 1, 1),
     "winograd"),
    ("winograd_f4_batch2_channels_last", (2, 128, 28, 28),
     (128, 64, 3, 1, 1, 1, 1), "winograd"),
    ("im2col", (1, 16, 20, 20), (16, 24, 3, 1, 1, 1, 1), "im2col"),
    ("flat_grid", (1, 16, 28, 28), (16, 40, 3, 1, 1, 1, 1), "flat-image"),
    ("depthwise", (1, 32, 24, 24), (32, 32, 3, 1, 1, 1, 32),
     "peeled-windows"),
    ("pointwise", (1, 24, 10, 10), (24, 40, 1, 1, 0, 1, 1),
     "pointwise-matmul"),
    # Taps that only ever read the zero padding are dropped at import: a
    # dilation beyond the image (DeepLabV3's atrous rates) leaves the centre
    # tap, a 1x1 convolution; a 5x5 window dilated by 6 with padding 12 on a
    # 10 x 10 image keeps its middle 3x3 taps and padding 6.
    ("dilated_beyond_image", (1, 64, 14, 14), (64, 32, 3, 1, 20, 20, 1),
     "pointwise-matmul"),
    # Most products still on the padding (aotc-clip-padded-taps): one 1x1
    # convolution per tap, each on the outputs that tap reads the input
    # for. The 3x3 taps left above (36% of their products read the input);
    # DeepLabV3's rate-12 convolution on a 14 x 14 map (18%); a 3x5 window
    # dilated 8 x 1 on a 10 x 12 image, padded vertically only (47%): one
    # part per row of taps, each a 1x5 window on output rows 8-9, 0-9, 0-1.
    ("dilated_outer_taps", (1, 16, 10, 10), (16, 24, 5, 1, 12, 6, 1),
     ["pointwise-matmul"] * 9),
    ("atrous_clipped_taps", (1, 64, 14, 14), (64, 32, 3, 1, 12, 12, 1),
     ["pointwise-matmul"] * 9),
    ("atrous_clipped_rows", (1, 16, 10, 12),
     lambda: torch.nn.Conv2d(16, 24, (3, 5), padding=(8, 0), dilation=(8, 1)),
     ["flat-image"] * 3),
    # Depthwise on every channel's flattened image (images of at most four
    # registers with rows narrower than one, AVX-512): 3x3, 5x5 over 64
    # pixels, dilation 2; one with infinities (a tap that leaves the image
    # must not read them from the neighbouring row or channel); "valid"
    # padding (output smaller than the input) keeps the direct path.
    ("depthwise_flat_3x3", (1, 64, 7, 7), (64, 64, 3, 1, 1, 1, 64),
     "flat-depthwise"),
    ("depthwise_flat_5x5", (1, 24, 8, 8), (24, 24, 5, 1, 2, 1, 24),
     "flat-depthwise"),
    ("depthwise_flat_dilated", (1, 24, 7, 7), (24, 24, 3, 1, 2, 2, 24),
     "flat-depthwise"),
    ("depthwise_flat_inf", (1, 8, 7, 7), (8, 8, 3, 1, 1, 1, 8),
     "flat-depthwise"),
    ("depthwise_valid", (1, 16, 9, 9), (16, 16, 3, 1, 0, 1, 16), "direct"),
    # Padded depthwise layers with a tenth or more of each row's outputs
    # reading the padding: not peeled (their border strips would be computed
    # a lane at a time) but direct, each thread tile padding its own
    # channels' planes: 5x5 on 28 x 28 (4 of 28 columns), 3x3 on 12 x 12
    # (2 of 12). A 5x5 stride-2 layer to 7 x 7 with too little work for
    # thread tiles (16 channels): direct on one padded copy.
    ("depthwise_direct_5x5", (1, 40, 28, 28), (40, 40, 5, 1, 2, 1, 40),
     "direct"),
    ("depthwise_direct_s2", (1, 16, 14, 14), (16, 16, 5, 2, 2, 1, 16),
     "direct"),
    ("depthwise_direct_3x3", (1, 32, 12, 12), (32, 32, 3, 1, 1, 1, 32),
     "direct"),
    # Stride 2 along the columns, padded in each thread tile: the tile's
    # padded planes are written as their even and odd columns, the window's
    # taps split between them (aotc-split-tile-phases; the test checks the
    # deinterleaved buffer in the dump). A 5x5 window is never peeled when
    # it can take them (peeled, each tap would gather): on 56 x 56 and to
    # 7 x 7; odd padded rows (21 + 4 columns); a max pool (-inf padding, 1
    # of 10 outputs per row on the border); an average pool counting the
    # padding (its Pad node) on an odd image.
    ("depthwise_phases_5x5", (1, 24, 56, 56), (24, 24, 5, 2, 2, 1, 24),
     "column-phases"),
    ("depthwise_phases_7x7", (1, 48, 14, 14), (48, 48, 5, 2, 2, 1, 48),
     "column-phases"),
    ("depthwise_phases_odd", (1, 16, 21, 21), (16, 16, 5, 2, 2, 1, 16),
     "column-phases"),
    ("max_pool_phases", (1, 48, 20, 20),
     lambda: torch.nn.MaxPool2d(3, stride=2, padding=1), "column-phases"),
    ("avg_pool_phases", (1, 48, 19, 19),
     lambda: torch.nn.AvgPool2d(3, stride=2, padding=1), "column-phases"),
    # Depthwise with channels as lanes (blocks of 16, the input transposed
    # into them): stride 1, a 5x5 window, rows narrower than a register; a
    # batch of 2; infinities at the image's corners (the padding the blocked
    # input gets must not mix them into other channels' windows).
    ("depthwise_lanes_5x5", (1, 32, 14, 14), (32, 32, 5, 1, 2, 1, 32),
     "channel-lanes"),
    ("depthwise_lanes_batch2", (2, 48, 7, 7), (48, 48, 5, 1, 2, 1, 48),
     "channel-lanes"),
    ("depthwise_lanes_inf", (1, 16, 7, 7), (16, 16, 5, 1, 2, 1, 16),
     "channel-lanes"),
    # An average pool with count_include_pad (Inception's branch pools):
    # PyTorch exports an explicit Pad node, which must reach the strategy as
    # a padded input read in place, not as a gather fused into the pool; on
    # 17 x 17 (2 of 17 outputs per row read the padding) the input is
    # padded in each thread tile.
    ("avg_pool_pad_node", (1, 32, 35, 35),
     lambda: torch.nn.AvgPool2d(3, stride=1, padding=1), "peeled-windows"),
    ("avg_pool_pad_node_17", (1, 32, 17, 17),
     lambda: torch.nn.AvgPool2d(3, stride=1, padding=1), "direct"),
    # Unpadded average pools whose output rows are not a whole number of
    # registers (17 wide: prime; 35 wide: a largest divisor of 7): split
    # into whole registers and a part, each with its own division by the
    # window.
    ("avg_pool_prime_rows", (1, 48, 19, 19),
     lambda: torch.nn.AvgPool2d(3, stride=1), "direct"),
    ("avg_pool_odd_rows", (1, 24, 37, 37),
     lambda: torch.nn.AvgPool2d(3, stride=1), "direct"),
]

# The kinds the strategy table gives ops that no convolution path concerns.
NOT_PATHS = {"contraction", "reduction", "elementwise"}

# Cases whose input holds infinities: (channel, row, column, value).
INFINITIES = {"depthwise_flat_inf": [(0, 3, 6, np.inf), (1, 0, 0, -np.inf),
                                     (4, 6, 3, np.inf), (7, 2, 0, np.inf)],
              "depthwise_lanes_inf": [(0, 0, 0, np.inf), (15, 6, 6, -np.inf),
                                      (8, 3, 0, np.inf)]}


def compile_case(work, name, path, aotc, runtime, flags):
    """The ONNX model `path` compiled by aotc with `flags`, loaded through
    ctypes."""
    out = os.path.join(work, name)
    subprocess.run([aotc, path, "--name=conv", "-o", out] + flags, check=True)
    so = os.path.join(out, "conv.so")
    subprocess.run(["clang-22", "-shared", "-o", so,
                    os.path.join(out, "conv.o"), runtime,
                    "-L/usr/lib/llvm-22/lib", "-lomp",
                    "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
    lib = ctypes.CDLL(so)
    lib.conv.restype = ctypes.c_int32
    return lib


def call(lib, x, y):
    """Status of lib.conv on x and y, with a 64-byte aligned 16 MiB pool."""
    pool = np.zeros(16 << 20, np.uint8)
    offset = (-pool.ctypes.data) % 64
    P = ctypes.c_void_p
    return lib.conv(P(x.ctypes.data), P(y.ctypes.data),
                    P(pool.ctypes.data + offset),
                    ctypes.c_size_t(pool.nbytes - offset), None)


def chosen_paths(table):
    """The paths of the strategy table's windowed ops (its `packing:`,
    `threads:` and `registers:` rows, the decisions on the ops after the
    paths' rewrites, are left out)."""
    with open(table) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return [row[4] for row in rows
            if row[4] not in NOT_PATHS
            and not row[4].startswith(("packing:", "threads:", "registers:"))]


def check(name, lib, x, want):
    """True when lib.conv's output on x matches `want`, printing the error."""
    got = np.full(want.shape, np.nan, np.float32)
    status = call(lib, x, got)
    finite = np.isfinite(want)
    err = float("inf")
    if status == 0 and np.array_equal(got[~finite], want[~finite],
                                      equal_nan=True):
        err = float(np.abs(got[finite] - want[finite]).max())
    ok = err <= 1e-4 * (1.0 + float(np.abs(want[finite]).max()))
    print("%s %s: status %d, max |aotc - torch| %.3g" % (
        "PASS" if ok else "FAIL", name, status, err))
    return ok


def main():
    work, aotc, runtime = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    target = subprocess.run([aotc, "--print-target"], check=True,
                            capture_output=True, text=True).stdout
    wide = "vector_bits: 512" in target.splitlines()
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    failures = 0
    for name, shape, layer, expected in CASES:
        if callable(layer):
            module = torch.nn.Sequential(layer(), torch.nn.ReLU()).eval()
        else:
            cin, cout, k, stride, pad, dil, groups = layer
            module = torch.nn.Sequential(
                torch.nn.Conv2d(cin, cout, k, stride=stride, padding=pad,
                                dilation=dil, groups=groups),
                torch.nn.ReLU()).eval()
        x = rng.standard_normal(shape).astype(np.float32)
        for c, h, w, value in INFINITIES.get(name, []):
            x[0, c, h, w] = value
        with torch.no_grad():
            want = module(torch.from_numpy(x)).numpy()
        path = os.path.join(work, name + ".onnx")
        torch.onnx.export(module, (torch.from_numpy(x),), path,
                          opset_version=13)
        dump = os.path.join(work, name, "dump")
        lib = compile_case(work, name, path, aotc, runtime,
                           ["--dump-dir", dump])
        ok = check(name, lib, x, want)
        if wide:
            paths = chosen_paths(os.path.join(dump, "conv.strategy.txt"))
            if paths != (expected if isinstance(expected, list)
                         else [expected]):
                print("FAIL %s: strategy %s, expected [%s]" % (
                    name, paths, expected))
                ok = False
            # The column phases carried out: the tile buffer deinterleaved.
            with open(os.path.join(dump, "conv.tiled.mlir")) as f:
                phased = "vector.deinterleave" in f.read()
            if phased != ("column-phases" in paths):
                print("FAIL %s: column phases %s in the dump" % (
                    name, "made" if phased else "not made"))
                ok = False
        generic = compile_case(work, name + "_generic", path, aotc, runtime,
                               ["--strategy=generic"])
        ok = check(name + " (generic)", generic, x, want) and ok
        failures += not ok
    print("%d of %d cases failed" % (failures, len(CASES)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
