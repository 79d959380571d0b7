#!/usr/bin/python3
"""Generated code under guard pages, and its outputs' determinism.

For each artifact (NAME.json + NAME.o of aotc, CPU target) and the NumPy
reference it is tested against (an .npz with input_0.., output_0..), the
object is linked with the runtime into a shared library and its entry point
is called with every buffer placed against PROT_NONE guard pages:

- every input and output exactly sized, once ending where a guard page
  begins (a read or write past the end faults) and once starting where a
  guard page ends (a read or write before the start faults);
- the pool exactly E_POOL_BYTES, at an address aligned to E_POOL_ALIGNMENT
  but not to twice that (its minimum alignment), ending less than two
  alignments before a guard page;
- at 1, 2 and 8 threads (aot_cpu_stream_t), twice each.

A fault kills the child process that makes the calls: the artifact fails
with the signal. Otherwise every call must return AOT_OK, match the
reference within the test's tolerance, and give bit-identical outputs: the
compiled code splits only parallel loops into thread tiles, so the thread
count changes which thread computes an element, never the order of a sum.

Usage: guarded_calls.py --runtime LIBAOT_RUNTIME --omp LIBOMP --work DIR
                        [--cc CC] ARTIFACT_JSON:REFERENCE_NPZ[:RTOL:ATOL]...
"""

import argparse
import ctypes
import json
import mmap
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "include", "aot_abi"))
import aot_abi  # noqa: E402

PAGE = mmap.PAGESIZE
THREADS = (1, 2, 8)
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
          "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "u8": np.uint8, "i1": np.bool_}

libc = ctypes.CDLL(None, use_errno=True)
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


class Guarded:
    """`nbytes` bytes at an address `offset` bytes into a mapping whose
    first and last pages are PROT_NONE; `at_end` places the bytes so they
    end at the last page (less `slack`), else they start after the first."""

    def __init__(self, nbytes, at_end, alignment=1, not_twice=False):
        body = (nbytes + 2 * alignment + PAGE - 1) // PAGE * PAGE
        self.map = mmap.mmap(-1, body + 2 * PAGE)
        base = ctypes.addressof(ctypes.c_char.from_buffer(self.map))
        if libc.mprotect(base, PAGE, 0) or \
                libc.mprotect(base + PAGE + body, PAGE, 0):
            raise OSError(ctypes.get_errno(), "mprotect")
        if at_end:
            address = base + PAGE + body - nbytes
            address -= address % alignment
            if not_twice and address % (2 * alignment) == 0:
                address -= alignment
        else:
            address = base + PAGE
            if not_twice:
                address += alignment
        self.address, self.nbytes = address, nbytes
        self.offset = address - base

    def array(self, dtype, shape):
        """The bytes as a NumPy array (a view of the mapping)."""
        count = int(np.prod(shape, dtype=np.int64))
        return np.frombuffer(self.map, dtype, count,
                             self.offset).reshape(shape)


def link(obj, args, name):
    """The shared library of `obj` (with the runtime and libomp)."""
    so = os.path.join(args.work, name + ".so")
    subprocess.run([args.cc, "-shared", "-o", so, obj, args.runtime, args.omp,
                    "-Wl,-rpath," + os.path.dirname(args.omp)], check=True)
    return so


def calls(so, artifact, reference, rtol, atol):
    """The child: every call of one artifact; returns a message or None."""
    with open(artifact) as f:
        entry = json.load(f)["entry_points"][0]
    ref = np.load(reference)
    lib = ctypes.CDLL(so)
    fn = getattr(lib, entry["name"])
    fn.restype = ctypes.c_int32
    first = None
    for at_end in (True, False):
        inputs, outputs = [], []
        for i, t in enumerate(entry["inputs"]):
            data = ref["input_%d" % i].astype(DTYPES[t["dtype"]])
            g = Guarded(data.nbytes, at_end)
            g.array(data.dtype, data.shape)[...] = data
            inputs.append(g)
        for t in entry["outputs"]:
            dtype = np.dtype(DTYPES[t["dtype"]])
            nbytes = int(np.prod(t["shape"], dtype=np.int64)) * dtype.itemsize
            outputs.append((Guarded(nbytes, at_end), dtype, t["shape"]))
        pool_bytes = entry["pool_bytes"]
        pool = Guarded(pool_bytes, True, entry["pool_alignment"],
                       not_twice=True) if pool_bytes else None
        for threads in THREADS:
            for repeat in range(2):
                for g, dtype, shape in outputs:
                    view = g.array(dtype, shape)
                    view[...] = np.nan if dtype.kind == "f" else 0x5A
                stream = aot_abi.CpuStream(ctypes.sizeof(aot_abi.CpuStream),
                                           threads)
                status = fn(*[ctypes.c_void_p(g.address) for g in inputs],
                            *[ctypes.c_void_p(g.address)
                              for g, _, _ in outputs],
                            ctypes.c_void_p(pool.address if pool else None),
                            ctypes.c_size_t(pool_bytes),
                            ctypes.byref(stream))
                where = "%s, %d threads, call %d" % (
                    "ends at guard" if at_end else "starts at guard", threads,
                    repeat + 1)
                if status != 0:
                    return "status %d (%s)" % (status, where)
                got = [g.array(d, s).copy() for g, d, s in outputs]
                if first is None:
                    first = got
                    for i, y in enumerate(got):
                        want = ref["output_%d" % i]
                        if y.dtype.kind == "f" and not np.allclose(
                                y, want, rtol=rtol, atol=atol,
                                equal_nan=True):
                            return "output %d differs from the reference " \
                                   "(max error %.3g)" % (
                                       i, float(np.nanmax(np.abs(
                                           y.astype(np.float64) - want))))
                        if y.dtype.kind != "f" and not np.array_equal(y, want):
                            return "output %d differs from the reference" % i
                for i, (a, b) in enumerate(zip(first, got)):
                    if a.tobytes() != b.tobytes():
                        return "output %d not bit-identical to the first " \
                               "call (%s)" % (i, where)
    return None


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        so, artifact, reference, rtol, atol = sys.argv[2:7]
        message = calls(so, artifact, reference, float(rtol), float(atol))
        if message:
            print(message)
            return 1
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--omp", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cc", default="clang-22")
    parser.add_argument("cases", nargs="+",
                        help="ARTIFACT_JSON:REFERENCE_NPZ[:RTOL:ATOL]")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures = 0
    for case in args.cases:
        parts = case.split(":")
        artifact, reference = parts[0], parts[1]
        rtol, atol = (parts[2], parts[3]) if len(parts) == 4 else ("1e-4",
                                                                  "1e-5")
        with open(artifact) as f:
            meta = json.load(f)
        obj = os.path.join(os.path.dirname(artifact), meta["object"])
        so = link(obj, args, meta["name"])
        child = subprocess.run(
            [sys.executable, "-B", os.path.abspath(__file__), "--child", so,
             artifact, reference, rtol, atol],
            capture_output=True, text=True)
        if child.returncode < 0:
            detail = "killed by signal %d (a guard page fault: an " \
                     "out-of-bounds access)" % -child.returncode
        else:
            detail = (child.stdout + child.stderr).strip()
        ok = child.returncode == 0
        failures += not ok
        print("%s %s: %s" % ("PASS" if ok else "FAIL", meta["name"],
                             "no fault, outputs bit-identical at %s threads"
                             % "/".join(map(str, THREADS)) if ok else detail),
              flush=True)
    print("%d of %d artifacts failed" % (failures, len(args.cases)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
