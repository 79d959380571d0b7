#!/usr/bin/env bash
#===- scripts/test.sh - Install, build, run every test -------------------===#
#
# Usage: scripts/test.sh [ctest arguments...]
# Runs unit, lit, e2e and sample tests with ctest; exits non-zero on any
# failure.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
aotc_build
echo "== testing"
cd "$AOTC_BUILD"
ctest --output-on-failure -j"$(nproc)" --timeout 1500 "$@"
