#!/usr/bin/env bash
#===- scripts/bench.sh - Run the benchmarks and report ratios ------------===#
#
# Builds the project and runs every benchmark, aotc next to its peer in the
# same process and run, 1 and 2 threads:
#   bench_gemm       f32 GEMM vs OpenBLAS cblas_sgemm
#   bench_ops        ResNet-18 / MobileNetV2 convolutions, softmax, layernorm
#                    vs oneDNN; bias + GELU + residual chain vs memcpy
#   bench_models.py  resnet18, mobilenet_v2, squeezenet1_1, bert_encoder
#                    vs ONNX Runtime (if importable) and PyTorch
#   bench_gpu, bench_models_gpu.py  (built with the CUDA toolkit) the same
#                    on a CUDA device vs cuBLAS / cuDNN / PyTorch;
#   bench_gpu_hip    (HIP headers + ROCm device libs) the same programs on
#                    an AMD GPU vs a D2D copy and the roofline;
#   bench_models_gpu.py --target hip  (ROCm device libs) the four models on
#                    an AMD GPU, ours only (no PyTorch / ONNX Runtime for
#                    ROCm in Debian); the GPU ones skip themselves without a
#                    device
# Google Benchmark repetitions are randomly interleaved (ours and the peer's
# alternate through the run, so they share the machine's noise); the models
# are timed in interleaved rounds (see bench_models.py).
#
# Raw runs go to bench-results/; bench/report.py merges them into
# bench/results/<date>-<commit>/ (today's date, the short hash of HEAD):
# results.json (every figure and ratio), results.md (the table) and
# results.png (the chart of ours/peer ratios).
#
# Environment: AOTC_BENCH_MIN_TIME (seconds per repetition, default 0.5),
# AOTC_BENCH_REPS (repetitions, default 5), AOTC_BENCH_RUNS (timed runs per
# model, peer and thread count, default 25), AOTC_BENCH_THREADS (the most
# threads, default 2: runs 1, 2, 4, ... up to it).
#
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE force slower kernels on these
# machines, so they are unset for the benchmark commands only.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

aotc_install_deps
aotc_build
min_time="${AOTC_BENCH_MIN_TIME:-0.5}"
reps="${AOTC_BENCH_REPS:-5}"
runs="${AOTC_BENCH_RUNS:-25}"
max_threads="${AOTC_BENCH_THREADS:-2}"
threads=$(t=1; s=1; while [ $((t * 2)) -le "$max_threads" ]; do t=$((t * 2)); s="$s,$t"; done; echo "$s")
out="$AOTC_ROOT/bench-results"
commit=$(git -C "$AOTC_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
results="$AOTC_ROOT/bench/results/$(date +%F)-$commit"
mkdir -p "$out" "$results"
# On a shared machine, how busy it was: load average at start (and, in the
# JSON, when the report is written).
load_at_start="load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"

# The peer must run its best kernel. With the variables unset OpenBLAS
# detects the core itself; in some VMs the CPU model is masked and it falls
# back to a generic SSE3 kernel (Prescott) although the CPU has AVX-512, so
# then name the kernel that matches the CPU's features.
peer_env=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE AOTC_BENCH_THREADS="$max_threads")
core=$(env "${peer_env[@]}" OPENBLAS_VERBOSE=2 /usr/bin/python3 -c "import numpy" 2>&1 |
       sed -n 's/^Core: //p' | head -1)
if [[ "$core" =~ ^(Prescott|Core2|Katmai|Coppermine|Northwood)$ ]]; then
  if grep -q avx512f /proc/cpuinfo; then peer_env+=(OPENBLAS_CORETYPE=SkylakeX)
  elif grep -q avx2 /proc/cpuinfo; then peer_env+=(OPENBLAS_CORETYPE=Haswell); fi
  echo "== OpenBLAS detected '$core' on an AVX CPU; using ${peer_env[*]: -1}"
fi

# ONNX Runtime is not packaged by Debian: try PyPI once; without it the
# model benchmark skips that peer and says so.
if ! /usr/bin/python3 -c "import onnxruntime" 2>/dev/null; then
  echo "== onnxruntime not importable; trying pip install onnxruntime"
  timeout 300 /usr/bin/python3 -m pip install -q --break-system-packages onnxruntime ||
    echo "== pip install onnxruntime failed (no PyPI?): that peer is skipped"
fi

gbench_args=(--benchmark_min_time="$min_time" --benchmark_repetitions="$reps"
             --benchmark_enable_random_interleaving=true
             --benchmark_report_aggregates_only=true --benchmark_out_format=json)
echo "== GEMM vs OpenBLAS"
env "${peer_env[@]}" "$AOTC_BUILD/bench/bench_gemm" "${gbench_args[@]}" \
  --benchmark_out="$out/gemm.json"
runs_json=("$out/gemm.json")

if [ -x "$AOTC_BUILD/bench/bench_ops" ]; then
  echo "== conv / softmax / layernorm vs oneDNN, eltwise chain vs memcpy"
  env "${peer_env[@]}" "$AOTC_BUILD/bench/bench_ops" "${gbench_args[@]}" \
    --benchmark_out="$out/ops.json"
  runs_json+=("$out/ops.json")
else
  echo "== bench_ops not built (oneDNN missing?): skipped"
fi

if [ -e "$AOTC_BUILD/bench/libbench_model_resnet18.so" ]; then
  echo "== models vs ONNX Runtime and PyTorch"
  env "${peer_env[@]}" /usr/bin/python3 "$AOTC_ROOT/bench/bench_models.py" \
    --models-dir "$AOTC_BUILD/tests/models" --lib-dir "$AOTC_BUILD/bench" \
    --export-script "$AOTC_ROOT/tests/models/export_models.py" \
    --threads "$threads" --runs "$runs" --out "$out/models.json"
  runs_json+=("$out/models.json")
else
  echo "== model libraries not built (tests/models disabled?): skipped"
fi

# GPU (CUDA, HIP): each skips itself, saying why, where there is no device;
# on a GPU machine they print their own ours/peer tables and write raw JSON
# next to the others (not merged into the CPU report).
if [ -x "$AOTC_BUILD/bench/bench_gpu" ]; then
  echo "== GPU: GEMM vs cuBLAS, operators vs cuDNN / D2D copy"
  "$AOTC_BUILD/bench/bench_gpu" "${gbench_args[@]}" \
    --benchmark_out="$out/gpu.json"
fi
if [ -x "$AOTC_BUILD/bench/bench_gpu_hip" ]; then
  echo "== GPU (HIP): the same programs vs a D2D copy and the roofline"
  "$AOTC_BUILD/bench/bench_gpu_hip" "${gbench_args[@]}" \
    --benchmark_out="$out/gpu_hip.json"
fi
# The models on each GPU target: CUDA vs PyTorch (and ONNX Runtime's CUDA
# provider), HIP ours only (Debian has no ROCm PyTorch or ONNX Runtime).
for gpu in cuda:gpu hip:gpu_hip; do
  target="${gpu%%:*}" name="${gpu#*:}"
  if [ -e "$AOTC_BUILD/bench/libbench_${name}_model_resnet18.so" ]; then
    echo "== GPU ($target): models"
    /usr/bin/python3 "$AOTC_ROOT/bench/bench_models_gpu.py" --target "$target" \
      --models-dir "$AOTC_BUILD/tests/models" --lib-dir "$AOTC_BUILD/bench" \
      --export-script "$AOTC_ROOT/tests/models/export_models.py" \
      --runs "$runs" --out "$out/models_${name}.json"
  fi
done
/usr/bin/python3 "$AOTC_ROOT/bench/report.py" "${runs_json[@]}" \
  --command "AOTC_BENCH_MIN_TIME=$min_time AOTC_BENCH_REPS=$reps AOTC_BENCH_RUNS=$runs AOTC_BENCH_THREADS=$max_threads scripts/bench.sh" \
  --note "$load_at_start" \
  --json "$results/results.json" --markdown "$results/results.md" \
  --png "$results/results.png"
