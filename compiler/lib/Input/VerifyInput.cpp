//===- VerifyInput.cpp - Reject unsupported input programs ----*- C++ -*-===//
//
// This file implements the aotc-verify-input pass: the first line of defence
// that turns "aotc cannot compile this" into a diagnostic naming the op and
// its location, instead of a failure deep inside the pipeline.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Input/Passes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

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

/// A declaration without a body is a kernel of the user's (an extern
/// call, include/aot_abi/aot_extern.h): named like a C function, taking and
/// returning statically shaped tensors.
LogicalResult checkExternKernel(func::FuncOp func) {
  // (MLIR's verifier rejects public declarations already.)
  StringRef name = func.getSymName();
  // The C symbol: the declaration's name, or aotc.extern's `symbol`, with
  // `attributes` a JSON object and `scratch_bytes` a count of bytes.
  StringRef symbol = name;
  Attribute given = func->getAttr(aotc::kExternAttrName);
  if (given) {
    auto fields = dyn_cast<DictionaryAttr>(given);
    auto symbolAttr = fields ? fields.getAs<StringAttr>("symbol") : nullptr;
    auto attributes = fields ? fields.get("attributes") : nullptr;
    auto scratch = fields ? fields.get("scratch_bytes") : nullptr;
    auto text = dyn_cast_or_null<StringAttr>(attributes);
    auto bytes = dyn_cast_or_null<IntegerAttr>(scratch);
    llvm::Expected<llvm::json::Value> json =
        text ? llvm::json::parse(text.getValue())
             : llvm::Expected<llvm::json::Value>(llvm::json::Object());
    bool object = json && json->getAsObject();
    if (!json)
      llvm::consumeError(json.takeError());
    if (!fields || !symbolAttr || (attributes && !object) ||
        (scratch && (!bytes || bytes.getInt() < 0)))
      return func.emitError()
             << "extern kernel '" << name << "': " << aotc::kExternAttrName
             << " must be {symbol = \"C name\", [attributes = \"JSON "
                "object\"], [scratch_bytes = N : i64]}";
    symbol = symbolAttr.getValue();
  }
  if (!aotc::isValidCIdentifier(symbol))
    return func.emitError() << "extern kernel '" << symbol
                            << "' is not a C identifier";
  if (func.getNumResults() == 0)
    return func.emitError() << "extern kernel '" << name
                            << "' returns nothing; its results are the "
                               "tensors it computes";
  auto check = [&](Type t, const Twine &what) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      return func.emitError()
             << "extern kernel '" << name << "' " << what << " has type "
             << t << "; extern kernels take and return statically shaped "
                     "tensors";
    return checkType(func, t, "extern kernel '" + name + "' " + what);
  };
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes()))
    if (failed(check(t, "argument " + Twine(i))))
      return failure();
  for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
    if (failed(check(t, "result " + Twine(i))))
      return failure();
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
        // The entry point's signature and memory plan are the compiler's
        // records, written by its own passes and read back unchecked.
        for (StringRef name : {aotc::kEntryAttrName, aotc::kPoolAttrName})
          if (func->hasAttr(name)) {
            func.emitError() << "attribute '" << name
                             << "' is set by aotc itself; an input program "
                                "must not carry it";
            failed = true;
          }
        if (func.isPublic() && !func.isExternal())
          ++publicFunctions;
        if (func.isExternal()) {
          if (mlir::failed(checkExternKernel(func)))
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
