#!/usr/bin/env python3
#===- tests/gpu/check_gpu_artifact.py - GPU artifact checks, no GPU -------===#
#
# Compiles a program with `aotc --target=cuda` (or hip) and verifies the
# object without a GPU (docs/gpu.md), with the vendors' tools and the thin
# runtime's behaviour only.
# CUDA:
#   1. the object embeds one fatbin (magic 0xBA55ED50) holding an ELF cubin
#      for every requested chip and the PTX of the newest one;
#   2. llvm-readelf names each cubin's sm_XX, and lists every kernel that the
#      PTX defines and the host code launches;
#   3. ptxas -v reports 0 bytes of spill stores/loads for every kernel and
#      chip (on the PTX of the `kernels.mlir` dump, which is what aotc
#      assembled).
# HIP:
#   1. the object embeds one clang offload bundle with a code object for
#      every requested chip;
#   2. each is an AMDGPU ELF (e_machine 224) whose notes name the chip, and
#      whose kernels (NAME.kd) are exactly those the host code launches;
#   3. the code object metadata reports 0 SGPR and 0 VGPR spills for every
#      kernel.
# Both, with --shared-kernels N (programs with contractions, which
# aotc-tile-gpu-contractions tiles through workgroup memory):
#   5. at least N kernels per chip use shared memory: CUDA, their PTX loads
#      and stores `.shared` and has `bar.sync`, ptxas -v reports their smem
#      bytes, the cubin has a .nv.shared.<kernel> section of that size, and
#      the SASS (cuobjdump -sass from the toolkit or $AOTC_CUOBJDUMP, where
#      there is one) has LDS/STS and BAR.SYNC; HIP, the
#      metadata's .group_segment_fixed_size is non-zero and the ISA
#      (llvm-objdump -d) has ds_read/ds_write and s_barrier.
# Both, with --mma-kernels N (f16/bf16 matmuls that
# aotc-gpu-mma-contractions puts on matrix units):
#   6. at least N kernels per chip issue matrix instructions: CUDA, their
#      PTX has mma.sync.aligned.m16n8k16 (and the SASS HMMA where there is
#      a cuobjdump); HIP, the disassembled code object (llvm-objdump -d
#      --mcpu=CHIP) has v_mfma in at least N kernels. With --no-mma (chips
#      without them: sm_75, gfx1030) no kernel has any.
# CUDA, with --wgmma-kernels N (chips with sm_90; aotc-attach-cuda-targets
# builds sm_90's SASS from a wgmma variant for the arch-specific sm_90a):
#   7. the fatbin's sm_90 ELF entry is marked arch-specific (bit 20 of the
#      entry header's u32 at offset 40, as CUDA 13's fatbinary writes it
#      for sm=90a and not for sm=90) and is exactly what ptxas -arch=sm_90a
#      makes of the dump's sm_90a PTX; that PTX defines the same kernels
#      as sm_90's, at least N of them issue wgmma.mma_async (HGMMA in the
#      SASS where there is a cuobjdump), ptxas -v: no spills; sm_80's and
#      the portable sm_90 PTX keep mma.sync. Without it, no entry is
#      arch-specific.
# Both:
#   8. weights are not in the code objects: every data symbol of a cubin /
#      code object of at least 1024 bytes lies in a NOBITS section (an
#      uninitialised global of aotc-hoist-device-constants), and the host
#      object's table of globals to fill at load (__aotc_<module>_globals,
#      24-byte aot_gpu_global_init_t entries) has one entry per such
#      global, whose name the object holds.
#   4. the object links with aot_runtime_<cuda|hip> + aot_runtime into an
#      executable and a shared library; both call the entry point with host
#      buffers and, without a GPU, get AOT_ERROR_NO_DEVICE with every output
#      byte left as it was.
# Prints one line of figures per check; exits 1 on the first failure.
#
#===----------------------------------------------------------------------===#

import argparse
import ctypes
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_ELF = 1, 2
# Entry header flag of arch-specific targets (sm_90a), u32 at offset 40.
ARCH_SPECIFIC_FLAG = 1 << 20
AOT_ERROR_NO_DEVICE = 4
SENTINEL = 0xA5


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {result.returncode}:\n"
             f"{result.stdout}{result.stderr}")
    return result.stdout + result.stderr


def parse_fatbins(data, arch_specific=None):
    """All fatbins in `data`: lists of (kind, sm, payload) entries; the
    (kind, sm) of arch-specific entries are added to `arch_specific`."""
    fatbins = []
    start = 0
    magic = struct.pack("<I", FATBIN_MAGIC)
    while (offset := data.find(magic, start)) >= 0:
        _, _, header_size, payload_size = struct.unpack_from("<IHHQ", data,
                                                             offset)
        entries = []
        pos = offset + header_size
        end = pos + payload_size
        if end > len(data):
            fail(f"fatbin at {offset:#x} runs past the end of the object")
        while pos < end:
            kind, _, entry_header, entry_payload = struct.unpack_from(
                "<HHIQ", data, pos)
            (sm,) = struct.unpack_from("<I", data, pos + 28)
            (flags,) = struct.unpack_from("<I", data, pos + 40)
            if arch_specific is not None and flags & ARCH_SPECIFIC_FLAG:
                arch_specific.add((kind, sm))
            body = data[pos + entry_header:pos + entry_header + entry_payload]
            entries.append((kind, sm, body))
            pos += entry_header + entry_payload
        fatbins.append(entries)
        start = end
    return fatbins


BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
EM_AMDGPU = 224


def parse_bundles(data):
    """All offload bundles in `data`: dicts triple -> code object."""
    bundles = []
    start = 0
    while (offset := data.find(BUNDLE_MAGIC, start)) >= 0:
        pos = offset + len(BUNDLE_MAGIC)
        (count,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        entries = {}
        for _ in range(count):
            at, size, triple_size = struct.unpack_from("<QQQ", data, pos)
            pos += 24
            triple = data[pos:pos + triple_size].decode()
            pos += triple_size
            entries[triple] = data[offset + at:offset + at + size]
        bundles.append(entries)
        start = pos
    return bundles


def host_kernels(readelf, obj):
    """Kernel names the host code launches (its __aotc_kernel_* strings)."""
    symbols = run([readelf, "-s", "--wide", obj])
    return sorted(m.group(1) for m in
                  re.finditer(r"__aotc_kernel_(\w+)\s*$", symbols, re.M))


# aotc-hoist-device-constants' default min-bytes, sizeof(aot_gpu_global_init_t).
HOISTED_MIN_BYTES = 1024
GLOBAL_INIT_BYTES = 24


def check_device_globals(readelf, obj, data, chip, code):
    """Check 8 for one code object (a cubin or an AMDGPU ELF path)."""
    nobits = set()
    for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)",
                         run([readelf, "-S", "--wide", code]), re.M):
        if m.group(3) == "NOBITS":
            nobits.add(m.group(1))
    hoisted, stored = {}, []
    for line in run([readelf, "-s", "--wide", code]).splitlines():
        f = line.split()
        if len(f) < 8 or f[3] != "OBJECT" or not f[2].isdigit():
            continue
        if int(f[2]) < HOISTED_MIN_BYTES:
            continue
        if f[6] in nobits:
            hoisted[f[7]] = int(f[2])
        else:
            stored.append(f"{f[7]} ({f[2]} bytes, section {f[6]})")
    if stored:
        fail(f"{chip}: the code object stores constants: {stored[:5]}")
    tables = re.findall(r"^\s*\d+:\s+\S+\s+(\d+)\s+OBJECT\s.*\s"
                        r"__aotc_\w+_globals\s*$",
                        run([readelf, "-s", "--wide", obj]), re.M)
    entries = sum(int(size) for size in tables) // GLOBAL_INIT_BYTES
    if entries != len(hoisted):
        fail(f"{chip}: {len(hoisted)} uninitialised device globals "
             f"{sorted(hoisted)[:5]}, the host table has {entries} entries")
    for name in hoisted:
        if (b"\0" + name.encode() + b"\0") not in data:
            fail(f"{chip}: the host object does not name global {name}")
    print(f"{chip}: {len(hoisted)} device globals ({sum(hoisted.values())} "
          f"bytes) uninitialised, filled from host data at load")


def check_hip(args, data, obj, tmp):
    chips = args.chips.split(",")
    bundles = parse_bundles(data)
    if len(bundles) != 1:
        fail(f"expected one offload bundle in {obj}, found {len(bundles)}")
    bundle = bundles[0]
    readelf = os.path.join(args.llvm_bin, "llvm-readelf")
    launched = host_kernels(readelf, obj)
    if not launched:
        fail("the host code launches no kernel")
    print(f"bundle: {sorted(bundle)}")
    for chip in chips:
        code = bundle.get(f"hipv4-amdgcn-amd-amdhsa--{chip}")
        if not code:
            fail(f"no code object for {chip}")
        (machine,) = struct.unpack_from("<H", code, 18)
        if not code.startswith(b"\x7fELF") or machine != EM_AMDGPU:
            fail(f"the {chip} entry is not an AMDGPU ELF (e_machine {machine})")
        path = os.path.join(tmp, chip + ".hsaco")
        open(path, "wb").write(code)
        notes = run([readelf, "--notes", path])
        if f"amdgcn-amd-amdhsa--{chip}" not in notes:
            fail(f"llvm-readelf --notes does not name {chip}")
        symbols = run([readelf, "-s", "--wide", path])
        # Listed in .symtab and .dynsym.
        kernels = sorted(set(m.group(1) for m in
                             re.finditer(r"\s(\w+)\.kd\s*$", symbols, re.M)))
        if kernels != launched:
            fail(f"{chip} code object has kernels {kernels}, the host "
                 f"launches {launched}")
        spills = [int(n) for n in
                  re.findall(r"\.[sv]gpr_spill_count:\s+(\d+)", notes)]
        if len(spills) != 2 * len(kernels) or any(spills):
            fail(f"{chip}: spill counts {spills} for {len(kernels)} kernels")
        vgprs = [int(n) for n in re.findall(r"\.vgpr_count:\s+(\d+)", notes)]
        print(f"{chip}: e_machine {machine}, notes name {chip}, "
              f"{len(kernels)} kernels = host launches, 0 SGPR/VGPR spills, "
              f"max {max(vgprs)} VGPRs")
        check_device_globals(readelf, obj, data, chip, path)
        if args.shared_kernels:
            check_hip_shared(args, chip, path, notes)
        if args.mma_kernels:
            check_hip_mma(args, chip, path)
        if args.no_mma:
            isa = run([os.path.join(args.llvm_bin, "llvm-objdump"), "-d",
                       f"--mcpu={chip}", path])
            if "v_mfma" in isa or "v_wmma" in isa:
                fail(f"{chip}: the ISA has matrix instructions")
            print(f"{chip}: no matrix instructions in the ISA")


def check_hip_mma(args, chip, path):
    """v_mfma instructions in the disassembly, per kernel."""
    isa = run([os.path.join(args.llvm_bin, "llvm-objdump"), "-d",
               f"--mcpu={chip}", path])
    per_kernel = {}
    for m in re.finditer(r"^[0-9a-f]+ <(\w+)>:\n(.*?)(?=^[0-9a-f]+ <|\Z)", isa,
                         re.M | re.S):
        count = len(re.findall(r"\bv_mfma_\w+", m.group(2)))
        if count:
            per_kernel[m.group(1)] = count
    kinds = sorted(set(re.findall(r"\b(v_mfma_\w+)", isa)))
    if len(per_kernel) < args.mma_kernels:
        fail(f"{chip}: {len(per_kernel)} kernels with v_mfma ({per_kernel}), "
             f"expected at least {args.mma_kernels}")
    print(f"{chip}: {len(per_kernel)} kernels with MFMA "
          f"({', '.join(f'{k} {v}' for k, v in sorted(per_kernel.items()))} "
          f"instructions): {', '.join(kinds)}")


def check_hip_shared(args, chip, path, notes):
    """LDS bytes in the metadata, LDS accesses and barriers in the ISA."""
    lds = {}
    multi_wave = False  # a block with LDS spans several wavefronts
    for block in re.split(r"\n\s+- \.", notes):
        name = re.search(r"\.name:\s+(\w+)", block)
        size = re.search(r"\.group_segment_fixed_size:\s+(\d+)", block)
        if name and size and int(size.group(1)):
            lds[name.group(1)] = int(size.group(1))
            threads = re.search(r"\.max_flat_workgroup_size:\s+(\d+)", block)
            wave = re.search(r"\.wavefront_size:\s+(\d+)", block)
            multi_wave |= not threads or not wave or (
                int(threads.group(1)) > int(wave.group(1)))
    if len(lds) < args.shared_kernels:
        fail(f"{chip}: {len(lds)} kernels with LDS ({lds}), expected at "
             f"least {args.shared_kernels}")
    isa = run([os.path.join(args.llvm_bin, "llvm-objdump"), "-d",
               f"--mcpu={chip}", path])
    counts = {op: len(re.findall(rf"\b{op}\w*", isa))
              for op in ("ds_read", "ds_write", "ds_load", "ds_store",
                         "s_barrier")}
    # The backend drops barriers of a block that is a single wavefront.
    if not (counts["ds_read"] + counts["ds_load"]) or not (
            counts["ds_write"] + counts["ds_store"]) or (
            multi_wave and not counts["s_barrier"]):
        fail(f"{chip}: no LDS traffic or barrier in the ISA: {counts}")
    print(f"{chip}: {len(lds)} kernels with LDS "
          f"({', '.join(f'{k} {v} B' for k, v in sorted(lds.items()))}); "
          f"ISA: {counts}")


def unescape_mlir(text):
    """The value of an MLIR string literal body (\\XX hex escapes)."""
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                  text.replace('\\"', '\\22').replace("\\\\", "\\5C"))


def ptx_per_chip(kernels_mlir):
    text = open(kernels_mlir).read()
    ptx = {}
    for m in re.finditer(r'chip = "(sm_\w+)"[^>]*>[^#]*?assembly = "((?:[^"\\]|\\.)*)"',
                         text):
        ptx[m.group(1)] = unescape_mlir(m.group(2))
    return ptx


def c_program(entry, header):
    """A C driver calling `entry` with zero inputs and sentinel outputs."""
    lines = [f'#include "{header}"', "#include <stdio.h>",
             "#include <stdlib.h>", "#include <string.h>", "",
             "int main(void) {"]
    args = []
    for i, t in enumerate(entry["inputs"]):
        n = 1
        for d in t["shape"]:
            n *= d
        lines.append(f"  static {t['ctype']} in{i}[{max(n, 1)}];")
        args.append(f"in{i}")
    for i, t in enumerate(entry["outputs"]):
        n = 1
        for d in t["shape"]:
            n *= d
        lines.append(f"  static {t['ctype']} out{i}[{max(n, 1)}];")
        lines.append(f"  memset(out{i}, {SENTINEL}, sizeof out{i});")
        args.append(f"out{i}")
    pool_bytes = max(entry["pool_bytes"], 1)
    align = entry["pool_alignment"]
    lines.append(f"  void *pool = aligned_alloc({align}, "
                 f"{(pool_bytes + align - 1) // align * align});")
    lines.append(f"  aot_status_t s = {entry['name']}({', '.join(args)}, "
                 f"pool, {entry['pool_bytes']}u, NULL);")
    lines.append("  int untouched = 1;")
    for i, _ in enumerate(entry["outputs"]):
        lines.append(f"  for (size_t k = 0; k < sizeof out{i}; ++k)")
        lines.append(f"    untouched &= ((unsigned char *)out{i})[k] == "
                     f"{SENTINEL};")
    lines.append('  printf("%d %d %s\\n", (int)s, untouched, '
                 f"{entry['name']}_info()->target);")
    lines.append("  free(pool);")
    lines.append("  return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def call_shared(library, entry):
    """Calls the entry point of a shared library through ctypes."""
    lib = ctypes.CDLL(library)
    func = getattr(lib, entry["name"])
    func.restype = ctypes.c_int32
    buffers = []
    for t in entry["inputs"] + entry["outputs"]:
        n = 1
        for d in t["shape"]:
            n *= d
        size = max(n, 1) * {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "f16": 2,
                            "bf16": 2, "i16": 2}.get(t["dtype"], 1)
        buffers.append(ctypes.create_string_buffer(bytes([SENTINEL]) * size,
                                                   size))
    pool = ctypes.create_string_buffer(entry["pool_bytes"] + 64)
    pool_ptr = (ctypes.addressof(pool) + 63) // 64 * 64
    status = func(*[ctypes.cast(b, ctypes.c_void_p) for b in buffers],
                  ctypes.c_void_p(pool_ptr), ctypes.c_size_t(entry["pool_bytes"]),
                  ctypes.c_void_p(None))
    outputs = buffers[len(entry["inputs"]):]
    untouched = all(set(b.raw) == {SENTINEL} for b in outputs)
    return status, untouched


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--aotc", required=True)
    p.add_argument("--source", required=True, help="program to compile")
    p.add_argument("--target", choices=["cuda", "hip"], default="cuda")
    p.add_argument("--chips", required=True)
    p.add_argument("--toolkit", required=True,
                   help="CUDA toolkit, or ROCm device libraries for hip")
    p.add_argument("--llvm-bin", required=True)
    p.add_argument("--cc", required=True)
    p.add_argument("--include", required=True)
    p.add_argument("--runtime-libs", required=True, nargs="+")
    p.add_argument("--shared-kernels", type=int, default=0,
                   help="kernels that must use workgroup (shared) memory")
    p.add_argument("--mma-kernels", type=int, default=0,
                   help="kernels that must issue matrix instructions "
                        "(mma.sync / MFMA)")
    p.add_argument("--wgmma-kernels", type=int, default=0,
                   help="CUDA with sm_90: kernels of the sm_90a SASS that "
                        "must issue wgmma.mma_async")
    p.add_argument("--no-mma", action="store_true",
                   help="no kernel may issue matrix instructions (chips "
                        "without them)")
    args = p.parse_args()
    args.name = os.path.splitext(os.path.basename(args.source))[0]
    with tempfile.TemporaryDirectory(prefix="aotc-gpu-check-") as tmp:
        args.dir = args.dump_dir = tmp
        toolkit = ("--cuda-path=" if args.target == "cuda" else
                   "--rocm-device-libs=") + args.toolkit
        run([args.aotc, args.source, f"--target={args.target}",
             f"--chip={args.chips}", toolkit, f"--name={args.name}",
             "--emit=obj,header,json", "-o", tmp, "--dump-dir", tmp])
        check(args, tmp)


def check(args, tmp):
    chips = args.chips.split(",")
    obj = os.path.join(args.dir, args.name + ".o")
    data = open(obj, "rb").read()
    manifest = json.load(open(os.path.join(args.dir, args.name + ".json")))

    if args.target == "hip":
        check_hip(args, data, obj, tmp)
    else:
        check_cuda(args, data, obj, chips, tmp)
    check_calls(args, obj, manifest, chips, tmp)


def check_cuda(args, data, obj, chips, tmp):
    sms = sorted(int(re.match(r"sm_(\d+)", c).group(1)) for c in chips)
    # 1. One fatbin: ELF per chip, PTX for the newest.
    arch_specific = set()
    fatbins = parse_fatbins(data, arch_specific)
    if len(fatbins) != 1:
        fail(f"expected one fatbin in {obj}, found {len(fatbins)}")
    entries = fatbins[0]
    elf_sms = sorted(sm for kind, sm, _ in entries if kind == KIND_ELF)
    ptx_sms = sorted(sm for kind, sm, _ in entries if kind == KIND_PTX)
    if elf_sms != sms:
        fail(f"cubins for sm {elf_sms}, expected {sms}")
    if ptx_sms != [sms[-1]]:
        fail(f"PTX for sm {ptx_sms}, expected [{sms[-1]}]")
    # 7. sm_90's SASS from the wgmma variant, for sm_90a.
    wgmma = args.wgmma_kernels > 0
    if wgmma and "sm_90" not in chips:
        fail("--wgmma-kernels needs sm_90 among the chips")
    expected_specific = {(KIND_ELF, 90)} if wgmma else set()
    if arch_specific != expected_specific:
        fail(f"arch-specific fatbin entries {sorted(arch_specific)}, "
             f"expected {sorted(expected_specific)}")
    print(f"fatbin: {len(entries)} entries, ELF sm {elf_sms}"
          + (" (sm 90 arch-specific: sm_90a)" if wgmma else "")
          + f", PTX sm {ptx_sms}")

    # 2./3. Kernels: PTX entries == cubin symbols == launched by the host;
    # no spills.
    ptx = ptx_per_chip(os.path.join(args.dump_dir, args.name + ".kernels.mlir"))
    dumped = sorted(chips + (["sm_90a"] if wgmma else []))
    if sorted(ptx) != dumped:
        fail(f"PTX in the kernels dump for {sorted(ptx)}, expected {dumped}")
    readelf = os.path.join(args.llvm_bin, "llvm-readelf")
    ptxas = os.path.join(args.toolkit, "bin", "ptxas")
    for plain in chips:
        # The chip whose PTX the SASS was assembled from.
        chip = "sm_90a" if wgmma and plain == "sm_90" else plain
        sm = int(re.match(r"sm_(\d+)", chip).group(1))
        kernels = sorted(re.findall(r"\.entry\s+(\w+)\(", ptx[chip]))
        if chip != plain and kernels != sorted(
                re.findall(r"\.entry\s+(\w+)\(", ptx[plain])):
            fail(f"{chip} and {plain} PTX define different kernels")
        if not kernels:
            fail(f"no kernel in the PTX of {chip}")
        for k in kernels:
            if (k.encode() + b"\0") not in data:
                fail(f"kernel {k} is not named by the host code")
        cubin = next(body for kind, s, body in entries
                     if kind == KIND_ELF and s == sm)
        if not cubin.startswith(b"\x7fELF"):
            fail(f"the {chip} entry is not an ELF file")
        path = os.path.join(tmp, chip + ".cubin")
        open(path, "wb").write(cubin)
        header = run([readelf, "-h", path])
        if not re.search(rf"\b{plain}\b", header):
            fail(f"llvm-readelf -h does not name {plain}:\n{header}")
        symbols = run([readelf, "-s", "--wide", path])
        funcs = sorted(set(line.split()[-1] for line in symbols.splitlines()
                           if re.search(r"\bFUNC\s+GLOBAL\b", line)))
        if funcs != kernels:
            fail(f"{chip} cubin lists {funcs}, PTX defines {kernels}")
        ptx_path = os.path.join(tmp, chip + ".ptx")
        open(ptx_path, "w").write(ptx[chip])
        report = run([ptxas, f"-arch={chip}", "-O3", "-v", "-o",
                      os.path.join(tmp, chip + ".ptxas.cubin"), ptx_path])
        if chip != plain:
            # ptxas records its options in the cubin: the same as aotc's
            # (aotc-link-cuda-fatbin), without -v.
            ours = os.path.join(tmp, chip + ".same.cubin")
            run([ptxas, f"-arch={chip}", "-O3", "-o", ours, ptx_path])
            if open(ours, "rb").read() != cubin:
                fail(f"the fatbin's sm {sm} ELF is not ptxas -arch={chip} "
                     f"of the {chip} PTX")
        checked = re.findall(r"Compiling entry function '(\w+)' for '(\w+)'",
                             report)
        spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                            report)
        registers = [int(r) for r in re.findall(r"Used (\d+) registers", report)]
        if sorted(k for k, _ in checked) != kernels or len(spills) != len(kernels):
            fail(f"ptxas -v did not report every kernel for {chip}:\n{report}")
        if any(int(s) or int(l) for s, l in spills):
            fail(f"spills for {chip}:\n{report}")
        print(f"{chip}: {len(kernels)} kernels in cubin and PTX, llvm-readelf "
              f"flags {chip}, ptxas -v: 0 bytes spill, max {max(registers)} "
              f"registers")
        check_device_globals(readelf, obj, data, chip, path)
        if args.shared_kernels:
            check_cuda_shared(args, chip, ptx[chip], report, path)
        if args.mma_kernels and chip != plain:
            check_cuda_wgmma(args, chip, ptx[chip], report, path)
            # The portable PTX (JIT on later GPUs) keeps mma.sync.
            plain_path = os.path.join(tmp, plain + ".ptx")
            open(plain_path, "w").write(ptx[plain])
            check_cuda_mma(args, plain, ptx[plain],
                           run([ptxas, f"-arch={plain}", "-O3", "-v", "-o",
                                os.path.join(tmp, plain + ".ptxas.cubin"),
                                plain_path]), None)
        elif args.mma_kernels:
            check_cuda_mma(args, chip, ptx[chip], report, path)
        if "wgmma" in ptx[chip] and chip == plain:
            fail(f"{chip}: wgmma in the PTX of a chip without it")
        if args.no_mma and "mma." in ptx[chip]:
            fail(f"{chip}: the PTX has matrix instructions")
        elif args.no_mma:
            print(f"{chip}: no matrix instructions in the PTX")


def ptxas_resources(report, names):
    """(registers, smem bytes) per kernel of `names` from a ptxas -v report."""
    resources = {}
    for section in report.split("Compiling entry function")[1:]:
        name = re.match(r"\s*'(\w+)'", section).group(1)
        regs = re.search(r"Used (\d+) registers", section)
        smem = re.search(r"(\d+) bytes smem", section)
        if name in names:
            resources[name] = (int(regs.group(1)) if regs else 0,
                               int(smem.group(1)) if smem else 0)
    return resources


def check_cuda_mma(args, chip, ptx, report, cubin):
    """mma.sync in the PTX of at least N kernels (HMMA in the SASS when a
    cuobjdump is there), with their registers and smem from ptxas -v."""
    entries = re.split(r"(?=\.visible\s+\.entry\s)", ptx)[1:]
    per_kernel = {}
    for body in entries:
        name = re.match(r"\.visible\s+\.entry\s+(\w+)\(", body).group(1)
        count = body.count("mma.sync.aligned.m16n8k16")
        if count:
            per_kernel[name] = count
    if len(per_kernel) < args.mma_kernels:
        fail(f"{chip}: {len(per_kernel)} kernels with mma.sync.aligned "
             f"({per_kernel}), expected at least {args.mma_kernels}")
    kinds = sorted(set(re.findall(r"mma\.sync\.aligned\.[\w.]+", ptx)))
    resources = ptxas_resources(report, per_kernel)
    sass = "no cuobjdump: no SASS check"
    cuobjdump = os.environ.get("AOTC_CUOBJDUMP") or os.path.join(
        args.toolkit, "bin", "cuobjdump")
    if cubin is None:
        sass = "portable PTX, SASS from sm_90a"
    elif os.path.exists(cuobjdump):
        hmma = len(re.findall(r"\bHMMA\b", run([cuobjdump, "-sass", cubin])))
        if not hmma:
            fail(f"{chip}: no HMMA in the SASS")
        sass = f"SASS: {hmma} HMMA"
    print(f"{chip}: {len(per_kernel)} kernels with mma.sync ("
          + ", ".join(f"{k}: {n} mma, {resources.get(k, (0, 0))[0]} regs, "
                      f"{resources.get(k, (0, 0))[1]} B smem"
                      for k, n in sorted(per_kernel.items()))
          + f"); {', '.join(kinds)}; {sass}")


def check_cuda_wgmma(args, chip, ptx, report, cubin):
    """wgmma.mma_async (and no mma.sync) in the PTX of at least N kernels
    (HGMMA in the SASS when a cuobjdump is there), with their registers and
    smem from ptxas -v."""
    entries = re.split(r"(?=\.visible\s+\.entry\s)", ptx)[1:]
    per_kernel = {}
    for body in entries:
        name = re.match(r"\.visible\s+\.entry\s+(\w+)\(", body).group(1)
        count = len(re.findall(r"\bwgmma\.mma_async\.", body))
        if count:
            per_kernel[name] = count
        if count and "mma.sync" in body:
            fail(f"{chip}: {name} has both wgmma and mma.sync")
    if len(per_kernel) < args.wgmma_kernels:
        fail(f"{chip}: {len(per_kernel)} kernels with wgmma.mma_async "
             f"({per_kernel}), expected at least {args.wgmma_kernels}")
    kinds = sorted(set(re.findall(r"wgmma\.mma_async\.[\w.]+", ptx)))
    resources = ptxas_resources(report, per_kernel)
    sass = "no cuobjdump: no SASS check"
    cuobjdump = os.environ.get("AOTC_CUOBJDUMP") or os.path.join(
        args.toolkit, "bin", "cuobjdump")
    if os.path.exists(cuobjdump):
        hgmma = len(re.findall(r"\bHGMMA\b", run([cuobjdump, "-sass", cubin])))
        if not hgmma:
            fail(f"{chip}: no HGMMA in the SASS")
        sass = f"SASS: {hgmma} HGMMA"
    print(f"{chip}: {len(per_kernel)} kernels with wgmma ("
          + ", ".join(f"{k}: {n} wgmma, {resources.get(k, (0, 0))[0]} regs, "
                      f"{resources.get(k, (0, 0))[1]} B smem"
                      for k, n in sorted(per_kernel.items()))
          + f"); {', '.join(kinds)}; {sass}")


def check_cuda_shared(args, chip, ptx, report, cubin):
    """Shared loads/stores and barriers in the PTX, smem bytes from ptxas,
    LDS/STS and BAR in the SASS."""
    entries = re.split(r"(?=\.visible\s+\.entry\s)", ptx)[1:]
    tiled = []
    for body in entries:
        name = re.match(r"\.visible\s+\.entry\s+(\w+)\(", body).group(1)
        # wgmma reads its shared-memory operands itself.
        if (("ld.shared" in body or "wgmma.mma_async" in body)
                and "st.shared" in body and "bar.sync" in body):
            tiled.append(name)
    smem = {}
    for section in report.split("Compiling entry function")[1:]:
        name = re.match(r"\s*'(\w+)'", section).group(1)
        size = re.search(r"(\d+) bytes smem", section)
        if size and int(size.group(1)):
            smem[name] = int(size.group(1))
    if len(tiled) < args.shared_kernels or sorted(smem) != sorted(tiled):
        fail(f"{chip}: kernels with ld/st.shared + bar.sync {tiled}, with "
             f"smem {smem}; expected at least {args.shared_kernels}")
    # The cubin (what the driver loads): a .nv.shared.<kernel> section per
    # tiled kernel, at least its smem size (sm_90 adds 1 KiB reserved for
    # the system).
    sections = run([os.path.join(args.llvm_bin, "llvm-readelf"), "-S", "--wide",
                    cubin])
    shared = {m.group(1): int(m.group(2), 16) for m in re.finditer(
        r"\.nv\.shared\.(\w+)\s+NOBITS\s+\w+\s+\w+\s+(\w+)", sections)}
    if sorted(shared) != sorted(tiled) or any(
            shared[k] < smem[k] for k in shared):
        fail(f"{chip}: cubin .nv.shared sections {shared}, ptxas smem {smem}")
    counts = "no cuobjdump (toolkit or $AOTC_CUOBJDUMP): no SASS check"
    cuobjdump = os.environ.get("AOTC_CUOBJDUMP") or os.path.join(
        args.toolkit, "bin", "cuobjdump")
    if os.path.exists(cuobjdump):
        sass = run([cuobjdump, "-sass", cubin])
        counts = {op: len(re.findall(rf"\b{op}\b", sass))
                  for op in ("LDS", "STS", "BAR.SYNC")}
        if not counts["LDS"] or not counts["STS"] or not counts["BAR.SYNC"]:
            fail(f"{chip}: no shared-memory access or barrier in the SASS: "
                 f"{counts}")
    ptx_ops = {op: sum(body.count(op) for body in entries)
               for op in ("ld.shared", "st.shared", "bar.sync")}
    print(f"{chip}: {len(tiled)} kernels with shared memory "
          f"({', '.join(f'{k} {v} B' for k, v in sorted(smem.items()))}; "
          f"same .nv.shared sizes in the cubin); PTX: {ptx_ops}; SASS: "
          f"{counts}")


def check_calls(args, obj, manifest, chips, tmp):
    # 4. Link into an executable and a shared library; call without a GPU.
    if args.target == "cuda":
        try:
            ctypes.CDLL("libcuda.so.1")
            has_driver = True
        except OSError:
            has_driver = False
    else:
        has_driver = os.path.exists("/dev/kfd")  # an AMD GPU is present
    entry = manifest["entry_points"][0]
    main_c = os.path.join(tmp, "main.c")
    open(main_c, "w").write(
        c_program(entry, os.path.join(args.dir, args.name + ".h")))
    exe = os.path.join(tmp, "main")
    run([args.cc, "-std=c11", f"-I{args.include}", main_c, obj,
         *args.runtime_libs, "-ldl", "-lpthread", "-o", exe])
    shared = os.path.join(tmp, "lib" + args.name + ".so")
    run([args.cc, "-shared", "-o", shared, obj, "-Wl,--whole-archive",
         *args.runtime_libs, "-Wl,--no-whole-archive", "-ldl", "-lpthread"])
    if has_driver:
        print("linked executable and shared library; a GPU driver is present: "
              "the no-device calls are not checked")
        return
    status, untouched, target = run([exe]).split()
    if int(status) != AOT_ERROR_NO_DEVICE or untouched != "1":
        fail(f"executable: status {status}, outputs untouched {untouched}")
    if target != args.target + ":" + ",".join(chips):
        fail(f"info target '{target}'")
    status, untouched = call_shared(shared, entry)
    if status != AOT_ERROR_NO_DEVICE or not untouched:
        fail(f"shared library: status {status}, outputs untouched {untouched}")
    print(f"executable and shared library: AOT_ERROR_NO_DEVICE, outputs "
          f"untouched, target {target}")


if __name__ == "__main__":
    main()
