#!/usr/bin/env python3
#===- tests/gpu/check_fake_driver_run.py - weights a fake GPU received ----===#
#
# Runs a fake_driver_run build (the CUDA or HIP build of the e2e program
# mlp, with host or device tensors, linked with its runtime and driven
# against a fake driver, which checks the call protocol itself) and
# compares the bytes the runtime copied into the module's hoisted globals
# with the program's weights as gen_mlp.py makes them (NumPy): every weight
# array of at least 1 KiB must have been copied, byte for byte, into exactly
# one global, and nothing else.
#
# Usage: check_fake_driver_run.py FAKE_DRIVER_RUN
#
#===----------------------------------------------------------------------===#

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e", "programs"))
import gen_mlp  # noqa: E402

HOISTED_MIN_BYTES = 1024


def main():
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([sys.argv[1], out], capture_output=True,
                             text=True)
        sys.stdout.write(run.stdout)
        if run.returncode != 0:
            sys.exit(f"FAIL: fake_driver_run exit {run.returncode}\n"
                     f"{run.stderr}")
        copied = {}
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), "rb") as f:
                copied[name[:-len(".bin")]] = f.read()
    expected = [(f"W{i + 1}" if j == 0 else f"b{i + 1}", a.tobytes())
                for i, layer in enumerate(gen_mlp.make_weights())
                for j, a in enumerate(layer) if a.nbytes >= HOISTED_MIN_BYTES]
    unmatched = dict(copied)
    for label, data in expected:
        names = [n for n, d in unmatched.items() if d == data]
        if len(names) != 1:
            sys.exit(f"FAIL: {label} ({len(data)} bytes) was copied into "
                     f"{len(names)} globals")
        print(f"{label}: {len(data)} bytes, byte-identical in global "
              f"{names[0]}")
        del unmatched[names[0]]
    if unmatched:
        sys.exit(f"FAIL: globals filled with something else: "
                 f"{sorted(unmatched)}")


if __name__ == "__main__":
    main()
