#!/usr/bin/python3
"""The same input compiled twice gives byte-identical artifacts.

Each input is compiled by `aotc INPUT --name=NAME --emit=obj,header,json
-o DIR` twice: once from
WORK/a with a relative output directory, once from WORK/b/c with an
absolute one elsewhere (so neither the working directory nor the output
path may leak into an artifact), and the object, the header and the JSON
manifest of both runs must be byte-identical. MLIR's multithreaded pass
manager runs both (functions in parallel where the program has several).

Usage: deterministic_compile.py --aotc AOTC --work DIR INPUT...
"""

import argparse
import filecmp
import os
import shutil
import subprocess
import sys


def compile_in(aotc, cwd, source, name, out):
    os.makedirs(cwd, exist_ok=True)
    subprocess.run([os.path.abspath(aotc), os.path.abspath(source),
                    "--name=" + name, "--emit=obj,header,json", "-o", out],
                   cwd=cwd, check=True)
    return out if os.path.isabs(out) else os.path.join(cwd, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aotc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    failures = 0
    for source in args.inputs:
        name = os.path.splitext(os.path.basename(source))[0]
        first = compile_in(args.aotc, os.path.join(work, "a"), source, name,
                           os.path.join("out", name))
        second = compile_in(args.aotc, os.path.join(work, "b", "c"), source,
                            name, os.path.join(work, "elsewhere", name))
        files = [name + suffix for suffix in (".o", ".h", ".json")]
        _, mismatch, errors = filecmp.cmpfiles(first, second, files,
                                               shallow=False)
        ok = not mismatch and not errors
        failures += not ok
        print("%s %s: %s" % ("PASS" if ok else "FAIL", name,
                             "identical .o, .h, .json" if ok else
                             "differ: %s" % ", ".join(mismatch + errors)),
              flush=True)
    print("%d of %d inputs compiled differently" % (failures,
                                                    len(args.inputs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
