#!/usr/bin/env bash
#===- scripts/demo.sh - Install, build, compile a sample, run it ---------===#
#
# Compiles samples/unsharp_mask.mlir (an i8 1080x1920x3 image filter) with
# aotc into an object + header, links the C driver in samples/drivers/ and
# runs it; the driver checks the result against its own reference.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
# Only what the demo needs: the sample (and, through it, aotc and the
# runtime); scripts/test.sh builds the tests and benchmarks.
AOTC_BUILD_TARGETS="unsharp_mask_c" aotc_build
echo "== the generated header"
sed -n '/#define UNSHARP_MASK_POOL_BYTES/,/_info(void);/p' \
  "$AOTC_BUILD/samples/aot/unsharp_mask/unsharp_mask.h" 2>/dev/null ||
  find "$AOTC_BUILD/samples" -name unsharp_mask.h -exec cat {} \;
echo "== running the C driver"
"$AOTC_BUILD/samples/unsharp_mask_c"
