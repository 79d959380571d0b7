//===- EmitGpuEntryPoints.cpp - Host side of GPU entry points -*- C++ -*-===//
//
// This file implements the aotc-emit-gpu-entry-points pass. On the LLVM
// dialect after gpu-to-llvm, the embedded device image becomes a constant
// global, every gpu.launch_func a pair of thin-runtime calls (look the kernel
// up in the per-context module cache, launch it on the caller's stream; a
// module with device globals to fill from host data, see
// aotc-hoist-device-constants, is looked up with its table of them), and
// each entry point gets the public C ABI of docs/abi.md: a wrapper that
// checks every argument before any work, stages host tensors through the
// device pool when they are host pointers, and NAME_info(). Extern kernels
// (aot_extern.h) are called with their device buffers and the caller's
// stream.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/AbiEmitter.h"
#include "aotc/ABI/ExternCallEmitter.h"
#include "aotc/ABI/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace aotc {
#define GEN_PASS_DEF_EMITGPUENTRYPOINTS
#include "aotc/ABI/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

using aotc::kStatusInvalidArgument;
using aotc::kStatusPoolTooSmall;

// Value of include/aot_abi/aot_runtime_gpu.h.
/// sizeof(aot_gpu_module_cache_t) / 8: 8 + 2 * 8 pointers on LP64.
constexpr int64_t kModuleCacheWords = 17;

/// Builds the LLVM-dialect host code of one module.
class GpuHostEmitter : public aotc::AbiEmitter {
public:
  GpuHostEmitter(ModuleOp module, StringRef runtime, StringRef target)
      : AbiEmitter(module, target), runtime(runtime) {}

  /// Turns every gpu.binary into an image global and its module cache.
  LogicalResult embedBinaries();
  /// Gives `impl` a stream parameter and a status result, and turns its
  /// launches into runtime calls.
  LogicalResult lowerLaunches(LLVM::LLVMFuncOp impl);
  /// Creates the public wrapper of `impl`.
  LogicalResult createWrapper(LLVM::LLVMFuncOp impl,
                              const aotc::EntryPointSignature &sig,
                              DictionaryAttr entryAttr, bool hostTensors,
                              ArrayRef<int64_t> staging);

private:
  /// Branches to `fail(status)` unless `status` is AOT_OK; continues in a new
  /// block after the current one.
  void checkStatus(Value status, Block *fail);
  /// Calls `aot_<runtime>_<name>`.
  Value callRuntime(StringRef name, ArrayRef<Type> params, ValueRange args);

  /// The aot_gpu_global_init_t table of the device globals that
  /// aotc-hoist-device-constants listed for `binary` (`entries`: [device
  /// symbol, host global, bytes] each); an error on a malformed entry.
  FailureOr<LLVM::GlobalOp> globalsTable(StringRef binary, ArrayAttr entries);

  std::string runtime;
  /// gpu.binary name -> (image global, module cache global).
  llvm::StringMap<std::pair<LLVM::GlobalOp, LLVM::GlobalOp>> images;
  /// gpu.binary name -> (globals table, its length), for modules with
  /// device globals filled at load.
  llvm::StringMap<std::pair<LLVM::GlobalOp, int32_t>> globalTables;
  llvm::StringMap<LLVM::GlobalOp> kernelNames;
};

void GpuHostEmitter::checkStatus(Value status, Block *fail) {
  Block *current = b.getInsertionBlock();
  Block *next = current->splitBlock(b.getInsertionPoint());
  b.setInsertionPointToEnd(current);
  Value bad = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, status,
                                   constI32(0));
  LLVM::CondBrOp::create(b, loc, bad, fail, ValueRange{status}, next,
                         ValueRange{});
  b.setInsertionPointToStart(next);
}

Value GpuHostEmitter::callRuntime(StringRef name, ArrayRef<Type> params,
                                  ValueRange args) {
  std::string symbol = ("aot_" + runtime + "_" + name).str();
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    func = LLVM::LLVMFuncOp::create(
        b, loc, symbol, LLVM::LLVMFunctionType::get(i32, params));
  }
  return LLVM::CallOp::create(b, loc, func, args).getResult();
}

FailureOr<LLVM::GlobalOp> GpuHostEmitter::globalsTable(StringRef binary,
                                                       ArrayAttr entries) {
  std::string prefix = ("__aotc_" + binary + "_global").str();
  SmallVector<std::tuple<LLVM::GlobalOp, LLVM::GlobalOp, int64_t>> rows;
  for (auto [i, entry] : llvm::enumerate(entries.getAsRange<ArrayAttr>())) {
    auto name = entry.size() == 3 ? dyn_cast<StringAttr>(entry[0]) : nullptr;
    auto host =
        entry.size() == 3 ? dyn_cast<FlatSymbolRefAttr>(entry[1]) : nullptr;
    auto bytes = entry.size() == 3 ? dyn_cast<IntegerAttr>(entry[2]) : nullptr;
    auto data = host ? module.lookupSymbol<LLVM::GlobalOp>(host) : nullptr;
    if (!name || !bytes || !data)
      return module.emitError("malformed aotc.device_globals entry ")
             << entry << " for '" << binary << "'";
    rows.emplace_back(stringGlobal((prefix + "_name_" + Twine(i)).str(),
                                   name.getValue()),
                      data, bytes.getInt());
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  // struct aot_gpu_global_init_t { const char *; const void *; uint64_t; }
  auto rowType = LLVM::LLVMStructType::getLiteral(ctx, {ptrType, ptrType, i64});
  auto tableType = LLVM::LLVMArrayType::get(rowType, rows.size());
  auto table = LLVM::GlobalOp::create(b, loc, tableType, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, prefix + "s",
                                      Attribute(), /*alignment=*/8);
  b.setInsertionPointToStart(b.createBlock(&table.getInitializerRegion()));
  Value array = LLVM::UndefOp::create(b, loc, tableType);
  for (auto [i, row] : llvm::enumerate(rows)) {
    auto [name, data, bytes] = row;
    Value value = LLVM::UndefOp::create(b, loc, rowType);
    value = insertValue(value, addressOf(name), 0);
    value = insertValue(value, addressOf(data), 1);
    value = insertValue(value, constI64(bytes), 2);
    array = insertValue(array, value, i);
  }
  LLVM::ReturnOp::create(b, loc, array);
  return table;
}

LogicalResult GpuHostEmitter::embedBinaries() {
  auto deviceGlobals =
      module->getAttrOfType<DictionaryAttr>(aotc::kDeviceGlobalsAttrName);
  for (auto binary : llvm::to_vector(module.getOps<gpu::BinaryOp>())) {
    if (binary.getObjects().size() != 1)
      return binary.emitError("expected one device image per gpu.binary, got ")
             << binary.getObjects().size();
    StringRef bytes =
        cast<gpu::ObjectAttr>(binary.getObjects()[0]).getObject().getValue();
    std::string prefix = ("__aotc_" + binary.getName()).str();
    b.setInsertionPointToEnd(module.getBody());
    // The image is read in place by the driver: keep it 64-byte aligned.
    auto imageType = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
    auto image = LLVM::GlobalOp::create(
        b, loc, imageType, /*isConstant=*/true, LLVM::Linkage::Internal,
        prefix + "_image", b.getStringAttr(bytes), /*alignment=*/64);
    auto cacheType = LLVM::LLVMArrayType::get(i64, kModuleCacheWords);
    auto zeros = DenseElementsAttr::get(
        RankedTensorType::get({kModuleCacheWords}, i64),
        b.getI64IntegerAttr(0));
    auto cache = LLVM::GlobalOp::create(
        b, loc, cacheType, /*isConstant=*/false, LLVM::Linkage::Internal,
        prefix + "_cache", zeros, /*alignment=*/8);
    images[binary.getName()] = {image, cache};
    if (auto entries = deviceGlobals
                           ? deviceGlobals.getAs<ArrayAttr>(binary.getName())
                           : nullptr) {
      FailureOr<LLVM::GlobalOp> table =
          globalsTable(binary.getName(), entries);
      if (failed(table))
        return failure();
      globalTables[binary.getName()] = {*table,
                                        static_cast<int32_t>(entries.size())};
    }
    binary.erase();
  }
  module->removeAttr(aotc::kDeviceGlobalsAttrName);
  return success();
}

LogicalResult GpuHostEmitter::lowerLaunches(LLVM::LLVMFuncOp impl) {
  // void impl(ptrs..., pool) -> i32 impl(ptrs..., pool, stream)
  auto oldType = impl.getFunctionType();
  if (!isa<LLVM::LLVMVoidType>(oldType.getReturnType()))
    return impl.emitError("entry point body returns a value");
  SmallVector<Type> params(oldType.getParams());
  params.push_back(ptrType);
  impl.setFunctionType(LLVM::LLVMFunctionType::get(i32, params));
  if (ArrayAttr argAttrs = impl.getArgAttrsAttr()) {
    SmallVector<Attribute> attrs(argAttrs.getValue());
    attrs.push_back(b.getDictionaryAttr({}));
    impl.setArgAttrsAttr(b.getArrayAttr(attrs));
  }
  Block &entry = impl.getBody().front();
  Value stream = entry.addArgument(ptrType, loc);

  // One exit for failures: return the status.
  auto *fail = new Block();
  impl.getBody().push_back(fail);
  fail->addArgument(i32, loc);
  b.setInsertionPointToStart(fail);
  LLVM::ReturnOp::create(b, loc, fail->getArgument(0));

  SmallVector<LLVM::ReturnOp> returns;
  impl.walk([&](LLVM::ReturnOp ret) {
    if (ret->getBlock() != fail)
      returns.push_back(ret);
  });
  for (LLVM::ReturnOp ret : returns) {
    b.setInsertionPoint(ret);
    LLVM::ReturnOp::create(b, loc, constI32(0));
    ret.erase();
  }

  SmallVector<gpu::LaunchFuncOp> launches;
  impl.walk([&](gpu::LaunchFuncOp op) { launches.push_back(op); });
  for (gpu::LaunchFuncOp launch : launches) {
    if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken() ||
        launch.hasClusterSize())
      return launch.emitError("async or clustered launches are not supported");
    auto it = images.find(launch.getKernelModuleName());
    if (it == images.end())
      return launch.emitError("no device image for kernel module '")
             << launch.getKernelModuleName() << "'";
    auto [image, cache] = it->second;
    StringRef kernel = launch.getKernelName().getValue();
    LLVM::GlobalOp &name = kernelNames[kernel];
    if (!name)
      name = stringGlobal(("__aotc_kernel_" + kernel).str(), kernel);

    // Argument slots: stack memory of the entry block.
    ValueRange operands = launch.getKernelOperands();
    b.setInsertionPointToStart(&entry);
    Value one = constI64(1);
    Value functionSlot = LLVM::AllocaOp::create(b, loc, ptrType, ptrType, one);
    SmallVector<Value> slots;
    for (Value operand : operands)
      slots.push_back(
          LLVM::AllocaOp::create(b, loc, ptrType, operand.getType(), one));
    auto argsType = LLVM::LLVMArrayType::get(ptrType, operands.size());
    Value args = LLVM::AllocaOp::create(b, loc, ptrType, argsType, one);

    loc = launch.getLoc();
    b.setInsertionPoint(launch);
    Value status;
    auto globals = globalTables.find(launch.getKernelModuleName());
    if (globals != globalTables.end())
      status = callRuntime(
          "get_function_with_globals",
          {ptrType, ptrType, ptrType, i32, ptrType, ptrType},
          {addressOf(cache), addressOf(image), addressOf(globals->second.first),
           constI32(globals->second.second), addressOf(name), functionSlot});
    else
      status = callRuntime(
          "get_function", {ptrType, ptrType, ptrType, ptrType},
          {addressOf(cache), addressOf(image), addressOf(name), functionSlot});
    checkStatus(status, fail);
    Value function = LLVM::LoadOp::create(b, loc, ptrType, functionSlot);
    for (auto [i, operand] : llvm::enumerate(operands)) {
      LLVM::StoreOp::create(b, loc, operand, slots[i]);
      Value element = LLVM::GEPOp::create(
          b, loc, ptrType, argsType, args,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, slots[i], element);
    }
    auto toI32 = [&](Value v) -> Value {
      if (v.getType() == i32)
        return v;
      return LLVM::TruncOp::create(b, loc, i32, v);
    };
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value shared = launch.getDynamicSharedMemorySize()
                       ? toI32(launch.getDynamicSharedMemorySize())
                       : constI32(0);
    status = callRuntime(
        "launch",
        {ptrType, i32, i32, i32, i32, i32, i32, i32, ptrType, ptrType},
        {function, toI32(grid.x), toI32(grid.y), toI32(grid.z),
         toI32(block.x), toI32(block.y), toI32(block.z), shared, stream,
         operands.empty() ? LLVM::ZeroOp::create(b, loc, ptrType).getResult()
                          : args});
    checkStatus(status, fail);
    launch.erase();
    loc = module.getLoc();
  }
  return success();
}

LogicalResult
GpuHostEmitter::createWrapper(LLVM::LLVMFuncOp impl,
                              const aotc::EntryPointSignature &sig,
                              DictionaryAttr entryAttr, bool hostTensors,
                              ArrayRef<int64_t> staging) {
  size_t numTensors = sig.inputs.size() + sig.outputs.size();
  if (hostTensors && staging.size() != numTensors)
    return impl.emitError("host tensors need one staging slot per tensor "
                          "(aotc-reserve-tensor-staging)");

  // aot_status_t NAME(T *tensors..., void *pool, size_t pool_bytes,
  //                   aot_stream_t stream)
  SmallVector<Type> params(numTensors + 1, ptrType);
  params.push_back(i64);
  params.push_back(ptrType);
  b.setInsertionPointAfter(impl);
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, sig.name, LLVM::LLVMFunctionType::get(i32, params));
  wrapper->setAttr(aotc::kEntryAttrName, entryAttr);
  Block *entry = wrapper.addEntryBlock(b);
  auto *fail = new Block();
  wrapper.getBody().push_back(fail);
  fail->addArgument(i32, loc);
  b.setInsertionPointToStart(fail);
  LLVM::ReturnOp::create(b, loc, fail->getArgument(0));

  // Arguments: INVALID_ARGUMENT outranks POOL_TOO_SMALL; nothing is enqueued
  // before every check passed.
  b.setInsertionPointToStart(entry);
  Value pool = wrapper.getArgument(numTensors);
  Value poolBytes = wrapper.getArgument(numTensors + 1);
  Value stream = wrapper.getArgument(numTensors + 2);
  Value code = constI32(0);
  if (sig.poolBytes > 0) {
    Value tooSmall = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                          poolBytes, constI64(sig.poolBytes));
    code = selectStatus(tooSmall, kStatusPoolTooSmall, code);
    code = selectStatus(isNullOrMisaligned(pool, sig.poolAlignment),
                        kStatusInvalidArgument, code);
  }
  auto tensors =
      llvm::to_vector(llvm::concat<const aotc::TensorSignature>(sig.inputs,
                                                                sig.outputs));
  for (auto [i, t] : llvm::enumerate(tensors))
    code = selectStatus(
        isNullOrMisaligned(wrapper.getArgument(i), aotc::dtypeBytes(t.dtype)),
        kStatusInvalidArgument, code);
  checkStatus(code, fail);

  // Device pointers of the tensors: the caller's, or the pool slots.
  SmallVector<Value> callArgs;
  SmallVector<int64_t> bytes;
  for (auto [i, t] : llvm::enumerate(tensors)) {
    bytes.push_back(aotc::tensorBytes(t));
    if (!hostTensors) {
      callArgs.push_back(wrapper.getArgument(i));
      continue;
    }
    callArgs.push_back(LLVM::GEPOp::create(
        b, loc, ptrType, b.getI8Type(), pool,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(staging[i])}));
  }
  Type copyParams[] = {ptrType, ptrType, i64, ptrType};
  if (hostTensors)
    for (size_t i = 0; i < sig.inputs.size(); ++i)
      checkStatus(callRuntime("memcpy_htod_async", copyParams,
                              {callArgs[i], wrapper.getArgument(i),
                               constI64(bytes[i]), stream}),
                  fail);
  callArgs.push_back(pool);
  callArgs.push_back(stream);
  checkStatus(LLVM::CallOp::create(b, loc, impl, callArgs).getResult(), fail);
  if (hostTensors) {
    for (size_t i = sig.inputs.size(); i < numTensors; ++i)
      checkStatus(callRuntime("memcpy_dtoh_async", copyParams,
                              {wrapper.getArgument(i), callArgs[i],
                               constI64(bytes[i]), stream}),
                  fail);
    checkStatus(callRuntime("stream_synchronize", {ptrType}, {stream}), fail);
  }
  LLVM::ReturnOp::create(b, loc, constI32(0));
  return success();
}

struct EmitGpuEntryPointsPass
    : aotc::impl::EmitGpuEntryPointsBase<EmitGpuEntryPointsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (runtime != "cuda" && runtime != "hip") {
      module.emitError("unknown GPU runtime '") << runtime << "'";
      return signalPassFailure();
    }
    GpuHostEmitter emitter(module, runtime, target);
    aotc::ExternCallEmitter externs(module, target);
    if (failed(emitter.embedBinaries()))
      return signalPassFailure();
    SmallVector<LLVM::LLVMFuncOp> entries;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(aotc::kEntryAttrName) && !func.isExternal())
        entries.push_back(func);
    for (LLVM::LLVMFuncOp impl : entries)
      if (failed(emit(emitter, externs, impl)))
        return signalPassFailure();
    if (failed(externs.eraseDeclarations()))
      return signalPassFailure();
    // Launches outside entry points cannot reach a stream.
    WalkResult leftover = module.walk([](gpu::LaunchFuncOp launch) {
      launch.emitError("kernel launch outside an entry point");
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      return signalPassFailure();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }

  LogicalResult emit(GpuHostEmitter &emitter,
                     aotc::ExternCallEmitter &externs, LLVM::LLVMFuncOp impl) {
    FailureOr<std::optional<aotc::EntryPointSignature>> read =
        aotc::readEntryPoint(impl);
    if (failed(read))
      return failure();
    std::optional<aotc::EntryPointSignature> &sig = *read;
    auto pool = impl->getAttrOfType<DictionaryAttr>(aotc::kPoolAttrName);
    if (!sig || !pool)
      return impl.emitError("entry point has no memory plan (aotc.pool)");
    SmallVector<int64_t> staging;
    if (auto slots = pool.getAs<DenseI64ArrayAttr>("staging"))
      llvm::append_range(staging, slots.asArrayRef());
    if (onDeviceTensors && !staging.empty())
      return impl.emitError("device tensors need no staging slots");
    auto entryAttr = impl->getAttrOfType<DictionaryAttr>(aotc::kEntryAttrName);
    std::string implName = "__aotc_" + sig->name + "_impl";
    if (failed(SymbolTable::replaceAllSymbolUses(
            impl, StringAttr::get(&getContext(), implName), getOperation())))
      return failure();
    SymbolTable::setSymbolName(impl, implName);
    impl.setLinkage(LLVM::Linkage::Internal);
    impl->removeAttr(aotc::kEntryAttrName);
    // The body's last argument is now the caller's stream, which the
    // extern kernels get too.
    if (failed(emitter.lowerLaunches(impl)) ||
        failed(externs.emitCallsIn(
            impl, impl.getArgument(impl.getNumArguments() - 1))) ||
        failed(emitter.createWrapper(impl, *sig, entryAttr, !onDeviceTensors,
                                        staging)))
      return failure();
    emitter.createInfoFunction(*sig);
    return success();
  }
};

} // namespace
