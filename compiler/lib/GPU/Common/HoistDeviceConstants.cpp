//===- HoistDeviceConstants.cpp - Weights once, in host data --*- C++ -*-===//
//
// This file implements the aotc-hoist-device-constants pass: a large
// constant global of a gpu.module keeps its value in a host-module global
// instead, and the device global becomes an uninitialised one that the GPU
// runtime fills from the host data when it loads the module. Every chip's
// code object (and the PTX) then holds only the global's size, not its
// bytes: a model's weights are in the object once.
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_HOISTDEVICECONSTANTS
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Alignment of the host copies (the runtime copies them to the device).
constexpr int64_t kHostAlignment = 64;

/// Bytes of a static memref of whole-byte elements, or -1.
int64_t storageBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return -1;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return -1;
  return type.getNumElements() * static_cast<int64_t>(bits / 8);
}

struct HoistDeviceConstantsPass
    : aotc::impl::HoistDeviceConstantsBase<HoistDeviceConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    SymbolTable hostSymbols(module);
    SmallVector<NamedAttribute> perModule;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      SmallVector<Attribute> entries;
      for (auto global : gpuModule.getOps<memref::GlobalOp>()) {
        auto value =
            dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
        int64_t bytes = storageBytes(global.getType());
        if (!global.getConstant() || !value || bytes < minBytes)
          continue;
        int64_t alignment = std::max<int64_t>(
            kHostAlignment, global.getAlignment().value_or(1));
        b.setInsertionPoint(gpuModule);
        auto host = memref::GlobalOp::create(
            b, global.getLoc(),
            ("__aotc_" + gpuModule.getName() + "_" + global.getSymName())
                .str(),
            b.getStringAttr("private"), global.getType(), value,
            /*constant=*/true, b.getI64IntegerAttr(alignment));
        hostSymbols.insert(host); // renames on a clash
        // Public, so that the runtime finds it by name in the code object;
        // writable and without a value, so that no code object stores it
        // and no compiler folds its loads.
        global.setInitialValueAttr(b.getUnitAttr());
        global.setConstant(false);
        SymbolTable::setSymbolVisibility(global,
                                         SymbolTable::Visibility::Public);
        entries.push_back(b.getArrayAttr(
            {global.getSymNameAttr(),
             FlatSymbolRefAttr::get(host.getSymNameAttr()),
             b.getI64IntegerAttr(bytes)}));
      }
      if (!entries.empty())
        perModule.push_back(
            b.getNamedAttr(gpuModule.getName(), b.getArrayAttr(entries)));
    }
    if (!perModule.empty())
      module->setAttr(aotc::kDeviceGlobalsAttrName, b.getDictionaryAttr(perModule));
  }
};

} // namespace
