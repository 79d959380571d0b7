//===- OutlinePoolBytes.cpp - Pool size as a function of dims --*- C++ -*-===//
//
// This file implements the aotc-outline-pool-bytes pass: the exact pool size
// of an entry point with symbolic dimensions, and the guards on those
// dimensions, become the public function NAME_pool_bytes(dims...).
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/ABI/Passes.h"
#include "aotc/Analysis/BufferLifetimes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aotc {
#define GEN_PASS_DEF_OUTLINEPOOLBYTES
#include "aotc/ABI/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Builds NAME_pool_bytes for one entry point.
class PoolBytesBuilder {
public:
  PoolBytesBuilder(func::FuncOp entry, const aotc::EntryPointSignature &sig)
      : entry(entry), sig(sig), b(entry.getContext()), loc(entry.getLoc()) {}

  LogicalResult build();

private:
  Value constIndex(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// `ok &= cond`.
  void require(Value cond) { ok = arith::AndIOp::create(b, loc, ok, cond); }
  /// A symbol name or decimal integer as an index value.
  Value operand(StringRef text) {
    int64_t value;
    if (!text.getAsInteger(10, value))
      return constIndex(value);
    return symbolValue.lookup(text);
  }
  /// The byte size of a pool view, computed in the new function.
  FailureOr<Value> viewBytes(memref::ViewOp view);

  func::FuncOp entry;
  const aotc::EntryPointSignature &sig;
  OpBuilder b;
  Location loc;
  IRMapping mapping;
  llvm::StringMap<Value> symbolValue;
  Value ok;
};

FailureOr<Value> PoolBytesBuilder::viewBytes(memref::ViewOp view) {
  MemRefType type = view.getType();
  int64_t staticBytes = aotc::elementBytes(type);
  for (int64_t d : type.getShape())
    if (!ShapedType::isDynamic(d))
      staticBytes *= d;
  Value bytes = constIndex(staticBytes);
  for (Value size : view.getSizes()) {
    // Copy the size arithmetic; it may only read the symbol arguments.
    SetVector<Operation *> slice;
    BackwardSliceOptions options;
    options.inclusive = true;
    bool fromSymbols = true;
    options.filter = [&](Operation *op) { return !mapping.contains(op); };
    if (Operation *def = size.getDefiningOp())
      (void)getBackwardSlice(def, &slice, options);
    for (Operation *op : slice) {
      if (!isPure(op) || op->getNumRegions() != 0)
        fromSymbols = false;
      for (Value v : op->getOperands())
        if (isa<BlockArgument>(v) && !mapping.contains(v))
          fromSymbols = false;
    }
    if (isa<BlockArgument>(size) && !mapping.contains(size))
      fromSymbols = false;
    if (!fromSymbols)
      return view.emitError("the size of this pool buffer is not computed "
                            "from the symbolic dimensions alone");
    for (Operation *op : slice)
      if (!mapping.contains(op))
        b.clone(*op, mapping);
    bytes = arith::MulIOp::create(b, loc, bytes, mapping.lookup(size));
  }
  return bytes;
}

LogicalResult PoolBytesBuilder::build() {
  auto module = entry->getParentOfType<ModuleOp>();
  std::string name = sig.name + "_pool_bytes";
  if (SymbolTable::lookupSymbolIn(module, name))
    return entry.emitError() << "cannot create '" << name
                             << "': the symbol already exists";
  b.setInsertionPointAfter(entry);
  Type i64 = b.getI64Type();
  SmallVector<Type> params(sig.symbols.size(), i64);
  auto func = func::FuncOp::create(b, loc, name,
                                   b.getFunctionType(params, {i64}));
  for (auto [i, symbol] : llvm::enumerate(sig.symbols))
    func.setArgAttr(i, aotc::kTensorNameAttrName,
                    b.getStringAttr(symbol.name));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);

  // Each symbol within [1, bound]; the entry point's symbol arguments map to
  // this function's (converted) parameters.
  ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [i, symbol] : llvm::enumerate(sig.symbols)) {
    Value v = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                         body->getArgument(i));
    symbolValue[symbol.name] = v;
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                                  constIndex(1)));
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, v,
                                  constIndex(symbol.max)));
  }
  for (BlockArgument arg : entry.getArguments())
    if (auto symbol = entry.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                         aotc::kSymbolAttrName))
      mapping.map(arg, symbolValue.lookup(symbol.getValue()));
  for (const aotc::ShapeGuard &guard : sig.guards)
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                  operand(guard.lhs), operand(guard.rhs)));

  // The largest buffer end; buffers sized by symbols must fit their slot.
  llvm::SmallDenseSet<int64_t> dynamicSlots;
  Value required;
  WalkResult walk = entry.walk([&](memref::ViewOp view) -> WalkResult {
    auto slot = view->getAttrOfType<IntegerAttr>(aotc::kSlotAttrName);
    if (!slot)
      return WalkResult::advance();
    const aotc::PlannedBuffer &buffer = sig.buffers[slot.getInt()];
    dynamicSlots.insert(slot.getInt());
    FailureOr<Value> bytes = viewBytes(view);
    if (failed(bytes))
      return WalkResult::interrupt();
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, *bytes,
                                  constIndex(buffer.size)));
    Value end = arith::AddIOp::create(b, loc, *bytes,
                                      constIndex(buffer.offset));
    required = required ? arith::MaxUIOp::create(b, loc, required, end)
                        : end;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  int64_t staticEnd = 0;
  for (auto [i, buffer] : llvm::enumerate(sig.buffers))
    if (!dynamicSlots.contains(i))
      staticEnd = std::max(staticEnd, buffer.offset + buffer.size);
  Value result = constIndex(staticEnd);
  if (required)
    result = arith::MaxUIOp::create(b, loc, required, result);
  result = arith::IndexCastOp::create(b, loc, i64, result);
  Value invalid = arith::ConstantIntOp::create(b, loc, i64, -1);
  result = arith::SelectOp::create(b, loc, ok, result, invalid);
  func::ReturnOp::create(b, loc, result);
  return success();
}

struct OutlinePoolBytesPass
    : aotc::impl::OutlinePoolBytesBase<OutlinePoolBytesPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> entries;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func->hasAttr(aotc::kPoolAttrName))
        entries.push_back(func);
    for (func::FuncOp func : entries) {
      FailureOr<std::optional<aotc::EntryPointSignature>> read =
          aotc::readEntryPoint(func);
      if (failed(read))
        return signalPassFailure();
      std::optional<aotc::EntryPointSignature> &sig = *read;
      if (!sig || sig->symbols.empty())
        continue;
      if (failed(PoolBytesBuilder(func, *sig).build()))
        return signalPassFailure();
    }
  }
};

} // namespace
