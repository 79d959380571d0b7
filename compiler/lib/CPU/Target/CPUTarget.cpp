//===- CPUTarget.cpp - Multicore CPU target ------------------*- C++ -*-===//
//
// This file implements the CPU target: OpenMP-parallel, vectorized LLVM code
// emitted through LLVM's TargetMachine as a position-independent object.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/CpuTarget.h"
#include "aotc/Pipelines/Pipelines.h"
#include "aotc/Target/Target.h"

#include "aotc/CPU/Target/Caches.h"
#include "aotc/CPU/Target/OutlineParallelParts.h"
#include "aotc/CPU/Target/ParallelCodegen.h"
#include "aotc/CPU/Target/TsanWideAccesses.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"
#include "llvm/Transforms/Instrumentation/ThreadSanitizer.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <functional>
#include <mutex>

using namespace mlir;

namespace aotc {

Target::~Target() = default;

namespace {

class CPUTarget : public Target {
public:
  /// `createMachine` makes a machine like `machine`, for another thread.
  CPUTarget(std::function<std::unique_ptr<llvm::TargetMachine>()> createMachine,
            CpuTarget description, std::string sanitize, std::string lld,
            unsigned requestedParts)
      : createMachine(std::move(createMachine)), machine(this->createMachine()),
        description(std::move(description)), sanitize(std::move(sanitize)),
        lld(std::move(lld)), requestedParts(requestedParts) {}

  std::string infoString() const override { return "cpu"; }

  int64_t vectorBits() const override { return description.vectorBits; }

  const CpuTarget *cpuTarget() const override { return &description; }

  void buildLoweringPipeline(OpPassManager &pm) const override {
    CPULoweringOptions options;
    options.target = infoString(); // the width: aotc.cpu_target
    buildCPULoweringPipeline(pm, options);
  }

  llvm::Expected<TargetArtifacts> emit(ModuleOp module, bool wantIR,
                                       bool wantAssembly) const override;

private:
  std::function<std::unique_ptr<llvm::TargetMachine>()> createMachine;
  std::unique_ptr<llvm::TargetMachine> machine;
  CpuTarget description;
  std::string sanitize; ///< "", "address" or "thread"
  std::string lld;      ///< ld.lld (joins parts), or "" when there is none
  unsigned requestedParts; ///< 0: by the module's size
};

/// The machine model of `subtarget`: the ISA from LLVM's description; the
/// caches from the options, else those the OS reports when `host` (code
/// for the machine aotc runs on), else the known CPUs' table, else
/// CpuTarget's documented defaults.
CpuTarget describe(const llvm::Triple &triple, llvm::StringRef cpu,
                   const llvm::MCSubtargetInfo &subtarget,
                   const CPUTargetOptions &options, bool host) {
  CpuTarget target;
  target.triple = triple.str();
  target.cpu = cpu.str();
  auto has = [&](llvm::StringRef feature) {
    return subtarget.checkFeatures(("+" + feature).str());
  };
  llvm::SmallVector<llvm::StringRef> features;
  if (triple.isX86())
    features = {"avx2", "avx512bf16", "avx512f", "avx512vnni", "fma"};
  else if (triple.isAArch64())
    features = {"neon", "sve"};
  for (llvm::StringRef feature : features)
    if (has(feature))
      target.features.push_back(feature.str());
  // The register file: AVX-512 has 32 registers of 512 bits, AVX/AVX2 16 of
  // 256, SSE 16 of 128; AArch64 32 Neon registers of 128 bits, or 32 SVE
  // registers of --sve-vector-bits (else SVE code is generated for fixed
  // 128-bit vectors as well).
  target.vectorBits = 128;
  target.vectorRegisters = triple.isX86() ? 16 : 32;
  if (options.sveVectorBits > 0) {
    target.vectorBits = options.sveVectorBits;
    target.sveVectorBits = options.sveVectorBits;
  } else if (triple.isX86() && has("avx512f")) {
    target.vectorBits = 512;
    target.vectorRegisters = 32;
  } else if (triple.isX86() && has("avx")) {
    target.vectorBits = 256;
  }
  std::optional<CacheFigures> caches;
  if (host && (caches = hostCaches()))
    target.caches = "host";
  else if ((caches = knownCpuCaches(cpu)))
    target.caches = "known-cpu";
  if (caches)
    target.setCaches(*caches);
  const CacheFigures &given = options.caches;
  if (given.l1Bytes > 0 || given.l1Ways > 0 || given.l2Bytes > 0 ||
      given.l3Bytes > 0 || given.lineBytes > 0)
    target.caches += " + options";
  target.setCaches(given);
  return target;
}

/// Runs the LLVM O3 pipeline tuned for the target machine, and last the
/// instrumentation of `sanitize` (as clang places it: after the
/// optimizations, so that it checks the accesses that remain).
void optimize(llvm::Module &module, llvm::TargetMachine &machine,
              llvm::StringRef sanitize) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  // With --time-passes, the optimization passes' timings too (code
  // generation's come from the legacy pass manager).
  llvm::PassInstrumentationCallbacks callbacks;
  llvm::StandardInstrumentations instrumentations(module.getContext(),
                                                  /*DebugLogging=*/false);
  if (llvm::TimePassesIsEnabled)
    instrumentations.registerCallbacks(callbacks, &mam);
  // Loop load elimination forwards a value stored in one iteration to a
  // load in a later one: the generated loops have none to forward (every
  // e2e artifact and corpus model tried compiles to the same object without
  // it), and its dependence analysis of the register tiles' many accesses
  // is a large part of LLVM's time.
  callbacks.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        return pass != "LoopLoadEliminationPass";
      });
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  auto instrument = [sanitize](llvm::ModulePassManager &mpm,
                               llvm::OptimizationLevel,
                               llvm::ThinOrFullLTOPhase) {
    if (sanitize == "address")
      mpm.addPass(llvm::AddressSanitizerPass(llvm::AddressSanitizerOptions{}));
    if (sanitize == "thread") {
      mpm.addPass(
          llvm::createModuleToFunctionPassAdaptor(TsanWideAccessesPass()));
      mpm.addPass(llvm::ModuleThreadSanitizerPass());
      mpm.addPass(
          llvm::createModuleToFunctionPassAdaptor(llvm::ThreadSanitizerPass()));
    }
  };
  builder.registerOptimizerLastEPCallback(instrument);
  llvm::ModulePassManager mpm =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

/// Emits an object file or assembly of `module` into a string.
llvm::Expected<std::string> codegen(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream stream(bytes);
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, stream, nullptr, type))
    return llvm::createStringError("the target cannot emit this file type");
  pm.run(module);
  return std::string(bytes.begin(), bytes.end());
}

llvm::Expected<TargetArtifacts> CPUTarget::emit(ModuleOp module, bool wantIR,
                                                bool wantAssembly) const {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  auto start = std::chrono::steady_clock::now();
  // Milliseconds since `start`, which restarts.
  auto lap = [&start] {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - start).count();
    start = now;
    return ms;
  };
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "aotc");
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  // Code is generated for the requested CPU, features included.
  for (llvm::Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", machine->getTargetCPU());
    f.addFnAttr("target-features", machine->getTargetFeatureString());
    // SVE of one known length: LLVM lowers the fixed-length vectors wider
    // than Neon's to SVE instructions (as clang's -msve-vector-bits does).
    if (unsigned vscale = description.sveVectorBits / 128)
      f.addFnAttr(llvm::Attribute::getWithVScaleRangeArgs(
          context, vscale, vscale));
    // The sanitizer passes instrument only functions that ask for it.
    if (sanitize == "address")
      f.addFnAttr(llvm::Attribute::SanitizeAddress);
    if (sanitize == "thread")
      f.addFnAttr(llvm::Attribute::SanitizeThread);
  }
  outlineParallelParts(*llvmModule);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return llvm::createStringError("internal error: invalid LLVM IR");

  // Large modules: optimized and code generated in parts on several
  // threads, except with --time-passes (LLVM's pass timers are not shared
  // across threads), for sanitized code (whose module constructors stay
  // whole) and without a linker to join the parts.
  unsigned parts = llvm::TimePassesIsEnabled || !sanitize.empty() ||
                           lld.empty()
                       ? 1
                       : codegenParts(*llvmModule, requestedParts);
  // One part's optimized IR and assembly, when asked for. Code generation
  // rewrites the IR it runs on (CodeGenPrepare and the like): the assembly
  // comes from a copy, so that the object is the same with or without it
  // (and the assembly shows the object's code).
  auto texts = [&](llvm::Module &part, llvm::TargetMachine &own,
                   std::string &ir, std::string &assembly) -> llvm::Error {
    if (wantIR) {
      llvm::raw_string_ostream os(ir);
      part.print(os, nullptr);
    }
    if (!wantAssembly)
      return llvm::Error::success();
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(part);
    auto text = codegen(*copy, own, llvm::CodeGenFileType::AssemblyFile);
    if (!text)
      return text.takeError();
    assembly = std::move(*text);
    return llvm::Error::success();
  };

  TargetArtifacts artifacts;
  artifacts.phases.push_back({"translate", lap()});
  llvm::Expected<std::string> object = std::string();
  if (parts <= 1) {
    optimize(*llvmModule, *machine, sanitize);
    if (llvm::Error error = texts(*llvmModule, *machine, artifacts.llvmIR,
                                  artifacts.assembly))
      return std::move(error);
    object = codegen(*llvmModule, *machine, llvm::CodeGenFileType::ObjectFile);
  } else {
    // Each part (0: the variables, which need no optimization) is optimized
    // on its own thread: the O3 pipeline is function by function but for
    // its interprocedural passes, which the parts' calls through libomp and
    // their noinline outlined loops leave little to do.
    llvm::SmallVector<std::string> irs(parts + 1), assemblies(parts + 1);
    object = emitObjectInParts(
        *llvmModule, parts,
        [&](llvm::Module &part,
            unsigned index) -> llvm::Expected<std::string> {
          std::unique_ptr<llvm::TargetMachine> own = createMachine();
          if (index > 0)
            optimize(part, *own, sanitize);
          if (llvm::Error error =
                  texts(part, *own, irs[index], assemblies[index]))
            return std::move(error);
          return codegen(part, *own, llvm::CodeGenFileType::ObjectFile);
        },
        lld);
    // The parts' texts in turn, each a module (or assembly file) of its
    // own.
    for (unsigned index = 0; index <= parts; ++index) {
      std::string head = (index == 0 ? "variables"
                                     : "functions " + std::to_string(index)) +
                         " (part " + std::to_string(index) + " of " +
                         std::to_string(parts + 1) + ")\n";
      if (wantIR)
        artifacts.llvmIR += "; aotc: " + head + irs[index];
      if (wantAssembly)
        artifacts.assembly += "# aotc: " + head + assemblies[index];
    }
  }
  if (!object)
    return object.takeError();
  artifacts.object = std::move(*object);
  artifacts.phases.push_back(
      {parts > 1 ? "O3 + " + std::to_string(parts) + " parts"
                 : "O3 + object",
       lap()});
  return artifacts;
}

} // namespace

llvm::Expected<std::unique_ptr<Target>>
createCPUTarget(const CPUTargetOptions &options) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });

  llvm::Triple triple(options.triple.empty() ? llvm::sys::getDefaultTargetTriple()
                                             : options.triple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("unknown target triple '" + triple.str() +
                                   "': " + error);

  std::string cpu = options.cpu;
  std::string features = options.features;
  // The host CPU when none is named and the triple is the host's (a
  // cross triple without --mcpu takes LLVM's generic CPU, not the host's
  // name and features).
  bool host = (cpu.empty() || cpu == "native") &&
              triple.getArch() ==
                  llvm::Triple(llvm::sys::getProcessTriple()).getArch();
  if (!host && cpu.empty())
    cpu = "generic";
  if (host) {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures hostFeatures;
    for (const auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      hostFeatures.AddFeature(name, enabled);
    if (!features.empty())
      hostFeatures.AddFeature(features);
    features = hostFeatures.getString();
  }
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpu, features));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    return llvm::createStringError("unknown CPU '" + cpu + "' for target '" +
                                   triple.str() + "'");

  llvm::TargetOptions targetOptions;
  // Multiply-adds become FMAs (one rounding instead of two), as with
  // -ffp-contract=fast: the contraction lowering emits separate mul/add.
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  auto createMachine = [=]() {
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        triple, cpu, features, targetOptions, llvm::Reloc::PIC_,
        std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  };
  if (!createMachine())
    return llvm::createStringError("cannot create a target machine for '" +
                                   triple.str() + "'");
  if (options.sveVectorBits > 0) {
    unsigned bits = options.sveVectorBits;
    if (!triple.isAArch64() ||
        !subtarget->checkFeatures("+sve"))
      return llvm::createStringError(
          "--sve-vector-bits needs an AArch64 target with SVE (an SVE "
          "--mcpu such as neoverse-v1, or --mattr=+sve); '" + cpu +
          "' for '" + triple.str() + "' has none");
    if (bits < 128 || bits > 2048 || !llvm::isPowerOf2_32(bits))
      return llvm::createStringError(
          "--sve-vector-bits must be 128, 256, 512, 1024 or 2048, not " +
          std::to_string(bits));
  }
  if (!options.sanitize.empty() && options.sanitize != "address" &&
      options.sanitize != "thread")
    return llvm::createStringError("unknown sanitizer '" + options.sanitize +
                                   "' (address or thread)");
  return std::make_unique<CPUTarget>(createMachine,
                                     describe(triple, cpu, *subtarget, options,
                                              host),
                                     options.sanitize,
                                     llvm::sys::fs::can_execute(options.lldPath)
                                         ? options.lldPath
                                         : "",
                                     options.codegenParts);
}

} // namespace aotc
