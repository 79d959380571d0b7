//===- aotc.cpp - The aotc command line compiler -------------*- C++ -*-===//
//
// This file implements `aotc`, the user-facing compiler: MLIR tensor program
// in, relocatable object + C header (+ manifest, IR dumps, memory report)
// out. Nothing is written to the output directory unless every stage
// succeeded.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/Emitters.h"
#include "aotc/ABI/EntryPoint.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/CpuTarget.h"
#include "aotc/Frontend/ONNX/ONNXImporter.h"
#include "aotc/Input/ParseProgram.h"
#include "aotc/Pipelines/GPUPipelines.h"
#include "aotc/Pipelines/Pipelines.h"
#include "aotc/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>

using namespace mlir;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

static cl::OptionCategory aotcCategory("aotc options");

static cl::list<std::string>
    inputFilenames(cl::Positional,
                   cl::desc("<input .mlir or .onnx> (several: one bundle)"),
                   cl::cat(aotcCategory));
static cl::opt<std::string>
    targetName("target", cl::desc("Target: cpu, cuda or hip"),
               cl::init("cpu"), cl::cat(aotcCategory));
static cl::opt<std::string>
    artifactName("name",
                 cl::desc("Name of the output files, and of the entry point "
                          "when the module has one public function "
                          "(default: the input file's stem)"),
                 cl::cat(aotcCategory));
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"), cl::init("."),
                                      cl::cat(aotcCategory));
static cl::list<std::string>
    emitKinds("emit",
              cl::desc("What to write: obj,header,json,mlir,llvm,asm,python "
                       "(default obj,header)"),
              cl::CommaSeparated, cl::cat(aotcCategory));
static cl::opt<std::string>
    dumpDir("dump-dir", cl::desc("Write the IR after every stage to <dir>"),
            cl::value_desc("dir"), cl::cat(aotcCategory));
static cl::opt<std::string> mcpu("mcpu",
                                 cl::desc("Target CPU (default: the host)"),
                                 cl::cat(aotcCategory));
static cl::opt<std::string>
    mtriple("mtriple", cl::desc("Target triple (default: the host)"),
            cl::cat(aotcCategory));
static cl::opt<std::string>
    mattr("mattr", cl::desc("Extra target features, e.g. +avx2,-avx512f"),
          cl::cat(aotcCategory));
static cl::opt<unsigned> sveVectorBits(
    "sve-vector-bits",
    cl::desc("AArch64 SVE: generate code for SVE vectors of exactly this "
             "many bits (128, 256, 512, 1024 or 2048; needs an SVE --mcpu "
             "or --mattr=+sve). The object runs only on CPUs of that vector "
             "length: elsewhere its entry points return "
             "AOT_ERROR_NO_DEVICE"),
    cl::init(0), cl::cat(aotcCategory));
static cl::list<std::string>
    gpuChips("chip",
             cl::desc("GPU architectures, comma separated (cuda: default "
                      "sm_80,sm_90; hip: default gfx90a,gfx942)"),
             cl::CommaSeparated, cl::cat(aotcCategory));
static cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit directory (default: $AOTC_CUDA_PATH, else "
             "/usr/local/cuda)"),
    cl::value_desc("dir"), cl::cat(aotcCategory));
static cl::opt<std::string> rocmDeviceLibs(
    "rocm-device-libs",
    cl::desc("ROCm device library bitcode directory (default: "
             "$AOTC_ROCM_DEVICE_LIBS, else Debian's "
             "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode)"),
    cl::value_desc("dir"), cl::cat(aotcCategory));
static cl::opt<bool> onDeviceTensors(
    "on-device-tensors",
    cl::desc("GPU targets: inputs and outputs are device pointers (no copies, "
             "no synchronization)"),
    cl::cat(aotcCategory));
static cl::opt<std::string> memoryReport(
    "memory-report",
    cl::desc("Write the pool size, lower bound and buffers as JSON to <file>"),
    cl::value_desc("file"), cl::cat(aotcCategory));
static cl::opt<std::string> memoryPlot(
    "memory-plot",
    cl::desc("Draw the pool plan to <file.svg> (or <file.png>, with "
             "rsvg-convert): each buffer a box of its lifetime and pool "
             "offsets, the pool size and lower bound as lines"),
    cl::value_desc("file.svg"), cl::cat(aotcCategory));
static cl::opt<bool> winograd(
    "winograd",
    cl::desc("CPU: compute 3x3 stride-1 convolutions with at least 32 "
             "channels and 32 output tiles as Winograd F(4x4, 3x3) (32 "
             "tiles of 4x4) or F(2x2, 3x3) (default on; off: the direct or "
             "im2col path, the direct summation's rounding and non-finite "
             "values)"),
    cl::init(true), cl::cat(aotcCategory));
static cl::opt<unsigned> winogradMaxTile(
    "winograd-max-tile",
    cl::desc("CPU: the largest Winograd output tile, 4 (default) or 2 "
             "(F(2x2, 3x3) only: less rounding, more multiplications)"),
    cl::init(4), cl::cat(aotcCategory));
static cl::opt<bool> verbose(
    "v",
    cl::desc("Print per-stage timings, and remarks (a strategy a pass could "
             "not carry out)"),
    cl::cat(aotcCategory));
static cl::opt<unsigned> codegenParts(
    "codegen-parts",
    cl::desc("CPU: optimize and generate the object's code in N parts, on "
             "up to N threads (default 0: by the module's size, one part "
             "per 50,000 LLVM instructions in a power of two up to 8; 1: "
             "one thread). The object defines the same functions either "
             "way"),
    cl::value_desc("N"), cl::init(0), cl::cat(aotcCategory));
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass, not only after every stage (a "
             "debugging aid: an invalid rewrite is reported by the pass that "
             "made it)"),
    cl::cat(aotcCategory));
static cl::opt<std::string> strategy(
    "strategy",
    cl::desc("CPU: 'default' (each op takes the path the strategy selection "
             "chooses) or 'generic' (every op takes the generic tile and "
             "vectorize path: a debugging aid)"),
    cl::init("default"), cl::cat(aotcCategory));
static cl::opt<std::string> sanitize(
    "sanitize",
    cl::desc("CPU: instrument the generated code with AddressSanitizer "
             "('address') or ThreadSanitizer ('thread'); the object then "
             "needs that sanitizer's runtime (link with -fsanitize=...)"),
    cl::value_desc("address|thread"), cl::cat(aotcCategory));
static cl::opt<bool> printTarget(
    "print-target",
    cl::desc("Print the CPU target description (vector width, registers, "
             "features, caches and where they come from) for "
             "--mtriple/--mcpu/--mattr and exit"),
    cl::cat(aotcCategory));
static cl::opt<int64_t> l1CacheBytes(
    "l1-cache-bytes",
    cl::desc("CPU: L1 data cache per core (default: the CPU's, see "
             "--print-target)"),
    cl::init(0), cl::cat(aotcCategory));
static cl::opt<int64_t>
    l1CacheWays("l1-cache-ways",
                cl::desc("CPU: associativity of the L1 data cache"),
                cl::init(0), cl::cat(aotcCategory));
static cl::opt<int64_t> l2CacheBytes(
    "l2-cache-bytes", cl::desc("CPU: L2 cache per core"),
    cl::init(0), cl::cat(aotcCategory));
static cl::opt<int64_t> l3CacheBytes(
    "l3-cache-bytes", cl::desc("CPU: shared L3 cache"),
    cl::init(0), cl::cat(aotcCategory));
static cl::opt<int64_t> cacheLineBytes(
    "cache-line-bytes", cl::desc("CPU: cache line"), cl::init(0),
    cl::cat(aotcCategory));
static cl::list<std::string>
    dimValues("dim",
              cl::desc("Value of a symbolic ONNX dimension, e.g. --dim N=1 "
                       "(repeatable)"),
              cl::value_desc("NAME=VALUE"), cl::cat(aotcCategory));
static cl::list<std::string> maxDimValues(
    "max-dim",
    cl::desc("Keep a dimension symbolic (an int64_t parameter) with this "
             "upper bound, e.g. --max-dim N=64 (repeatable)"),
    cl::value_desc("NAME=BOUND"), cl::cat(aotcCategory));
static cl::list<std::string> variants(
    "variant",
    cl::desc("ONNX: an entry point of the model at these values of its "
             "symbolic dimensions, named <stem>_<NAME><VALUE>... (repeatable: "
             "one bundle of all variants)"),
    cl::value_desc("NAME=VALUE[,NAME=VALUE...]"), cl::cat(aotcCategory));
static cl::list<std::string> externOps(
    "extern",
    cl::desc("ONNX: every node of this op (DOMAIN::OP, the default domain "
             "empty: ::Relu) becomes a call of your C function SYMBOL "
             "(aot_abi/aot_extern.h); its outputs' types come from the "
             "graph's value_info (repeatable)"),
    cl::value_desc("DOMAIN::OP=SYMBOL"), cl::cat(aotcCategory));
static cl::list<std::string> offloadOps(
    "offload",
    cl::desc("ONNX: compute these ops with a library's kernels: conv=openblas "
             "(2-D, one group: im2col + SGEMM; link aot_runtime_blas and a "
             "CBLAS), conv=onednn (2-D, any group; link aot_runtime_dnnl "
             "and -ldnnl), matmul=openblas (MatMul, Gemm: SGEMM), "
             "matmul=cublas (--target=cuda; link aot_runtime_cublas and "
             "-lcublas); float32 nodes the kernel takes, the others stay "
             "native (repeatable)"),
    cl::value_desc("OP=LIB"), cl::cat(aotcCategory));
static cl::list<std::string> externScratch(
    "extern-scratch",
    cl::desc("Give each call of the extern kernel SYMBOL this many bytes of "
             "scratch in the pool (repeatable)"),
    cl::value_desc("SYMBOL=BYTES"), cl::cat(aotcCategory));
static cl::list<std::string> bindInputs(
    "bind-input",
    cl::desc("Fix an ONNX graph input to the tensor serialized in FILE (an "
             "ONNX TensorProto, as in ONNX test data); it is no longer a "
             "parameter and shape arithmetic on it folds (repeatable)"),
    cl::value_desc("NAME=FILE"), cl::cat(aotcCategory));

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

namespace {

/// The C symbols of the extern kernels `module` calls (aot_extern.h),
/// sorted, each once.
std::vector<std::string> externKernels(ModuleOp module) {
  std::set<std::string> symbols;
  for (auto func : module.getOps<func::FuncOp>())
    if (auto extern_ =
            func->getAttrOfType<DictionaryAttr>(aotc::kExternAttrName))
      if (auto symbol = extern_.getAs<StringAttr>("symbol"))
        symbols.insert(symbol.str());
  return {symbols.begin(), symbols.end()};
}

/// `--extern-scratch SYMBOL=BYTES` recorded on the declarations of
/// SYMBOL's kernels; an error when no declaration has that symbol.
LogicalResult applyExternScratch(ModuleOp module) {
  for (const std::string &option : externScratch) {
    auto [symbol, text] = llvm::StringRef(option).split('=');
    int64_t bytes;
    if (symbol.empty() || text.getAsInteger(10, bytes) || bytes < 0) {
      llvm::errs() << "aotc: error: --extern-scratch '" << option
                   << "' is not SYMBOL=BYTES with BYTES >= 0\n";
      return failure();
    }
    bool found = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isExternal())
        continue;
      auto extern_ =
          func->getAttrOfType<DictionaryAttr>(aotc::kExternAttrName);
      auto declared = extern_ ? extern_.getAs<StringAttr>("symbol")
                              : StringAttr();
      if ((declared ? declared.getValue() : func.getSymName()) != symbol)
        continue;
      Builder b(func.getContext());
      NamedAttrList fields(extern_ ? extern_ : b.getDictionaryAttr({}));
      fields.set("symbol", b.getStringAttr(symbol));
      fields.set("scratch_bytes", b.getI64IntegerAttr(bytes));
      func->setAttr(aotc::kExternAttrName,
                    fields.getDictionary(func.getContext()));
      found = true;
    }
    if (!found) {
      llvm::errs() << "aotc: error: --extern-scratch: no extern kernel '"
                   << symbol << "' is called\n";
      return failure();
    }
  }
  return success();
}

/// One entry point of the artifact to import: its input file, its name in
/// a bundle, and the symbolic dimensions its --variant fixes.
struct BundlePart {
  std::string file;
  std::string entry;
  std::map<std::string, int64_t> dims;
};

/// The entry points the inputs and --variant ask for: one per input, or
/// per input and variant (`<stem>_<NAME><VALUE>[_...]`), with names that
/// are distinct C identifiers when `bundle`.
llvm::Expected<std::vector<BundlePart>> bundleParts(bool bundle) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  std::vector<BundlePart> parts;
  for (const std::string &file : inputFilenames) {
    std::string stem = llvm::sys::path::stem(file).str();
    if (variants.empty()) {
      parts.push_back({file, stem, {}});
      continue;
    }
    if (!llvm::StringRef(file).ends_with(".onnx"))
      return error("--variant applies to ONNX models only, not '" + file +
                   "'");
    for (const std::string &variant : variants) {
      BundlePart part{file, stem, {}};
      llvm::SmallVector<llvm::StringRef> items;
      llvm::StringRef(variant).split(items, ',');
      for (llvm::StringRef item : items) {
        auto [key, value] = item.split('=');
        int64_t size;
        if (key.empty() || value.getAsInteger(10, size) || size < 1 ||
            !part.dims.try_emplace(key.str(), size).second)
          return error("--variant '" + variant +
                       "' is not NAME=VALUE[,NAME=VALUE...] with distinct "
                       "names and VALUE >= 1");
        part.entry += "_" + key.str() + std::to_string(size);
      }
      parts.push_back(std::move(part));
    }
  }
  if (!bundle)
    return parts;
  // ONNX parts are named here; an MLIR file's entry point when it is its
  // only public function (checked then).
  std::set<std::string> names;
  for (const BundlePart &part : parts) {
    if (!llvm::StringRef(part.file).ends_with(".onnx"))
      continue;
    if (!aotc::isValidCIdentifier(part.entry))
      return error("entry point '" + part.entry + "' (of '" + part.file +
                   "') is not a valid C identifier");
    if (!names.insert(part.entry).second)
      return error("two entry points of the bundle are named '" +
                   part.entry + "'");
  }
  return parts;
}

/// The ONNX import options that --dim, --max-dim and --bind-input give.
llvm::Expected<aotc::ONNXImportOptions> onnxImportOptions() {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  aotc::ONNXImportOptions options;
  for (const std::string &dim : dimValues) {
    auto [key, value] = llvm::StringRef(dim).split('=');
    int64_t size;
    if (key.empty() || value.getAsInteger(10, size) || size < 0)
      return error("--dim '" + dim + "' is not NAME=VALUE with VALUE >= 0");
    options.dimValues[key] = size;
  }
  for (const std::string &dim : maxDimValues) {
    auto [key, value] = llvm::StringRef(dim).split('=');
    int64_t bound;
    if (key.empty() || value.getAsInteger(10, bound) || bound < 1)
      return error("--max-dim '" + dim +
                   "' is not NAME=BOUND with BOUND >= 1");
    if (options.dimValues.count(key))
      return error("dimension '" + key + "' has both --dim and --max-dim");
    options.symbolicDims[key] = bound;
  }
  for (const std::string &op : externOps) {
    auto [key, symbol] = llvm::StringRef(op).split('=');
    if (!key.contains("::") || symbol.empty() ||
        !aotc::isValidCIdentifier(symbol))
      return error("--extern '" + op +
                   "' is not DOMAIN::OP=SYMBOL with SYMBOL a C identifier");
    if (!options.externOps.try_emplace(key, symbol.str()).second)
      return error("--extern: '" + key + "' is given twice");
  }
  for (const std::string &option : offloadOps) {
    auto [op, library] = llvm::StringRef(option).split('=');
    if (!(library == "openblas" && (op == "conv" || op == "matmul")) &&
        !(library == "onednn" && op == "conv") &&
        !(library == "cublas" && op == "matmul"))
      return error("--offload '" + option +
                   "': supported are conv=openblas, conv=onednn, "
                   "matmul=openblas and matmul=cublas");
    // The CPU libraries' kernels read host memory, cuBLAS's device memory
    // on the CUDA stream.
    llvm::StringRef needs = library == "cublas" ? "cuda" : "cpu";
    if (targetName != needs)
      return error("--offload '" + option + "' needs --target=" + needs);
    options.offload[op] = library.str();
  }
  for (const std::string &bind : bindInputs) {
    auto [key, file] = llvm::StringRef(bind).split('=');
    if (key.empty() || file.empty())
      return error("--bind-input '" + bind + "' is not NAME=FILE");
    if (!options.boundInputs.try_emplace(key, file.str()).second)
      return error("--bind-input: input '" + key + "' is bound twice");
  }
  return options;
}

/// Files to write once everything succeeded: path -> contents.
using PendingOutputs = std::vector<std::pair<std::string, std::string>>;

int fail(const llvm::Twine &message) {
  llvm::errs() << "aotc: error: " << message << "\n";
  return 1;
}

/// Writes `text` to `path` atomically (temporary file + rename).
llvm::Error writeFile(llvm::StringRef path, llvm::StringRef text) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << text;
    return llvm::Error::success();
  });
}

class Compiler {
public:
  Compiler(MLIRContext &context, aotc::Target &target, std::string name)
      : context(context), target(target), name(std::move(name)) {}

  /// Runs one stage and dumps its result as `<name>.<suffix>`.
  LogicalResult runStage(ModuleOp module, llvm::StringRef suffix,
                         llvm::function_ref<void(OpPassManager &)> build) {
    auto start = std::chrono::steady_clock::now();
    PassManager pm(&context);
    // LLVM's --time-passes: MLIR's pass timing report too, stage by stage.
    if (llvm::TimePassesIsEnabled)
      pm.enableTiming();
    // Each stage's result is verified; every pass's only with
    // --verify-each (as aotc-opt and the lit tests do): verifying a large
    // lowered module after each of a stage's passes costs more than half of
    // that stage's time.
    pm.enableVerifier(verifyEach);
    build(pm);
    if (failed(pm.run(module)) || failed(verify(module)))
      return failure();
    report(suffix, start);
    return dump(suffix, [&](llvm::raw_ostream &os) { module.print(os); });
  }

  /// Writes a dump file when --dump-dir is set.
  LogicalResult dump(llvm::StringRef suffix,
                     llvm::function_ref<void(llvm::raw_ostream &)> print) {
    if (dumpDir.empty())
      return success();
    std::string text;
    llvm::raw_string_ostream os(text);
    print(os);
    llvm::SmallString<256> path(dumpDir);
    llvm::sys::path::append(path, name + "." + suffix);
    if (llvm::Error e = writeFile(path, text)) {
      fail("cannot write '" + path + "': " + llvm::toString(std::move(e)));
      return failure();
    }
    return success();
  }

  void report(llvm::StringRef stage,
              std::chrono::steady_clock::time_point start) {
    if (!verbose)
      return;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    llvm::errs() << llvm::format("aotc: %-18s %9.1f ms\n",
                                 stage.str().c_str(), ms);
  }

  /// A stage's phases, indented under it.
  void reportPhases(
      llvm::ArrayRef<std::pair<std::string, double>> phases) const {
    if (!verbose)
      return;
    for (const auto &[phase, ms] : phases)
      llvm::errs() << llvm::format("aotc:   %-16s %9.1f ms\n",
                                   phase.c_str(), ms);
  }

private:
  MLIRContext &context;
  aotc::Target &target;
  std::string name;
};

int compile() {
  // Option checks first: nothing is parsed or written on a bad command line.
  llvm::StringSet<> emit;
  for (const std::string &kind : emitKinds) {
    if (!llvm::is_contained(
            {"obj", "header", "json", "mlir", "llvm", "asm", "python"}, kind))
      return fail("unknown --emit kind '" + kind +
                  "' (expected obj, header, json, mlir, llvm, asm, python)");
    emit.insert(kind);
  }
  if (winogradMaxTile != 2 && winogradMaxTile != 4)
    return fail("--winograd-max-tile must be 2 or 4, not " +
                llvm::Twine(winogradMaxTile.getValue()));
  if (emit.empty()) {
    emit.insert("obj");
    emit.insert("header");
  }
  // A PNG plot is the SVG rendered by librsvg's rsvg-convert.
  bool plotPng = llvm::StringRef(memoryPlot).ends_with_insensitive(".png");
  std::string rsvgConvert;
  if (!memoryPlot.empty() && !plotPng &&
      !llvm::StringRef(memoryPlot).ends_with_insensitive(".svg"))
    return fail("--memory-plot writes SVG or PNG: name a .svg or .png "
                "file, not '" +
                memoryPlot + "'");
  if (plotPng) {
    llvm::ErrorOr<std::string> found =
        llvm::sys::findProgramByName("rsvg-convert");
    if (!found)
      return fail("--memory-plot=" + memoryPlot +
                  " needs rsvg-convert (Debian: librsvg2-bin) on PATH to "
                  "render PNG; name a .svg file instead");
    rsvgConvert = *found;
  }
  if (strategy != "default" && strategy != "generic")
    return fail("unknown --strategy '" + strategy +
                "' (expected default or generic)");
  for (const cl::opt<int64_t> *cache :
       {&l1CacheBytes, &l1CacheWays, &l2CacheBytes, &l3CacheBytes,
        &cacheLineBytes})
    if (*cache < 0)
      return fail(llvm::Twine("--") + cache->ArgStr + " must be positive");
  aotc::CPUTargetOptions cpuOptions{mtriple, mcpu, mattr};
  cpuOptions.caches = {l1CacheBytes, l1CacheWays, l2CacheBytes, l3CacheBytes,
                       cacheLineBytes};
  cpuOptions.sanitize = sanitize;
  cpuOptions.sveVectorBits = sveVectorBits;
  // ld.lld joins the parts of a large object generated on several threads
  // (and links AMDGPU code objects).
  cpuOptions.lldPath = AOTC_LLVM_TOOLS_DIR "/ld.lld";
  if (codegenParts > 64)
    return fail("--codegen-parts must be at most 64");
  cpuOptions.codegenParts = codegenParts;
  if (!sanitize.empty() && sanitize != "address" && sanitize != "thread")
    return fail("unknown --sanitize '" + sanitize +
                "' (expected address or thread)");
  if (printTarget) {
    auto cpu = aotc::createCPUTarget(cpuOptions);
    if (!cpu)
      return fail(llvm::toString(cpu.takeError()));
    (*cpu)->cpuTarget()->print(llvm::outs());
    return 0;
  }
  if (inputFilenames.empty())
    return fail("no input file (aotc --help shows the usage)");
  bool gpu = targetName == "cuda" || targetName == "hip";
  if (targetName != "cpu" && !gpu)
    return fail("unknown target '" + targetName +
                "' (supported: cpu, cuda, hip)");
  if (!gpu && (!gpuChips.empty() || onDeviceTensors || !cudaPath.empty() ||
               !rocmDeviceLibs.empty()))
    return fail("--chip, --cuda-path, --rocm-device-libs and "
                "--on-device-tensors apply to GPU targets only");
  if (gpu && !sanitize.empty())
    return fail("--sanitize applies to --target=cpu only");
  if ((targetName == "cuda" && !rocmDeviceLibs.empty()) ||
      (targetName == "hip" && !cudaPath.empty()))
    return fail("--cuda-path applies to --target=cuda, --rocm-device-libs to "
                "--target=hip");
  if (gpu && !maxDimValues.empty())
    return fail("--max-dim: symbolic dimensions are not supported on GPU "
                "targets yet; specialise them with --dim NAME=VALUE");
  // Several inputs, or variants of one, make one bundle: an entry point per
  // input (named after its file) or per variant.
  bool bundle = inputFilenames.size() > 1 || !variants.empty();
  if (bundle && artifactName.empty())
    return fail("several inputs or --variant make one bundle: name its "
                "files with --name");
  std::string name = artifactName;
  if (name.empty())
    name = llvm::sys::path::stem(inputFilenames.front()).str();
  if (!aotc::isValidCIdentifier(name))
    return fail("--name '" + name + "' is not a valid C identifier");
  llvm::Expected<std::vector<BundlePart>> parts = bundleParts(bundle);
  if (!parts)
    return fail(llvm::toString(parts.takeError()));

  auto target = [&]() -> llvm::Expected<std::unique_ptr<aotc::Target>> {
    if (!gpu)
      return aotc::createCPUTarget(cpuOptions);
    aotc::GPUTargetOptions options;
    options.chips = gpuChips;
    options.onDeviceTensors = onDeviceTensors;
    options.host = cpuOptions;
    if (targetName == "hip") {
      options.toolkitPath = rocmDeviceLibs;
      if (options.toolkitPath.empty())
        options.toolkitPath =
            llvm::sys::Process::GetEnv("AOTC_ROCM_DEVICE_LIBS")
                .value_or("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode");
      options.lldPath = cpuOptions.lldPath;
      return aotc::createHIPTarget(options);
    }
    options.toolkitPath = cudaPath;
    if (options.toolkitPath.empty())
      options.toolkitPath =
          llvm::sys::Process::GetEnv("AOTC_CUDA_PATH").value_or(
              "/usr/local/cuda");
    return aotc::createCUDATarget(options);
  }();
  if (!target)
    return fail(llvm::toString(target.takeError()));

  if (!dumpDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir))
      return fail("cannot create --dump-dir '" + dumpDir +
                  "': " + ec.message());

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // GPU targets serialize device modules in-process (NVVM, ROCDL).
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics name file:line:col and the op; the generic dump of the op
  // that MLIR appends by default is noise for users.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Remarks (a strategy a pass could not carry out) only with -v; the
  // handler registered last sees a diagnostic first.
  context.getDiagEngine().registerHandler([](Diagnostic &diagnostic) {
    return success(diagnostic.getSeverity() == DiagnosticSeverity::Remark &&
                   !verbose);
  });
  Compiler compiler(context, **target, name);
  auto start = std::chrono::steady_clock::now();
  // Each part imported into a module of its own, then moved into the first.
  OwningOpRef<ModuleOp> module;
  std::optional<aotc::ONNXImportOptions> onnxOptions;
  std::vector<std::unique_ptr<llvm::SourceMgr>> bundleSources;
  for (const BundlePart &part : *parts) {
    OwningOpRef<ModuleOp> imported;
    if (llvm::StringRef(part.file).ends_with(".onnx")) {
      // --dim, --max-dim and --bind-input, read at the first ONNX input.
      if (!onnxOptions) {
        llvm::Expected<aotc::ONNXImportOptions> options = onnxImportOptions();
        if (!options)
          return fail(llvm::toString(options.takeError()));
        onnxOptions = std::move(*options);
      }
      aotc::ONNXImportOptions importOptions = *onnxOptions;
      importOptions.functionName = bundle ? part.entry : name;
      for (const auto &[key, size] : part.dims) {
        if (importOptions.symbolicDims.count(key))
          return fail("dimension '" + key + "' has both --variant and "
                      "--max-dim");
        if (!importOptions.dimValues.try_emplace(key, size).second)
          return fail("dimension '" + key + "' has both --dim and --variant");
      }
      imported = aotc::importONNXModel(context, part.file, importOptions);
    } else {
      if (!dimValues.empty())
        return fail("--dim applies to ONNX models only");
      if (!bindInputs.empty())
        return fail("--bind-input applies to ONNX models only");
      if (!externOps.empty())
        return fail("--extern applies to ONNX models only; in MLIR, a "
                    "kernel of yours is a private function declaration");
      if (!offloadOps.empty())
        return fail("--offload applies to ONNX models only");
      std::string errorMessage;
      std::unique_ptr<llvm::MemoryBuffer> file =
          openInputFile(part.file, &errorMessage);
      if (!file)
        return fail("cannot read '" + part.file + "': " + errorMessage);
      // The first file in the driver's source manager, the others each in
      // one of their own (the parser reads a manager's main file).
      llvm::SourceMgr *sources = &sourceMgr;
      std::optional<SourceMgrDiagnosticHandler> partDiagnostics;
      if (!module) {
        sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
      } else {
        bundleSources.push_back(std::make_unique<llvm::SourceMgr>());
        sources = bundleSources.back().get();
        sources->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
        partDiagnostics.emplace(*sources, &context);
      }
      imported = aotc::parseProgram(*sources, &context);
      // In a bundle, a file's one public function is named after the file.
      if (imported && bundle) {
        SmallVector<func::FuncOp> entries;
        for (auto func : imported->getOps<func::FuncOp>())
          if (func.isPublic() && !func.isExternal())
            entries.push_back(func);
        if (entries.size() == 1 &&
            entries.front().getSymName() != part.entry) {
          if (!aotc::isValidCIdentifier(part.entry))
            return fail(part.file + ": its entry point would be named '" +
                        part.entry + "', not a valid C identifier");
          if (SymbolTable::lookupSymbolIn(*imported, part.entry))
            return fail(part.file + ": cannot name its entry point '" +
                        part.entry + "': the file defines that symbol");
          if (failed(SymbolTable::replaceAllSymbolUses(
                  entries.front(),
                  StringAttr::get(&context, part.entry), *imported)))
            return fail(part.file + ": cannot rename its entry point");
          SymbolTable::setSymbolName(entries.front(), part.entry);
        }
      }
    }
    if (!imported)
      return 1;
    if (!module) {
      module = std::move(imported);
      continue;
    }
    // The symbols of one part must not clash with another's.
    SymbolTable symbols(*module);
    for (Operation &op :
         llvm::make_early_inc_range(imported->getBody()->getOperations())) {
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        if (Operation *earlier = symbols.lookup(symbol.getName())) {
          // The same extern kernel declared by two inputs: one declaration.
          auto decl = dyn_cast<func::FuncOp>(op);
          auto earlierDecl = dyn_cast<func::FuncOp>(earlier);
          if (decl && earlierDecl && decl.isExternal() &&
              earlierDecl.isExternal() &&
              decl.getFunctionType() == earlierDecl.getFunctionType() &&
              decl->getAttrDictionary() == earlierDecl->getAttrDictionary())
            continue;
          return fail(part.file + ": symbol '" + symbol.getName().str() +
                      "' is also defined by an earlier input of the bundle");
        }
      op.moveBefore(module->getBody(), module->getBody()->end());
    }
  }
  if (!module)
    return 1;
  if (failed(applyExternScratch(*module)))
    return 1;
  compiler.report("parse", start);
  if (failed(compiler.dump("input.mlir",
                           [&](llvm::raw_ostream &os) { module->print(os); })))
    return 1;

  // The machine model every CPU pass reads (aotc::CpuTarget::of).
  if (const aotc::CpuTarget *cpu = (*target)->cpuTarget())
    (*module)->setAttr(aotc::kCpuTargetAttrName, cpu->toAttr(&context));

  aotc::FrontendOptions frontend;
  // A bundle's entry points are named already (after their inputs).
  frontend.entryName = bundle ? "" : name;
  frontend.maxDims = std::vector<std::string>(maxDimValues.begin(), maxDimValues.end());
  aotc::TensorOptions tensor;
  // CPU passes read the width from aotc.cpu_target; GPU targets, which
  // record none, give theirs.
  if (!(*target)->cpuTarget())
    tensor.vectorBits = (*target)->vectorBits();
  tensor.winograd = winograd;
  tensor.winogradMaxTile = winogradMaxTile;
  tensor.genericStrategy = strategy == "generic";
  if (!dumpDir.empty()) {
    llvm::SmallString<256> table(dumpDir);
    llvm::sys::path::append(table, name + ".strategy.txt");
    tensor.strategyTable = std::string(table);
  }
  aotc::BufferizeOptions bufferize;
  bufferize.vectorCopies = !gpu;
  bufferize.deviceExternOperands = gpu;
  bufferize.minParallelWork = tensor.minParallelWork;
  if (failed(compiler.runStage(*module, "linalg.mlir",
                               [&](OpPassManager &pm) {
                                 aotc::buildFrontendPipeline(pm, frontend);
                               })) ||
      failed(compiler.runStage(*module, "tiled.mlir",
                               [&](OpPassManager &pm) {
                                 if (gpu)
                                   aotc::buildGPUTensorPipeline(pm, {});
                                 else
                                   aotc::buildTensorPipeline(pm, tensor);
                               })) ||
      failed(compiler.runStage(*module, "bufferized.mlir",
                               [&](OpPassManager &pm) {
                                 aotc::buildBufferizePipeline(pm, bufferize);
                               })) ||
      (gpu && failed(compiler.runStage(*module, "kernels.mlir",
                                       [&](OpPassManager &pm) {
                                         (*target)->buildKernelPipeline(pm);
                                       }))))
    return 1;

  // The ABI view of every entry point, with its memory plan, and the
  // extern kernels the object calls.
  std::vector<aotc::EntryPointSignature> entries;
  for (Operation &op : module->getBody()->getOperations()) {
    FailureOr<std::optional<aotc::EntryPointSignature>> sig =
        aotc::readEntryPoint(&op);
    if (failed(sig))
      return 1;
    if (*sig)
      entries.push_back(std::move(**sig));
  }
  std::vector<std::string> externSymbols = externKernels(*module);

  if (failed(compiler.runStage(*module, "llvm.mlir", [&](OpPassManager &pm) {
        (*target)->buildLoweringPipeline(pm);
      })))
    return 1;

  start = std::chrono::steady_clock::now();
  bool dumping = !dumpDir.empty();
  auto artifacts = (*target)->emit(*module, emit.contains("llvm") || dumping,
                                   emit.contains("asm") || dumping);
  if (!artifacts)
    return fail(llvm::toString(artifacts.takeError()));
  compiler.report("llvm codegen", start);
  compiler.reportPhases(artifacts->phases);
  if (failed(compiler.dump("ll", [&](llvm::raw_ostream &os) {
        os << artifacts->llvmIR;
      })) ||
      failed(compiler.dump("s", [&](llvm::raw_ostream &os) {
        os << artifacts->assembly;
      })))
    return 1;

  // Everything succeeded: assemble the outputs, then write them.
  aotc::ArtifactInfo info{name, (*target)->infoString(), sanitize,
                          externSymbols};
  PendingOutputs outputs;
  auto outputPath = [&](llvm::StringRef extension) {
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name + extension);
    return std::string(path);
  };
  if (emit.contains("obj"))
    outputs.push_back({outputPath(".o"), artifacts->object});
  if (emit.contains("header"))
    outputs.push_back({outputPath(".h"), aotc::emitHeader(info, entries)});
  if (emit.contains("json"))
    outputs.push_back(
        {outputPath(".json"),
         llvm::formatv("{0:2}\n", aotc::emitManifest(info, entries)).str()});
  if (emit.contains("python"))
    outputs.push_back(
        {outputPath(".py"), aotc::emitPythonLoader(info, entries)});
  if (emit.contains("mlir")) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    outputs.push_back({outputPath(".mlir"), text});
  }
  if (emit.contains("llvm"))
    outputs.push_back({outputPath(".ll"), artifacts->llvmIR});
  if (emit.contains("asm"))
    outputs.push_back({outputPath(".s"), artifacts->assembly});

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
    return fail("cannot create output directory '" + outputDir +
                "': " + ec.message());
  if (!memoryPlot.empty()) {
    std::string plot = aotc::emitMemoryPlot(info, entries);
    if (plotPng) {
      llvm::Expected<std::string> png = aotc::renderPng(plot, rsvgConvert);
      if (!png)
        return fail("--memory-plot: " + llvm::toString(png.takeError()));
      plot = std::move(*png);
    }
    outputs.push_back({memoryPlot, std::move(plot)});
  }
  if (!memoryReport.empty())
    outputs.push_back(
        {memoryReport,
         llvm::formatv("{0:2}\n", aotc::emitMemoryReport(info, entries))
             .str()});
  std::vector<std::string> written;
  for (const auto &[path, text] : outputs) {
    if (llvm::Error e = writeFile(path, text)) {
      // Leave no partial artifact set behind.
      for (const std::string &done : written)
        llvm::sys::fs::remove(done);
      return fail("cannot write '" + path + "': " +
                  llvm::toString(std::move(e)));
    }
    written.push_back(path);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Pipelines name upstream passes textually: they must be registered.
  registerAllPasses();
  aotc::registerAotcPasses();
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "aotc 0.1.0 (ABI version 1, LLVM/MLIR " LLVM_VERSION_STRING ")\n";
  });
  cl::HideUnrelatedOptions(aotcCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "aotc: ahead-of-time compiler for tensor programs\n\n"
      "  aotc model.mlir --target=cpu --name=model -o out/\n"
      "writes out/model.o and out/model.h (see docs/abi.md)\n");
  return compile();
}
