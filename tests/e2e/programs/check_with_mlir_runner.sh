#!/bin/sh
#===- check_with_mlir_runner.sh - e2e programs vs. oracles, upstream only --===#
#
# Checks every e2e program (or the ones named) against its NumPy oracle with
# upstream mlir-opt + mlir-runner only, independently of aotc: a pass means
# the .mlir and the .py agree on the semantics. See mlir_runner_check.py.
#
#   tests/e2e/programs/check_with_mlir_runner.sh [--approx] [NAME ...]
#
# Needs mlir-22-tools (LLVM_BIN, LLVM_LIB override /usr/lib/llvm-22/{bin,lib})
# and python3-numpy. Takes about 20 s for all programs.
#===----------------------------------------------------------------------===#
set -eu
exec /usr/bin/python3 -B "$(dirname "$0")/mlir_runner_check.py" "$@"
