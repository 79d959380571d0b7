//===- LinkCudaFatbin.cpp - Per-chip PTX to one fatbin --------*- C++ -*-===//
//
// This file implements the aotc-link-cuda-fatbin pass: the PTX that MLIR's
// NVVM target produced for each requested chip is assembled by the CUDA
// toolkit's ptxas into SASS, and fatbinary packs every chip's cubin plus the
// newest chip's PTX into the single image the artifact embeds.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/CUDA/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace aotc {
#define GEN_PASS_DEF_LINKCUDAFATBIN
#include "aotc/GPU/CUDA/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Temporary files removed when the pass is done with them.
class TempFiles {
public:
  ~TempFiles() {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
  }
  /// A new, empty temporary file.
  FailureOr<std::string> create(StringRef suffix) {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("aotc-cuda", suffix, path))
      return failure();
    paths.push_back(path.str().str());
    return paths.back();
  }

private:
  std::vector<std::string> paths;
};

/// The SM number of a chip name ("sm_90a" -> "90a").
StringRef smNumber(StringRef chip) { return chip.drop_front(3); }

struct LinkCudaFatbinPass
    : aotc::impl::LinkCudaFatbinBase<LinkCudaFatbinPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto binaries = llvm::to_vector(module.getOps<gpu::BinaryOp>());
    // Arch-specific variants (aotc-attach-cuda-targets): @<base>_<chip>
    // with one object for <chip> = sm_XXa, beside a binary @<base>.
    llvm::StringMap<gpu::BinaryOp> variantOf;
    SmallVector<gpu::BinaryOp> bases;
    for (gpu::BinaryOp binary : binaries) {
      StringRef chip = archSpecificChip(binary);
      StringRef name = binary.getName();
      if (!chip.empty() && name.ends_with("_" + chip.str()) &&
          module.lookupSymbol<gpu::BinaryOp>(
              name.drop_back(chip.size() + 1))) {
        variantOf[name.drop_back(chip.size() + 1)] = binary;
        continue;
      }
      bases.push_back(binary);
    }
    for (gpu::BinaryOp binary : bases)
      if (failed(link(binary, variantOf.lookup(binary.getName()))))
        return signalPassFailure();
    for (auto &entry : variantOf)
      entry.second.erase();
  }

  /// The chip of a binary with a single PTX object for an arch-specific
  /// target (sm_90a), or "".
  static StringRef archSpecificChip(gpu::BinaryOp binary) {
    if (binary.getObjects().size() != 1)
      return "";
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
    if (!target || !target.getChip().ends_with("a"))
      return "";
    return target.getChip();
  }

  /// `<toolkit>/bin/<name>`, or an error naming the path searched.
  FailureOr<std::string> findTool(Operation *op, StringRef name) {
    llvm::SmallString<256> path(toolkitPath);
    llvm::sys::path::append(path, "bin", name);
    if (!llvm::sys::fs::can_execute(path))
      return op->emitError("CUDA toolkit tool '")
             << name << "' not found at '" << path
             << "' (set --cuda-path or AOTC_CUDA_PATH)";
    return path.str().str();
  }

  /// Runs `tool args...`; on failure, an error with the tool's own output.
  LogicalResult run(Operation *op, StringRef tool, ArrayRef<std::string> args,
                    TempFiles &temps) {
    FailureOr<std::string> log = temps.create("log");
    if (failed(log))
      return op->emitError("cannot create a temporary file");
    SmallVector<StringRef> argv = {tool};
    for (const std::string &arg : args)
      argv.push_back(arg);
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(*log),
                                            StringRef(*log)};
    std::string message;
    int rc = llvm::sys::ExecuteAndWait(tool, argv, std::nullopt, redirects, 0,
                                       0, &message);
    if (rc == 0)
      return success();
    std::string output;
    if (auto buffer = llvm::MemoryBuffer::getFile(*log))
      output = StringRef((*buffer)->getBuffer()).trim().str();
    return op->emitError() << llvm::sys::path::filename(tool) << " failed"
                           << (message.empty() ? "" : ": ") << message
                           << (output.empty() ? "" : ": ") << output;
  }

  /// Links `binary`'s PTX; a chip X whose arch-specific form Xa has PTX in
  /// `variant` gets its SASS from that PTX, assembled for Xa.
  LogicalResult link(gpu::BinaryOp binary, gpu::BinaryOp variant) {
    // (chip, PTX) for every NVVM object, newest chip last.
    SmallVector<std::pair<std::string, StringRef>> chips;
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly ||
          !target.getChip().starts_with("sm_"))
        return binary.emitError("expected PTX objects of NVVM targets");
      chips.push_back({target.getChip().str(), object.getObject().getValue()});
    }
    llvm::sort(chips, [](const auto &a, const auto &b) {
      int x = 0, y = 0;
      smNumber(a.first).consumeInteger(10, x);
      smNumber(b.first).consumeInteger(10, y);
      return x < y;
    });
    FailureOr<std::string> ptxas = findTool(binary, "ptxas");
    if (failed(ptxas))
      return failure();
    FailureOr<std::string> fatbinary = findTool(binary, "fatbinary");
    if (failed(fatbinary))
      return failure();

    llvm::StringMap<StringRef> variantPtx;
    if (variant) {
      auto object = cast<gpu::ObjectAttr>(variant.getObjects()[0]);
      if (object.getFormat() != gpu::CompilationTarget::Assembly)
        return variant.emitError("expected a PTX object");
      variantPtx[archSpecificChip(variant)] = object.getObject().getValue();
    }

    TempFiles temps;
    FailureOr<std::string> fatbin = temps.create("fatbin");
    if (failed(fatbin))
      return binary.emitError("cannot create a temporary file");
    SmallVector<std::string> images = {"-64", "--create=" + *fatbin};
    auto writePtx = [&](StringRef ptx) -> FailureOr<std::string> {
      FailureOr<std::string> ptxFile = temps.create("ptx");
      if (failed(ptxFile))
        return binary.emitError("cannot create a temporary file");
      std::error_code ec;
      {
        llvm::raw_fd_ostream os(*ptxFile, ec);
        os << ptx;
      }
      if (ec)
        return binary.emitError("cannot write PTX: ") << ec.message();
      return ptxFile;
    };
    for (auto [i, chipAndPtx] : llvm::enumerate(chips)) {
      const auto &[chip, ptx] = chipAndPtx;
      FailureOr<std::string> ptxFile = writePtx(ptx);
      FailureOr<std::string> cubin = temps.create("cubin");
      if (failed(ptxFile) || failed(cubin))
        return binary.emitError("cannot create a temporary file");
      // SASS from the arch-specific variant where there is one.
      std::string sassChip = chip;
      std::string sassPtx = *ptxFile;
      auto it = variantPtx.find(chip + "a");
      if (it != variantPtx.end()) {
        FailureOr<std::string> file = writePtx(it->second);
        if (failed(file))
          return failure();
        sassChip = chip + "a";
        sassPtx = *file;
      }
      if (failed(run(binary, *ptxas,
                     {"-arch=" + sassChip, "-O3", "-o", *cubin, sassPtx},
                     temps)))
        return failure();
      images.push_back("--image3=kind=elf,sm=" + smNumber(sassChip).str() +
                       ",file=" + *cubin);
      if (i + 1 == chips.size())
        images.push_back("--image3=kind=ptx,sm=" + smNumber(chip).str() +
                         ",file=" + *ptxFile);
    }
    if (failed(run(binary, *fatbinary, images, temps)))
      return failure();
    auto bytes = llvm::MemoryBuffer::getFile(*fatbin, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    if (!bytes)
      return binary.emitError("cannot read the fatbin: ")
             << bytes.getError().message();
    auto newest = cast<gpu::ObjectAttr>(binary.getObjects()[0]).getTarget();
    for (Attribute attr : binary.getObjects()) {
      auto target =
          cast<NVVM::NVVMTargetAttr>(cast<gpu::ObjectAttr>(attr).getTarget());
      if (target.getChip() == chips.back().first)
        newest = target;
    }
    MLIRContext *ctx = &getContext();
    auto object = gpu::ObjectAttr::get(
        ctx, newest, gpu::CompilationTarget::Fatbin,
        StringAttr::get(ctx, (*bytes)->getBuffer()), nullptr, nullptr);
    binary.setObjectsAttr(ArrayAttr::get(ctx, {object}));
    return success();
  }
};

} // namespace
