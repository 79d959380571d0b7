#!/usr/bin/env bash
#===- scripts/concurrency.sh - Many calls per thread under TSan ----------===#
#
# Usage: scripts/concurrency.sh [calls] [model...]
#   calls: per thread, default 1000; models: default resnet18 mobilenet_v2
#   squeezenet1_1 bert_encoder
#
# Builds each model's ThreadSanitizer test (tests/models: the model compiled
# with --sanitize=thread, the driver and runtime with -fsanitize=thread) and
# runs it with AOT_TEST_ITERATIONS=calls, outside ctest's timeout: 8 threads
# x calls, each thread with its own pool and every result bit-identical to a
# lone call, then 4 threads of the caller's OpenMP region x (calls / 10 + 1).
# The command, working directory and environment (TSAN_OPTIONS, Archer as
# OMP_TOOL_LIBRARIES) are ctest's own, read from `ctest --show-only`. Prints
# each model's seconds; a failed test or any ThreadSanitizer report fails
# the run. Logs go to build/concurrency/. See docs/reliability.md.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

calls=1000
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  calls=$1
  shift
fi
models=("$@")
[ ${#models[@]} -gt 0 ] ||
  models=(resnet18 mobilenet_v2 squeezenet1_1 bert_encoder)

aotc_install_deps
targets=""
for m in "${models[@]}"; do targets+=" model_${m}_thread_test"; done
AOTC_BUILD_TARGETS="$targets" aotc_build

out="$AOTC_BUILD/concurrency"
mkdir -p "$out"
failures=0
for m in "${models[@]}"; do
  test="model_${m}_thread_test"
  # ctest's command line, working directory and environment for the test.
  if ! text=$(cd "$AOTC_BUILD" &&
    ctest --show-only=json-v1 -R "^${test}\$" | /usr/bin/python3 -c '
import json, shlex, sys
tests = json.load(sys.stdin)["tests"]
if len(tests) != 1:
    sys.exit(1)
props = {p["name"]: p["value"] for p in tests[0].get("properties", [])}
print(props.get("WORKING_DIRECTORY", "."))
print(shlex.join(props.get("ENVIRONMENT", [])))
print(shlex.join(tests[0]["command"]))'); then
    echo "FAIL $m: ctest has no test $test"
    failures=$((failures + 1))
    continue
  fi
  mapfile -t spec <<<"$text"
  # Quoted by Python's shlex.join.
  eval "env=(${spec[1]})"
  eval "command=(${spec[2]})"
  log="$out/$m.log"
  start=$(date +%s)
  status=0
  (cd "${spec[0]}" &&
    env "${env[@]}" AOT_TEST_ITERATIONS="$calls" "${command[@]}") \
    >"$log" 2>&1 || status=$?
  seconds=$(($(date +%s) - start))
  if [ "$status" -ne 0 ] || grep -q "ThreadSanitizer" "$log"; then
    echo "FAIL $m: exit $status after ${seconds} s, log $log"
    failures=$((failures + 1))
  else
    echo "ok   $m: 8 threads x $calls calls, ${seconds} s"
  fi
done
echo "${#models[@]} models, $failures failed"
[ "$failures" -eq 0 ]
