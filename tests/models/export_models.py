#!/usr/bin/env python3
#===- export_models.py - Export the model zoo to ONNX with references ----===#
#
# Exports networks with random weights to ONNX (opset 13, batch 1, static
# shapes) and, for each, a reference NAME.npz whose output_0 PyTorch computes
# itself (the independent oracle for the compiled model):
#
#   resnet18, mobilenet_v2, squeezenet1_1   torchvision, weights=None,
#                                           input [1, 3, 224, 224]
#   bert_encoder                            nn.TransformerEncoder, 2 layers of
#                                           TransformerEncoderLayer(d_model=256,
#                                           nhead=4, dim_feedforward=1024,
#                                           gelu, batch_first), input [1, 64, 256]
#   tiny_mlp                                a smoke test of the whole flow with
#                                           ops aotc had first (MatMul, Add,
#                                           Relu), input [1, 64]
#   shufflenet_v2_x1_0, googlenet, swin_t   torchvision, weights=None, input
#                                           [1, 3, 224, 224]: channel shuffles,
#                                           chained padded pools (ceil_mode),
#                                           shifted-window attention (Mod,
#                                           ScatterND, Dropout p=0 in training
#                                           mode)
#   strided_convs                           convolutions with stride 2 along
#                                           the columns that stay direct
#                                           (aotc-split-stride-phases): a
#                                           7x7 stride-2 stem (3 -> 16), ReLU,
#                                           a 5x5 stride (1, 2) conv
#                                           (16 -> 8), input [1, 3, 40, 40]
#
# Usage:
#   export_models.py OUTDIR [--models a,b] [--tolerances-only]
#
# Writes, per model NAME, into OUTDIR:
#   NAME.onnx      the model (checked with onnx.checker, full check)
#   NAME.npz       input_0 (seeded random input), output_0 (PyTorch, eval)
#   NAME.tol       ATOL = 1e-3 * max|output_0|, rounded down to 3 significant
#                  digits (the tests' requirement: an error below 1e-3 of
#                  the output's largest magnitude)
#   NAME.ops.txt   opset and the sorted set of op types in the graph
# and, for resnet18, resnet18_input.f32 (input_0 as raw little-endian f32,
# the image the C sample driver reads) and resnet18.top5 (PyTorch's top-5
# class indices, one line, space-separated).
#
# The torchvision models get random BatchNorm statistics (see
# randomize_batchnorm); PyTorch's exporter folds BatchNorm into the
# preceding Conv in eval mode, so the .onnx files have no BatchNormalization.
#
# --tolerances-only builds the models and runs them but exports nothing: it
# writes OUTDIR/tolerances.cmake, which sets AOTC_MODEL_<NAME>_ATOL for each
# model (CMake runs it at configure time: aot_add_test() needs the ATOL
# before the build runs the export). The file is rewritten only when its
# contents change, so that CMake does not re-configure for nothing.
#
# Everything is deterministic, byte for byte: torch.manual_seed(0) before each
# model is built, a fixed NumPy seed per input, one thread, no oneDNN (whose
# f32 results change in the last bits with buffer alignment from run to run),
# and .npz archives with fixed timestamps. No weights are downloaded.
#
#===----------------------------------------------------------------------===#

import argparse
import os
import sys
import warnings
import zipfile

import numpy as np
import torch

OPSET = 13
# The requirement: |aotc - PyTorch| <= REL_TOL * max|PyTorch output|.
REL_TOL = 1e-3


def randomize_batchnorm(model, generator):
    """Gives every BatchNorm non-trivial statistics and affine parameters.

    Freshly initialised BatchNorm layers are (almost) the identity in eval
    mode (mean 0, var 1, weight 1, bias 0), which would let a compiler that
    mishandles them pass. Values stay in a range that keeps activations
    bounded through the network."""
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            n = m.num_features
            with torch.no_grad():
                m.running_mean.copy_(torch.randn(n, generator=generator) * 0.1)
                m.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
                m.weight.copy_(torch.rand(n, generator=generator) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(n, generator=generator) * 0.1)


def make_torchvision(name):
    import torchvision
    ctor = getattr(torchvision.models, name)
    try:
        model = ctor(weights=None)
    except TypeError:  # torchvision < 0.13
        model = ctor(pretrained=False)
    randomize_batchnorm(model, torch.Generator().manual_seed(1))
    return model, (1, 3, 224, 224)


def make_bert_encoder():
    layer = torch.nn.TransformerEncoderLayer(
        d_model=256, nhead=4, dim_feedforward=1024, activation="gelu",
        batch_first=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = torch.nn.TransformerEncoder(layer, num_layers=2)
    return model, (1, 64, 256)


class TinyMLP(torch.nn.Module):
    """relu(x @ w1 + b1) @ w2 + b2: MatMul, Add, Relu only."""

    def __init__(self):
        super().__init__()
        self.w1 = torch.nn.Parameter(torch.randn(64, 32) / 8)
        self.b1 = torch.nn.Parameter(torch.randn(32) / 8)
        self.w2 = torch.nn.Parameter(torch.randn(32, 10) / 6)
        self.b2 = torch.nn.Parameter(torch.randn(10) / 6)

    def forward(self, x):
        return torch.relu(x @ self.w1 + self.b1) @ self.w2 + self.b2


class StridedConvs(torch.nn.Module):
    """Direct convolutions with column stride 2: ResNet's stem shape on a
    small image, then a window with an even and an odd column phase of
    different lengths (5 columns: 3 + 2) and row stride 1."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 7, stride=2, padding=3)
        self.conv = torch.nn.Conv2d(16, 8, 5, stride=(1, 2), padding=2)

    def forward(self, x):
        return self.conv(torch.relu(self.stem(x)))


MODELS = {
    "resnet18": lambda: make_torchvision("resnet18"),
    "mobilenet_v2": lambda: make_torchvision("mobilenet_v2"),
    "squeezenet1_1": lambda: make_torchvision("squeezenet1_1"),
    "bert_encoder": make_bert_encoder,
    "tiny_mlp": lambda: (TinyMLP(), (1, 64)),
    "strided_convs": lambda: (StridedConvs(), (1, 3, 40, 40)),
    "shufflenet_v2_x1_0": lambda: make_torchvision("shufflenet_v2_x1_0"),
    "googlenet": lambda: make_torchvision("googlenet"),
    "swin_t": lambda: make_torchvision("swin_t"),
}


def build(name, index):
    """The model in eval mode, its input and PyTorch's output."""
    torch.manual_seed(0)
    model, shape = MODELS[name]()
    model.eval()
    rng = np.random.default_rng(1000 + index)
    x = rng.standard_normal(shape).astype(np.float32)
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy().astype(np.float32)
    # The graph that gets exported is the one traced with grad mode on (see
    # export()); for the transformer that is another implementation than the
    # fused no_grad one. Both are PyTorch's: check they agree.
    y_traced = model(torch.from_numpy(x)).detach().numpy()
    err = float(np.max(np.abs(y_traced - y)))
    if err > 0.1 * atol_of(y):
        sys.exit("error: %s: PyTorch's two paths differ by %g" % (name, err))
    return model, x, y


def atol_of(y):
    """REL_TOL * max|y|, rounded down to 3 significant digits (so that the
    last bits of y do not show in tolerances.cmake)."""
    atol = REL_TOL * float(np.max(np.abs(y)))
    digits = 2 - int(np.floor(np.log10(atol)))
    return float(np.floor(atol * 10**digits) / 10**digits)


def savez(path, **arrays):
    """numpy.savez (uncompressed, the same member layout), with a fixed
    timestamp so that the archive is the same on every run."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for key, value in arrays.items():
            info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            with z.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asanyarray(value),
                                          allow_pickle=False)


def op_summary(path):
    import onnx
    m = onnx.load(path)
    opsets = {(o.domain or "ai.onnx"): o.version for o in m.opset_import}
    ops = sorted({n.op_type for n in m.graph.node})
    return opsets, ops


def export(name, model, x, y, outdir):
    import onnx
    path = os.path.join(outdir, name + ".onnx")
    # Grad mode stays on while tracing: in no_grad mode PyTorch's
    # TransformerEncoderLayer takes its fused "fast path"
    # (aten::_transformer_encoder_layer_fwd), which has no ONNX export.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model, torch.from_numpy(x), path, opset_version=OPSET,
            input_names=["input"], output_names=["output"],
            do_constant_folding=True,
            training=torch.onnx.TrainingMode.EVAL)
    onnx.checker.check_model(onnx.load(path), full_check=True)

    savez(os.path.join(outdir, name + ".npz"), input_0=x, output_0=y)
    with open(os.path.join(outdir, name + ".tol"), "w") as f:
        f.write("%.3g\n" % atol_of(y))
    opsets, ops = op_summary(path)
    with open(os.path.join(outdir, name + ".ops.txt"), "w") as f:
        f.write("opset %s\n" % " ".join("%s=%d" % kv
                                         for kv in sorted(opsets.items())))
        f.write("ops %s\n" % " ".join(ops))

    if name == "resnet18":
        x.astype("<f4").tofile(os.path.join(outdir, "resnet18_input.f32"))
        logits = y.reshape(-1)
        order = np.argsort(-logits, kind="stable")
        top = order[:5]
        # The driver's check compares indices in order; warn when two of the
        # top-6 scores are so close that a 1e-3-relative error could swap them.
        gaps = -np.diff(logits[order[:6]])
        if np.min(gaps) <= 2 * atol_of(y):
            print("warning: resnet18 top-6 scores within 2*ATOL: %s" %
                  logits[order[:6]], file=sys.stderr)
        with open(os.path.join(outdir, "resnet18.top5"), "w") as f:
            f.write(" ".join(str(int(i)) for i in top) + "\n")
    print("%-14s %s  opset %s  max|y| %.4g  ops: %s" %
          (name, "x".join(map(str, x.shape)), opsets.get("ai.onnx"),
           np.max(np.abs(y)), " ".join(ops)))


def write_tolerances(path, tolerances):
    text = "# Generated by export_models.py: ATOL = %g * max|PyTorch output|.\n" \
        % REL_TOL
    for name, atol in tolerances:
        text += "set(AOTC_MODEL_%s_ATOL %.3g)\n" % (name, atol)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    p = argparse.ArgumentParser(description="Export the model zoo to ONNX with PyTorch references.")
    p.add_argument("outdir")
    p.add_argument("--models", default=",".join(MODELS),
                   help="comma-separated subset of: " + ", ".join(MODELS))
    p.add_argument("--tolerances-only", action="store_true")
    args = p.parse_args()
    names = [n for n in args.models.split(",") if n]
    for n in names:
        if n not in MODELS:
            p.error("unknown model '%s'" % n)
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(1)
    torch.backends.mkldnn.enabled = False

    tolerances = []
    for name in names:
        model, x, y = build(name, list(MODELS).index(name))
        tolerances.append((name, atol_of(y)))
        if not args.tolerances_only:
            export(name, model, x, y, args.outdir)
    if args.tolerances_only:
        write_tolerances(os.path.join(args.outdir, "tolerances.cmake"),
                         tolerances)


if __name__ == "__main__":
    main()
