//===- EmitExternCalls.cpp - C calls of the user's kernels ----*- C++ -*-===//
//
// This file implements the aotc-emit-extern-calls pass. On the LLVM
// dialect, each call of an extern kernel's lowered declaration
// (aotc-lower-extern-calls: `__aotc_extern_NAME(ptr inputs..., ptr
// outputs..., [ptr scratch])`) becomes the call of include/aot_abi/
// aot_extern.h's C signature: arrays of aot_extern_tensor_t for the inputs
// and outputs, the attributes' JSON, the scratch buffer and a CPU stream of
// the call's thread count. A status other than AOT_OK returns from the entry
// point's body at once, which then returns i32 (0 at its other returns);
// aotc-emit-entry-points passes it on. The GPU targets use the same emitter
// (ExternCallEmitter.h) from aotc-emit-gpu-entry-points, with the caller's
// stream.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/ExternCallEmitter.h"
#include "aotc/ABI/EntryPoint.h"
#include "aotc/ABI/Passes.h"
#include "aotc/Common/Attributes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_EMITEXTERNCALLS
#include "aotc/ABI/Passes.h.inc"
} // namespace aotc

using namespace mlir;

using aotc::ExternCallEmitter;
using aotc::kCpuStreamSize;

Type ExternCallEmitter::tensorType() {
  return LLVM::LLVMStructType::getLiteral(ctx, {ptrType, i32, i32, ptrType});
}

LLVM::LLVMFuncOp ExternCallEmitter::kernel(StringRef symbol) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  // aot_status_t (*)(const aot_extern_tensor_t *, int32_t,
  //                  const aot_extern_tensor_t *, int32_t, const char *,
  //                  void *, size_t, aot_stream_t)
  return LLVM::LLVMFuncOp::create(
      b, loc, symbol,
      LLVM::LLVMFunctionType::get(i32, {ptrType, i32, ptrType, i32, ptrType,
                                        ptrType, i64, ptrType}));
}

LLVM::GlobalOp ExternCallEmitter::shapeGlobal(ArrayRef<int64_t> shape) {
  std::string name = "__aotc_extern_shape";
  for (int64_t d : shape)
    name += "_" + std::to_string(d);
  LLVM::GlobalOp &global = shapes[name];
  if (!global)
    global = int64Global(name, shape);
  return global;
}

Value ExternCallEmitter::stackSlot(LLVM::LLVMFuncOp func, Type type) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  return LLVM::AllocaOp::create(b, loc, ptrType, type, constI64(1));
}

Value ExternCallEmitter::tensorArray(LLVM::LLVMFuncOp func,
                                     ArrayRef<Attribute> types,
                                     ValueRange pointers) {
  if (types.empty())
    return LLVM::ZeroOp::create(b, loc, ptrType);
  auto arrayType = LLVM::LLVMArrayType::get(tensorType(), types.size());
  Value array = LLVM::UndefOp::create(b, loc, arrayType);
  for (auto [i, attr] : llvm::enumerate(types)) {
    auto type = cast<MemRefType>(cast<TypeAttr>(attr).getValue());
    int64_t at = i;
    auto insert = [&](Value value, int64_t field) {
      array = LLVM::InsertValueOp::create(b, loc, array, value,
                                          ArrayRef<int64_t>{at, field});
    };
    insert(pointers[i], 0);
    insert(constI32(aotc::dtypeCode(aotc::dtypeName(type.getElementType()))),
           1);
    insert(constI32(type.getRank()), 2);
    insert(type.getRank() ? addressOf(shapeGlobal(type.getShape()))
                          : LLVM::ZeroOp::create(b, loc, ptrType).getResult(),
           3);
  }
  Value slot = stackSlot(func, arrayType);
  LLVM::StoreOp::create(b, loc, array, slot);
  return slot;
}

void ExternCallEmitter::returnStatus(LLVM::LLVMFuncOp func) {
  auto type = func.getFunctionType();
  if (type.getReturnType() == i32)
    return;
  func.setFunctionType(
      LLVM::LLVMFunctionType::get(i32, type.getParams(), type.isVarArg()));
  SmallVector<LLVM::ReturnOp> returns;
  func.walk([&](LLVM::ReturnOp ret) { returns.push_back(ret); });
  for (LLVM::ReturnOp ret : returns) {
    b.setInsertionPoint(ret);
    LLVM::ReturnOp::create(b, ret.getLoc(), constI32(0));
    ret.erase();
  }
}

LLVM::LLVMFuncOp ExternCallEmitter::declarationOf(LLVM::CallOp call) {
  auto callee = call.getCallee();
  auto decl = callee ? module.lookupSymbol<LLVM::LLVMFuncOp>(*callee)
                     : LLVM::LLVMFuncOp();
  return decl && decl.isExternal() && decl->hasAttr(aotc::kExternAttrName)
             ? decl
             : LLVM::LLVMFuncOp();
}

Value ExternCallEmitter::cpuStream(LLVM::LLVMFuncOp body) {
  ArrayRef<Type> params = body.getFunctionType().getParams();
  if (params.empty() || params.back() != i32)
    return nullptr;
  // aot_cpu_stream_t { uint32_t struct_size; int32_t num_threads; }
  auto streamType = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32});
  Value stream = LLVM::UndefOp::create(b, loc, streamType);
  stream = insertValue(stream, constI32(kCpuStreamSize), 0);
  stream = insertValue(stream, body.getArgument(params.size() - 1), 1);
  Value slot = stackSlot(body, streamType);
  LLVM::StoreOp::create(b, loc, stream, slot);
  return slot;
}

LogicalResult ExternCallEmitter::emitCall(LLVM::LLVMFuncOp func,
                                          LLVM::CallOp call,
                                          DictionaryAttr extern_,
                                          Value stream) {
  if (call->getParentOfType<omp::ParallelOp>() ||
      call->getParentRegion() != &func.getBody())
    return call.emitError("internal error: an extern call must be in an "
                          "entry point's body, outside parallel regions");
  auto symbol = extern_.getAs<StringAttr>("symbol");
  auto inputs = extern_.getAs<ArrayAttr>("inputs");
  auto outputs = extern_.getAs<ArrayAttr>("outputs");
  auto scratch = extern_.getAs<BoolAttr>("scratch");
  size_t numOperands = inputs.size() + outputs.size() + (scratch.getValue());
  if (call.getArgOperands().size() != numOperands)
    return call.emitError("internal error: extern call of ")
           << symbol << " has " << call.getArgOperands().size()
           << " operands, expected " << numOperands;
  ValueRange operands = call.getArgOperands();

  b.setInsertionPoint(call);
  loc = call.getLoc();
  if (!stream && !(stream = cpuStream(func)))
    return call.emitError("internal error: the entry point's body has no "
                          "thread count");
  Value inputArray =
      tensorArray(func, inputs.getValue(), operands.take_front(inputs.size()));
  Value outputArray =
      tensorArray(func, outputs.getValue(),
                  operands.slice(inputs.size(), outputs.size()));
  Value scratchPtr = LLVM::ZeroOp::create(b, loc, ptrType);
  int64_t scratchBytes = 0;
  if (scratch.getValue()) {
    scratchPtr = operands.back();
    scratchBytes = extern_.getAs<IntegerAttr>("scratch_bytes").getInt();
  }
  auto attributes = extern_.getAs<StringAttr>("attributes");
  Value json = addressOf(stringGlobal(
      "__aotc_extern_attributes_" + std::to_string(attributeStrings++),
      attributes ? attributes.getValue() : "{}"));
  Value status =
      LLVM::CallOp::create(
          b, loc, kernel(symbol.getValue()),
          ValueRange{inputArray, constI32(inputs.size()), outputArray,
                     constI32(outputs.size()), json, scratchPtr,
                     constI64(scratchBytes), stream})
          .getResult();
  // A failed kernel ends the run: its status is the entry point's.
  Block *before = call->getBlock();
  Block *after = before->splitBlock(call->getNextNode());
  call.erase();
  auto *fail = new Block();
  func.getBody().getBlocks().insertAfter(before->getIterator(), fail);
  b.setInsertionPointToEnd(before);
  Value failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, status,
                                      constI32(0));
  LLVM::CondBrOp::create(b, loc, failed, fail, after);
  returnStatus(func);
  b.setInsertionPointToEnd(fail);
  LLVM::ReturnOp::create(b, loc, status);
  return success();
}

LogicalResult ExternCallEmitter::emitCallsIn(LLVM::LLVMFuncOp body,
                                             Value stream) {
  SmallVector<std::pair<LLVM::CallOp, LLVM::LLVMFuncOp>> calls;
  body.walk([&](LLVM::CallOp call) {
    if (LLVM::LLVMFuncOp decl = declarationOf(call))
      calls.emplace_back(call, decl);
  });
  for (auto [call, decl] : calls) {
    auto extern_ = decl->getAttrOfType<DictionaryAttr>(aotc::kExternAttrName);
    if (!extern_.getAs<StringAttr>("symbol") ||
        !extern_.getAs<ArrayAttr>("inputs") ||
        !extern_.getAs<ArrayAttr>("outputs") ||
        !extern_.getAs<BoolAttr>("scratch"))
      return decl.emitError("internal error: extern declaration without its "
                            "lowered description (aotc-lower-extern-calls)");
    if (failed(emitCall(body, call, extern_, stream)))
      return failure();
  }
  return success();
}

LogicalResult ExternCallEmitter::eraseDeclarations() {
  WalkResult left = module.walk([&](LLVM::CallOp call) {
    if (!declarationOf(call))
      return WalkResult::advance();
    call.emitError("internal error: an extern call must be in an entry "
                   "point's body");
    return WalkResult::interrupt();
  });
  if (left.wasInterrupted())
    return failure();
  for (auto decl : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>()))
    if (decl.isExternal() && decl->hasAttr(aotc::kExternAttrName))
      decl.erase();
  return success();
}

namespace {

struct EmitExternCallsPass
    : aotc::impl::EmitExternCallsBase<EmitExternCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ExternCallEmitter emitter(module, "cpu");
    for (auto func : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>()))
      if (func->hasAttr(aotc::kEntryAttrName) && !func.isExternal() &&
          failed(emitter.emitCallsIn(func, nullptr)))
        return signalPassFailure();
    if (failed(emitter.eraseDeclarations()))
      return signalPassFailure();
  }
};

} // namespace
