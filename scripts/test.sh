#!/usr/bin/env bash
#===- scripts/test.sh - Install, build, run every test -------------------===#
#
# Usage: scripts/test.sh [ctest arguments...]
# Runs unit, lit, e2e and sample tests with ctest, then, in a second build
# tree with ASan and UBSan (build-fuzz/): each libFuzzer target of
# tests/fuzz for AOTC_FUZZ_SECONDS (default 60) from a fixed seed
# (scripts/fuzz.sh), and the sanitized aotc on the e2e programs and the four
# tuned models (scripts/sanitize.sh). AOTC_SANITIZED=0 skips both. Exits
# non-zero on any failure or finding.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
aotc_arm64_sysroot
# The runtime for AArch64 too (tests/cross), when its C library is there.
triples=""
if [ -f /usr/aarch64-linux-gnu/include/stdio.h ]; then
  triples="aarch64-linux-gnu"
fi
aotc_build -DAOTC_RUNTIME_TRIPLES="$triples"
echo "== testing"
cd "$AOTC_BUILD"
ctest --output-on-failure -j"$(nproc)" --timeout 1500 "$@"
if [ "${AOTC_SANITIZED:-1}" != 0 ]; then
  "$AOTC_ROOT/scripts/fuzz.sh" "${AOTC_FUZZ_SECONDS:-60}" 1
  "$AOTC_ROOT/scripts/sanitize.sh"
fi
