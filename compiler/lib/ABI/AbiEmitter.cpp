//===- AbiEmitter.cpp - LLVM-dialect pieces of the C ABI ------*- C++ -*-===//
//
// This file implements the ABI building blocks shared by the CPU and GPU
// entry point emitters (see AbiEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/AbiEmitter.h"

using namespace mlir;

namespace aotc {

AbiEmitter::AbiEmitter(ModuleOp module, StringRef target)
    : module(module), ctx(module.getContext()), b(ctx), target(target),
      loc(module.getLoc()) {
  ptrType = LLVM::LLVMPointerType::get(ctx);
  i32 = b.getI32Type();
  i64 = b.getI64Type();
}

Value AbiEmitter::constI32(int32_t v) {
  return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
}

Value AbiEmitter::constI64(int64_t v) {
  return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
}

Value AbiEmitter::addressOf(LLVM::GlobalOp global) {
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value AbiEmitter::insertValue(Value aggregate, Value value, int64_t position) {
  return LLVM::InsertValueOp::create(b, loc, aggregate, value,
                                     ArrayRef<int64_t>{position});
}

Value AbiEmitter::selectStatus(Value cond, int32_t code, Value status) {
  return LLVM::SelectOp::create(b, loc, cond, constI32(code), status);
}

Value AbiEmitter::isNullOrMisaligned(Value ptr, int64_t alignment) {
  Value asInt = LLVM::PtrToIntOp::create(b, loc, i64, ptr);
  Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, asInt,
                                      constI64(0));
  if (alignment <= 1)
    return isNull;
  Value low = LLVM::AndOp::create(b, loc, asInt, constI64(alignment - 1));
  Value misaligned = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                          low, constI64(0));
  return LLVM::OrOp::create(b, loc, isNull, misaligned);
}

LLVM::GlobalOp AbiEmitter::stringGlobal(StringRef name,
                                               StringRef value) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  std::string bytes = (value + Twine('\0')).str();
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name,
                                b.getStringAttr(bytes));
}

LLVM::GlobalOp AbiEmitter::int64Global(StringRef name,
                                       ArrayRef<int64_t> values) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto type = LLVM::LLVMArrayType::get(i64, values.size());
  auto value = DenseElementsAttr::get(
      RankedTensorType::get({(int64_t)values.size()}, i64), values);
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name, value);
}

LLVM::GlobalOp
AbiEmitter::tensorInfoGlobal(StringRef name,
                                    ArrayRef<TensorSignature> tensors) {
  // One global per name string and shape array, then the struct array.
  SmallVector<std::pair<LLVM::GlobalOp, LLVM::GlobalOp>> parts;
  for (auto [i, t] : llvm::enumerate(tensors)) {
    std::string prefix = (name + "_" + Twine(i)).str();
    LLVM::GlobalOp nameGlobal = stringGlobal(prefix + "_name", t.name);
    LLVM::GlobalOp shapeGlobal;
    if (!t.shape.empty())
      shapeGlobal = int64Global(prefix + "_shape", t.shape);
    parts.push_back({nameGlobal, shapeGlobal});
  }

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  // struct aot_tensor_info_t { const char *; int32_t; int32_t; const int64_t *; }
  auto infoType =
      LLVM::LLVMStructType::getLiteral(ctx, {ptrType, i32, i32, ptrType});
  auto arrayType = LLVM::LLVMArrayType::get(infoType, tensors.size());
  auto global =
      LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                             LLVM::Linkage::Internal, name, Attribute());
  Block *init = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(init);
  Value array = LLVM::UndefOp::create(b, loc, arrayType);
  for (auto [i, t] : llvm::enumerate(tensors)) {
    auto [nameGlobal, shapeGlobal] = parts[i];
    Value info = LLVM::UndefOp::create(b, loc, infoType);
    info = insertValue(info, addressOf(nameGlobal), 0);
    info = insertValue(info, constI32(dtypeCode(t.dtype)), 1);
    info = insertValue(info, constI32(t.shape.size()), 2);
    Value shape = shapeGlobal ? addressOf(shapeGlobal)
                              : LLVM::ZeroOp::create(b, loc, ptrType);
    info = insertValue(info, shape, 3);
    array = insertValue(array, info, i);
  }
  LLVM::ReturnOp::create(b, loc, array);
  return global;
}

void AbiEmitter::createInfoFunction(
    const EntryPointSignature &sig) {
  std::string prefix = "__aotc_" + sig.name;
  LLVM::GlobalOp nameGlobal = stringGlobal(prefix + "_name", sig.name);
  LLVM::GlobalOp targetGlobal = stringGlobal(prefix + "_target", target);
  LLVM::GlobalOp inputs = tensorInfoGlobal(prefix + "_inputs", sig.inputs);
  LLVM::GlobalOp outputs = tensorInfoGlobal(prefix + "_outputs", sig.outputs);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  // struct aot_model_info_t, field by field (natural C alignment).
  auto infoType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, ptrType, ptrType, i32, i32, ptrType, ptrType, i64, i32});
  auto global =
      LLVM::GlobalOp::create(b, loc, infoType, /*isConstant=*/true,
                             LLVM::Linkage::Internal, prefix + "_info",
                             Attribute());
  b.setInsertionPointToStart(b.createBlock(&global.getInitializerRegion()));
  Value info = LLVM::UndefOp::create(b, loc, infoType);
  SmallVector<Value> fields = {
      constI32(kAbiVersion),       addressOf(nameGlobal),
      addressOf(targetGlobal),     constI32(sig.inputs.size()),
      constI32(sig.outputs.size()), addressOf(inputs),
      addressOf(outputs),          constI64(sig.poolBytes),
      constI32(sig.poolAlignment)};
  for (auto [i, field] : llvm::enumerate(fields))
    info = insertValue(info, field, i);
  LLVM::ReturnOp::create(b, loc, info);

  b.setInsertionPointToEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, sig.name + "_info", LLVM::LLVMFunctionType::get(ptrType, {}));
  b.setInsertionPointToStart(func.addEntryBlock(b));
  LLVM::ReturnOp::create(b, loc, addressOf(global));
}

} // namespace aotc
