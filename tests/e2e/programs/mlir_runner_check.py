"""Cross-checks e2e programs with upstream MLIR only (no aotc involved).

For each program NAME this script
  1. runs the oracle `NAME.py` to get inputs and expected outputs (.npz),
  2. appends a `@main` to the program that calls its public function on the
     oracle's inputs (embedded as bit-exact dense<"0x..."> constants) and prints
     every result through printMemrefI32/I64 from libmlir_runner_utils
     (floats are bitcast to integers first, so nothing is lost in printing),
  3. lowers the module with upstream passes only (transform-dialect
     decomposition of linalg.softmax / tensor.concat, TOSA -> linalg,
     one-shot-bufferize, linalg -> loops, math -> libm, ... -> LLVM) and runs
     it with mlir-runner,
  4. compares the printed results with the oracle using the tolerances of
     tests/e2e/CMakeLists.txt.

A pass means the MLIR program and its NumPy oracle agree about the semantics,
so a failure of aotc on that program is aotc's, not the test's.

Usage: mlir_runner_check.py [--approx] [--keep DIR] [--source FILE] [NAME ...]
       (default: all)
  --source  the program's MLIR instead of programs/NAME.mlir (one NAME; the
            build passes the programs it generates)
  --approx  lower math.exp/tanh/erf with MLIR's polynomial approximations
            (-test-math-polynomial-approximation) instead of libm, to measure
            how far such approximations are from the oracle.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
LLVM_LIB = os.environ.get("LLVM_LIB", "/usr/lib/llvm-22/lib")
PYTHON = "/usr/bin/python3"

# Every program of tests/e2e/CMakeLists.txt; value: MLIR source if not
# programs/NAME.mlir (a path, or a function returning the text).
PROGRAMS = {
    "matmul": None, "matmul_aliased_rows": None, "matmul_f64": None,
    "batch_matmul": None, "batch_matmul_packed": None,
    "broadcast_add_mixed_ranks": None, "elementwise_chain": None,
    "conv2d": None, "conv2d_basic": None, "pooling": None,
    "depthwise_padded": None,
    "reductions": None, "softmax": None, "shapes": None, "mlp": None,
    "unsharp_mask": os.path.join(REPO, "samples", "unsharp_mask.mlir"),
    "dtypes_ints": None, "multi_result": None, "tosa_ops": None,
    "reuse_chain": None, "gpu_tiled_matmuls": None, "matmul_f16": None,
    "matmul_bf16": None, "erf_accuracy": None, "winograd_conv": None,
    # Generated into the build tree by tests/e2e/CMakeLists.txt (which passes
    # it as --source); rendered here otherwise.
    "winograd_conv_wide": lambda: __import__("gen_winograd_conv").render(
        "winograd_conv_wide"),
    "winograd_conv_dilated": lambda: __import__("gen_winograd_conv").render(
        "winograd_conv_dilated"),
}

# Same figures as tests/e2e/CMakeLists.txt (defaults from docs/contracts.md).
DEFAULT_TOL = {"float16": (1e-2, 1e-3), "float32": (1e-4, 1e-5),
               "float64": (1e-10, 1e-12)}
# Per-program (rtol, atol) for float results; keep in sync with the RTOL/ATOL
# arguments in tests/e2e/CMakeLists.txt.
OVERRIDE_TOL = {"erf_accuracy": (4e-7, 1e-37)}

MLIR_TYPE = {"float16": "f16", "float32": "f32", "float64": "f64", "int8": "i8",
             "int32": "i32", "int64": "i64", "bool": "i1"}

# How each result element type is printed: (conversion op, printed type).
PRINT_AS = {"f16": ((("arith.bitcast", "i16"), ("arith.extui", "i32")), "i32"),
            "f32": ("arith.bitcast", "i32"), "f64": ("arith.bitcast", "i64"),
            "i8": ("arith.extsi", "i32"), "i1": ("arith.extui", "i32"),
            "i32": (None, "i32"), "i64": (None, "i64")}

TRANSFORM_LIBRARY = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %softmax = transform.structured.match ops{["linalg.softmax"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %softmax
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.tensor.decompose_concat
    } : !transform.any_op
    transform.yield
  }
}
"""


def tensor_type(shape, elt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elt + ">"


def memref_type(shape, elt):
    return "memref<" + "".join(f"{d}x" for d in shape) + elt + ">"


def dense_hex(a):
    a = np.asarray(a, order="C")
    if a.dtype == np.bool_:
        raise ValueError("i1 inputs are not supported by this harness")
    return f'dense<"0x{a.astype(a.dtype.newbyteorder("<")).tobytes().hex().upper()}">'


def public_function(text):
    names = [m.group(2) for m in re.finditer(
        r"func\.func\s+(private\s+|public\s+)?@([\w$.]+)", text)
        if not (m.group(1) or "").startswith("private")]
    if len(names) != 1:
        raise ValueError(f"expected one public function, found {names}")
    return names[0]


def strip_module(text):
    """Returns the body of an explicit top-level `module { ... }`, if any."""
    body = re.sub(r"//[^\n]*", "", text)
    m = re.match(r"\s*module\b[^{]*\{", body)
    if not m:
        return text
    inner = body[m.end():]
    return inner[:inner.rstrip().rfind("}")]


def wrapper(program_text, ref):
    fn = public_function(program_text)
    ins = [ref[k] for k in sorted((k for k in ref if k.startswith("input_")),
                                  key=lambda k: int(k.split("_")[1]))]
    outs = [ref[k] for k in sorted((k for k in ref if k.startswith("output_")),
                                   key=lambda k: int(k.split("_")[1]))]
    lines = ["func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
             "func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}",
             "func.func @main() {"]
    args, arg_types = [], []
    for i, a in enumerate(ins):
        t = tensor_type(a.shape, MLIR_TYPE[a.dtype.name])
        lines.append(f"  %in{i} = arith.constant {dense_hex(a)} : {t}")
        args.append(f"%in{i}")
        arg_types.append(t)
    res_types = [tensor_type(o.shape, MLIR_TYPE[o.dtype.name]) for o in outs]
    lines.append(f"  %r:{len(outs)} = func.call @{fn}({', '.join(args)}) : "
                 f"({', '.join(arg_types)}) -> ({', '.join(res_types)})")
    for i, o in enumerate(outs):
        elt = MLIR_TYPE[o.dtype.name]
        op, pelt = PRINT_AS[elt]
        val = f"%r#{i}"
        # One conversion, or a chain of (op, type) steps.
        steps = op if isinstance(op, tuple) else ((op, pelt),) if op else ()
        vtype = res_types[i]
        for j, (sop, sty) in enumerate(steps):
            ttype = tensor_type(o.shape, sty)
            lines.append(f"  %p{i}_{j} = {sop} {val} : {vtype} to {ttype}")
            val, vtype = f"%p{i}_{j}", ttype
        mt = memref_type(o.shape, pelt)
        lines.append(f"  %m{i} = bufferization.to_buffer {val} : "
                     f"{tensor_type(o.shape, pelt)} to {mt}")
        lines.append(f"  %u{i} = memref.cast %m{i} : {mt} to memref<*x{pelt}>")
        lines.append(f"  func.call @printMemref{pelt.upper()}(%u{i}) : (memref<*x{pelt}>) -> ()")
    lines += ["  return", "}"]
    return strip_module(program_text) + "\n" + "\n".join(lines) + "\n", outs


def lower_and_run(module_text, workdir, approx):
    src = os.path.join(workdir, "wrapped.mlir")
    lib = os.path.join(workdir, "decompose.mlir")
    llvm = os.path.join(workdir, "lowered.mlir")
    with open(src, "w") as f:
        f.write(module_text)
    with open(lib, "w") as f:
        f.write(TRANSFORM_LIBRARY)
    math = "func.func(test-math-polynomial-approximation)," if approx else ""
    pipeline = (
        "builtin.module("
        f"transform-preload-library{{transform-library-paths={lib}}},"
        "transform-interpreter,"
        "func.func(tosa-to-linalg-named,tosa-to-linalg,"
        "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor),"
        "convert-elementwise-to-linalg,"
        "one-shot-bufferize{bufferize-function-boundaries "
        "function-boundary-type-conversion=identity-layout-map},"
        "func.func(convert-linalg-to-loops)," + math +
        "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
        "convert-math-to-libm,convert-to-llvm,reconcile-unrealized-casts)")
    passes = [f"--pass-pipeline={pipeline}"]
    subprocess.run([os.path.join(LLVM_BIN, "mlir-opt"), src, "-o", llvm] + passes,
                   check=True)
    libs = ",".join(os.path.join(LLVM_LIB, l) for l in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    run = subprocess.run([os.path.join(LLVM_BIN, "mlir-runner"), llvm, "-e", "main",
                          "-entry-point-result=void", f"-shared-libs={libs}"],
                         check=True, capture_output=True, text=True)
    return run.stdout


def parse_printed(stdout, outs):
    chunks = stdout.split("Unranked Memref")[1:]
    if len(chunks) != len(outs):
        raise ValueError(f"expected {len(outs)} printed results, got {len(chunks)}")
    got = []
    for chunk, o in zip(chunks, outs):
        data = chunk.split("data =", 1)[1]
        ints = np.array(re.findall(r"-?\d+", data), dtype=np.int64)
        elt = MLIR_TYPE[o.dtype.name]
        if elt == "f16":
            v = ints.astype(np.uint16).view(np.float16)
        elif elt == "f32":
            v = ints.astype(np.int32).view(np.float32)
        elif elt == "f64":
            v = ints.view(np.float64)
        else:
            v = ints.astype(o.dtype)
            if not np.array_equal(v.astype(np.int64), ints):
                raise ValueError("printed value out of range")
        got.append(v.reshape(o.shape))
    return got


def compare(name, got, outs):
    ok = True
    for i, (g, e) in enumerate(zip(got, outs)):
        if e.dtype.kind == "f":
            rtol, atol = OVERRIDE_TOL.get(name, DEFAULT_TOL[e.dtype.name])
            err = np.abs(g.astype(np.float64) - e.astype(np.float64))
            bound = atol + rtol * np.abs(e.astype(np.float64))
            worst = float(np.max(err / bound)) if e.size else 0.0
            good = bool(np.all(err <= bound))
            print(f"  output_{i} {e.dtype.name}{list(e.shape)}: max abs err "
                  f"{err.max():.3g}, max err/tolerance {worst:.3g} "
                  f"(rtol {rtol:g}, atol {atol:g}) {'ok' if good else 'MISMATCH'}")
        else:
            good = bool(np.array_equal(g, e))
            print(f"  output_{i} {e.dtype.name}{list(e.shape)}: "
                  f"{'exact' if good else f'MISMATCH in {np.sum(g != e)} elements'}")
        ok &= good
    return ok


def program_text(name, source=None):
    entry = PROGRAMS[name]
    if not source and callable(entry):
        return entry()
    with open(source or entry or os.path.join(HERE, name + ".mlir")) as f:
        return f.read()


def check(name, approx, keep, source=None):
    with tempfile.TemporaryDirectory() as tmp:
        workdir = keep or tmp
        os.makedirs(workdir, exist_ok=True)
        npz = os.path.join(workdir, name + ".npz")
        subprocess.run([PYTHON, "-B", os.path.join(HERE, name + ".py"), npz], check=True)
        ref = dict(np.load(npz))
        module_text, outs = wrapper(program_text(name, source), ref)
        stdout = lower_and_run(module_text, workdir, approx)
        return compare(name, parse_printed(stdout, outs), outs)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*")
    p.add_argument("--approx", action="store_true")
    p.add_argument("--keep", help="keep the intermediate files in this directory")
    p.add_argument("--source", help="the program's MLIR (one name only), for "
                   "programs generated at build time")
    args = p.parse_args()
    names = args.names or list(PROGRAMS)
    if args.source and len(names) != 1:
        p.error("--source takes exactly one program name")
    failed = []
    for name in names:
        print(f"{name}:", flush=True)
        try:
            ok = check(name, args.approx,
                       os.path.join(args.keep, name) if args.keep else None,
                       args.source)
        except (subprocess.CalledProcessError, ValueError, OSError) as e:
            print(f"  ERROR: {e}")
            ok = False
        if not ok:
            failed.append(name)
    print(f"{len(names) - len(failed)}/{len(names)} programs agree with their oracle"
          + (f"; failed: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
