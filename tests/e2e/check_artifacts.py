#!/usr/bin/env python3
"""Checks properties of every compiled e2e artifact that no single run shows.

Usage: check_artifacts.py --nm LLVM_NM --max-ratio 1.05 MANIFEST.json...

For each manifest (written by `aotc --emit=json`) and its object:
  * every entry point's pool is within --max-ratio of its lower bound (the
    most bytes live at once), and
  * the object references no allocator and no MLIR runtime helper (the
    generated code must never allocate or call memrefCopy).
Prints a table and exits non-zero on any violation.
"""
import argparse
import json
import os
import subprocess
import sys

FORBIDDEN = {"malloc", "free", "calloc", "realloc", "aligned_alloc",
             "posix_memalign", "memalign", "valloc", "memrefCopy",
             "_mlir_memref_to_llvm_alloc", "_mlir_memref_to_llvm_free",
             "operator new", "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv"}


def undefined_symbols(nm, obj):
    out = subprocess.run([nm, "-u", "--format=just-symbols", obj],
                         check=True, capture_output=True, text=True).stdout
    return {line.strip() for line in out.splitlines() if line.strip()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nm", required=True)
    parser.add_argument("--max-ratio", type=float, default=1.05)
    parser.add_argument("manifests", nargs="+")
    args = parser.parse_args()

    failures = []
    print(f"{'entry point':28} {'pool bytes':>12} {'lower bound':>12} {'ratio':>7}")
    for path in args.manifests:
        with open(path) as f:
            manifest = json.load(f)
        obj = os.path.join(os.path.dirname(path), manifest["object"])
        bad = undefined_symbols(args.nm, obj) & FORBIDDEN
        if bad:
            failures.append(f"{obj}: references {sorted(bad)}")
        for entry in manifest["entry_points"]:
            pool, bound = entry["pool_bytes"], entry["pool_lower_bound"]
            ratio = pool / bound if bound else 1.0
            print(f"{entry['name']:28} {pool:12d} {bound:12d} {ratio:7.3f}")
            if pool < bound:
                failures.append(f"{entry['name']}: pool {pool} below its lower bound {bound}")
            if ratio > args.max_ratio:
                failures.append(f"{entry['name']}: pool/lower bound {ratio:.3f} > {args.max_ratio}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(args.manifests) - len({f.split(':')[0] for f in failures})} passed, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
