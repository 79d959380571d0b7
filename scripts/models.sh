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
# With --bench (first argument): the libraries are kept, and
# bench/bench_models.py times every model that passed against ONNX Runtime
# and PyTorch (1 and 2 threads, AOTC_BENCH_RUNS timed runs each, default
# 20, interleaved rounds); bench/report.py writes the table, the geometric
# means and the chart to bench/results/<date>-<commit>-corpus/.
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are unset for that command only.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
# The compiler and the runtime are all the corpus needs.
AOTC_BUILD_TARGETS="aotc aot_runtime" aotc_build

bench=0
if [ "${1:-}" = "--bench" ]; then
  bench=1
  shift
  corpus_args="$*"
  set -- --keep-objects "$@"
fi

omp=$(sed -n 's/^AOTC_OMP_LIBRARY:FILEPATH=//p' "$AOTC_BUILD/CMakeCache.txt")
workdir="$AOTC_BUILD/corpus"
mkdir -p "$workdir"
echo "== model corpus (in $workdir)"
status=0
/usr/bin/python3 "$AOTC_ROOT/tests/models/corpus.py" \
  --aotc "$AOTC_BUILD/compiler/tools/aotc/aotc" \
  --runtime "$AOTC_BUILD/runtime/libaot_runtime.a" \
  ${omp:+--omp "$omp"} \
  --workdir "$workdir" --json "$workdir/results.json" "$@" || status=$?
[ "$bench" = 1 ] || exit "$status"

# The speed of every model that passed (it kept its model.so).
if ! /usr/bin/python3 -c "import onnxruntime" 2>/dev/null; then
  echo "== onnxruntime not importable; trying pip install onnxruntime"
  timeout 300 /usr/bin/python3 -m pip install -q --break-system-packages onnxruntime ||
    echo "== pip install onnxruntime failed (no PyPI?): that peer is skipped"
fi
commit=$(git -C "$AOTC_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
results="$AOTC_ROOT/bench/results/$(date +%F)-$commit-corpus"
mkdir -p "$results"
echo "== corpus speed vs ONNX Runtime and PyTorch (into $results)"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 \
  "$AOTC_ROOT/bench/bench_models.py" --corpus "$workdir" \
  --export-script "$AOTC_ROOT/tests/models/export_models.py" \
  --threads 1,2 --runs "${AOTC_BENCH_RUNS:-20}" --out "$workdir/speed.json"
/usr/bin/python3 "$AOTC_ROOT/bench/report.py" "$workdir/speed.json" \
  --json "$results/results.json" --markdown "$results/results.md" \
  --png "$results/results.png" \
  --command "scripts/models.sh --bench $corpus_args" \
  --note "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
exit "$status"
