#!/usr/bin/env python3
#===- aot_gen_test.py - Generate a GoogleTest driver for an aotc model -----===#
#
# Reads the manifest (N.json, written by `aotc --emit=json`) of a compiled
# model and writes a GoogleTest .cpp that, for one entry point:
#   * checks a reference .npz (input_i / output_i, given on the command line of
#     the test binary) against the signature, runs the entry point with a NULL
#     stream and with aot_cpu_stream_t{.num_threads = 1} and {2}, and compares
#     every output with the per-dtype tolerance (aot_tolerance.h), then
#     with 3, 5 and 8 threads (--thread-rounds times each);
#   * checks the ABI: pool too small, NULL and misaligned pointers, bad stream
#     struct -> the documented status, and no output written on any error;
#   * checks E_info() and the header's pool macros against the manifest;
#   * optionally (--concurrency) calls the entry point from 8 std::threads at
#     once, each with its own pool, and from every thread of the caller's own
#     OpenMP parallel region (when the driver is built with OpenMP);
#     AOT_TEST_ITERATIONS in the environment overrides the count.
#
# Usage (from aot_add_test() in AotcFunctions.cmake):
#   aot_gen_test.py --manifest N.json --out T.cpp [--entry e] [--suite S]
#                   [--rtol X] [--atol Y] [--concurrency ITERATIONS]
#                   [--thread-rounds N]
#
# Only the standard library is used, so any python3 runs it.
#
#===------------------------------------------------------------------------===#

import argparse
import json
import os
import re
import string
import sys

# Manifest dtype -> (AOT_DTYPE_* code name, C type in the header).
DTYPES = {
    "f32": ("AOT_DTYPE_F32", "float"),
    "f64": ("AOT_DTYPE_F64", "double"),
    "f16": ("AOT_DTYPE_F16", "uint16_t"),
    "bf16": ("AOT_DTYPE_BF16", "uint16_t"),
    "i8": ("AOT_DTYPE_I8", "int8_t"),
    "u8": ("AOT_DTYPE_U8", "uint8_t"),
    "i16": ("AOT_DTYPE_I16", "int16_t"),
    "i32": ("AOT_DTYPE_I32", "int32_t"),
    "i64": ("AOT_DTYPE_I64", "int64_t"),
    "i1": ("AOT_DTYPE_BOOL", "uint8_t"),
}


class ManifestError(Exception):
    pass


def c_string(s):
    """A C string literal for s (names are identifiers, but be safe)."""
    out = '"'
    for ch in s:
        if ch in '\\"':
            out += "\\" + ch
        elif 32 <= ord(ch) < 127:
            out += ch
        else:
            out += "\\%03o" % ord(ch)
    return out + '"'


def identifier(s):
    """s turned into a valid C++ identifier (for the GoogleTest suite)."""
    s = re.sub(r"[^A-Za-z0-9_]", "_", s)
    return s if s and not s[0].isdigit() else "T" + s


def load_entry(manifest_path, entry_name):
    """Returns (manifest, entry point dict), validated."""
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        raise ManifestError("cannot read manifest: %s" % e)
    for key in ("abi_version", "name", "target", "header", "entry_points"):
        if key not in manifest:
            raise ManifestError("manifest lacks '%s'" % key)
    entries = manifest["entry_points"]
    names = [e.get("name") for e in entries]
    if entry_name is None:
        if len(entries) != 1:
            raise ManifestError(
                "the model has %d entry points (%s); pass ENTRY to choose one"
                % (len(entries), ", ".join(map(str, names))))
        entry = entries[0]
    else:
        matches = [e for e in entries if e.get("name") == entry_name]
        if not matches:
            raise ManifestError("no entry point '%s' (have: %s)"
                                % (entry_name, ", ".join(map(str, names))))
        entry = matches[0]

    for key in ("name", "pool_bytes", "pool_alignment", "inputs", "outputs"):
        if key not in entry:
            raise ManifestError("entry point lacks '%s'" % key)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", entry["name"]):
        raise ManifestError("entry point name '%s' is not a C identifier"
                            % entry["name"])
    for kind in ("inputs", "outputs"):
        for i, t in enumerate(entry[kind]):
            where = "%s %d ('%s')" % (kind[:-1], i, t.get("name"))
            dtype = t.get("dtype")
            if dtype not in DTYPES:
                raise ManifestError("%s: unknown dtype '%s'" % (where, dtype))
            if "ctype" in t and t["ctype"] != DTYPES[dtype][1]:
                raise ManifestError("%s: ctype '%s' does not match dtype %s "
                                    "(expected '%s')" % (where, t["ctype"],
                                                         dtype,
                                                         DTYPES[dtype][1]))
            shape = t.get("shape")
            if not isinstance(shape, list) or not all(
                    isinstance(d, int) for d in shape):
                raise ManifestError("%s: bad shape %r" % (where, shape))
            if any(d < 0 for d in shape):
                raise ManifestError(
                    "%s: symbolic dimensions are not supported by the "
                    "generated test yet (shape %r)" % (where, shape))
    return manifest, entry


def spec_table(tensors):
    """C++ initialisers for a std::vector<TensorSpec>."""
    rows = []
    for t in tensors:
        n = 1
        for d in t["shape"]:
            n *= d
        shape = ", ".join(str(d) for d in t["shape"])
        rows.append("      {%s, %s, {%s}, %du}," % (
            c_string(t["name"]), DTYPES[t["dtype"]][0], shape, n))
    return "\n".join(rows) if rows else "      // none"


def call_arguments(entry):
    """The tensor arguments of the entry point call, cast from void *."""
    args = []
    for i, t in enumerate(entry["inputs"]):
        args.append("static_cast<const %s *>(in[%d])"
                    % (DTYPES[t["dtype"]][1], i))
    for i, t in enumerate(entry["outputs"]):
        args.append("static_cast<%s *>(out[%d])" % (DTYPES[t["dtype"]][1], i))
    return "".join(a + ",\n      " for a in args)


TEMPLATE = string.Template(r'''$banner
//
// Generated by cmake/aot_gen_test.py from $manifest_name; do not edit.
//
// Tests entry point `$entry` of model `$model` against a reference .npz
// (input_i / output_i, written by numpy.savez):
//   $$ $file_stem [gtest flags] REFERENCE.npz
//
//===----------------------------------------------------------------------===//

#include "$header"

#include "aot_buffer.h"
#include "aot_dtype.h"
#include "aot_npz.h"
#include "aot_tolerance.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <set>
#include <string>
#include <thread>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

// LeakSanitizer: libomp never frees the descriptors of a team's threads
// beyond the machine's cores (a plain `#pragma omp parallel num_threads(8)`
// on 2 cores shows the same), which the calls with 8 threads create.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AOT_TEST_LEAK_CHECKS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(AOT_TEST_LEAK_CHECKS)
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libomp.so\n";
}
#endif

namespace {
using namespace aot::test;

//===----------------------------------------------------------------------===//
// The entry point's signature, as the manifest states it
//===----------------------------------------------------------------------===//

struct TensorSpec {
  const char *name;
  int32_t dtype; // AOT_DTYPE_*
  std::vector<int64_t> shape;
  size_t numElements;
  size_t numBytes() const { return numElements * abiDTypeSize(dtype); }
};

const std::vector<TensorSpec> &inputSpecs() {
  static const std::vector<TensorSpec> specs = {
$input_specs
  };
  return specs;
}

const std::vector<TensorSpec> &outputSpecs() {
  static const std::vector<TensorSpec> specs = {
$output_specs
  };
  return specs;
}

constexpr size_t kNumInputs = $num_inputs;
constexpr size_t kNumOutputs = $num_outputs;
using InputPtrs = std::array<const void *, kNumInputs>;
using OutputPtrs = std::array<void *, kNumOutputs>;

constexpr uint32_t kManifestAbiVersion = $abi_version;
constexpr const char *kManifestTarget = $target;
constexpr const char *kEntryName = $entry_str;
constexpr uint64_t kManifestPoolBytes = UINT64_C($pool_bytes);
constexpr uint64_t kManifestPoolAlignment = UINT64_C($pool_alignment);

// The header's figures: what a user would allocate.
constexpr size_t kPoolBytes = ${macro_prefix}_POOL_BYTES;
constexpr size_t kPoolAlignment = ${macro_prefix}_POOL_ALIGNMENT;

/// Written into outputs before every call: an error must leave it in place,
/// a successful call must overwrite every element.
constexpr uint8_t kOutputSentinel = 0xA5;
/// Written into the pool before every call, so that results never depend on
/// a zeroed pool.
constexpr uint8_t kPoolGarbage = 0xCD;

/// Calls the entry point with type-erased tensor pointers.
aot_status_t callEntry(const InputPtrs &in, const OutputPtrs &out, void *pool,
                       size_t poolBytes, aot_stream_t stream) {
  (void)in;
  (void)out;
  return ::$entry(
      ${call_args}pool, poolBytes, stream);
}

/// The tolerance for an output of dtype `dtype` (aot_tolerance.h, with the
/// test's RTOL/ATOL overrides, which never apply to bool).
Tolerance toleranceFor(int32_t dtype) {
  Tolerance t = defaultTolerance(dtype);
$tolerance_overrides  return t;
}

std::string statusName(aot_status_t status) {
  const char *s = aot_status_string(status);
  return std::to_string(status) + " (" + (s ? s : "NULL") + ")";
}

//===----------------------------------------------------------------------===//
// The reference tensors, loaded by main() and checked against the signature
//===----------------------------------------------------------------------===//

struct Reference {
  std::string path;
  std::string error; // empty when usable
  std::vector<AlignedBuffer> inputs, outputs;
  bool ok() const { return error.empty(); }
};

Reference &reference() {
  static Reference ref;
  return ref;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Copies `kind`_i from `npz` for every spec, or returns why it cannot.
std::string takeTensors(const NpzFile &npz, const char *kind,
                        const std::vector<TensorSpec> &specs,
                        std::vector<AlignedBuffer> &out) {
  for (size_t i = 0; i < specs.size(); ++i) {
    const TensorSpec &spec = specs[i];
    std::string key = std::string(kind) + "_" + std::to_string(i);
    if (!npz.contains(key))
      return "no array '" + key + "' for " + kind + " " + std::to_string(i) +
             " \"" + spec.name + "\"";
    const NpyArray &a = npz.get(key);
    std::string expected =
        std::string(abiDTypeName(spec.dtype)) + shapeString(spec.shape);
    if (!npyMatchesAbiDType(a.dtype, spec.dtype) || a.shape != spec.shape)
      return "'" + key + "' is " + a.describe() + " but " + kind + " \"" +
             spec.name + "\" is " + expected;
    out.push_back(a.data.clone());
  }
  // An extra input_N/output_N means the reference was made for another model.
  std::string extra = std::string(kind) + "_" + std::to_string(specs.size());
  if (npz.contains(extra))
    return "the reference has '" + extra + "' but the entry point has only " +
           std::to_string(specs.size()) + " " + kind + "s";
  return "";
}

void loadReference(const char *path) {
  Reference &ref = reference();
  if (!path) {
    ref.error = "no reference .npz given on the command line";
    return;
  }
  ref.path = path;
  try {
    NpzFile npz = NpzFile::load(path);
    ref.error = takeTensors(npz, "input", inputSpecs(), ref.inputs);
    if (ref.error.empty())
      ref.error = takeTensors(npz, "output", outputSpecs(), ref.outputs);
    if (!ref.error.empty())
      ref.error = std::string(path) + ": " + ref.error;
  } catch (const std::exception &e) {
    ref.error = e.what(); // NpzError messages start with the path
  }
}

#define REQUIRE_REFERENCE()                                                    \
  ASSERT_TRUE(reference().ok()) << "reference unusable: " << reference().error

//===----------------------------------------------------------------------===//
// Buffers for one call
//===----------------------------------------------------------------------===//

/// Copies of the reference inputs (so that writes to them can be detected);
/// zeros when the reference is unusable (enough for the ABI tests).
std::vector<AlignedBuffer> copyInputs() {
  std::vector<AlignedBuffer> copies;
  for (size_t i = 0; i < kNumInputs; ++i)
    copies.push_back(reference().ok()
                         ? reference().inputs[i].clone()
                         : AlignedBuffer(inputSpecs()[i].numBytes()));
  return copies;
}

InputPtrs inputPtrs(const std::vector<AlignedBuffer> &inputs) {
  InputPtrs ptrs{};
  for (size_t i = 0; i < ptrs.size(); ++i)
    ptrs[i] = inputs[i].data();
  return ptrs;
}

/// One call's outputs, each in its own aligned buffer.
struct Outputs {
  std::vector<AlignedBuffer> buffers;

  Outputs() {
    for (const TensorSpec &spec : outputSpecs())
      buffers.emplace_back(spec.numBytes());
  }
  OutputPtrs ptrs() {
    OutputPtrs p{};
    for (size_t i = 0; i < p.size(); ++i)
      p[i] = buffers[i].data();
    return p;
  }
  void fill(uint8_t value) {
    for (AlignedBuffer &b : buffers)
      b.fill(value);
  }
};

/// A pool as the header asks for (plus `extra` bytes).
AlignedBuffer makePool(size_t extra = 0) {
  AlignedBuffer pool(kPoolBytes + extra, kPoolAlignment > 64 ? kPoolAlignment : 64);
  pool.fill(kPoolGarbage);
  return pool;
}

/// What to pass as `pool` for a correct call: NULL is allowed when the model
/// needs no scratch memory, and we use that allowance.
void *poolArg(AlignedBuffer &pool) {
  return kPoolBytes ? static_cast<void *>(pool.data()) : nullptr;
}

/// Compares every output with the reference; `what` names the run.
void expectOutputsMatch(const Outputs &outs, const std::string &what) {
  for (size_t i = 0; i < kNumOutputs; ++i) {
    const TensorSpec &spec = outputSpecs()[i];
    CompareResult r =
        compareTensors(spec.dtype, outs.buffers[i].data(),
                       reference().outputs[i].data(), spec.numElements,
                       toleranceFor(spec.dtype));
    EXPECT_TRUE(r.ok()) << what << ": output " << i << " \"" << spec.name
                        << "\" " << abiDTypeName(spec.dtype)
                        << shapeString(spec.shape) << ": "
                        << describeMismatch(r, spec.shape);
  }
}

/// Calls the entry point with correct arguments and checks the results.
void runAndCompare(aot_stream_t stream, const std::string &what) {
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  outs.fill(kOutputSentinel);
  AlignedBuffer pool = makePool();
  aot_status_t status =
      callEntry(inputPtrs(inputs), outs.ptrs(), poolArg(pool), kPoolBytes, stream);
  ASSERT_EQ(status, AOT_OK) << what << ": returned " << statusName(status);
  expectOutputsMatch(outs, what);
  for (size_t i = 0; i < kNumInputs; ++i)
    EXPECT_EQ(0, std::memcmp(inputs[i].data(), reference().inputs[i].data(),
                             inputs[i].size()))
        << what << ": input " << i << " \"" << inputSpecs()[i].name
        << "\" was modified";
}

/// Makes a call that must fail with `expected`, and checks that no output
/// was written. `outs` holds the buffers behind `outPtrs` (or more).
void expectRejected(const std::string &what, aot_status_t expected,
                    const InputPtrs &in, Outputs &outs,
                    const OutputPtrs &outPtrs, void *pool, size_t poolBytes,
                    aot_stream_t stream) {
  outs.fill(kOutputSentinel);
  aot_status_t status = callEntry(in, outPtrs, pool, poolBytes, stream);
  EXPECT_EQ(status, expected) << what << ": expected " << statusName(expected)
                              << ", got " << statusName(status);
  if (status == AOT_OK)
    return; // already reported; the outputs were legitimately written
  for (size_t i = 0; i < outs.buffers.size(); ++i)
    EXPECT_TRUE(outs.buffers[i].allBytesEqual(kOutputSentinel))
        << what << ": output " << i << " was written although the call "
        << "failed with " << statusName(status);
}

//===----------------------------------------------------------------------===//
// Numerics
//===----------------------------------------------------------------------===//

TEST($suite, ReferenceMatchesSignature) {
  EXPECT_TRUE(reference().ok()) << reference().error;
}

TEST($suite, NullStream) {
  REQUIRE_REFERENCE();
  runAndCompare(nullptr, "stream NULL");
}

TEST($suite, OneThread) {
  REQUIRE_REFERENCE();
  aot_cpu_stream_t stream{sizeof(aot_cpu_stream_t), 1};
  runAndCompare(&stream, "stream {num_threads = 1}");
}

TEST($suite, TwoThreads) {
  REQUIRE_REFERENCE();
  aot_cpu_stream_t stream{sizeof(aot_cpu_stream_t), 2};
  runAndCompare(&stream, "stream {num_threads = 2}");
}

// More threads than a small machine has cores: the system stops some of
// them in the middle of a loop, and the others run the iterations that loop
// leaves to whichever thread is free. No iteration may be lost or run
// twice. $thread_rounds rounds of 3, 5 and 8 threads.
TEST($suite, OversubscribedThreads) {
  REQUIRE_REFERENCE();
  for (int round = 0; round < $thread_rounds; ++round)
    for (int32_t threads : {3, 5, 8}) {
      aot_cpu_stream_t stream{sizeof(aot_cpu_stream_t), threads};
      runAndCompare(&stream, "round " + std::to_string(round) +
                                 ", stream {num_threads = " +
                                 std::to_string(threads) + "}");
      if (::testing::Test::HasFailure())
        return;
    }
}

//===----------------------------------------------------------------------===//
// Self-description: E_info() and the header's macros
//===----------------------------------------------------------------------===//

TEST($suite, HeaderMatchesManifest) {
  EXPECT_EQ(uint64_t(kPoolBytes), kManifestPoolBytes)
      << "${macro_prefix}_POOL_BYTES";
  EXPECT_EQ(uint64_t(kPoolAlignment), kManifestPoolAlignment)
      << "${macro_prefix}_POOL_ALIGNMENT";
  EXPECT_EQ(kManifestAbiVersion, uint32_t(AOT_ABI_VERSION));
}

void expectTensorInfo(const aot_tensor_info_t &info, const TensorSpec &spec,
                      const std::string &what) {
  ASSERT_NE(info.name, nullptr) << what;
  EXPECT_STREQ(info.name, spec.name) << what;
  EXPECT_EQ(info.dtype, spec.dtype)
      << what << ": dtype " << abiDTypeName(info.dtype) << " vs "
      << abiDTypeName(spec.dtype);
  ASSERT_EQ(info.rank, int32_t(spec.shape.size())) << what;
  if (info.rank == 0)
    return;
  ASSERT_NE(info.shape, nullptr) << what;
  std::vector<int64_t> shape(info.shape, info.shape + info.rank);
  EXPECT_EQ(shape, spec.shape) << what;
}

TEST($suite, Info) {
  const aot_model_info_t *info = ::${entry}_info();
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->abi_version, uint32_t(AOT_ABI_VERSION));
  ASSERT_NE(info->name, nullptr);
  EXPECT_STREQ(info->name, kEntryName);
  ASSERT_NE(info->target, nullptr);
  EXPECT_STREQ(info->target, "cpu");
  EXPECT_STREQ(info->target, kManifestTarget);
  EXPECT_EQ(info->pool_bytes, kManifestPoolBytes);
  EXPECT_EQ(info->pool_bytes, uint64_t(kPoolBytes));
  EXPECT_EQ(uint64_t(info->pool_alignment), kManifestPoolAlignment);
  ASSERT_EQ(info->num_inputs, int32_t(kNumInputs));
  ASSERT_EQ(info->num_outputs, int32_t(kNumOutputs));
  if (kNumInputs) {
    ASSERT_NE(info->inputs, nullptr);
  }
  if (kNumOutputs) {
    ASSERT_NE(info->outputs, nullptr);
  }
  for (size_t i = 0; i < kNumInputs; ++i)
    expectTensorInfo(info->inputs[i], inputSpecs()[i],
                     "input " + std::to_string(i));
  for (size_t i = 0; i < kNumOutputs; ++i)
    expectTensorInfo(info->outputs[i], outputSpecs()[i],
                     "output " + std::to_string(i));
  // The same object every time: it is static data.
  EXPECT_EQ(info, ::${entry}_info());
}

TEST($suite, StatusStrings) {
  std::set<std::string> seen;
  for (aot_status_t s = AOT_OK; s <= AOT_ERROR_INTERNAL; ++s) {
    const char *str = aot_status_string(s);
    ASSERT_NE(str, nullptr) << "code " << s;
    EXPECT_STRNE(str, "") << "code " << s;
    EXPECT_TRUE(seen.insert(str).second)
        << "code " << s << " shares its string \"" << str << "\"";
  }
  // Unknown codes still get a string.
  EXPECT_NE(aot_status_string(-1), nullptr);
  EXPECT_NE(aot_status_string(1000), nullptr);
}

//===----------------------------------------------------------------------===//
// ABI: every bad argument is reported and leaves the outputs alone
//===----------------------------------------------------------------------===//

TEST($suite, PoolOneByteTooSmall) {
  if (kPoolBytes == 0)
    GTEST_SKIP() << "the entry point needs no pool";
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  AlignedBuffer pool = makePool();
  expectRejected("pool_bytes = ${macro_prefix}_POOL_BYTES - 1",
                 AOT_ERROR_POOL_TOO_SMALL, inputPtrs(inputs), outs,
                 outs.ptrs(), pool.data(), kPoolBytes - 1, nullptr);
}

TEST($suite, MisalignedPool) {
  if (kPoolBytes == 0 || kPoolAlignment <= 1)
    GTEST_SKIP() << "no pool alignment to violate";
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  AlignedBuffer pool = makePool(/*extra=*/kPoolAlignment);
  // pool + 1 still has room for ${macro_prefix}_POOL_BYTES bytes.
  expectRejected("pool + 1", AOT_ERROR_INVALID_ARGUMENT, inputPtrs(inputs),
                 outs, outs.ptrs(), pool.data() + 1, kPoolBytes, nullptr);
}

TEST($suite, NullPool) {
  if (kPoolBytes == 0)
    GTEST_SKIP() << "the entry point needs no pool";
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  expectRejected("pool = NULL", AOT_ERROR_INVALID_ARGUMENT, inputPtrs(inputs),
                 outs, outs.ptrs(), nullptr, kPoolBytes, nullptr);
}

TEST($suite, NullInput) {
  if (kNumInputs == 0)
    GTEST_SKIP() << "the entry point has no inputs";
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  AlignedBuffer pool = makePool();
  for (size_t i = 0; i < kNumInputs; ++i) {
    InputPtrs in = inputPtrs(inputs);
    in[i] = nullptr;
    expectRejected("input " + std::to_string(i) + " NULL",
                   AOT_ERROR_INVALID_ARGUMENT, in, outs, outs.ptrs(),
                   poolArg(pool), kPoolBytes, nullptr);
  }
}

TEST($suite, NullOutput) {
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  AlignedBuffer pool = makePool();
  for (size_t i = 0; i < kNumOutputs; ++i) {
    OutputPtrs out = outs.ptrs();
    out[i] = nullptr;
    expectRejected("output " + std::to_string(i) + " NULL",
                   AOT_ERROR_INVALID_ARGUMENT, inputPtrs(inputs), outs, out,
                   poolArg(pool), kPoolBytes, nullptr);
  }
}

// A tensor pointer not aligned to its element size is rejected.
TEST($suite, MisalignedTensor) {
  std::vector<AlignedBuffer> inputs = copyInputs();
  AlignedBuffer pool = makePool();
  size_t checked = 0;
  for (size_t i = 0; i < kNumInputs; ++i) {
    if (abiDTypeSize(inputSpecs()[i].dtype) < 2)
      continue;
    // One byte into a copy with room to spare.
    AlignedBuffer shifted(inputs[i].size() + 8);
    std::memcpy(shifted.data() + 1, inputs[i].data(), inputs[i].size());
    InputPtrs in = inputPtrs(inputs);
    in[i] = shifted.data() + 1;
    Outputs outs;
    expectRejected("input " + std::to_string(i) + " misaligned",
                   AOT_ERROR_INVALID_ARGUMENT, in, outs, outs.ptrs(),
                   poolArg(pool), kPoolBytes, nullptr);
    ++checked;
  }
  for (size_t i = 0; i < kNumOutputs; ++i) {
    if (abiDTypeSize(outputSpecs()[i].dtype) < 2)
      continue;
    Outputs outs;
    // Replace output i by a larger buffer and pass it one byte in; the
    // sentinel check then covers the whole larger buffer.
    outs.buffers[i] = AlignedBuffer(outs.buffers[i].size() + 8);
    OutputPtrs out = outs.ptrs();
    out[i] = outs.buffers[i].data() + 1;
    expectRejected("output " + std::to_string(i) + " misaligned",
                   AOT_ERROR_INVALID_ARGUMENT, inputPtrs(inputs), outs, out,
                   poolArg(pool), kPoolBytes, nullptr);
    ++checked;
  }
  if (checked == 0)
    GTEST_SKIP() << "every tensor has one-byte elements";
}

TEST($suite, BadStreamStructSize) {
  std::vector<AlignedBuffer> inputs = copyInputs();
  Outputs outs;
  AlignedBuffer pool = makePool();
  for (uint32_t size : {uint32_t(0), uint32_t(sizeof(aot_cpu_stream_t) - 1),
                        uint32_t(sizeof(aot_cpu_stream_t) + 8)}) {
    aot_cpu_stream_t stream{size, 1};
    expectRejected("stream struct_size " + std::to_string(size),
                   AOT_ERROR_INVALID_ARGUMENT, inputPtrs(inputs), outs,
                   outs.ptrs(), poolArg(pool), kPoolBytes, &stream);
  }
}
$concurrency_test
} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // InitGoogleTest removed its own flags; what is left is the reference.
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [gtest flags] REFERENCE.npz\n", argv[0]);
    return 2;
  }
  loadReference(argc == 2 ? argv[1] : nullptr);
  return RUN_ALL_TESTS();
}
''')

CONCURRENCY_TEMPLATE = string.Template(r'''
//===----------------------------------------------------------------------===//
// Concurrency: callers on several threads, each with its own pool
//===----------------------------------------------------------------------===//

/// Calls per thread: the build's CONCURRENCY, or AOT_TEST_ITERATIONS from
/// the environment (a longer run without a rebuild).
static int concurrencyIterations() {
  const char *value = std::getenv("AOT_TEST_ITERATIONS");
  int iterations = value ? std::atoi(value) : 0;
  return iterations > 0 ? iterations : $iterations;
}

TEST($suite, Concurrency) {
  REQUIRE_REFERENCE();
  constexpr int kThreads = 8;
  const int kIterations = concurrencyIterations();
  // Even threads run with one OpenMP thread, odd ones with the default team.
  // Each thread's results must be bit-identical to a call made here, alone,
  // with the same stream.
  aot_cpu_stream_t oneThread{sizeof(aot_cpu_stream_t), 1};
  const std::array<aot_stream_t, 2> streams = {&oneThread, nullptr};
  const InputPtrs in = inputPtrs(reference().inputs);
  std::array<Outputs, 2> baseline;
  for (size_t s = 0; s < streams.size(); ++s) {
    AlignedBuffer pool = makePool();
    baseline[s].fill(kOutputSentinel);
    aot_status_t status = callEntry(in, baseline[s].ptrs(), poolArg(pool),
                                    kPoolBytes, streams[s]);
    ASSERT_EQ(status, AOT_OK) << "baseline: " << statusName(status);
    expectOutputsMatch(baseline[s], "baseline " + std::to_string(s));
  }

  // Threads record their first problem; gtest assertions stay on this thread.
  std::vector<std::string> problems(kThreads);
  auto worker = [&](int t) {
    const Outputs &base = baseline[size_t(t) % streams.size()];
    aot_stream_t stream = streams[size_t(t) % streams.size()];
    AlignedBuffer pool = makePool();
    Outputs outs;
    for (int it = 0; it < kIterations; ++it) {
      outs.fill(kOutputSentinel);
      aot_status_t status =
          callEntry(in, outs.ptrs(), poolArg(pool), kPoolBytes, stream);
      std::string where = "iteration " + std::to_string(it) + ": ";
      if (status != AOT_OK) {
        problems[size_t(t)] = where + "returned " + statusName(status);
        return;
      }
      for (size_t i = 0; i < kNumOutputs; ++i) {
        const TensorSpec &spec = outputSpecs()[i];
        const AlignedBuffer &got = outs.buffers[i];
        if (std::memcmp(got.data(), base.buffers[i].data(), got.size()) != 0) {
          CompareResult r = compareTensors(spec.dtype, got.data(),
                                           base.buffers[i].data(),
                                           spec.numElements, Tolerance{});
          problems[size_t(t)] = where + "output " + std::to_string(i) +
                                " differs from the single-caller run: " +
                                describeMismatch(r, spec.shape);
          return;
        }
        CompareResult r = compareTensors(spec.dtype, got.data(),
                                         reference().outputs[i].data(),
                                         spec.numElements,
                                         toleranceFor(spec.dtype));
        if (!r.ok()) {
          problems[size_t(t)] = where + "output " + std::to_string(i) +
                                " vs reference: " +
                                describeMismatch(r, spec.shape);
          return;
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (std::thread &th : threads)
    th.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_TRUE(problems[size_t(t)].empty())
        << "thread " << t << ", " << problems[size_t(t)];
}

#ifdef _OPENMP
/// Threads of this process (Linux: /proc/self/status), 0 if unknown.
static int processThreads() {
  std::FILE *f = std::fopen("/proc/self/status", "r");
  int threads = 0;
  char line[256];
  while (f && std::fgets(line, sizeof(line), f))
    if (std::sscanf(line, "Threads: %d", &threads) == 1)
      break;
  if (f)
    std::fclose(f);
  return threads;
}

// Callers inside the caller's own OpenMP parallel region: each of a team of
// 4 calls with its own pool, with the default stream. Nested regions are
// inactive by default (max-active-levels 1), so each call runs on its
// caller's thread alone: the results are bit-identical to a one-thread call
// and the process gains no threads beyond the team's.
TEST($suite, CallsFromOpenMPRegion) {
  REQUIRE_REFERENCE();
  constexpr int kTeam = 4;
  const int kIterations = concurrencyIterations() / 10 + 1;
  aot_cpu_stream_t oneThread{sizeof(aot_cpu_stream_t), 1};
  const InputPtrs in = inputPtrs(reference().inputs);
  Outputs baseline;
  {
    AlignedBuffer pool = makePool();
    baseline.fill(kOutputSentinel);
    ASSERT_EQ(callEntry(in, baseline.ptrs(), poolArg(pool), kPoolBytes,
                        &oneThread),
              AOT_OK);
  }
  ASSERT_EQ(omp_get_max_active_levels(), 1);
  int before = processThreads();
  std::vector<std::string> problems(kTeam);
  std::vector<AlignedBuffer> pools;
  for (int t = 0; t < kTeam; ++t)
    pools.push_back(makePool());
#pragma omp parallel num_threads(kTeam)
  {
    int t = omp_get_thread_num();
    Outputs outs;
    for (int it = 0; it < kIterations && problems[size_t(t)].empty(); ++it) {
      outs.fill(kOutputSentinel);
      aot_status_t status = callEntry(in, outs.ptrs(), poolArg(pools[size_t(t)]),
                                      kPoolBytes, nullptr);
      if (status != AOT_OK)
        problems[size_t(t)] = "returned " + std::string(statusName(status));
      for (size_t i = 0; i < kNumOutputs && problems[size_t(t)].empty(); ++i)
        if (std::memcmp(outs.buffers[i].data(), baseline.buffers[i].data(),
                        outs.buffers[i].size()) != 0)
          problems[size_t(t)] = "output " + std::to_string(i) +
                                " differs from a one-thread call";
    }
  }
  int after = processThreads();
  for (int t = 0; t < kTeam; ++t)
    EXPECT_TRUE(problems[size_t(t)].empty())
        << "OpenMP thread " << t << ": " << problems[size_t(t)];
  if (before > 0 && after > 0)
    EXPECT_LE(after, before + kTeam - 1)
        << "the calls inside the region started threads of their own";
}
#endif
''')


def generate(manifest_path, entry_name, out_path, suite, rtol, atol,
             concurrency, thread_rounds=1):
    manifest, entry = load_entry(manifest_path, entry_name)
    name = entry["name"]
    suite = identifier(suite or name)

    overrides = ""
    if rtol is not None or atol is not None:
        overrides = "  if (dtype != AOT_DTYPE_BOOL) {\n"
        if rtol is not None:
            overrides += "    t.rtol = %r;\n" % float(rtol)
        if atol is not None:
            overrides += "    t.atol = %r;\n" % float(atol)
        overrides += "  }\n"

    concurrency_test = ""
    if concurrency:
        concurrency_test = CONCURRENCY_TEMPLATE.substitute(
            suite=suite, iterations=int(concurrency))

    file_name = os.path.basename(out_path)
    banner = "//===- %s - GoogleTest driver for %s " % (file_name, name)
    tail = "*- C++ -*-===//"
    banner += "-" * max(3, 80 - len(banner) - len(tail)) + tail
    text = TEMPLATE.substitute(
        banner=banner,
        file_stem=os.path.splitext(file_name)[0],
        manifest_name=os.path.basename(manifest_path),
        model=manifest["name"],
        entry=name,
        entry_str=c_string(name),
        header=os.path.basename(manifest["header"]),
        suite=suite,
        input_specs=spec_table(entry["inputs"]),
        output_specs=spec_table(entry["outputs"]),
        num_inputs=len(entry["inputs"]),
        num_outputs=len(entry["outputs"]),
        abi_version=int(manifest["abi_version"]),
        target=c_string(manifest["target"]),
        pool_bytes=int(entry["pool_bytes"]),
        pool_alignment=int(entry["pool_alignment"]),
        macro_prefix=name.upper(),
        call_args=call_arguments(entry),
        tolerance_overrides=overrides,
        concurrency_test=concurrency_test,
        thread_rounds=int(thread_rounds),
    )
    # Write only on change: a re-run (e.g. after an edit of this script that
    # does not change the output) then does not force a recompile. CMake's
    # Ninja rules for custom commands use `restat`, so the unchanged file is
    # not regenerated again either.
    try:
        with open(out_path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    p = argparse.ArgumentParser(
        description="Generate a GoogleTest driver for an aotc entry point.")
    p.add_argument("--manifest", required=True, help="N.json from aotc")
    p.add_argument("--out", required=True, help="the .cpp to write")
    p.add_argument("--entry", help="entry point (default: the only one)")
    p.add_argument("--suite", help="GoogleTest suite name (default: entry)")
    p.add_argument("--rtol", type=float, help="override rtol (not for bool)")
    p.add_argument("--atol", type=float, help="override atol (not for bool)")
    p.add_argument("--concurrency", type=int, default=0, metavar="N",
                   help="add a test calling the entry point N times from "
                        "each of 4 threads")
    p.add_argument("--thread-rounds", type=int, default=1, metavar="N",
                   help="rounds of calls with 3, 5 and 8 threads (default 1)")
    args = p.parse_args()
    if args.concurrency < 0:
        p.error("--concurrency must be >= 0")
    if args.thread_rounds < 1:
        p.error("--thread-rounds must be >= 1")
    try:
        generate(args.manifest, args.entry, args.out, args.suite, args.rtol,
                 args.atol, args.concurrency, args.thread_rounds)
    except ManifestError as e:
        sys.stderr.write("%s: error: %s\n" % (args.manifest, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
