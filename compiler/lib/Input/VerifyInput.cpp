//===- VerifyInput.cpp - Reject unsupported input programs ----*- C++ -*-===//
//
// This file implements the aotc-verify-input pass: the first line of defence
// that turns "aotc cannot compile this" into a diagnostic naming the op and
// its location, instead of a failure deep inside the pipeline.
//
//===----------------------------------------------------------------------===//

#include "aotc/Input/Passes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSet.h"

namespace aotc {
#define GEN_PASS_DEF_VERIFYINPUT
#include "aotc/Input/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Dialects whose ops may appear in an input program.
bool isSupportedDialect(StringRef ns) {
  static const llvm::StringSet<> kDialects = {
      "builtin", "func", "arith", "math", "tensor", "linalg", "tosa"};
  return kDialects.contains(ns);
}

/// Element types the ABI can describe.
bool isSupportedElementType(Type t) {
  if (t.isF16() || t.isBF16() || t.isF32() || t.isF64())
    return true;
  if (auto i = dyn_cast<IntegerType>(t))
    return i.isSignless() && llvm::is_contained({1u, 8u, 16u, 32u, 64u},
                                                i.getWidth());
  return false;
}

/// Checks one type appearing in the program; `what` describes where.
/// Entry point arguments and results may have no elements (`allowEmpty`):
/// the caller passes them, nothing reads or writes them
/// (aotc-annotate-entry-points keeps them out of the computation), and so
/// may the empty tensors a function returns for them.
LogicalResult checkType(Operation *op, Type type, const Twine &what,
                        bool allowEmpty = false) {
  if (isa<UnrankedTensorType>(type))
    return op->emitError() << what << " is unranked (" << type
                           << "); only ranked tensors are supported";
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return success();
  // Dynamic dimensions are symbolic; aotc-annotate-entry-points checks that
  // the entry point names and bounds each one.
  if (!allowEmpty && shaped.hasStaticShape() && shaped.getNumElements() == 0)
    return op->emitError() << what << " has no elements (" << type
                           << "); zero-size tensors are not supported yet";
  if (!isSupportedElementType(shaped.getElementType()))
    return op->emitError() << what << " has unsupported element type "
                           << shaped.getElementType() << " in " << type;
  return success();
}

struct VerifyInputPass : aotc::impl::VerifyInputBase<VerifyInputPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failed = false;
    int publicFunctions = 0;
    // Pre-order, so that skipping an unsupported op skips its body too.
    module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      if (op == module.getOperation())
        return WalkResult::advance();
      if (!isSupportedDialect(op->getName().getDialectNamespace())) {
        op->emitError() << "unsupported op '" << op->getName()
                        << "': aotc accepts func, arith, math, tensor, "
                           "linalg and tosa ops";
        failed = true;
        return WalkResult::skip();
      }
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        if (func.isPublic() && !func.isExternal())
          ++publicFunctions;
        if (func.isExternal()) {
          func.emitError() << "function '" << func.getSymName()
                           << "' has no body; external functions are not "
                              "supported";
          failed = true;
          return WalkResult::skip();
        }
        for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
          if (!isa<TensorType>(t)) {
            func.emitError() << "argument " << i << " has type " << t
                             << "; entry point arguments must be tensors";
            failed = true;
          } else if (mlir::failed(checkType(op, t, "argument " + Twine(i),
                                            /*allowEmpty=*/true))) {
            failed = true;
          }
        }
        for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
          if (!isa<TensorType>(t)) {
            func.emitError() << "result " << i << " has type " << t
                             << "; entry point results must be tensors";
            failed = true;
          } else if (mlir::failed(checkType(op, t, "result " + Twine(i),
                                            /*allowEmpty=*/true))) {
            failed = true;
          }
        }
        return WalkResult::advance();
      }
      bool emptyResult = isa<tensor::EmptyOp>(op);
      for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
        if (mlir::failed(checkType(op, t, "result " + Twine(i), emptyResult)))
          failed = true;
      return WalkResult::advance();
    });
    if (!failed && publicFunctions == 0) {
      module.emitError() << "the module has no public function with a body; "
                            "nothing to compile";
      failed = true;
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
