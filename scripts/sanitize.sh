#!/usr/bin/env bash
#===- scripts/sanitize.sh - aotc under ASan and UBSan on real inputs -----===#
#
# Usage: scripts/sanitize.sh [--all]
#
# Builds aotc in build-fuzz/ (the tree scripts/fuzz.sh configures: every aotc
# library with AddressSanitizer and UndefinedBehaviorSanitizer) and compiles
# with it every e2e program (tests/e2e/programs) and the four tuned models
# (resnet18, mobilenet_v2, squeezenet1_1, bert_encoder, exported by the main
# build in build/tests/models), each with the default strategy and with
# --strategy=generic; --all adds googlenet, shufflenet_v2_x1_0 and swin_t.
# Any sanitizer report or any exit other than 0 fails the run. Logs go to
# build-fuzz/sanitize/.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

models=(resnet18 mobilenet_v2 squeezenet1_1 bert_encoder)
[ "${1:-}" = "--all" ] && models+=(googlenet shufflenet_v2_x1_0 swin_t)

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
    "$aotc" "$input" --name="$name" --strategy="$strategy" \
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
