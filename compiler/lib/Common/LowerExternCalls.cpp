//===- LowerExternCalls.cpp - Extern kernels write their results -*- C++ -*-===//
//
// This file implements the aotc-lower-extern-calls pass: after
// bufferization, each call of an extern kernel (a private declaration,
// include/aot_abi/aot_extern.h) writes its results into buffers allocated
// before it, which aotc-plan-memory places in the pool like any other; the
// call's lowered form is a call without results of a declaration that
// records what aotc-emit-extern-calls needs to build the C call.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_LOWEREXTERNCALLS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The alignment of the buffers handed to a kernel (aot_extern.h).
constexpr int64_t kExternAlignment = 64;

struct LowerExternCallsPass
    : aotc::impl::LowerExternCallsBase<LowerExternCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    OpBuilder b(&getContext());
    llvm::DenseMap<func::FuncOp, func::FuncOp> lowered;
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && callee.isExternal() &&
          callee->hasAttr(aotc::kExternAttrName))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      auto extern_ = callee->getAttrOfType<DictionaryAttr>(aotc::kExternAttrName);
      int64_t scratchBytes = 0;
      if (auto bytes = extern_.getAs<IntegerAttr>("scratch_bytes"))
        scratchBytes = bytes.getInt();
      // Every operand and result a contiguous, row-major buffer.
      auto rowMajor = [&](TypeRange types, StringRef what,
                          SmallVectorImpl<Type> &checked) {
        for (Type t : types) {
          auto memref = dyn_cast<MemRefType>(t);
          if (!memref || !memref.hasStaticShape() ||
              !memref.getLayout().isIdentity()) {
            callee.emitError() << "extern kernel '" << callee.getSymName()
                               << "' " << what << " has type " << t
                               << " after bufferization; expected a "
                                  "static, row-major memref";
            return false;
          }
          checked.push_back(t);
        }
        return true;
      };
      SmallVector<Type> inputTypes, outputTypes;
      if (!rowMajor(callee.getArgumentTypes(), "argument", inputTypes) ||
          !rowMajor(callee.getResultTypes(), "result", outputTypes))
        return signalPassFailure();

      // The lowered declaration: inputs, outputs, scratch; no results.
      func::FuncOp &decl = lowered[callee];
      if (!decl) {
        SmallVector<Type> params(inputTypes);
        params.append(outputTypes);
        if (scratchBytes > 0)
          params.push_back(MemRefType::get({scratchBytes}, b.getI8Type()));
        b.setInsertionPoint(callee);
        decl = func::FuncOp::create(
            b, callee.getLoc(), ("__aotc_extern_" + callee.getSymName()).str(),
            b.getFunctionType(params, {}));
        decl.setPrivate();
        NamedAttrList fields(extern_);
        auto typeArray = [&](ArrayRef<Type> types) {
          return b.getArrayAttr(llvm::map_to_vector(
              types, [](Type t) -> Attribute { return TypeAttr::get(t); }));
        };
        fields.set("inputs", typeArray(inputTypes));
        fields.set("outputs", typeArray(outputTypes));
        fields.set("scratch", b.getBoolAttr(scratchBytes > 0));
        decl->setAttr(aotc::kExternAttrName,
                      fields.getDictionary(&getContext()));
        symbols.insert(decl);
      }

      b.setInsertionPoint(call);
      Location loc = call.getLoc();
      SmallVector<Value> operands;
      for (auto [operand, type] : llvm::zip(call.getOperands(), inputTypes)) {
        Value value = operand;
        // A view bufferization passes for the operand, or (for a kernel
        // that reads device memory) a constant in host data: copied into a
        // buffer of the declared layout.
        if (value.getType() != type ||
            (deviceOperands && value.getDefiningOp<memref::GetGlobalOp>())) {
          Value copy = memref::AllocOp::create(
              b, loc, cast<MemRefType>(type),
              b.getI64IntegerAttr(kExternAlignment));
          memref::CopyOp::create(b, loc, value, copy);
          value = copy;
        }
        operands.push_back(value);
      }
      SmallVector<Value> results;
      for (Type type : outputTypes)
        results.push_back(memref::AllocOp::create(
            b, loc, cast<MemRefType>(type),
            b.getI64IntegerAttr(kExternAlignment)));
      operands.append(results);
      if (scratchBytes > 0)
        operands.push_back(memref::AllocOp::create(
            b, loc, MemRefType::get({scratchBytes}, b.getI8Type()),
            b.getI64IntegerAttr(kExternAlignment)));
      func::CallOp::create(b, loc, decl, operands);
      for (auto [old, result] : llvm::zip(call.getResults(), results)) {
        if (old.getType() != result.getType()) {
          call.emitError() << "extern call result has type " << old.getType()
                           << ", its kernel's " << result.getType();
          return signalPassFailure();
        }
        old.replaceAllUsesWith(result);
      }
      call.erase();
    }
    for (auto [callee, decl] : lowered)
      if (SymbolTable::symbolKnownUseEmpty(callee, module))
        callee.erase();
  }
};

} // namespace
