#!/usr/bin/python3
"""ONNX backend conformance for aotc.

For every case of ONNX's backend test data (Debian's libonnx-testdata:
node/, pytorch-converted/, pytorch-operator/, simple/), this script

  1. compiles model.onnx with `aotc --target=cpu --name=model`;
     exit 1 with an `error:` line is `unsupported` (a clean compile error),
     a crash, another exit code or a timeout is `failed`. When the error
     says a graph input must be known at compile time (shapes, axes, pads
     fed as inputs) and names the `--bind-input` that fixes it, the case is
     compiled once per test_data_set with those inputs bound to that data
     set's values (the `bound` column counts such cases among the passed);
  2. links the object into a shared library with the runtime;
  3. runs it in a forked child process (a crash of generated code is a
     `failed` case, never fatal to the runner) on every test_data_set_*,
     checking inputs against `model_info()` and comparing every output with
     the expected one (ONNX backend tolerances: rtol 1e-3, atol 1e-7 for
     floating point, exact for integers and bool, NaN positions must match).

It writes OUT/conformance.json and OUT/conformance.md, prints the table, and
ends with `N passed, M failed, K unsupported`. The exit code is 1 when any
case failed (wrong answer, crash, timeout), 0 otherwise: unsupported cases
are allowed.

Run with Debian's /usr/bin/python3 (numpy and python3-onnx):

  /usr/bin/python3 tests/onnx/run_conformance.py --aotc build/compiler/tools/aotc \\
      --runtime build/runtime/libaot_runtime.a --out /tmp/conf --jobs 2
"""

import argparse
import collections
import concurrent.futures
import ctypes
import glob
import json
import multiprocessing
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "include", "aot_abi"))
import aot_abi  # noqa: E402  (the ctypes mirror of aot_abi.h)

try:
    import numpy as np
    from onnx import TensorProto, numpy_helper
except ImportError as e:  # pragma: no cover
    sys.exit("error: %s (run with Debian's /usr/bin/python3 with python3-numpy "
             "and python3-onnx)" % e)

DEFAULT_DATA = "/usr/include/onnx/backend/test/data"
DEFAULT_DIRS = ("node", "pytorch-converted", "pytorch-operator", "simple")
LLVM_LIB = "/usr/lib/llvm-22/lib"
RTOL, ATOL = 1e-3, 1e-7

PASSED, FAILED, UNSUPPORTED = "passed", "failed", "unsupported"
# Passed cases that needed `--bind-input` (a count, not a status).
BOUND = "bound"


# AOT_DTYPE_* -> (name, numpy dtype name). bf16 travels as its 16 raw bits.
ABI_DTYPES = {1: ("f32", "float32"), 2: ("f64", "float64"),
              3: ("f16", "float16"), 4: ("bf16", "uint16"),
              5: ("i8", "int8"), 6: ("u8", "uint8"), 7: ("i16", "int16"),
              8: ("i32", "int32"), 9: ("i64", "int64"), 10: ("i1", "bool")}
# ONNX TensorProto.DataType -> AOT_DTYPE_*.
ONNX_TO_ABI = {1: 1, 11: 2, 10: 3, 16: 4, 3: 5, 2: 6, 5: 7, 6: 8, 7: 9, 9: 10}
ONNX_BFLOAT16, ONNX_UINT16 = 16, 4
ONNX_NAMES = {1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16",
              6: "int32", 7: "int64", 8: "string", 9: "bool", 10: "float16",
              11: "double", 12: "uint32", 13: "uint64", 16: "bfloat16"}
# bfloat16 tolerance: ONNX 1.12's Cast-to-bfloat16 data truncates (the
# reference keeps the top 16 bits of the float) where compilers round to
# nearest even, so bf16 results may differ by one bf16 ulp (2^-7 relative).
BF16_RTOL = 2.0 ** -7

# Defects of the test data itself (ONNX 1.12), not of aotc: inputs whose
# data has another shape than the model declares, and which the op only
# reads for their dtype. They are broadcast to the declared shape.
BROADCAST_INPUTS = {
    # CastLike's `like` input: declared [3,4], stored as [1].
    "node/test_castlike_BFLOAT16_to_FLOAT": {1},
    "node/test_castlike_BFLOAT16_to_FLOAT_expanded": {1},
    "node/test_castlike_FLOAT_to_BFLOAT16": {1},
    "node/test_castlike_FLOAT_to_BFLOAT16_expanded": {1},
}


# ===----------------------------------------------------------------------===#
# Running a compiled model (in the forked child)
# ===----------------------------------------------------------------------===#

class CaseFailure(Exception):
    """A wrong answer or a broken contract: the case is `failed`."""


def numbered(directory, prefix):
    """input_0.pb, input_1.pb, ... in numeric order."""
    files = glob.glob(os.path.join(directory, prefix + "_*.pb"))
    key = lambda p: int(re.search(r"_(\d+)\.pb$", p).group(1))
    return sorted(files, key=key)


def load_tensor(path):
    """(numpy array as the ABI lays it out, ONNX data type)."""
    tensor = TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    if not tensor.HasField("data_type") or tensor.data_type == 0:
        raise CaseFailure("%s is not a TensorProto (sequence/optional data)"
                          % os.path.basename(path))
    array = numpy_helper.to_array(tensor)
    if tensor.data_type == ONNX_BFLOAT16:
        # numpy_helper widens bfloat16 to float32 exactly: keep the top bits.
        array = (np.asarray(array, dtype=np.float32).copy()
                 .view(np.uint32) >> 16).astype(np.uint16)
    # (np.ascontiguousarray would turn a rank-0 tensor into rank 1.)
    if not array.flags.c_contiguous or not array.flags.aligned:
        array = array.copy(order="C")
    return array, tensor.data_type


def describe(info):
    return "%s%s" % (ABI_DTYPES.get(info.dtype, ("dtype%d" % info.dtype,))[0],
                     list(info.shape[i] for i in range(info.rank)))


def fmt(x):
    return repr(x.item()) if hasattr(x, "item") else repr(x)


def compare(index, name, got, expected, abi_dtype):
    """None when `got` matches, else the reason naming the worst element."""
    rtol = RTOL
    if abi_dtype == 4:  # bf16 bits -> float32
        got = (got.astype(np.uint32) << 16).view(np.float32)
        expected = (expected.astype(np.uint32) << 16).view(np.float32)
        rtol = BF16_RTOL
    what = "output %d '%s'" % (index, name)
    if got.shape != expected.shape:
        return "%s: shape %s, expected %s" % (what, list(got.shape),
                                              list(expected.shape))
    if got.dtype.kind == "f":
        g = got.astype(np.float64)
        e = expected.astype(np.float64)
        g_nan, e_nan = np.isnan(g), np.isnan(e)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(g - e)
            tol = ATOL + rtol * np.abs(e)
            close = (g == e) | (diff <= tol)
        bad = (g_nan != e_nan) | (~g_nan & ~e_nan & ~close)
        if not bad.any():
            return None
        with np.errstate(invalid="ignore", over="ignore"):
            excess = np.where(bad, np.nan_to_num(diff - tol, nan=np.inf,
                                                 posinf=np.inf), -np.inf)
        worst = np.unravel_index(int(np.argmax(excess)), got.shape)
        d = diff[worst] if got.shape else diff
        return ("%s: %d/%d elements differ; worst at %s: got %s, expected %s "
                "(|diff| %.3g, rtol %g, atol %g)"
                % (what, int(bad.sum()), bad.size, list(map(int, worst)),
                   fmt(got[worst]), fmt(expected[worst]), float(d), rtol,
                   ATOL))
    bad = got != expected
    if not bad.any():
        return None
    if got.dtype.kind in "iu":
        diff = np.abs(got.astype(np.float64) - expected.astype(np.float64))
        worst = np.unravel_index(int(np.argmax(np.where(bad, diff, -1))),
                                 got.shape)
    else:
        worst = np.unravel_index(int(np.argmax(bad)), got.shape)
    return ("%s: %d/%d elements differ (exact); worst at %s: got %s, "
            "expected %s" % (what, int(bad.sum()), bad.size,
                             list(map(int, worst)), fmt(got[worst]),
                             fmt(expected[worst])))


def check_data(ti, shape, array, onnx_type):
    """None when the data fits the tensor info, else what differs."""
    abi = ONNX_TO_ABI.get(onnx_type)
    # bfloat16 data may be stored as its raw bits in a uint16 tensor.
    if abi != ti.dtype and not (ti.dtype == 4 and onnx_type == ONNX_UINT16):
        return "the data is %s%s" % (ONNX_NAMES.get(onnx_type, onnx_type),
                                     list(array.shape))
    if list(array.shape) != shape:
        return "the data has shape %s" % list(array.shape)
    return None


def run_model(so_path, case_dir, case_key, data_sets=None, bound=()):
    """Loads the library and checks the test data sets (all of them, or
    `data_sets`); inputs whose positions are in `bound` were fixed at compile
    time and are not passed. Returns a reason string on failure, None on
    success. Runs in the child process."""
    lib = ctypes.CDLL(so_path)
    lib.model_info.restype = ctypes.POINTER(aot_abi.ModelInfo)
    lib.model.restype = ctypes.c_int32
    info = lib.model_info().contents
    if info.abi_version != 1:
        return "model_info: abi_version %d, expected 1" % info.abi_version
    inputs = [info.inputs[i] for i in range(info.num_inputs)]
    outputs = [info.outputs[i] for i in range(info.num_outputs)]
    alignment = max(int(info.pool_alignment), 1)
    pool_bytes = int(info.pool_bytes)
    raw_pool = np.empty(pool_bytes + alignment, dtype=np.uint8)
    pool_addr = raw_pool.ctypes.data + (-raw_pool.ctypes.data) % alignment

    if data_sets is None:
        data_sets = sorted(glob.glob(os.path.join(case_dir,
                                                  "test_data_set_*")))
    if not data_sets:
        return "no test_data_set_* directory"
    for data_set in data_sets:
        tag = os.path.basename(data_set)
        input_files = [f for i, f in enumerate(numbered(data_set, "input"))
                       if i not in bound]
        output_files = numbered(data_set, "output")
        if len(input_files) != len(inputs):
            return ("%s: %d input files, model_info() has %d inputs"
                    % (tag, len(input_files), len(inputs)))
        if len(output_files) != len(outputs):
            return ("%s: %d output files, model_info() has %d outputs"
                    % (tag, len(output_files), len(outputs)))
        args = []
        keep = []
        for i, (path, ti) in enumerate(zip(input_files, inputs)):
            array, onnx_type = load_tensor(path)
            shape = [ti.shape[k] for k in range(ti.rank)]
            if i in BROADCAST_INPUTS.get(case_key, ()) and \
                    list(array.shape) != shape:
                array = np.broadcast_to(array, shape).copy()
            mismatch = check_data(ti, shape, array, onnx_type)
            if mismatch:
                return "%s: input %d '%s' is %s in model_info(), %s" % (
                    tag, i, ti.name.decode(), describe(ti), mismatch)
            keep.append(array)
            args.append(ctypes.c_void_p(array.ctypes.data))
        expected = []
        results = []
        for i, (path, ti) in enumerate(zip(output_files, outputs)):
            array, onnx_type = load_tensor(path)
            shape = [ti.shape[k] for k in range(ti.rank)]
            mismatch = check_data(ti, shape, array, onnx_type)
            if mismatch:
                return "%s: output %d '%s' is %s in model_info(), %s" % (
                    tag, i, ti.name.decode(), describe(ti), mismatch)
            expected.append(array)
            # 0xff bytes: NaN for floats, -1 for integers, 255 for bool, so
            # an output the call never writes cannot pass by accident.
            out = np.empty(shape, dtype=ABI_DTYPES[ti.dtype][1])
            ctypes.memset(out.ctypes.data, 0xFF, out.nbytes)
            results.append(out)
            args.append(ctypes.c_void_p(out.ctypes.data))
        status = lib.model(*args, ctypes.c_void_p(pool_addr),
                           ctypes.c_size_t(pool_bytes), None)
        if status != 0:
            return "%s: model() returned status %d" % (tag, status)
        for i, (got, exp, ti) in enumerate(zip(results, expected, outputs)):
            if ti.dtype == 10 and got.size and got.view(np.uint8).max() > 1:
                return "%s: output %d '%s': a bool byte is neither 0 nor 1" % (
                    tag, i, ti.name.decode())
            reason = compare(i, ti.name.decode(), got, exp, ti.dtype)
            if reason:
                return "%s: %s" % (tag, reason)
    return None


def run_in_child(so_path, case_dir, case_key, timeout, data_sets=None,
                 bound=()):
    """Forks, runs the model in the child; (ok, reason)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        code = 0
        try:
            os.close(read_fd)
            # Idle OpenMP workers must not spin on the shared cores.
            os.environ.setdefault("KMP_BLOCKTIME", "0")
            try:
                reason = run_model(so_path, case_dir, case_key, data_sets,
                                   bound)
            except CaseFailure as e:
                reason = str(e)
            except Exception:  # a harness-side surprise is still a failure
                reason = "runner error: " + \
                    traceback.format_exc().strip().splitlines()[-1]
            payload = json.dumps({"reason": reason}).encode()
            view = memoryview(payload)
            while view:
                view = view[os.write(write_fd, view):]
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return False, "run: timeout after %gs" % timeout
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return False, "run: crashed with signal %d (%s)" % (
            sig, signal.Signals(sig).name)
    try:
        reason = json.loads(b"".join(chunks).decode())["reason"]
    except (ValueError, KeyError):
        return False, "run: child exited with code %d and no result" % \
            os.WEXITSTATUS(status)
    return reason is None, reason


# ===----------------------------------------------------------------------===#
# One case: compile, link, run (in a pool worker)
# ===----------------------------------------------------------------------===#

def first_error_line(text):
    for line in text.splitlines():
        if "error:" in line:
            return line[line.index("error:") + len("error:"):].strip()
    return None


def short(text, limit=300):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def run_case(task):
    try:
        return run_case_steps(task)
    except Exception:  # e.g. OSError starting a tool: still one case
        suite, case_dir, work = task[:3]
        return {"dir": suite, "case": os.path.basename(case_dir),
                "status": FAILED, "seconds": 0.0, "artifacts": work,
                "reason": "runner error: " +
                          traceback.format_exc().strip().splitlines()[-1]}


# The compiler's hint that a graph input must be fixed at compile time.
BIND_HINT = re.compile(r"graph input '([^']*)', which --bind-input")


def graph_input_names(model_path):
    """Names of the graph inputs the test data feeds (not initializers)."""
    import onnx
    graph = onnx.load(model_path, load_external_data=False).graph
    initializers = {t.name for t in graph.initializer}
    return [i.name for i in graph.input if i.name not in initializers]


def compile_and_link(model, work, aotc, runtime, timeout, binds=()):
    """Compiles and links one model; (status or None, reason, so_path).
    `binds` are (graph input name, TensorProto file) pairs."""
    os.makedirs(work, exist_ok=True)
    out_dir = os.path.join(work, "out")
    cmd = [aotc, model, "--target=cpu", "--name=model", "-o", out_dir,
           "--emit=obj,header,json"]
    cmd += ["--bind-input=%s=%s" % b for b in binds]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return FAILED, "compile: timeout after %gs" % timeout, None
    stderr = proc.stderr.decode(errors="replace")
    if proc.returncode != 0:
        with open(os.path.join(work, "compile.log"), "w") as f:
            f.write(" ".join(cmd) + "\n" + stderr)
    error = first_error_line(stderr)
    if proc.returncode < 0:
        return FAILED, "compile: aotc crashed with signal %d%s" % (
            -proc.returncode, ": " + error if error else ""), None
    if "Stack dump" in stderr or "PLEASE submit a bug report" in stderr:
        return FAILED, "compile: aotc crashed (exit %d)%s" % (
            proc.returncode, ": " + error if error else ""), None
    if proc.returncode == 1 and error:
        return UNSUPPORTED, error, None
    if proc.returncode != 0:
        return FAILED, "compile: exit code %d: %s" % (
            proc.returncode, short(stderr) or "(no output)"), None
    obj = os.path.join(out_dir, "model.o")
    for artifact in ("model.o", "model.h", "model.json"):
        if not os.path.exists(os.path.join(out_dir, artifact)):
            return FAILED, "compile: exit 0 but no %s" % artifact, None

    so_path = os.path.join(work, "model.so")
    link = ["clang-22", "-shared", "-fuse-ld=lld", "-o", so_path, obj,
            runtime, "-L" + LLVM_LIB, "-lomp", "-Wl,-rpath," + LLVM_LIB]
    try:
        proc = subprocess.run(link, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return FAILED, "link: timeout after %gs" % timeout, None
    if proc.returncode != 0:
        return FAILED, "link: " + short(proc.stdout.decode(
            errors="replace")), None
    return None, "", so_path


def run_case_steps(task):
    suite, case_dir, work, aotc, runtime, timeout, keep = task
    name = os.path.basename(case_dir)
    key = "%s/%s" % (suite, name)
    model = os.path.join(case_dir, "model.onnx")
    start = time.monotonic()
    result = {"dir": suite, "case": name, "status": FAILED, "reason": ""}

    def finish(status, reason=""):
        result["status"], result["reason"] = status, reason
        result["seconds"] = round(time.monotonic() - start, 3)
        if status != FAILED and not keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            result["artifacts"] = work
        return result

    status, reason, so_path = compile_and_link(model, work, aotc, runtime,
                                               timeout)
    if status is None:
        ok, reason = run_in_child(so_path, case_dir, key, timeout)
        return finish(PASSED if ok else FAILED, reason or "")
    hint = BIND_HINT.search(reason) if status == UNSUPPORTED else None
    if not hint:
        return finish(status, reason)

    # Shapes, axes, ... fed as graph inputs: compile once per data set with
    # them bound to that set's values, binding each input the compiler asks
    # for until it compiles or fails for another reason.
    names = graph_input_names(model)
    data_sets = sorted(glob.glob(os.path.join(case_dir, "test_data_set_*")))
    if not data_sets:
        return finish(FAILED, "no test_data_set_* directory")
    bound_names = set()
    for data_set in data_sets:
        tag = os.path.basename(data_set)
        files = numbered(data_set, "input")
        set_work = os.path.join(work, tag)
        wanted = set(bound_names)
        while True:
            binds = []
            for n in sorted(wanted, key=names.index):
                if names.index(n) >= len(files):
                    return finish(FAILED, "%s: no data for input '%s'" % (
                        tag, n))
                binds.append((n, files[names.index(n)]))
            status, reason, so_path = compile_and_link(
                model, set_work, aotc, runtime, timeout, binds)
            hint = BIND_HINT.search(reason) if status == UNSUPPORTED else None
            if status is None or not hint or hint.group(1) in wanted or \
                    hint.group(1) not in names:
                break
            wanted.add(hint.group(1))
        if status is not None:
            return finish(status, reason)
        bound_names |= wanted
        ok, reason = run_in_child(so_path, case_dir, key, timeout, [data_set],
                                  {names.index(n) for n in wanted})
        if not ok:
            return finish(FAILED, reason or "")
    result["bound_inputs"] = sorted(bound_names, key=names.index)
    return finish(PASSED)


# ===----------------------------------------------------------------------===#
# Reporting
# ===----------------------------------------------------------------------===#

def reason_group(reason):
    """The key unsupported reasons are grouped under."""
    m = re.search(r"unsupported op '([^']+)'", reason)
    if m:
        return "unsupported op '%s'" % m.group(1)
    m = re.search(r"op domain '([^']*)'", reason)
    if m:
        return "op domain '%s'" % m.group(1)
    m = re.match(r"node '.*?' \(([^)]+)\): (.*)", reason)
    prefix = ""
    if m:
        prefix, reason = "%s: " % m.group(1), m.group(2)
    # Value names, numbers and shapes differ from case to case.
    reason = re.sub(r"(graph input|graph output|initializer|tensor|input|"
                    r"output|dimension) '[^']*'", r"\1 '…'", reason)
    reason = re.sub(r"\[[-\d, ]*\]", "[…]", reason)
    reason = re.sub(r"\b\d+\b", "N", reason)
    return prefix + reason


def summarize(results, dirs):
    table = collections.OrderedDict(
        (d, collections.Counter()) for d in dirs)
    for r in results:
        counter = table.setdefault(r["dir"], collections.Counter())
        counter[r["status"]] += 1
        counter[BOUND] += bool(r.get("bound_inputs"))
    groups = collections.defaultdict(list)
    for r in results:
        if r["status"] == UNSUPPORTED:
            groups[reason_group(r["reason"])].append(
                "%s/%s" % (r["dir"], r["case"]))
    grouped = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    failed = [r for r in results if r["status"] == FAILED]
    return table, grouped, failed


def render(table, grouped, failed, totals, elapsed, jobs):
    lines = ["# ONNX backend conformance", "",
             "| directory | passed | of which bound | failed | unsupported "
             "| total |",
             "|---|---:|---:|---:|---:|---:|"]
    for d, c in table.items():
        lines.append("| %s | %d | %d | %d | %d | %d |" % (
            d, c[PASSED], c[BOUND], c[FAILED], c[UNSUPPORTED],
            sum(c[s] for s in (PASSED, FAILED, UNSUPPORTED))))
    lines.append("| **all** | **%d** | **%d** | **%d** | **%d** | **%d** |"
                 % (totals[PASSED], totals[BOUND], totals[FAILED],
                    totals[UNSUPPORTED],
                    sum(totals[s] for s in (PASSED, FAILED, UNSUPPORTED))))
    lines += ["", "*of which bound*: passed with graph inputs that hold "
              "shapes, axes or sizes fixed at compile time from each "
              "test_data_set (`aotc --bind-input`), one compile per data set."]
    lines += ["", "Wall time: %.1f s with %d jobs." % (elapsed, jobs), ""]
    lines += ["## Failed (%d)" % len(failed), ""]
    if failed:
        for r in sorted(failed, key=lambda r: (r["dir"], r["case"])):
            lines.append("- `%s/%s`: %s" % (r["dir"], r["case"], r["reason"]))
    else:
        lines.append("None.")
    lines += ["", "## Unsupported, by reason (%d)" % totals[UNSUPPORTED], "",
              "| reason | cases | examples |", "|---|---:|---|"]
    for key, cases in grouped:
        examples = ", ".join(c.split("/", 1)[1] for c in cases[:3])
        if len(cases) > 3:
            examples += ", ..."
        lines.append("| %s | %d | %s |" % (key.replace("|", "\\|"),
                                           len(cases), examples))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aotc", required=True, help="the aotc binary")
    parser.add_argument("--runtime", required=True,
                        help="libaot_runtime.a")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--filter", default=None,
                        help="regex on DIR/CASE (e.g. 'node/test_add')")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per step (compile, link, run)")
    parser.add_argument("--data", default=DEFAULT_DATA,
                        help="ONNX backend test data root")
    parser.add_argument("--dirs", default=",".join(DEFAULT_DIRS),
                        help="comma-separated subdirectories of --data")
    parser.add_argument("--keep", action="store_true",
                        help="keep every case's artifacts, not only failed")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every case as it finishes")
    args = parser.parse_args()

    aotc = os.path.abspath(args.aotc)
    runtime = os.path.abspath(args.runtime)
    out = os.path.abspath(args.out)
    for path in (aotc, runtime):
        if not os.path.exists(path):
            parser.error("%s does not exist" % path)
    dirs = [d for d in args.dirs.split(",") if d]
    pattern = re.compile(args.filter) if args.filter else None
    work_root = os.path.join(out, "work")
    shutil.rmtree(work_root, ignore_errors=True)
    os.makedirs(work_root, exist_ok=True)

    tasks = []
    for d in dirs:
        for model in sorted(glob.glob(os.path.join(args.data, d, "*",
                                                   "model.onnx"))):
            case_dir = os.path.dirname(model)
            key = "%s/%s" % (d, os.path.basename(case_dir))
            if pattern and not pattern.search(key):
                continue
            tasks.append((d, case_dir, os.path.join(work_root, key), aotc,
                          runtime, args.timeout, args.keep))
    if not tasks:
        print("error: no test cases under %s (dirs %s, filter %r)" % (
            args.data, ",".join(dirs), args.filter), file=sys.stderr)
        return 2

    print("Running %d ONNX backend cases with %d jobs" % (len(tasks),
                                                          args.jobs))
    sys.stdout.flush()
    start = time.monotonic()
    results = []
    # fork: workers inherit the imports; each case's run forks again.
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=max(args.jobs, 1), mp_context=context) as pool:
        futures = [pool.submit(run_case, t) for t in tasks]
        for n, future in enumerate(concurrent.futures.as_completed(futures),
                                   1):
            r = future.result()
            results.append(r)
            if r["status"] == FAILED or args.verbose:
                print("[%d/%d] %s %s/%s%s" % (
                    n, len(tasks), r["status"].upper(), r["dir"], r["case"],
                    ": " + r["reason"] if r["reason"] else ""))
                sys.stdout.flush()
    elapsed = time.monotonic() - start
    results.sort(key=lambda r: (r["dir"], r["case"]))

    table, grouped, failed = summarize(results, dirs)
    totals = collections.Counter(r["status"] for r in results)
    totals[BOUND] = sum(bool(r.get("bound_inputs")) for r in results)
    markdown = render(table, grouped, failed, totals, elapsed, args.jobs)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "conformance.md"), "w") as f:
        f.write(markdown)
    with open(os.path.join(out, "conformance.json"), "w") as f:
        json.dump({
            "data": args.data, "aotc": aotc, "jobs": args.jobs,
            "elapsed_seconds": round(elapsed, 1),
            "rtol": RTOL, "atol": ATOL,
            "totals": {s: totals[s]
                       for s in (PASSED, BOUND, FAILED, UNSUPPORTED)},
            "directories": {d: {s: c[s] for s in (PASSED, BOUND, FAILED,
                                                  UNSUPPORTED)}
                            for d, c in table.items()},
            "unsupported_reasons": [{"reason": k, "count": len(v),
                                     "cases": v} for k, v in grouped],
            "cases": results,
        }, f, indent=1)
        f.write("\n")
    print()
    print(markdown)
    print("Wrote %s and %s" % (os.path.join(out, "conformance.md"),
                               os.path.join(out, "conformance.json")))
    print("%d passed (%d with bound inputs), %d failed, %d unsupported" % (
        totals[PASSED], totals[BOUND], totals[FAILED], totals[UNSUPPORTED]))
    return 1 if totals[FAILED] else 0


if __name__ == "__main__":
    sys.exit(main())
