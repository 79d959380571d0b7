#!/usr/bin/env python3
#===- corpus.py - Compile torchvision models and compare with PyTorch ----===#
#
# A survey of aotc on a corpus of torchvision models (random weights) and
# two transformer blocks written here (int64 token ids in, an attention
# mask; TRANSFORMERS): each model is exported to ONNX, compiled with
#   aotc model.onnx --target=cpu --name=model -o DIR -v
# linked with the runtime into a shared library, called through ctypes and
# compared with PyTorch's output. Every step of a model (export, compile,
# link, run) is its own subprocess with a timeout, so a crash or a hang of
# one model is reported and the survey goes on.
#
# Usage:
#   /usr/bin/python3 corpus.py --aotc PATH --runtime PATH/libaot_runtime.a
#       --workdir DIR [--models a,b,...] [--timeout S] [--threads N]
#       [--json OUT.json] [--reuse-exports] [--keep-objects]
#       [--cc CC] [--omp LIBOMP]
# (scripts/models.sh builds aotc and the runtime and runs this.)
#
# Status of a model:
#   PASS           max|aotc - torch| <= 1e-3 * max|torch| (export_models.py's
#                  atol_of: the tolerance of the model tests)
#   MISMATCH       a larger error, a non-finite output, an output shape other
#                  than PyTorch's, or a status other than AOT_OK
#   COMPILE_ERROR  aotc exited with 1 and an `error:` line (reported), or
#                  the object does not link
#   CRASH          any other exit of aotc or of the run (a signal, an
#                  assertion, LLVM ERROR): the top of the backtrace
#   TIMEOUT        a step took longer than --timeout seconds
#   EXPORT_FAILED  PyTorch could not build or export the model
#
# Prints a markdown table (model, input shape, compile s, pool MB, max rel.
# error, status), the failures' details, then `N passed, M failed of K`;
# exits 1 when any model did not pass. --json writes every figure, aotc's
# per-stage times (-v) and remarks, and the failures' full backtraces.
#
# Work directory, per model KEY: KEY/KEY.{onnx,npz,tol,ops.txt} (written
# by export_models.export), KEY/out/model.{o,h}, KEY/model.so and the steps'
# logs KEY/{export,compile,link,run}.log; model.o and model.so are deleted
# when the model passes (they are large), unless --keep-objects.
# --reuse-exports keeps an existing KEY.onnx + KEY.npz + KEY.tol instead of
# exporting again (to re-run after a compiler change; the exports do not
# depend on aotc).
#
# The models are built, seeded and exported by tests/models/export_models.py
# (imported by path, its registry extended with the corpus' models):
# torch.manual_seed(0), BatchNorm statistics randomised, a seeded NumPy
# input, one thread, no oneDNN, opset 13. No weights are downloaded.
#
# Needs /usr/bin/python3 with torch, torchvision, onnx and numpy (Debian's);
# the driver itself imports none of them.
#
#===----------------------------------------------------------------------===#

import argparse
import ctypes
import faulthandler
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPORT_MODELS = os.path.join(HERE, "export_models.py")
ABI_DIR = os.path.join(ROOT, "include", "aot_abi")
NAME = "model"  # --name: the entry point, model.o, model.h, MODEL_POOL_BYTES

# (key, torchvision constructor, input shape), cheapest to compile first.
MODELS = [
    ("squeezenet1_1", "squeezenet1_1", (1, 3, 224, 224)),
    ("squeezenet1_0", "squeezenet1_0", (1, 3, 224, 224)),
    ("shufflenet_v2_x0_5", "shufflenet_v2_x0_5", (1, 3, 224, 224)),
    ("mnasnet0_5", "mnasnet0_5", (1, 3, 224, 224)),
    ("mobilenet_v3_small", "mobilenet_v3_small", (1, 3, 224, 224)),
    ("shufflenet_v2_x1_0", "shufflenet_v2_x1_0", (1, 3, 224, 224)),
    ("mobilenet_v2", "mobilenet_v2", (1, 3, 224, 224)),
    ("mnasnet1_0", "mnasnet1_0", (1, 3, 224, 224)),
    ("regnet_x_400mf", "regnet_x_400mf", (1, 3, 224, 224)),
    ("regnet_y_400mf", "regnet_y_400mf", (1, 3, 224, 224)),
    ("mobilenet_v3_large", "mobilenet_v3_large", (1, 3, 224, 224)),
    ("lraspp_mobilenet_v3_large", "lraspp_mobilenet_v3_large",
     (1, 3, 224, 224)),
    ("deeplabv3_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large",
     (1, 3, 224, 224)),
    ("efficientnet_b0", "efficientnet_b0", (1, 3, 224, 224)),
    ("resnet18", "resnet18", (1, 3, 224, 224)),
    ("resnet18_b4", "resnet18", (4, 3, 224, 224)),
    ("resnet18_160x256", "resnet18", (1, 3, 160, 256)),
    ("googlenet", "googlenet", (1, 3, 224, 224)),
    ("efficientnet_b1", "efficientnet_b1", (1, 3, 224, 224)),
    ("densenet121", "densenet121", (1, 3, 224, 224)),
    ("alexnet", "alexnet", (1, 3, 224, 224)),
    ("resnet50", "resnet50", (1, 3, 224, 224)),
    ("inception_v3", "inception_v3", (1, 3, 299, 299)),
    ("efficientnet_v2_s", "efficientnet_v2_s", (1, 3, 224, 224)),
    ("convnext_tiny", "convnext_tiny", (1, 3, 224, 224)),
    ("swin_t", "swin_t", (1, 3, 224, 224)),
    ("resnext50_32x4d", "resnext50_32x4d", (1, 3, 224, 224)),
    ("vgg11", "vgg11", (1, 3, 224, 224)),
    ("wide_resnet50_2", "wide_resnet50_2", (1, 3, 224, 224)),
    ("vit_b_16", "vit_b_16", (1, 3, 224, 224)),
    ("fcn_resnet50", "fcn_resnet50", (1, 3, 224, 224)),
    # Transformer blocks written here (TRANSFORMERS): token ids (int64,
    # Gather embeddings) in; shapes are those of the ids.
    ("encoder_tokens_mask", "encoder_tokens_mask", (2, 48)),
    ("decoder_causal", "decoder_causal", (1, 32)),
]
ENTRIES = {key: (ctor, shape) for key, ctor, shape in MODELS}

# torchvision.models.segmentation: they return a dict; the corpus keeps "out".
SEGMENTATION = {"fcn_resnet50", "deeplabv3_mobilenet_v3_large",
                "lraspp_mobilenet_v3_large"}


def _random_vit_head(model):
    # torchvision zero-initialises ViT's classifier head: with random weights
    # elsewhere the output would be identically 0, and any compiled model
    # that writes zeros would pass.
    import torch
    torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    torch.nn.init.normal_(model.heads.head.bias, std=0.02)


def _fan_in_inception_convs(model):
    # inception_v3's default init (truncated normal, std 0.1, whatever the
    # fan-in) grows the activations to ~1e13 at the logits; an error of 1e-3
    # of that hides wrong small values. Fan-in scaled weights keep them O(1).
    import torch
    for m in model.modules():
        if isinstance(m, torch.nn.Conv2d):
            torch.nn.init.kaiming_normal_(m.weight, mode="fan_in",
                                          nonlinearity="relu")


# Applied after construction (and BatchNorm randomisation), by constructor.
POST_INIT = {"vit_b_16": _random_vit_head,
             "inception_v3": _fan_in_inception_convs}


def load_export_models():
    spec = importlib.util.spec_from_file_location("export_models",
                                                  EXPORT_MODELS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def input_seed_index(key):
    """export_models.build seeds the input with 1000 + index: derive the
    index from the key, so that editing the list changes no other input."""
    return zlib.crc32(key.encode()) % 100000


#===----------------------------------------------------------------------===#
# Worker: export (corpus.py _export KEY DIR)
#===----------------------------------------------------------------------===#

def make_model(helpers, key):
    """(model, input shape) for export_models.build, which seeds torch and
    puts the model in eval mode."""
    import torch
    import torchvision
    ctor, shape = ENTRIES[key]
    if ctor in SEGMENTATION:
        # weights_backbone defaults to ImageNet weights (a download).
        net = getattr(torchvision.models.segmentation, ctor)(
            weights=None, weights_backbone=None)
        helpers.randomize_batchnorm(net, torch.Generator().manual_seed(1))

        class OutOnly(torch.nn.Module):
            def __init__(self, m):
                super().__init__()
                self.m = m

            def forward(self, x):
                return self.m(x)["out"]
        model = OutOnly(net)
    else:
        model, _ = helpers.make_torchvision(ctor)
    if ctor in POST_INIT:
        POST_INIT[ctor](model)
    return model, shape


# The transformer blocks' vocabulary, width, heads, feed-forward width and
# layers (small: the corpus checks what the graphs contain, not scale).
VOCAB, WIDTH, HEADS, FEEDFORWARD, LAYERS = 1000, 128, 4, 512, 2
TRANSFORMERS = {"encoder_tokens_mask", "decoder_causal"}


def make_transformer(key):
    """The transformer block `key` (in eval mode, seeded) and its inputs as
    NumPy arrays: token ids, and for the encoder an attention mask (int64,
    1 for a token, 0 for padding, as tokenizers give it)."""
    import numpy as np
    import torch
    torch.manual_seed(0)
    ctor, shape = ENTRIES[key]
    batch, length = shape

    def layers(causal):
        layer = torch.nn.TransformerEncoderLayer(
            WIDTH, HEADS, FEEDFORWARD, dropout=0.0, activation="gelu",
            batch_first=True, norm_first=causal)
        return torch.nn.TransformerEncoder(layer, LAYERS,
                                           enable_nested_tensor=False)

    class EncoderTokensMask(torch.nn.Module):
        """Embeddings of ids plus learned positions, two encoder layers
        attending to the tokens only (the mask's zeros are padding)."""

        def __init__(self):
            super().__init__()
            self.tokens = torch.nn.Embedding(VOCAB, WIDTH)
            self.positions = torch.nn.Parameter(
                torch.randn(1, length, WIDTH) * 0.02)
            self.encoder = layers(causal=False)

        def forward(self, ids, mask):
            x = self.tokens(ids) + self.positions
            return self.encoder(x, src_key_padding_mask=mask == 0)

    class DecoderCausal(torch.nn.Module):
        """A decoder-only block: embeddings, two pre-norm layers under a
        causal mask (each position attends to itself and those before),
        a final norm and the logits over the vocabulary."""

        def __init__(self):
            super().__init__()
            self.tokens = torch.nn.Embedding(VOCAB, WIDTH)
            self.positions = torch.nn.Parameter(
                torch.randn(1, length, WIDTH) * 0.02)
            self.decoder = layers(causal=True)
            self.norm = torch.nn.LayerNorm(WIDTH)
            self.logits = torch.nn.Linear(WIDTH, VOCAB)

        def forward(self, ids):
            causal = torch.triu(
                torch.full((length, length), float("-inf")), diagonal=1)
            x = self.tokens(ids) + self.positions
            return self.logits(self.norm(self.decoder(x, mask=causal)))

    rng = np.random.default_rng(1000 + input_seed_index(key))
    ids = rng.integers(0, VOCAB, size=shape, dtype=np.int64)
    if ctor == "encoder_tokens_mask":
        mask = np.ones(shape, dtype=np.int64)
        mask[-1, length - length // 4:] = 0  # the last sequence is padded
        return EncoderTokensMask().eval(), [ids, mask]
    return DecoderCausal().eval(), [ids]


def export_transformer(helpers, key, outdir):
    """export_models.export for a model with several inputs of their own
    dtypes: KEY.onnx, KEY.npz (input_0.., output_0), KEY.tol, KEY.ops.txt."""
    import numpy as np
    import onnx
    import torch
    model, inputs = make_transformer(key)
    tensors = tuple(torch.from_numpy(x) for x in inputs)
    with torch.no_grad():
        y = model(*tensors).numpy().astype(np.float32)
    path = os.path.join(outdir, key + ".onnx")
    # Grad mode on while tracing, as export_models.export (no fused path).
    torch.onnx.export(model, tensors, path, opset_version=helpers.OPSET,
                      input_names=["input_%d" % i for i in range(len(inputs))],
                      output_names=["output"], do_constant_folding=True,
                      training=torch.onnx.TrainingMode.EVAL)
    onnx.checker.check_model(onnx.load(path), full_check=True)
    arrays = {"input_%d" % i: x for i, x in enumerate(inputs)}
    helpers.savez(os.path.join(outdir, key + ".npz"), output_0=y, **arrays)
    with open(os.path.join(outdir, key + ".tol"), "w") as f:
        f.write("%.3g\n" % helpers.atol_of(y))
    opsets, ops = helpers.op_summary(path)
    with open(os.path.join(outdir, key + ".ops.txt"), "w") as f:
        f.write("opset %s\n" % " ".join("%s=%d" % kv
                                         for kv in sorted(opsets.items())))
        f.write("ops %s\n" % " ".join(ops))


def worker_export(key, outdir):
    import torch
    helpers = load_export_models()
    # As export_models.main: deterministic results, byte for byte.
    torch.set_num_threads(1)
    torch.backends.mkldnn.enabled = False
    os.makedirs(outdir, exist_ok=True)
    if key in TRANSFORMERS:
        export_transformer(helpers, key, outdir)
        return
    helpers.MODELS[key] = lambda: make_model(helpers, key)
    model, x, y = helpers.build(key, input_seed_index(key))
    os.makedirs(outdir, exist_ok=True)
    helpers.export(key, model, x, y, outdir)


#===----------------------------------------------------------------------===#
# Worker: run (corpus.py _run LIB.so KEY.npz ATOL POOL_BYTES THREADS)
#===----------------------------------------------------------------------===#

def worker_run(library, npz, atol, pool_bytes, threads):
    import numpy as np
    faulthandler.enable()
    sys.path.insert(0, ABI_DIR)
    import aot_abi
    ref = np.load(npz)
    # input_0, input_1, ...: each in its own dtype (token ids are int64).
    xs = []
    while "input_%d" % len(xs) in ref:
        xs.append(np.ascontiguousarray(ref["input_%d" % len(xs)]))
    y = ref["output_0"]
    lib = ctypes.CDLL(library)
    res = {}

    info_fn = getattr(lib, NAME + "_info")
    info_fn.restype = ctypes.POINTER(aot_abi.ModelInfo)
    info = info_fn().contents
    out = info.outputs[0]
    out_shape = tuple(out.shape[i] for i in range(out.rank))
    if info.num_inputs != len(xs) or info.num_outputs != 1 or \
            out_shape != y.shape:
        res["detail"] = "signature: %d inputs, %d outputs, output %s; " \
            "PyTorch's output %s" % (info.num_inputs, info.num_outputs,
                                     list(out_shape), list(y.shape))
        print("RESULT " + json.dumps(res))
        return

    fn = getattr(lib, NAME)
    fn.restype = ctypes.c_int32
    fn.argtypes = [ctypes.c_void_p] * (len(xs) + 2) + [ctypes.c_size_t,
                                                        ctypes.c_void_p]
    raw = np.zeros(pool_bytes + 64, dtype=np.uint8)
    off = (-raw.ctypes.data) % 64
    pool = raw[off:off + pool_bytes]
    o = np.full(y.shape, np.nan, dtype=np.float32)
    cpu_stream = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream), threads)
    stream = ctypes.addressof(cpu_stream) if threads > 0 else None
    t = time.perf_counter()
    status = fn(*[x.ctypes.data for x in xs], o.ctypes.data,
                pool.ctypes.data, pool_bytes, stream)
    res["run_s"] = round(time.perf_counter() - t, 3)
    res["aot_status"] = int(status)
    if status != aot_abi.AOT_OK:
        names = {v: k for k, v in vars(aot_abi).items()
                 if k.startswith("AOT_ERROR_")}
        res["detail"] = "%s() returned %d (%s)" % (
            NAME, status, names.get(status, "unknown"))
        print("RESULT " + json.dumps(res))
        return
    ref_max = float(np.max(np.abs(y)))
    err = float(np.max(np.abs(o.astype(np.float64) - y)))
    if not np.all(np.isfinite(o)):
        err = float("inf")
        res["detail"] = "non-finite output"
    res.update(max_abs_err=err, max_abs_ref=ref_max,
               rel_err=err / ref_max if ref_max else
               (0.0 if err == 0 else float("inf")),
               passed=err <= atol)
    if ref_max == 0:
        res["detail"] = "PyTorch's output is all zeros: a vacuous comparison"
    print("RESULT " + json.dumps(res))


#===----------------------------------------------------------------------===#
# Driver
#===----------------------------------------------------------------------===#

class Step:
    """One finished subprocess: exit code (-N: signal N; None: timed out)."""

    def __init__(self, cmd, timeout, log):
        self.cmd = cmd
        t = time.perf_counter()
        # A session of its own: a timeout kills the step and anything it
        # started, and the terminal's Ctrl-C reaches only the driver.
        try:
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE,
                                 start_new_session=True)
        except OSError as e:  # not executable, say
            p, self.code, out, err = None, 127, b"", str(e).encode()
        try:
            if p is not None:
                out, err = p.communicate(timeout=timeout)
                self.code = p.returncode
        except BaseException as e:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            if not isinstance(e, subprocess.TimeoutExpired):
                raise
            self.code = None
        self.seconds = round(time.perf_counter() - t, 1)
        self.stdout = out.decode(errors="replace")
        self.stderr = err.decode(errors="replace")
        with open(log, "w") as f:
            f.write("$ %s\n# exit %s after %.1f s\n%s%s" % (
                " ".join(cmd), self.code, self.seconds, self.stdout,
                self.stderr))

    def how(self):
        if self.code is None:
            return "timed out"
        if self.code < 0:
            try:
                return "killed by %s" % signal.Signals(-self.code).name
            except ValueError:
                return "killed by signal %d" % -self.code
        return "exit %d" % self.code


def last_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


# Frames of the crash machinery itself, above the frame that failed.
HANDLER_FRAME = re.compile(
    r"llvm::sys::|SignalHandler|__restore_rt|\braise\b|\babort\b|"
    r"__assert_fail|pthread_kill|gsignal|llvm::report_fatal_error|"
    r"llvm::llvm_unreachable_internal|_sigtramp|0x[0-9a-f]+ \(/lib")


def backtrace(stderr):
    """(headline, top frames, all frames) of a crash's stderr: the
    assertion / LLVM ERROR / signal line and the frames below the signal
    handler (LLVM's `#N 0x...` format; Python's faulthandler format)."""
    lines = stderr.splitlines()
    head = ""
    for pattern in (r"Assertion .* failed", r"LLVM ERROR", r"UNREACHABLE",
                    r"Fatal Python error", r"terminate called",
                    r"Segmentation fault|Aborted|Illegal instruction"):
        hit = [l.strip() for l in lines if re.search(pattern, l)]
        if hit:
            head = hit[0]
            break
    frames = [l.strip() for l in lines if re.match(r"\s*#\d+ ", l)]
    if not frames:  # faulthandler: 'File "...", line N in f'
        frames = [l.strip() for l in lines if re.match(r"\s*File \"", l)]
    top = [f for f in frames if not HANDLER_FRAME.search(f)][:3]
    return head, top, frames


def header_pool_bytes(header):
    with open(header) as f:
        m = re.search(r"#define\s+\w+_POOL_BYTES\s+(\d+)", f.read())
    return int(m.group(1)) if m else None


def stage_times(stderr):
    """aotc -v's `aotc: STAGE   12.3 ms` lines, in milliseconds."""
    times = {}
    for m in re.finditer(r"^aotc: (\S.*?)\s+([0-9.]+) ms\s*$", stderr, re.M):
        times[m.group(1)] = float(m.group(2))
    return times


def compile_failure(r, step):
    """COMPILE_ERROR, CRASH or TIMEOUT for a failed aotc run."""
    if step.code is None:
        r["status"] = "TIMEOUT"
        r["detail"] = "compile: timed out after %d s" % step.seconds
        return
    errors = [l.strip() for l in step.stderr.splitlines()
              if re.search(r"\berror:", l)]
    crashed = "Stack dump" in step.stderr or "PLEASE submit" in step.stderr
    if step.code == 1 and errors and not crashed:
        r["status"] = "COMPILE_ERROR"
        r["detail"] = errors[0]
        r["errors"] = errors[:20]
        return
    head, top, frames = backtrace(step.stderr)
    r["status"] = "CRASH"
    r["detail"] = "compile: %s%s%s" % (
        step.how(), "; " + head if head else "",
        "; " + " | ".join(top) if top else
        ("; " + last_line(step.stderr) if step.stderr.strip()
         else ", no output"))
    r["backtrace"] = frames[:40]


def run_model(key, args):
    ctor, shape = ENTRIES[key]
    d = os.path.join(args.workdir, key)
    os.makedirs(d, exist_ok=True)
    onnx_path = os.path.join(d, key + ".onnx")
    npz = os.path.join(d, key + ".npz")
    tol = os.path.join(d, key + ".tol")
    r = {"model": key, "torchvision": ctor, "input_shape": list(shape)}

    # Export (PyTorch): KEY.onnx, KEY.npz (input_0, output_0), KEY.tol.
    if not (args.reuse_exports and all(map(os.path.exists,
                                           (onnx_path, npz, tol)))):
        for f in (onnx_path, npz, tol):
            if os.path.exists(f):
                os.remove(f)
        step = Step([sys.executable, os.path.abspath(__file__), "_export",
                     key, d], args.timeout, os.path.join(d, "export.log"))
        r["export_s"] = step.seconds
        if step.code is None:
            r["status"] = "TIMEOUT"
            r["detail"] = "export: timed out after %d s" % step.seconds
            return r
        if step.code != 0 or not os.path.exists(tol):
            r["status"] = "EXPORT_FAILED"
            r["detail"] = "export: %s; %s" % (step.how(),
                                              last_line(step.stderr))
            return r
    with open(tol) as f:
        atol = float(f.read())
    r["atol"] = atol
    ops = os.path.join(d, key + ".ops.txt")
    if os.path.exists(ops):
        with open(ops) as f:
            r["ops"] = f.read().split("\n")[1].split()[1:]

    # Compile (aotc).
    out = os.path.join(d, "out")
    for f in ("model.o", "model.h"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    os.makedirs(out, exist_ok=True)
    step = Step([args.aotc, onnx_path, "--target=cpu", "--name=" + NAME,
                 "-o", out, "-v"], args.timeout,
                os.path.join(d, "compile.log"))
    r["compile_s"] = step.seconds
    r["stages_ms"] = stage_times(step.stderr)
    r["remarks"] = sorted({l.strip() for l in step.stderr.splitlines()
                           if "remark:" in l})[:50]
    header = os.path.join(out, NAME + ".h")
    obj = os.path.join(out, NAME + ".o")
    if step.code != 0 or not (os.path.exists(header) and
                              os.path.exists(obj)):
        if step.code == 0:
            r["status"] = "CRASH"
            r["detail"] = "compile: exit 0 without writing %s and %s" % (
                os.path.basename(obj), os.path.basename(header))
        else:
            compile_failure(r, step)
        return r
    r["pool_bytes"] = header_pool_bytes(header)
    r["object_bytes"] = os.path.getsize(obj)
    if r["pool_bytes"] is None:
        r["status"] = "COMPILE_ERROR"
        r["detail"] = "no #define ..._POOL_BYTES in " + header
        return r

    # Link with the runtime and libomp into a shared library.
    library = os.path.join(d, NAME + ".so")
    step = Step([args.cc, "-shared", "-o", library, obj, args.runtime,
                 args.omp, "-Wl,-rpath," + os.path.dirname(args.omp)],
                args.timeout, os.path.join(d, "link.log"))
    if step.code != 0:
        errors = [l.strip() for l in step.stderr.splitlines()
                  if "error" in l]
        r["status"] = "TIMEOUT" if step.code is None else "COMPILE_ERROR"
        r["detail"] = "link: %s; %s" % (
            step.how(), errors[0] if errors else last_line(step.stderr))
        return r

    # Run (ctypes) and compare.
    step = Step([sys.executable, os.path.abspath(__file__), "_run", library,
                 npz, repr(atol), str(r["pool_bytes"]), str(args.threads)],
                args.timeout, os.path.join(d, "run.log"))
    results = [l for l in step.stdout.splitlines() if l.startswith("RESULT ")]
    if step.code is None:
        r["status"] = "TIMEOUT"
        r["detail"] = "run: timed out after %d s" % step.seconds
        return r
    if step.code != 0 or not results:
        head, top, frames = backtrace(step.stderr)
        r["status"] = "CRASH"
        r["detail"] = "run: %s%s%s" % (
            step.how(), "; " + head if head else "",
            "; " + " | ".join(top) if top else
            "; " + last_line(step.stderr))
        r["backtrace"] = frames[:40]
        return r
    r.update(json.loads(results[-1][len("RESULT "):]))
    r["status"] = "PASS" if r.pop("passed", False) else "MISMATCH"
    if r["status"] == "PASS" and not args.keep_objects:
        os.remove(library)  # hundreds of MB for the large models
        os.remove(obj)
    if r["status"] == "MISMATCH" and "detail" not in r:
        r["detail"] = "max|aotc - torch| = %.3g > %.3g (1e-3 * max|torch| " \
            "= %.3g)" % (r["max_abs_err"], atol, r["max_abs_ref"] * 1e-3)
    return r


def table(results):
    lines = ["| model | input shape | compile s | pool MB | max rel. error "
             "| status |", "|---|---|---:|---:|---:|---|"]
    for r in results:
        pool = r.get("pool_bytes")
        rel = r.get("rel_err")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            r["model"], "x".join(map(str, r["input_shape"])),
            "%.1f" % r["compile_s"] if "compile_s" in r else "-",
            "%.1f" % (pool / 1e6) if pool is not None else "-",
            "%.1e" % rel if rel is not None else "-", r["status"]))
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(
        description="Compile torchvision models with aotc and compare them "
        "with PyTorch.",
        epilog="models: " + ", ".join(k for k, _, _ in MODELS))
    p.add_argument("--aotc", required=True, help="the aotc binary")
    p.add_argument("--runtime", required=True,
                   help="libaot_runtime.a to link the objects with")
    p.add_argument("--workdir", required=True,
                   help="exports, objects and logs, one directory per model")
    p.add_argument("--models", help="comma-separated subset (default: all)")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds per step of a model (default 600)")
    p.add_argument("--threads", type=int, default=0,
                   help="threads the compiled models run with "
                   "(default 0: OpenMP's default)")
    p.add_argument("--json", help="write every result to this file")
    p.add_argument("--reuse-exports", action="store_true",
                   help="keep existing ONNX exports and references")
    p.add_argument("--keep-objects", action="store_true",
                   help="keep model.o and model.so of the models that pass")
    p.add_argument("--cc", default="clang-22",
                   help="links the shared libraries (default clang-22)")
    p.add_argument("--omp", default="/usr/lib/llvm-22/lib/libomp.so",
                   help="LLVM's OpenMP runtime (default %(default)s)")
    args = p.parse_args()

    keys = [k for k, _, _ in MODELS]
    if args.models:
        keys = [k for k in args.models.split(",") if k]
        for k in keys:
            if k not in ENTRIES:
                p.error("unknown model '%s' (see --help)" % k)
    for what in ("aotc", "runtime", "omp"):
        path = getattr(args, what)
        if not os.path.isfile(path):
            p.error("--%s: no file %s" % (what, path))
    args.aotc = os.path.abspath(args.aotc)
    args.runtime = os.path.abspath(args.runtime)
    args.workdir = os.path.abspath(args.workdir)
    os.makedirs(args.workdir, exist_ok=True)

    start = time.time()
    results = []
    for i, key in enumerate(keys):
        print("[%d/%d] %s ..." % (i + 1, len(keys), key), end=" ",
              file=sys.stderr, flush=True)
        r = run_model(key, args)
        results.append(r)
        print("%s%s" % (r["status"], " (%s)" % r["detail"]
                        if r["status"] != "PASS" and "detail" in r else ""),
              file=sys.stderr, flush=True)
        if args.json:  # after every model: a partial run leaves its results
            with open(args.json + ".tmp", "w") as f:
                json.dump({"aotc": args.aotc, "runtime": args.runtime,
                           "threads": args.threads, "timeout_s": args.timeout,
                           "rel_tol": 1e-3,
                           "started": time.strftime(
                               "%Y-%m-%dT%H:%M:%S", time.localtime(start)),
                           "elapsed_s": round(time.time() - start, 1),
                           "results": results}, f, indent=1)
            os.replace(args.json + ".tmp", args.json)

    passed = sum(r["status"] == "PASS" for r in results)
    print(table(results))
    failed = [r for r in results if r["status"] != "PASS" or "detail" in r]
    if failed:
        print()
        for r in failed:
            print("- %s: %s: %s" % (r["model"], r["status"],
                                    r.get("detail", "")))
    print()
    print("%d passed, %d failed of %d" % (passed, len(results) - passed,
                                          len(results)))
    print("(%.1f min; logs in %s)" % ((time.time() - start) / 60,
                                      args.workdir), file=sys.stderr)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "_export":
        worker_export(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 7 and sys.argv[1] == "_run":
        worker_run(sys.argv[2], sys.argv[3], float(sys.argv[4]),
                   int(sys.argv[5]), int(sys.argv[6]))
    else:
        sys.exit(main())
