#!/usr/bin/env bash
#===- scripts/sanitize.sh - aotc under ASan and UBSan on real inputs -----===#
#
# Usage: scripts/sanitize.sh [--all] [--suites]
#
# Builds aotc in build-fuzz/ (the tree scripts/fuzz.sh configures: every aotc
# library with AddressSanitizer and UndefinedBehaviorSanitizer) and compiles
# with it every e2e program (tests/e2e/programs) and the four tuned models
# (resnet18, mobilenet_v2, squeezenet1_1, bert_encoder, exported by the main
# build in build/tests/models), each with the default strategy and with
# --strategy=generic, and with --verify-each (an invalid rewrite is caught by
# the verifier after the pass that made it); --all adds googlenet,
# shufflenet_v2_x1_0 and swin_t.
# Any sanitizer report or any exit other than 0 fails the run. Logs go to
# build-fuzz/sanitize/.
#
# --suites then runs the lit, unit and e2e suites in that tree: aotc,
# aotc-opt, the unit tests, the runtime and the e2e drivers all built with
# ASan + UBSan (the generated code itself is instrumented by the main
# tree's `ctest -L sanitize`).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

models=(resnet18 mobilenet_v2 squeezenet1_1 bert_encoder)
suites=0
for arg in "$@"; do
  case "$arg" in
    --all) models+=(googlenet shufflenet_v2_x1_0 swin_t) ;;
    --suites) suites=1 ;;
    *) echo "usage: $0 [--all] [--suites]" >&2; exit 2 ;;
  esac
done

aotc_install_deps
aotc_build_sanitized aotc
aotc="$AOTC_SANITIZED_BUILD/compiler/tools/aotc/aotc"
out="$AOTC_SANITIZED_BUILD/sanitize"
rm -rf "$out" && mkdir -p "$out"

inputs=("$AOTC_ROOT"/tests/e2e/programs/*.mlir)
for m in "${models[@]}"; do
  f="$AOTC_BUILD/tests/models/$m.onnx"
  if [ -f "$f" ]; then inputs+=("$f"); else echo "skipped $m: no $f"; fi
done

failures=0
count=0
for input in "${inputs[@]}"; do
  name=$(basename "${input%.*}")
  for strategy in default generic; do
    log="$out/$name-$strategy.log"
    count=$((count + 1))
    status=0
    "$aotc" "$input" --name="$name" --strategy="$strategy" --verify-each \
      -o "$out/$name-$strategy" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ] ||
        grep -q "AddressSanitizer\|runtime error:" "$log"; then
      failures=$((failures + 1))
      echo "FAIL $name ($strategy): exit $status, log $log"
    fi
  done
done
echo "$count compiles under ASan+UBSan, $failures failed"
[ "$failures" -eq 0 ]
[ "$suites" -eq 1 ] || exit 0

# The suites: every target of tests/unit and tests/e2e (CMake's per-directory
# `all` targets), and what lit runs.
cd "$AOTC_SANITIZED_BUILD"
echo "== building aotc-opt, the unit tests and the e2e drivers (ASan+UBSan)"
ninja aotc aotc-opt aot_runtime tests/unit/all tests/e2e/all
echo "== lit, unit and e2e under ASan+UBSan"
status=0
/usr/lib/llvm-22/bin/lit -q tests/lit || status=1
ctest --output-on-failure -j"$(nproc)" -L unit || status=1
ctest --output-on-failure -j"$(nproc)" -R '^e2e_' -LE 'oracle' || status=1
exit "$status"

