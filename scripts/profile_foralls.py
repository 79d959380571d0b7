#!/usr/bin/env python3
"""Attributes a `perf record` profile of an aotc-compiled object to its
thread loops: which scf.forall of the bufferized IR each sampled outlined
OpenMP function is, and what it computes.

Usage:
  aotc MODEL.onnx --target=cpu --name=NAME -o OUT --dump-dir=OUT/d
  (link OUT/NAME.o into a driver or shared library, run it under
   perf record -o perf.data ...)
  scripts/profile_foralls.py OUT/d/NAME.bufferized.mlir perf.data NAME [--top N]

The thread loops of an entry point run in one OpenMP parallel region,
separated by barriers; its parts between barriers that hold a loop are
functions of their own, `__aotc_NAME_impl..omp_par.region.K` for the K-th
part (aotc's OutlineParallelParts). The script reads the parts from the
dump's NAME.llvm.mlir (the parallel region's `omp.barrier` and `omp.masked`
ops: a part holding `omp.masked` runs the serial ops between thread loops
on one thread) and checks that the other parts, taken in order, are as
many as the top-level scf.forall ops of the bufferized IR (in program
order: nothing reorders them after bufferization): the K-th such part is
the K-th forall. Each forall is described by its first line, its source
line in the dump, and its kind: `fill` (stores constants only), `copy`
(moves values, no arithmetic), `compute` (multiplies: contractions,
convolutions) or `eltwise` (other arithmetic), with the types of the
accumulators its register tiles carry (iter_args vectors). Samples outside
the thread loops (serial parts, libomp's wait loops, memset) are listed by
symbol.
"""
import argparse
import collections
import os
import re
import subprocess
import sys


def function_lines(lines, name):
    """(first, end) line indices of func.func @name in the dump (a module
    may hold several entry points)."""
    start = next((i for i, line in enumerate(lines)
                  if re.match(r'\s*func\.func @' + re.escape(name) + r'\(',
                              line)), None)
    if start is None:
        sys.exit(f'no func.func @{name} in the bufferized dump')
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next(i for i in range(start + 1, len(lines))
               if lines[i] == ' ' * indent + '}')
    return start, end


def foralls(lines, start, end):
    """(line number, kind, accumulator types, first line) per top-level
    scf.forall of lines[start:end], in program order."""
    result = []
    for i in range(start, end):
        line = lines[i]
        if 'scf.forall' not in line:
            continue
        indent = len(line) - len(line.lstrip())
        end = i + 1
        while end < len(lines) and not (
                lines[end].startswith(' ' * indent + '}') and
                len(lines[end]) - len(lines[end].lstrip()) == indent):
            end += 1
        body = '\n'.join(lines[i:end])
        # Arithmetic on vectors or floats only: index arithmetic is scalar.
        values = r'[^\n]*(?:vector<|: f\d+|: bf16)'
        if re.search(r'(?:arith\.mul[fi]|vector\.contract|math\.fma)' + values,
                     body):
            kind = 'compute'
        elif re.search(r'(?:arith\.(?!constant)\w+|math\.\w+)' + values,
                       body):
            kind = 'eltwise'
        elif 'transfer_read' in body or 'memref.load' in body:
            kind = 'copy'
        else:
            kind = 'fill'
        accumulators = sorted(set(re.findall(
            r'iter_args\(%\w+ = %\w+\) -> \((vector<[0-9x]+\w+>)\)', body)))
        result.append((i + 1, kind, ' '.join(accumulators),
                       line.strip()))
    return result


def parallel_parts(lines, name):
    """Per part of the entry point's parallel region between barriers, in
    order: True when it holds an omp.masked block (serial ops)."""
    header = re.compile(r'\s*llvm\.func (?:internal )?@__aotc_' +
                        re.escape(name) + r'_impl\(')
    func = next((i for i, line in enumerate(lines) if header.match(line)),
                None)
    if func is None:
        sys.exit(f'no llvm.func @__aotc_{name}_impl in the LLVM dialect dump')
    start = next((i for i in range(func, len(lines))
                  if lines[i].lstrip().startswith('omp.parallel')), None)
    if start is None:
        return []
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = ' ' * (indent + 2)
    parts = [False]
    for line in lines[start + 1:]:
        if line.startswith(' ' * indent + '}'):
            break
        if (len(line) <= len(body) or not line.startswith(body)
                or line[len(body)] == ' '):
            continue
        if line.startswith(body + 'omp.barrier'):
            parts.append(False)
        elif line.startswith(body + 'omp.masked'):
            parts[-1] = True
    return parts


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument('bufferized', help='NAME.bufferized.mlir (--dump-dir)')
    parser.add_argument('perf_data', help='perf record output')
    parser.add_argument('name', help='the entry point name (--name)')
    parser.add_argument('--top', type=int, default=30,
                        help='thread loops listed (default 30)')
    args = parser.parse_args()

    with open(args.bufferized) as f:
        lines = f.read().split('\n')
    loops = foralls(lines, *function_lines(lines, args.name))
    llvm = os.path.join(os.path.dirname(args.bufferized),
                        args.name + '.llvm.mlir')
    with open(llvm) as f:
        parts = parallel_parts(f.read().split('\n'), args.name)
    loop_parts = [k for k, masked in enumerate(parts) if not masked]
    if len(loop_parts) != len(loops):
        sys.exit(f'{llvm}: {len(loop_parts)} parallel parts without serial '
                 f'ops, {args.bufferized}: {len(loops)} foralls (not the '
                 'same compilation, or thread loops without a barrier '
                 'between them)')
    forall_of = {k: i for i, k in enumerate(loop_parts)}

    report = subprocess.run(
        ['perf', 'report', '-i', args.perf_data, '--no-children',
         '--sort', 'sym', '--percent-limit', '0'],
        capture_output=True, text=True, check=True).stdout
    symbol = re.compile(r'__aotc_' + re.escape(args.name) +
                        r'_impl\.\.omp_par\.region\.(\d+)$')
    rows, kinds, others = [], collections.Counter(), collections.Counter()
    for line in report.split('\n'):
        m = re.match(r'\s+([0-9.]+)%\s+\[[.k]\]\s+(\S+)', line)
        if not m:
            continue
        percent, name = float(m.group(1)), m.group(2)
        part = symbol.match(name)
        index = forall_of.get(int(part.group(1))) if part else None
        if index is not None:
            rows.append((percent, index) + loops[index])
            kinds[loops[index][1]] += percent
        elif part:
            others[f'serial part {part.group(1)}'] += percent
        else:
            others[name] += percent

    if not rows:
        sys.exit(f'no samples in __aotc_{args.name}_impl..omp_par.region.*: '
                 'is NAME the --name the object was compiled with?')
    print(f'{"samples":>8}  {"loop":<8} {"line":<7} {"kind":<8} '
          f'{"accumulators":<44} forall')
    for percent, index, line, kind, accs, text in sorted(
            rows, reverse=True)[:args.top]:
        print(f'{percent:7.2f}%  {index:<8} L{line:<6} {kind:<8} '
              f'{accs[:44]:<44} {text[:70]}')
    print('\nthread loops by kind: ' + ', '.join(
        f'{kind} {percent:.2f}%' for kind, percent in kinds.most_common()))
    print('outside them: ' + ', '.join(
        f'{name} {percent:.2f}%' for name, percent in others.most_common(8)))


if __name__ == '__main__':
    main()
