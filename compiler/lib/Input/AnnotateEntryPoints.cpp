//===- AnnotateEntryPoints.cpp - Record entry point signatures -*- C++ -*-===//
//
// This file implements the aotc-annotate-entry-points pass, which fixes the
// ABI view of every public function (tensor names, dtypes, shapes) before any
// lowering changes its signature.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/Input/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace aotc {
#define GEN_PASS_DEF_ANNOTATEENTRYPOINTS
#include "aotc/Input/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Builds the `{name, dtype, shape}` dictionary of one tensor; `dtype`
/// overrides the element type's own name when given.
DictionaryAttr tensorInfo(MLIRContext *ctx, StringRef name,
                          RankedTensorType type, StringAttr dtype,
                          ArrayAttr dims) {
  Builder b(ctx);
  SmallVector<int64_t> shape = llvm::map_to_vector(
      type.getShape(),
      [](int64_t d) { return ShapedType::isDynamic(d) ? int64_t(-1) : d; });
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("dtype",
                     dtype ? dtype
                           : b.getStringAttr(
                                 aotc::dtypeName(type.getElementType()))),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape))};
  if (!type.hasStaticShape())
    fields.push_back(b.getNamedAttr("dims", dims));
  return b.getDictionaryAttr(fields);
}

/// Checks the `aotc.dims` names of one tensor against its type and collects
/// new symbols in `order`; `what` names the tensor in diagnostics.
LogicalResult checkDimNames(func::FuncOp func, RankedTensorType type,
                            ArrayAttr dims, const Twine &what,
                            SmallVectorImpl<std::string> &order,
                            bool mayIntroduce) {
  if (type.hasStaticShape())
    return success();
  if (!dims || dims.size() != static_cast<size_t>(type.getRank()) ||
      !llvm::all_of(dims, [](Attribute a) { return isa<StringAttr>(a); }))
    return func.emitError() << what << " has dynamic type " << type
                            << " but no `" << aotc::kTensorDimsAttrName
                            << "` attribute naming each dimension";
  for (auto [d, name] :
       llvm::zip_equal(type.getShape(), dims.getAsValueRange<StringAttr>())) {
    if (ShapedType::isDynamic(d) != !name.empty())
      return func.emitError()
             << what << ": `" << aotc::kTensorDimsAttrName
             << "` must name exactly the dynamic dimensions of " << type;
    if (name.empty() || llvm::is_contained(order, name))
      continue;
    if (!mayIntroduce)
      return func.emitError() << what << " uses symbolic dimension '" << name
                              << "', which no argument has";
    if (!aotc::isValidCIdentifier(name) ||
        llvm::is_contained({"pool", "pool_bytes", "stream"}, name))
      return func.emitError() << "symbolic dimension '" << name
                              << "' is not a valid C identifier other than "
                                 "pool, pool_bytes and stream";
    order.push_back(name.str());
  }
  return success();
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

/// True for a tensor type with no elements (static shape with a 0).
bool isEmptyTensor(Type t) {
  auto ranked = dyn_cast<RankedTensorType>(t);
  return ranked && ranked.hasStaticShape() && ranked.getNumElements() == 0;
}

/// Zero-element tensors at the boundary (the signature keeps their shapes):
/// nothing reads or writes them, so inside the function they become 1-D
/// tensor<0xT> (the only zero-size memrefs the bare-pointer calling
/// convention lowers), an argument's uses read an empty tensor and a result
/// is a fresh allocation (never merged with another by CSE).
void retypeEmptyBoundaryTensors(func::FuncOp func) {
  auto flat = [](Type t) {
    return RankedTensorType::get({0}, cast<RankedTensorType>(t).getElementType());
  };
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    if (!isEmptyTensor(arg.getType()))
      continue;
    auto original = cast<RankedTensorType>(arg.getType());
    if (original.getRank() == 1)
      continue;
    Value empty = tensor::EmptyOp::create(b, func.getLoc(), original.getShape(),
                                          original.getElementType());
    arg.replaceAllUsesWith(empty);
    arg.setType(flat(original));
  }
  func.walk([&](func::ReturnOp ret) {
    OpBuilder rb(ret);
    for (OpOperand &operand : ret->getOpOperands())
      if (isEmptyTensor(operand.get().getType()))
        operand.set(bufferization::AllocTensorOp::create(
            rb, ret.getLoc(), flat(operand.get().getType()), ValueRange{}));
  });
  SmallVector<Type> results = llvm::map_to_vector(
      func.getResultTypes(),
      [&](Type t) -> Type { return isEmptyTensor(t) ? flat(t) : t; });
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 results));
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
    // Extern kernels (aotc-verify-input checked them) read their operands
    // only: bufferization then passes them in place instead of a copy.
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isExternal())
        continue;
      OpBuilder b(func);
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.setArgAttr(i, bufferization::BufferizationDialect::kBufferAccessAttrName,
                        b.getStringAttr("read"));
      if (!func->hasAttr(aotc::kExternAttrName))
        func->setAttr(aotc::kExternAttrName,
                      b.getDictionaryAttr(b.getNamedAttr(
                          "symbol", b.getStringAttr(func.getSymName()))));
    }

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
    llvm::StringMap<int64_t> bounds;
    for (const std::string &entry : maxDims) {
      auto [key, value] = StringRef(entry).split('=');
      int64_t bound;
      if (key.empty() || value.getAsInteger(10, bound) || bound < 1) {
        module.emitError() << "max-dims entry '" << entry
                           << "' is not NAME=VALUE with VALUE >= 1";
        return signalPassFailure();
      }
      bounds[key] = bound;
    }
    llvm::StringSet<> usedBounds;
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
        if (tensor &&
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
      // Symbolic dimensions: named, in parameter order, each with a bound.
      SmallVector<std::string> symbolOrder;
      for (auto [i, t] : llvm::enumerate(func.getArgumentTypes()))
        if (failed(checkDimNames(
                func, cast<RankedTensorType>(t),
                func.getArgAttrOfType<ArrayAttr>(i, aotc::kTensorDimsAttrName),
                "argument " + Twine(i), symbolOrder, /*mayIntroduce=*/true)))
          return signalPassFailure();
      for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
        if (failed(checkDimNames(func, cast<RankedTensorType>(t),
                                 func.getResultAttrOfType<ArrayAttr>(
                                     i, aotc::kTensorDimsAttrName),
                                 "result " + Twine(i), symbolOrder,
                                 /*mayIntroduce=*/false)))
          return signalPassFailure();
      SmallVector<Attribute> symbols;
      usedBounds.insert(symbolOrder.begin(), symbolOrder.end());
      for (const std::string &name : symbolOrder) {
        auto it = bounds.find(name);
        if (it == bounds.end()) {
          func.emitError() << "symbolic dimension '" << name
                           << "' needs a bound (--max-dim " << name
                           << "=BOUND)";
          return signalPassFailure();
        }
        symbols.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("name", b.getStringAttr(name)),
             b.getNamedAttr("max", b.getI64IntegerAttr(it->second))}));
      }
      ArrayAttr guards = func->getAttrOfType<ArrayAttr>(aotc::kGuardsAttrName);
      if (guards)
        for (Attribute g : guards) {
          auto pair = dyn_cast<ArrayAttr>(g);
          bool ok = pair && pair.size() == 2;
          for (Attribute side : ok ? pair.getValue() : ArrayRef<Attribute>{}) {
            auto str = dyn_cast<StringAttr>(side);
            int64_t value;
            ok &= str && (!str.getValue().getAsInteger(10, value) ||
                          llvm::is_contained(symbolOrder, str.getValue()));
          }
          if (!ok) {
            func.emitError() << "invalid guard " << g << " in `"
                             << aotc::kGuardsAttrName << "`";
            return signalPassFailure();
          }
        }
      makeResultsDistinct(func);
      SmallVector<Attribute> inputs, outputs;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        auto nameAttr =
            func.getArgAttrOfType<StringAttr>(i, aotc::kTensorNameAttrName);
        std::string name =
            nameAttr ? nameAttr.str() : ("arg" + Twine(i)).str();
        inputs.push_back(tensorInfo(
            ctx, name, cast<RankedTensorType>(func.getArgumentTypes()[i]),
            func.getArgAttrOfType<StringAttr>(i, aotc::kTensorDtypeAttrName),
            func.getArgAttrOfType<ArrayAttr>(i, aotc::kTensorDimsAttrName)));
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
                                                 aotc::kTensorDtypeAttrName),
            func.getResultAttrOfType<ArrayAttr>(i,
                                                aotc::kTensorDimsAttrName)));
      }
      // Tensor names become C parameter names in the header.
      // ... and must not clash with the ABI's own parameters.
      llvm::StringSet<> seen = {"pool", "pool_bytes", "stream"};
      for (const std::string &name : symbolOrder)
        seen.insert(name);
      for (Attribute a : llvm::concat<Attribute>(inputs, outputs)) {
        StringRef name =
            cast<StringAttr>(cast<DictionaryAttr>(a).get("name")).getValue();
        if (!aotc::isValidCIdentifier(name) || !seen.insert(name).second) {
          func.emitError() << "tensor name '" << name
                           << "' is not a unique, valid C identifier";
          return signalPassFailure();
        }
      }
      SmallVector<NamedAttribute> fields = {
          b.getNamedAttr("name", func.getSymNameAttr()),
          b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
          b.getNamedAttr("outputs", b.getArrayAttr(outputs))};
      if (!symbols.empty())
        fields.append({b.getNamedAttr("symbols", b.getArrayAttr(symbols)),
                       b.getNamedAttr("guards",
                                      guards ? guards : b.getArrayAttr({}))});
      if (auto bound =
              func->getAttrOfType<ArrayAttr>(aotc::kBoundInputsAttrName)) {
        if (!llvm::all_of(bound, llvm::IsaPred<StringAttr>)) {
          func.emitError() << "`" << aotc::kBoundInputsAttrName
                           << "` must be an array of strings";
          return signalPassFailure();
        }
        fields.push_back(b.getNamedAttr("bound_inputs", bound));
      }
      func->setAttr(aotc::kEntryAttrName, b.getDictionaryAttr(fields));
      retypeEmptyBoundaryTensors(func);
    }
    // A bound for a name no entry point has is most likely a typo.
    for (const auto &bound : bounds)
      if (!usedBounds.contains(bound.getKey())) {
        module.emitError() << "--max-dim " << bound.getKey()
                           << ": no entry point has a symbolic dimension '"
                           << bound.getKey() << "'";
        return signalPassFailure();
      }
  }
};

} // namespace
