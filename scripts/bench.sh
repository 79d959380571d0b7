#!/usr/bin/env bash
#===- scripts/bench.sh - Run the benchmarks and report ratios ------------===#
#
# Builds the project, runs bench/ binaries (aotc next to OpenBLAS, same
# process, 1 and 2 threads) and writes bench-results/{gemm.json,gemm.md,
# gemm.png}. OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE force slower kernels on
# these machines, so they are unset for the benchmark command only.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-matplotlib >/dev/null 2>&1 || true
aotc_build
out="$AOTC_ROOT/bench-results"
mkdir -p "$out"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
  "$AOTC_BUILD/bench/bench_gemm" --benchmark_min_time=1 \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/gemm.json" --benchmark_out_format=json
/usr/bin/python3 "$AOTC_ROOT/bench/report.py" "$out/gemm.json" \
  --markdown "$out/gemm.md" --png "$out/gemm.png"
