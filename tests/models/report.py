#!/usr/bin/env python3
#===- report.py - Compile time, pool and object size of the model zoo -----===#
#
# Compiles every exported model (NAME.onnx from export_models.py, in the
# build's tests/models directory) with aotc, timing aotc itself, and prints a
# markdown table for the README: compile time, pool bytes against the
# planner's lower bound (the most bytes live at once, from the manifest) and
# the object size. A model aotc cannot compile gets its error instead.
#
# Usage:
#   report.py [--aotc build/compiler/tools/aotc/aotc]
#             [--models-dir build/tests/models] [--models a,b]
#             [--flags "--mcpu=..."] [--keep DIR]
#
# Only the standard library is used.
#
#===----------------------------------------------------------------------===#

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder",
          "tiny_mlp", "strided_convs"]


def children_cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def compile_model(aotc, onnx_path, name, outdir, flags):
    cmd = [aotc, onnx_path, "--target=cpu", "--name=" + name, "-o", outdir,
           "--emit=obj,header,json"] + flags
    cpu0, wall0 = children_cpu_seconds(), time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    wall = time.perf_counter() - wall0
    cpu = children_cpu_seconds() - cpu0
    return proc, wall, cpu


def first_error(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return line[line.index("error:"):].strip()
    lines = stderr.strip().splitlines()
    return lines[0] if lines else "no diagnostic"


def ops_of(models_dir, name):
    """The op list written by export_models.py (NAME.ops.txt), if any."""
    path = os.path.join(models_dir, name + ".ops.txt")
    if not os.path.exists(path):
        return ""
    fields = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition(" ")
            fields[key] = value
    return fields.get("ops", "")


def human(n):
    return "{:,}".format(n)


def main():
    p = argparse.ArgumentParser(
        description="Compile the ONNX model zoo and tabulate the results.")
    p.add_argument("--aotc",
                   default=os.path.join(ROOT, "build/compiler/tools/aotc/aotc"))
    p.add_argument("--models-dir",
                   default=os.path.join(ROOT, "build/tests/models"))
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--flags", default="", help="extra aotc flags")
    p.add_argument("--keep", help="write the artifacts to KEEP/NAME/")
    p.add_argument("--ops", action="store_true",
                   help="add a column with the ONNX op types of each model")
    args = p.parse_args()
    if not os.access(args.aotc, os.X_OK):
        sys.exit("error: no aotc at '%s' (use --aotc)" % args.aotc)

    header = ["model", "aotc time (s)", "aotc CPU (s)", "pool bytes",
              "lower bound", "pool / bound", "object bytes"]
    if args.ops:
        header.append("ONNX ops")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---"] + ["---:"] * 6 +
                         (["---"] if args.ops else [])) + "|")
    failures = 0
    for name in [m for m in args.models.split(",") if m]:
        onnx_path = os.path.join(args.models_dir, name + ".onnx")
        if not os.path.exists(onnx_path):
            sys.exit("error: %s does not exist (build the model_%s_export "
                     "target first)" % (onnx_path, name))
        with tempfile.TemporaryDirectory() as tmp:
            outdir = os.path.join(args.keep, name) if args.keep else \
                os.path.join(tmp, name)
            proc, wall, cpu = compile_model(args.aotc, onnx_path, name, outdir,
                                            shlex.split(args.flags))
            row = [name, "%.2f" % wall, "%.2f" % cpu]
            if proc.returncode != 0:
                failures += 1
                row += ["fails: `%s`" % first_error(proc.stderr).replace(
                    "|", "\\|"), "", "", ""]
            else:
                with open(os.path.join(outdir, name + ".json")) as f:
                    manifest = json.load(f)
                entry = manifest["entry_points"][0]
                pool = entry["pool_bytes"]
                bound = entry.get("pool_lower_bound")
                ratio = "%.3f" % (pool / bound) if bound else "-"
                obj = os.path.getsize(os.path.join(outdir, name + ".o"))
                row += [human(pool), human(bound) if bound is not None else
                        "-", ratio, human(obj)]
        if args.ops:
            row.append(ops_of(args.models_dir, name))
        print("| " + " | ".join(row) + " |")
        sys.stdout.flush()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
