#!/usr/bin/env bash
#===- scripts/models.sh - Build, run the model corpus against PyTorch ----===#
#
# Usage: scripts/models.sh [corpus.py arguments...]
#   e.g. scripts/models.sh --models resnet18,swin_t
#
# Builds aotc and the runtime (only those two targets), then runs
# tests/models/corpus.py: 31 torchvision models (random weights) and two
# transformer blocks taking token ids, exported to ONNX, compiled with aotc,
# called through ctypes and compared with PyTorch; each step in its own
# subprocess with a timeout. Prints a markdown table
# (compile time, pool size, error, status PASS / MISMATCH / COMPILE_ERROR /
# CRASH / TIMEOUT / EXPORT_FAILED) and exits non-zero unless every model
# passes. Exports, objects and logs go to build/corpus/<model>/, every
# figure (with aotc's per-stage times) to build/corpus/results.json.
# See docs/onnx.md ("Model corpus").
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
# The compiler and the runtime are all the corpus needs.
AOTC_BUILD_TARGETS="aotc aot_runtime" aotc_build

omp=$(sed -n 's/^AOTC_OMP_LIBRARY:FILEPATH=//p' "$AOTC_BUILD/CMakeCache.txt")
workdir="$AOTC_BUILD/corpus"
mkdir -p "$workdir"
echo "== model corpus (in $workdir)"
/usr/bin/python3 "$AOTC_ROOT/tests/models/corpus.py" \
  --aotc "$AOTC_BUILD/compiler/tools/aotc/aotc" \
  --runtime "$AOTC_BUILD/runtime/libaot_runtime.a" \
  ${omp:+--omp "$omp"} \
  --workdir "$workdir" --json "$workdir/results.json" "$@"
