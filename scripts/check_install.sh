#!/usr/bin/env bash
#===- scripts/check_install.sh - An installed aotc, used by a consumer ---===#
#
# Usage: scripts/check_install.sh [BUILD_DIR [WORK_DIR]]
#
# Installs the build (default build/) into a fresh prefix under WORK_DIR
# (default: a new temporary directory), then configures, builds and tests
# samples/cmake-consumer against it: find_package(Aotc), aot_add_library()
# with the installed aotc, the installed runtime and headers. Nothing of the
# build tree is visible to the consumer but the prefix. Then the installed
# Python package compiles a program with the installed aotc and runtime
# (found from the package's place in the prefix) and matches NumPy, and
# `cpack -G DEB` makes a Debian package holding the same files. Exits
# non-zero on any failure.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="${2:-$(mktemp -d)}"
rm -rf "$work/prefix" "$work/consumer"
mkdir -p "$work"

echo "== installing $build into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in bin/aotc include/aot_abi/aot_abi.h; do
  [ -e "$work/prefix/$f" ] || { echo "missing $work/prefix/$f"; exit 1; }
done
# The runtimes built for other targets (AOTC_RUNTIME_TRIPLES), for theirs.
triples=$(sed -n 's/^AOTC_RUNTIME_TRIPLES:STRING=//p' "$build/CMakeCache.txt")
for t in ${triples//;/ }; do
  a="$work/prefix/lib/aotc/$t/libaot_runtime.a"
  [ -e "$a" ] || { echo "missing $a"; exit 1; }
  machine=$(/usr/lib/llvm-22/bin/llvm-readelf -h "$a" | sed -n 's/ *Machine: *//p' | sort -u)
  echo "$t runtime: $machine"
  case "$t" in
    aarch64-*) [ "$machine" = AArch64 ] || { echo "$a is not for AArch64"; exit 1; } ;;
  esac
done

echo "== configuring samples/cmake-consumer against the prefix"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$root/samples/cmake-consumer" -B "$work/consumer" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_COMPILER="${CC:-clang-22}" \
  > "$work/configure.log"
grep -q "aotc: $work/prefix/bin/aotc" "$work/configure.log" ||
  { echo "the consumer did not find the installed aotc:"; cat "$work/configure.log"; exit 1; }
echo "== building and testing the consumer"
cmake --build "$work/consumer" > "$work/build.log"
ctest --test-dir "$work/consumer" --output-on-failure

echo "== the installed Python package"
env -u AOTC -u AOTC_RUNTIME PYTHONPATH="$work/prefix/lib/python3/site-packages" \
  PYTHONDONTWRITEBYTECODE=1 "${PYTHON:-/usr/bin/python3}" - "$root" "$work" <<'PY'
import os, sys
import numpy as np
import aotc
root, work = sys.argv[1], sys.argv[2]
assert aotc.__file__.startswith(os.path.join(work, "prefix")), aotc.__file__
model = aotc.compile(os.path.join(root, "tests/e2e/programs/matmul.mlir"),
                     workdir=os.path.join(work, "python"))
rng = np.random.default_rng(1)
a, b = (rng.standard_normal(s).astype(np.float32) for _, _, s in model.inputs)
(y,) = model(a, b)
reference = a.astype(np.float64) @ b.astype(np.float64)
error = float(np.abs(y - reference).max())
assert error <= 1e-4 * float(np.abs(reference).max()), error
print("installed aotc package: matmul matches NumPy, max error %.2e" % error)
PY

echo "== the Debian package (cpack -G DEB)"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" \
   > "$work/cpack.log")
deb=$(ls "$work"/deb/aotc_*.deb)
dpkg-deb -c "$deb" > "$work/deb.txt"
for f in ./usr/bin/aotc ./usr/lib/libaot_runtime.a \
         ./usr/include/aot_abi/aot_abi.h ./usr/lib/cmake/Aotc/AotcConfig.cmake \
         ./usr/lib/python3/site-packages/aotc/__init__.py; do
  grep -q " $f\$" "$work/deb.txt" || { echo "$deb lacks $f"; exit 1; }
done
dpkg-deb -f "$deb" Depends
echo "$(basename "$deb"): $(wc -l < "$work/deb.txt") entries"
