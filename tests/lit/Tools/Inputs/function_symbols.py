"""Reads `llvm-readelf -sW` output on stdin and prints the object's
function symbols as sorted `name binding` lines (addresses, sizes and
visibility left out), so that two objects' functions can be compared.
Exits 1 when there is none."""
import sys

functions = set()
for line in sys.stdin:
    fields = line.split()
    # Num: Value Size Type Bind Vis Ndx Name
    if len(fields) == 8 and fields[3] == "FUNC" and fields[6] != "UND":
        functions.add((fields[7], fields[4]))
for name, bind in sorted(functions):
    print(name, bind)
sys.exit(0 if functions else 1)
