//===- EmitEntryPoints.cpp - C ABI wrappers and info structs --*- C++ -*-===//
//
// This file implements the aotc-emit-entry-points pass. On the LLVM dialect,
// each compiled entry point body gets the public C ABI of docs/abi.md: a
// wrapper that validates every argument before any work (so an error never
// writes an output) and a NAME_info() function returning a static
// aot_model_info_t.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/AbiEmitter.h"
#include "aotc/ABI/Passes.h"
#include "aotc/Common/CpuTarget.h"

#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_EMITENTRYPOINTS
#include "aotc/ABI/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

using aotc::kCpuStreamSize;
using aotc::kStatusInvalidArgument;
using aotc::kStatusNoDevice;
using aotc::kStatusPoolTooSmall;
using aotc::kStatusShape;


/// Emits the module-level globals and the wrapper of one entry point.
class EntryPointEmitter : public aotc::AbiEmitter {
public:
  using AbiEmitter::AbiEmitter;

  LogicalResult emit(LLVM::LLVMFuncOp impl);

private:
  LogicalResult createWrapper(LLVM::LLVMFuncOp impl,
                              const aotc::EntryPointSignature &sig,
                              DictionaryAttr entryAttr);
  LLVM::LLVMFuncOp getOrDeclare(StringRef name, Type result,
                                ArrayRef<Type> params);
  /// The SVE vector length the module's code is generated for (its
  /// aotc.cpu_target), 0 when none.
  int64_t sveVectorBits() {
    auto target =
        module->getAttrOfType<DictionaryAttr>(aotc::kCpuTargetAttrName);
    auto bits = target ? target.getAs<IntegerAttr>(aotc::kSveVectorBitsField)
                       : IntegerAttr();
    return bits ? bits.getInt() : 0;
  }
};

LLVM::LLVMFuncOp EntryPointEmitter::getOrDeclare(StringRef name, Type result,
                                                 ArrayRef<Type> params) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, loc, name,
                                  LLVM::LLVMFunctionType::get(result, params));
}

LogicalResult
EntryPointEmitter::createWrapper(LLVM::LLVMFuncOp impl,
                                 const aotc::EntryPointSignature &sig,
                                 DictionaryAttr entryAttr) {
  size_t numSymbols = sig.symbols.size();
  size_t numTensors = sig.inputs.size() + sig.outputs.size();
  ArrayRef<Type> implParams = impl.getFunctionType().getParams();
  if (implParams.size() != numSymbols + numTensors + 2 ||
      !llvm::all_of(implParams.take_front(numSymbols),
                    [&](Type t) { return t == i64; }) ||
      !llvm::all_of(implParams.drop_front(numSymbols).drop_back(),
                    [](Type t) { return isa<LLVM::LLVMPointerType>(t); }) ||
      !implParams.back().isInteger(32))
    return impl.emitError("entry point body does not have the expected "
                          "signature (symbols..., tensor pointers..., pool, "
                          "num_threads)");
  LLVM::LLVMFuncOp poolBytesOf;
  if (numSymbols > 0) {
    poolBytesOf =
        module.lookupSymbol<LLVM::LLVMFuncOp>(sig.name + "_pool_bytes");
    if (!poolBytesOf)
      return impl.emitError("entry point with symbolic dimensions has no " +
                            sig.name + "_pool_bytes function");
  }

  LLVM::LLVMFuncOp maxThreads = getOrDeclare("omp_get_max_threads", i32, {});
  SmallVector<int64_t> staging;
  if (auto pool = impl->getAttrOfType<DictionaryAttr>(aotc::kPoolAttrName))
    if (auto slots = pool.getAs<DenseI64ArrayAttr>("output_staging"))
      llvm::append_range(staging, slots.asArrayRef());
  if (!staging.empty() &&
      (staging.size() != sig.outputs.size() || numSymbols > 0))
    return impl.emitError("output staging needs one slot per output of a "
                          "static entry point");

  // aot_status_t NAME(int64_t dims..., T *tensors..., void *pool,
  //                   size_t pool_bytes, aot_stream_t stream)
  SmallVector<Type> params(numSymbols, i64);
  params.append(numTensors + 1, ptrType);
  params.push_back(i64);
  params.push_back(ptrType);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(impl);
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, sig.name, LLVM::LLVMFunctionType::get(i32, params));
  wrapper->setAttr(aotc::kEntryAttrName, entryAttr);
  Block *entry = wrapper.addEntryBlock(b);
  Region &body = wrapper.getBody();
  Block *checkStream = new Block(), *loadStream = new Block(),
        *run = new Block(), *done = new Block();
  body.push_back(checkStream);
  body.push_back(loadStream);
  body.push_back(run);
  body.push_back(done);
  Value runThreads = run->addArgument(i32, loc);
  Value status = done->addArgument(i32, loc);

  // Arguments: INVALID_ARGUMENT outranks SHAPE, which outranks
  // POOL_TOO_SMALL.
  b.setInsertionPointToStart(entry);
  Value pool = wrapper.getArgument(numSymbols + numTensors);
  Value poolBytes = wrapper.getArgument(numSymbols + numTensors + 1);
  Value stream = wrapper.getArgument(numSymbols + numTensors + 2);
  Value code = constI32(0);
  // Code for one SVE vector length runs on CPUs of that length only
  // (aot_cpu_sve_vector_bits: 0 without SVE). The arguments' errors
  // outrank this one.
  if (int64_t sveBits = sveVectorBits()) {
    LLVM::LLVMFuncOp vectorBits =
        getOrDeclare("aot_cpu_sve_vector_bits", i32, {});
    Value bits =
        LLVM::CallOp::create(b, loc, vectorBits, ValueRange{}).getResult();
    Value other = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, bits,
                                       constI32(sveBits));
    code = selectStatus(other, kStatusNoDevice, code);
  }
  if (poolBytesOf) {
    // The pool these dimensions need, or -1 when they break a guard.
    Value required =
        LLVM::CallOp::create(b, loc, poolBytesOf,
                             wrapper.getArguments().take_front(numSymbols))
            .getResult();
    Value tooSmall = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                          poolBytes, required);
    code = selectStatus(tooSmall, kStatusPoolTooSmall, code);
    Value broken = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt,
                                        required, constI64(0));
    code = selectStatus(broken, kStatusShape, code);
  } else if (sig.poolBytes > 0) {
    Value tooSmall = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                          poolBytes, constI64(sig.poolBytes));
    code = selectStatus(tooSmall, kStatusPoolTooSmall, code);
  }
  if (sig.poolBytes > 0)
    code = selectStatus(isNullOrMisaligned(pool, sig.poolAlignment),
                        kStatusInvalidArgument, code);
  auto tensors = llvm::concat<const aotc::TensorSignature>(sig.inputs,
                                                           sig.outputs);
  for (auto [i, t] : llvm::enumerate(tensors))
    code = selectStatus(isNullOrMisaligned(wrapper.getArgument(numSymbols + i),
                                           aotc::dtypeBytes(t.dtype)),
                        kStatusInvalidArgument, code);
  Value bad = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, code,
                                   constI32(0));
  LLVM::CondBrOp::create(b, loc, bad, done, ValueRange{code}, checkStream,
                         ValueRange{});

  // Stream: NULL means the OpenMP default thread count.
  b.setInsertionPointToStart(checkStream);
  Value streamIsNull = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::eq, stream,
      LLVM::ZeroOp::create(b, loc, ptrType));
  LLVM::CondBrOp::create(b, loc, streamIsNull, run, ValueRange{constI32(0)},
                         loadStream, ValueRange{});

  // aot_cpu_stream_t { uint32_t struct_size; int32_t num_threads; }
  b.setInsertionPointToStart(loadStream);
  Value structSize = LLVM::LoadOp::create(b, loc, i32, stream, /*align=*/4);
  Value threadsPtr = LLVM::GEPOp::create(b, loc, ptrType, i32, stream,
                                         ArrayRef<LLVM::GEPArg>{1});
  Value threads = LLVM::LoadOp::create(b, loc, i32, threadsPtr, /*align=*/4);
  Value badSize = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                       structSize, constI32(kCpuStreamSize));
  LLVM::CondBrOp::create(b, loc, badSize, done,
                         ValueRange{constI32(kStatusInvalidArgument)}, run,
                         ValueRange{threads});

  b.setInsertionPointToStart(run);
  Value useDefault = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sle,
                                          runThreads, constI32(0));
  Value defaultThreads =
      LLVM::CallOp::create(b, loc, maxThreads, ValueRange{}).getResult();
  Value numThreads =
      LLVM::SelectOp::create(b, loc, useDefault, defaultThreads, runThreads);
  // Outputs held in the pool (aotc-stage-extern-outputs) are computed in
  // their slots.
  SmallVector<Value> callArgs;
  size_t firstOutput = numSymbols + sig.inputs.size();
  for (size_t i = 0; i <= numSymbols + numTensors; ++i) {
    bool staged =
        !staging.empty() && i >= firstOutput && i < numSymbols + numTensors;
    callArgs.push_back(staged ? LLVM::GEPOp::create(
                                    b, loc, ptrType, b.getI8Type(), pool,
                                    ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(
                                        staging[i - firstOutput])})
                                    .getResult()
                              : wrapper.getArgument(i));
  }
  callArgs.push_back(numThreads);
  // A body that calls extern kernels returns their first error, else 0.
  auto callBody = LLVM::CallOp::create(b, loc, impl, callArgs);
  Value bodyStatus = impl.getFunctionType().getReturnType() == i32
                         ? callBody.getResult()
                         : constI32(0);
  if (staging.empty()) {
    LLVM::BrOp::create(b, loc, ValueRange{bodyStatus}, done);
  } else {
    // Only a run whose kernels all succeeded writes the caller's outputs.
    Block *copyOut = new Block();
    body.push_back(copyOut);
    Value failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                        bodyStatus, constI32(0));
    LLVM::CondBrOp::create(b, loc, failed, done, ValueRange{bodyStatus},
                           copyOut, ValueRange{});
    b.setInsertionPointToStart(copyOut);
    for (auto [i, t] : llvm::enumerate(sig.outputs)) {
      size_t arg = firstOutput + i;
      LLVM::MemcpyOp::create(b, loc, wrapper.getArgument(arg), callArgs[arg],
                             constI64(aotc::tensorBytes(t)),
                             /*isVolatile=*/false);
    }
    LLVM::BrOp::create(b, loc, ValueRange{constI32(0)}, done);
  }

  b.setInsertionPointToStart(done);
  LLVM::ReturnOp::create(b, loc, status);
  return success();
}

LogicalResult EntryPointEmitter::emit(LLVM::LLVMFuncOp impl) {
  FailureOr<std::optional<aotc::EntryPointSignature>> read =
      aotc::readEntryPoint(impl);
  if (failed(read) || !*read)
    return failure();
  std::optional<aotc::EntryPointSignature> &sig = *read;
  if (!impl->hasAttr(aotc::kPoolAttrName))
    return impl.emitError("entry point has no memory plan (aotc.pool)");
  auto entryAttr = impl->getAttrOfType<DictionaryAttr>(aotc::kEntryAttrName);
  // The body keeps its code under an internal name; the public symbol is the
  // checking wrapper.
  std::string implName = "__aotc_" + sig->name + "_impl";
  if (failed(SymbolTable::replaceAllSymbolUses(
          impl, StringAttr::get(ctx, implName), module)))
    return failure();
  SymbolTable::setSymbolName(impl, implName);
  impl.setLinkage(LLVM::Linkage::Internal);
  impl->removeAttr(aotc::kEntryAttrName);
  if (failed(createWrapper(impl, *sig, entryAttr)))
    return failure();
  createInfoFunction(*sig);
  return success();
}

struct EmitEntryPointsPass
    : aotc::impl::EmitEntryPointsBase<EmitEntryPointsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> entries;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(aotc::kEntryAttrName) && !func.isExternal())
        entries.push_back(func);
    EntryPointEmitter emitter(module, target);
    for (LLVM::LLVMFuncOp func : entries)
      if (failed(emitter.emit(func)))
        return signalPassFailure();
  }
};

} // namespace
