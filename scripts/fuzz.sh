#!/usr/bin/env bash
#===- scripts/fuzz.sh - libFuzzer campaigns on aotc's input paths --------===#
#
# Usage: scripts/fuzz.sh [SECONDS [SEED]] [TARGET...]
#   e.g. scripts/fuzz.sh 3600 7 onnx_import_fuzzer
#        scripts/fuzz.sh 3600 7 graph_fuzz
#
# Configures build-fuzz/ (clang-22, AOTC_FUZZ=ON,
# AOTC_SANITIZE=address,undefined: libFuzzer coverage, ASan and UBSan in
# every aotc library) and builds the fuzz targets of tests/fuzz, then runs
# each (default: all) for SECONDS (default 60) from SEED (default 1):
#   onnx_import_fuzzer  seeds: every model.onnx of ONNX's backend test data
#                       (libonnx-testdata) and tests/fuzz/regressions/onnx
#   mlir_input_fuzzer   seeds: the e2e programs, samples/*.mlir and
#                       tests/fuzz/regressions/mlir
#   graph_fuzz          tests/fuzz/graph_fuzz.py: random valid ONNX graphs
#                       compiled by the sanitized aotc, linked with the main
#                       build's runtime, called and (with onnxruntime
#                       installed) compared with ONNX Runtime; its
#                       REGRESSIONS list runs first. Work files of failed
#                       cases go to build-fuzz/graph_fuzz/.
# First every regression input is run once (a fixed crash stays fixed).
# New corpus units go to build-fuzz/corpus/TARGET, crashing inputs to
# build-fuzz/findings/ (copy each to tests/fuzz/regressions/ once fixed).
# Prints executions and coverage per target; exits non-zero on a finding.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

seconds=${1:-60}
seed=${2:-1}
shift $(( $# < 2 ? $# : 2 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(onnx_import_fuzzer mlir_input_fuzzer)

aotc_install_deps
# graph_fuzz is no ninja target: it needs the sanitized aotc and the main
# build's (uninstrumented) runtime, loaded into an uninstrumented python.
build_targets=()
for target in "${targets[@]}"; do
  if [ "$target" = graph_fuzz ]; then
    build_targets+=(aotc)
    AOTC_BUILD_TARGETS="aot_runtime" aotc_build
  else
    build_targets+=("$target")
  fi
done
aotc_build_sanitized "${build_targets[@]}"
build="$AOTC_SANITIZED_BUILD"
regressions="$AOTC_ROOT/tests/fuzz/regressions"

seeds_of() {
  local dir="$build/seeds/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  case "$1" in
    onnx_import_fuzzer)
      local i=0
      for f in /usr/include/onnx/backend/test/data/node/*/model.onnx; do
        [ -f "$f" ] && cp "$f" "$dir/$i.onnx" && i=$((i + 1))
      done ;;
    mlir_input_fuzzer)
      cp "$AOTC_ROOT"/tests/e2e/programs/*.mlir "$AOTC_ROOT"/samples/*.mlir "$dir/" ;;
  esac
  echo "$dir"
}

regressions_of() {
  case "$1" in
    onnx_import_fuzzer) echo "$regressions/onnx" ;;
    mlir_input_fuzzer) echo "$regressions/mlir" ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  if [ "$target" = graph_fuzz ]; then
    echo "== graph_fuzz: $seconds s from seed $seed"
    omp=$(sed -n 's/^AOTC_OMP_LIBRARY:FILEPATH=//p' "$AOTC_BUILD/CMakeCache.txt")
    log="$build/findings/graph_fuzz.log"
    mkdir -p "$build/findings"
    if ! /usr/bin/python3 -B "$AOTC_ROOT/tests/fuzz/graph_fuzz.py" \
        --aotc "$build/compiler/tools/aotc/aotc" \
        --runtime "$AOTC_BUILD/runtime/libaot_runtime.a" \
        ${omp:+--omp "$omp"} \
        --work "$build/graph_fuzz" --seed "$seed" --seconds "$seconds" \
        --keep >"$log" 2>&1; then
      status=1
      echo "FINDING: graph_fuzz (log: $log)"
      grep "^reproduce:" "$log" | head -5 || true
    fi
    grep -E "compiles in" "$log" || true
    continue
  fi
  binary="$build/tests/fuzz/$target"
  known=$(regressions_of "$target")
  mkdir -p "$build/corpus/$target" "$build/findings" "$known"
  if compgen -G "$known/*" >/dev/null; then
    echo "== $target: regression inputs"
    if "$binary" "$known"/* >"$build/findings/$target-regressions.log" 2>&1
    then
      echo "$(find "$known" -type f | wc -l) replayed, no crash"
    else
      status=1
      echo "FINDING: a regression input crashes again" \
           "(log: $build/findings/$target-regressions.log)"
    fi
  fi
  echo "== $target: $seconds s from seed $seed"
  log="$build/findings/$target.log"
  if ! "$binary" -seed="$seed" -max_total_time="$seconds" -max_len=65536 \
      -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$build/findings/$target-" \
      "$build/corpus/$target" "$(seeds_of "$target")" "$known" \
      >"$log" 2>&1; then
    status=1
    echo "FINDING: $target (log: $log)"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5 || true
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$log" |
    tail -3 || true
done
exit $status
