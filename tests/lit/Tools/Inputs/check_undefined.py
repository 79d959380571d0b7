"""Reads `llvm-nm -u` output on stdin and checks that an aotc object only
needs the OpenMP runtime and the C memory intrinsics LLVM may emit.
Prints every other undefined symbol and exits 1; also fails on empty input
(every object calls omp_get_max_threads, so an empty list means no object)."""
import re
import sys

ALLOWED = re.compile(r"^(__kmpc_\w+|omp_\w+|memset|memcpy|memmove)$")
symbols = [line.split()[-1] for line in sys.stdin if line.strip()]
bad = [s for s in symbols if not ALLOWED.match(s)]
for s in bad:
    print("unexpected undefined symbol: " + s)
if not symbols:
    print("no undefined symbols at all: not an aotc object?")
sys.exit(1 if bad or not symbols else 0)
