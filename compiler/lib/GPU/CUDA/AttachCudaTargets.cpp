//===- AttachCudaTargets.cpp - NVVM targets and wgmma variants -*- C++ -*-===//
//
// This file implements the aotc-attach-cuda-targets pass: one NVVM target
// per chip on every gpu.module, after choosing, per module, between the two
// bodies of kernels built with a wgmma variant (aotc-gpu-mma-contractions
// wgmma=1). A module with such kernels is cloned for sm_90a, the only
// target with wgmma; the clone keeps the wgmma bodies, the original the
// mma.sync ones. It also implements the marker helpers of WgmmaVariant.h.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/CUDA/Passes.h"
#include "aotc/GPU/CUDA/WgmmaVariant.h"

#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_ATTACHCUDATARGETS
#include "aotc/GPU/CUDA/Passes.h.inc"
} // namespace aotc

using namespace mlir;

//===----------------------------------------------------------------------===//
// Variant markers
//===----------------------------------------------------------------------===//

namespace {

/// Whether `op` is a variant marker.
bool isMarker(Operation *op) {
  auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
  return cast && cast->hasAttr(aotc::kWgmmaVariantAttrName) &&
         cast.getInputs().empty() && cast->getNumResults() == 1 &&
         cast->getResult(0).getType().isInteger(1);
}

} // namespace

Value aotc::createWgmmaVariantMarker(OpBuilder &b, Location loc) {
  auto marker =
      UnrealizedConversionCastOp::create(b, loc, b.getI1Type(), ValueRange{});
  marker->setAttr(kWgmmaVariantAttrName, b.getUnitAttr());
  return marker.getResult(0);
}

bool aotc::hasWgmmaVariants(Operation *root) {
  return root
      ->walk([](Operation *op) {
        return isMarker(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult aotc::resolveWgmmaVariants(Operation *root, bool useWgmma) {
  SmallVector<Operation *> markers;
  root->walk([&](Operation *op) {
    if (isMarker(op))
      markers.push_back(op);
  });
  for (Operation *marker : markers) {
    for (Operation *user : llvm::make_early_inc_range(marker->getUsers())) {
      auto ifOp = dyn_cast<scf::IfOp>(user);
      if (!ifOp || ifOp.getNumResults() != 0 ||
          ifOp.getCondition() != marker->getResult(0))
        return user->emitError("a wgmma variant marker must only be the "
                               "condition of scf.if ops without results");
      // The kept region's ops (all but its scf.yield) before the scf.if.
      Region &kept = useWgmma ? ifOp.getThenRegion() : ifOp.getElseRegion();
      if (!kept.empty()) {
        Block &block = kept.front();
        block.getTerminator()->erase();
        ifOp->getBlock()->getOperations().splice(
            ifOp->getIterator(), block.getOperations());
      }
      ifOp->erase();
    }
    marker->erase();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {

/// The chip whose SASS comes from the wgmma variant, and the arch-specific
/// target it is built for.
constexpr llvm::StringLiteral kWgmmaChip = "sm_90", kWgmmaTarget = "sm_90a";

struct AttachCudaTargetsPass
    : aotc::impl::AttachCudaTargetsBase<AttachCudaTargetsPass> {
  using Base::Base;

  NVVM::NVVMTargetAttr target(StringRef chip) {
    return NVVM::NVVMTargetAttr::get(&getContext(), optLevel,
                                     "nvptx64-nvidia-cuda", chip,
                                     featuresFor(chip));
  }

  /// `features`, with its PTX version raised to the first one LLVM 22's
  /// NVPTX backend accepts for `chip` (it aborts on an older one): 8.6 for
  /// sm_100/101, 8.7 for sm_120, 8.8 for sm_103/121 and the family targets
  /// (sm_100f, ...), 9.0 for sm_88, sm_110 and any other newer one. Older chips
  /// keep `features` as given.
  std::string featuresFor(StringRef chip) {
    unsigned sm = 0;
    if (!chip.starts_with("sm_") ||
        chip.drop_front(3).take_while(llvm::isDigit).getAsInteger(10, sm))
      return features;
    unsigned minimum = sm == 100 || sm == 101   ? 86
                       : sm == 120              ? 87
                       : sm == 103 || sm == 121 ? 88
                       : sm >= 100 || sm == 88  ? 90
                                                : 0;
    // Family-specific targets (sm_100f, sm_120f, ...) need PTX 8.8.
    if (chip.ends_with("f") && sm >= 100)
      minimum = std::max(minimum, 88u);
    StringRef given = features;
    unsigned version = 0;
    if (minimum == 0 || !given.starts_with("+ptx") ||
        given.drop_front(4).getAsInteger(10, version) || version >= minimum)
      return features;
    return "+ptx" + std::to_string(minimum);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    bool wgmma = llvm::is_contained(chips, kWgmmaChip.str());
    SmallVector<Attribute> targets;
    for (const std::string &chip : chips)
      targets.push_back(target(chip));
    for (auto gpuModule :
         llvm::to_vector(module.getBody()->getOps<gpu::GPUModuleOp>())) {
      // One block per SM is all a kernel needs (.minnctapersm 1): ptxas
      // then sizes its registers for the code rather than for an occupancy
      // it guesses from the block size, which made it spill (8 bytes in two
      // of mobilenet_v2's sm_90 kernels, at 80 registers; 86 without).
      for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
        if (func.isKernel())
          func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                        IntegerAttr::get(IntegerType::get(ctx, 32), 1));
      if (wgmma && aotc::hasWgmmaVariants(gpuModule)) {
        std::string name = (gpuModule.getName() + "_" + kWgmmaTarget).str();
        if (module.lookupSymbol(name)) {
          gpuModule.emitError("symbol '") << name << "' is already defined";
          return signalPassFailure();
        }
        OpBuilder b(ctx);
        b.setInsertionPointAfter(gpuModule);
        auto clone = cast<gpu::GPUModuleOp>(b.clone(*gpuModule));
        clone.setName(name);
        if (failed(aotc::resolveWgmmaVariants(clone, /*useWgmma=*/true)))
          return signalPassFailure();
        // Matrix descriptors hold shared addresses in 16-byte units;
        // 128 bytes also keeps every core matrix in one bank row.
        for (auto func : clone.getOps<gpu::GPUFuncOp>())
          for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e;
               ++i)
            func.setWorkgroupAttributionAttr(
                i, LLVM::LLVMDialect::getAlignAttrName(),
                b.getI64IntegerAttr(128));
        clone.setTargetsAttr(b.getArrayAttr({target(kWgmmaTarget)}));
      }
      if (failed(aotc::resolveWgmmaVariants(gpuModule, /*useWgmma=*/false)))
        return signalPassFailure();
      if (!targets.empty())
        gpuModule.setTargetsAttr(ArrayAttr::get(ctx, targets));
    }
  }
};

} // namespace
