//===- AnnotateEntryPoints.cpp - Record entry point signatures -*- C++ -*-===//
//
// This file implements the aotc-annotate-entry-points pass, which fixes the
// ABI view of every public function (tensor names, dtypes, shapes) before any
// lowering changes its signature.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"
#include "aotc/Transforms/EntryPoint.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace aotc {
#define GEN_PASS_DEF_ANNOTATEENTRYPOINTS
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Builds the `{name, dtype, shape}` dictionary of one tensor; `dtype`
/// overrides the element type's own name when given.
DictionaryAttr tensorInfo(MLIRContext *ctx, StringRef name,
                          RankedTensorType type, StringAttr dtype) {
  Builder b(ctx);
  return b.getDictionaryAttr(
      {b.getNamedAttr("name", b.getStringAttr(name)),
       b.getNamedAttr("dtype",
                      dtype ? dtype
                            : b.getStringAttr(
                                  aotc::dtypeName(type.getElementType()))),
       b.getNamedAttr("shape", b.getDenseI64ArrayAttr(type.getShape()))});
}

/// Every output is a separate caller buffer: a value returned more than once
/// gets a copy per extra occurrence, so each output has its own tensor.
void makeResultsDistinct(func::FuncOp func) {
  func.walk([](func::ReturnOp ret) {
    OpBuilder b(ret);
    llvm::SmallPtrSet<Value, 4> seen;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      if (seen.insert(v).second)
        continue;
      // An explicit allocation with a copy: unlike a linalg copy, it is not
      // folded away as an identity by canonicalization.
      auto copy = bufferization::AllocTensorOp::create(
          b, ret.getLoc(), cast<RankedTensorType>(v.getType()),
          /*dynamicSizes=*/ValueRange{}, /*copy=*/v);
      operand.set(copy.getResult());
    }
  });
}

struct AnnotateEntryPointsPass
    : aotc::impl::AnnotateEntryPointsBase<AnnotateEntryPointsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        entries.push_back(func);

    if (!entryName.empty() && entries.size() == 1 &&
        entries.front().getSymName() != entryName) {
      func::FuncOp func = entries.front();
      if (SymbolTable::lookupSymbolIn(module, entryName)) {
        func.emitError() << "cannot name the entry point '" << entryName
                         << "': another symbol already has that name";
        return signalPassFailure();
      }
      if (failed(SymbolTable::replaceAllSymbolUses(
              func, StringAttr::get(&getContext(), entryName), module)))
        return signalPassFailure();
      SymbolTable::setSymbolName(func, entryName);
    }

    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    for (func::FuncOp func : entries) {
      if (!aotc::isValidCIdentifier(func.getSymName())) {
        func.emitError() << "entry point name '" << func.getSymName()
                         << "' is not a valid C identifier";
        return signalPassFailure();
      }
      // Entry points take and return statically shaped tensors of dtypes the
      // ABI describes (aotc-verify-input reports these first in the pipeline).
      auto checkType = [&](Type type, const Twine &what) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (tensor && tensor.hasStaticShape() &&
            !aotc::dtypeName(tensor.getElementType()).empty())
          return success();
        func.emitError() << what << " has type " << type
                         << ", which the entry point ABI cannot describe";
        return failure();
      };
      for (auto [i, t] : llvm::enumerate(func.getArgumentTypes()))
        if (failed(checkType(t, "argument " + Twine(i))))
          return signalPassFailure();
      for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
        if (failed(checkType(t, "result " + Twine(i))))
          return signalPassFailure();
      makeResultsDistinct(func);
      SmallVector<Attribute> inputs, outputs;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        auto nameAttr =
            func.getArgAttrOfType<StringAttr>(i, aotc::kTensorNameAttrName);
        std::string name =
            nameAttr ? nameAttr.str() : ("arg" + Twine(i)).str();
        inputs.push_back(tensorInfo(
            ctx, name, cast<RankedTensorType>(func.getArgumentTypes()[i]),
            func.getArgAttrOfType<StringAttr>(i, aotc::kTensorDtypeAttrName)));
        // Inputs belong to the caller: bufferization must never write them.
        func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                        b.getBoolAttr(false));
      }
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
        auto nameAttr =
            func.getResultAttrOfType<StringAttr>(i, aotc::kTensorNameAttrName);
        std::string name =
            nameAttr ? nameAttr.str() : ("result" + Twine(i)).str();
        outputs.push_back(tensorInfo(
            ctx, name, cast<RankedTensorType>(func.getResultTypes()[i]),
            func.getResultAttrOfType<StringAttr>(i,
                                                 aotc::kTensorDtypeAttrName)));
      }
      // Tensor names become C parameter names in the header.
      // ... and must not clash with the ABI's own parameters.
      llvm::StringSet<> seen = {"pool", "pool_bytes", "stream"};
      for (Attribute a : llvm::concat<Attribute>(inputs, outputs)) {
        StringRef name =
            cast<StringAttr>(cast<DictionaryAttr>(a).get("name")).getValue();
        if (!aotc::isValidCIdentifier(name) || !seen.insert(name).second) {
          func.emitError() << "tensor name '" << name
                           << "' is not a unique, valid C identifier";
          return signalPassFailure();
        }
      }
      func->setAttr(aotc::kEntryAttrName,
                    b.getDictionaryAttr(
                        {b.getNamedAttr("name", func.getSymNameAttr()),
                         b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
                         b.getNamedAttr("outputs", b.getArrayAttr(outputs))}));
    }
  }
};

} // namespace
