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
# The peer must run its best kernel. With the variables unset OpenBLAS
# detects the core itself; in some VMs the CPU model is masked and it falls
# back to a generic SSE3 kernel (Prescott) although the CPU has AVX-512, so
# then name the kernel that matches the CPU's features.
peer_env=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE)
core=$(env "${peer_env[@]}" OPENBLAS_VERBOSE=2 /usr/bin/python3 -c "import numpy" 2>&1 |
       sed -n 's/^Core: //p' | head -1)
if [[ "$core" =~ ^(Prescott|Core2|Katmai|Coppermine|Northwood)$ ]]; then
  if grep -q avx512f /proc/cpuinfo; then peer_env+=(OPENBLAS_CORETYPE=SkylakeX)
  elif grep -q avx2 /proc/cpuinfo; then peer_env+=(OPENBLAS_CORETYPE=Haswell); fi
  echo "== OpenBLAS detected '$core' on an AVX CPU; using ${peer_env[*]: -1}"
fi
env "${peer_env[@]}" \
  "$AOTC_BUILD/bench/bench_gemm" --benchmark_min_time=1 \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/gemm.json" --benchmark_out_format=json
/usr/bin/python3 "$AOTC_ROOT/bench/report.py" "$out/gemm.json" \
  --markdown "$out/gemm.md" --png "$out/gemm.png"
