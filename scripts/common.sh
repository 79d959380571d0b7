#!/usr/bin/env bash
#===- scripts/common.sh - Shared set-up for demo.sh and test.sh ----------===#
#
# Installs what aotc needs from Debian's packages (only what is missing),
# then configures and builds the project with CMake + Ninja (+ ccache).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

AOTC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AOTC_BUILD="${AOTC_BUILD:-$AOTC_ROOT/build}"
# ccache hits across clones: absolute paths under the tree become relative.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$AOTC_ROOT}"

AOTC_PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 lld-22 libomp-22-dev
  llvm-22-tools libclang-rt-22-dev
  libgtest-dev libbenchmark-dev libopenblas-dev libdnnl-dev
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  python3-numpy python3-onnx python3-torch python3-torchvision python3-pytest
  python3-matplotlib librsvg2-bin
  libamdhip64-dev rocm-device-libs
  qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  cmake ninja-build ccache
)

aotc_install_deps() {
  local missing=()
  for p in "${AOTC_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "== dependencies: all installed"
    return
  fi
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# LLVM's OpenMP runtime for arm64 (Debian's libomp5-19:arm64, the package
# whose libomp.so.5 libomp-22-dev links to), unpacked into
# $AOTC_BUILD/arm64-sysroot for the aarch64 tests under qemu
# (tests/cross). Adds the arm64 architecture to dpkg to download it. On
# failure it warns and returns: the cross tests are then not configured.
aotc_arm64_sysroot() {
  local root="$AOTC_BUILD/arm64-sysroot"
  [ -e "$root/usr/lib/aarch64-linux-gnu/libomp.so.5" ] && return 0
  echo "== arm64 libomp for the aarch64 tests"
  local sudo="" tmp
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  tmp="$(mktemp -d)"
  if { dpkg --print-foreign-architectures | grep -qx arm64 ||
         { $sudo dpkg --add-architecture arm64 && $sudo apt-get update -qq; }; } &&
     (cd "$tmp" && apt-get download -qq libomp5-19:arm64 2>/dev/null) &&
     mkdir -p "$root" && dpkg-deb -x "$tmp"/libomp5-19_*_arm64.deb "$root"; then
    rm -rf "$tmp"
  else
    rm -rf "$tmp"
    echo "warning: no arm64 libomp; the aarch64 tests are left out" >&2
  fi
}

# Builds everything, or only the targets AOTC_BUILD_TARGETS names
# (space-separated; their dependencies come along).
aotc_build() {
  echo "== configuring in $AOTC_BUILD"
  cmake -G Ninja -S "$AOTC_ROOT" -B "$AOTC_BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    "$@" >/dev/null
  echo "== building"
  # shellcheck disable=SC2086  # a list of target names
  ninja -C "$AOTC_BUILD" ${AOTC_BUILD_TARGETS:-}
}

# The sanitized tree scripts/fuzz.sh and scripts/sanitize.sh share: every
# aotc library with libFuzzer coverage, ASan and UBSan (one configuration,
# so that neither script reconfigures the other's build).
AOTC_SANITIZED_BUILD="$AOTC_ROOT/build-fuzz"

# Builds the targets given as arguments in AOTC_SANITIZED_BUILD, and sets the
# sanitizer options their runs use (unless the caller set them).
aotc_build_sanitized() {
  AOTC_BUILD="$AOTC_SANITIZED_BUILD" AOTC_BUILD_TARGETS="$*" \
    aotc_build -DAOTC_FUZZ=ON -DAOTC_SANITIZE=address,undefined \
    -DAOTC_ENABLE_TESTS=ON -DAOTC_BUILD_BENCH=OFF -DAOTC_BUILD_SAMPLES=OFF
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
}
