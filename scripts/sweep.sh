#!/usr/bin/env bash
#===- scripts/sweep.sh - The shape sweep, for as long as you like --------===#
#
# Usage: scripts/sweep.sh [SECONDS [SEED]] [shape_sweep.py arguments...]
#   e.g. scripts/sweep.sh 3600 7 --generic
#
# Builds aotc and the runtime (only those two targets), then runs
# tests/sweep/shape_sweep.py for SECONDS (default 600) from SEED (default:
# the time): random convolutions, pools, matmuls and small chains of odd
# shapes, each exported from PyTorch, compiled and compared with PyTorch.
# Every failure prints the command that reproduces it (--seed S --only I);
# add it to REGRESSIONS in shape_sweep.py once fixed. Work files go to
# build/sweep/ (a passing case's are deleted). Exits non-zero on any
# mismatch or crash.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

seconds=${1:-600}
seed=${2:-$(date +%s)}
shift $(( $# < 2 ? $# : 2 ))

aotc_install_deps
AOTC_BUILD_TARGETS="aotc aot_runtime" aotc_build

omp=$(sed -n 's/^AOTC_OMP_LIBRARY:FILEPATH=//p' "$AOTC_BUILD/CMakeCache.txt")
echo "== shape sweep: seed $seed, $seconds s"
/usr/bin/python3 -B "$AOTC_ROOT/tests/sweep/shape_sweep.py" \
  --aotc "$AOTC_BUILD/compiler/tools/aotc/aotc" \
  --runtime "$AOTC_BUILD/runtime/libaot_runtime.a" \
  ${omp:+--omp "$omp"} \
  --work "$AOTC_BUILD/sweep" --seed "$seed" --seconds "$seconds" "$@"
