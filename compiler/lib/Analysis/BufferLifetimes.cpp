//===- BufferLifetimes.cpp - Lifetimes of scratch buffers ------*- C++ -*-===//
//
// This file implements the lifetime analysis feeding the memory planner.
//
//===----------------------------------------------------------------------===//

#include "aotc/Analysis/BufferLifetimes.h"

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace aotc {

std::optional<int64_t> evaluateIndex(Value value,
                                     const DenseMap<Value, int64_t> &known) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt();
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return evaluateIndex(op->getOperand(0), known);
  SmallVector<int64_t> operands;
  for (Value operand : op->getOperands()) {
    std::optional<int64_t> v = evaluateIndex(operand, known);
    if (!v)
      return std::nullopt;
    operands.push_back(*v);
  }
  auto affineResults = [&](AffineMap map) -> std::optional<SmallVector<int64_t>> {
    SmallVector<Attribute> attrs = llvm::map_to_vector(operands, [&](int64_t v) {
      return Attribute(IntegerAttr::get(IndexType::get(op->getContext()), v));
    });
    SmallVector<Attribute> folded;
    if (failed(map.constantFold(attrs, folded)))
      return std::nullopt;
    SmallVector<int64_t> results;
    for (Attribute a : folded) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i)
        return std::nullopt;
      results.push_back(i.getInt());
    }
    return results;
  };
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    if (auto r = affineResults(apply.getAffineMap()))
      return r->front();
    return std::nullopt;
  }
  if (isa<affine::AffineMinOp, affine::AffineMaxOp>(op)) {
    AffineMap map = isa<affine::AffineMinOp>(op)
                        ? cast<affine::AffineMinOp>(op).getAffineMap()
                        : cast<affine::AffineMaxOp>(op).getAffineMap();
    std::optional<SmallVector<int64_t>> r = affineResults(map);
    if (!r || r->empty())
      return std::nullopt;
    return isa<affine::AffineMinOp>(op) ? *llvm::min_element(*r)
                                        : *llvm::max_element(*r);
  }
  if (operands.size() != 2)
    return std::nullopt;
  int64_t a = operands[0], b = operands[1];
  if (isa<arith::AddIOp>(op))
    return a + b;
  if (isa<arith::SubIOp>(op))
    return a - b;
  if (isa<arith::MulIOp>(op))
    return a * b;
  if (b != 0 && isa<arith::DivSIOp, arith::DivUIOp>(op))
    return a / b;
  if (b != 0 && isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
    return llvm::divideCeilSigned(a, b);
  if (b != 0 && isa<arith::FloorDivSIOp>(op))
    return llvm::divideFloorSigned(a, b);
  if (b != 0 && isa<arith::RemSIOp, arith::RemUIOp>(op))
    return a % b;
  if (isa<arith::MaxSIOp, arith::MaxUIOp>(op))
    return std::max(a, b);
  if (isa<arith::MinSIOp, arith::MinUIOp>(op))
    return std::min(a, b);
  return std::nullopt;
}

FailureOr<BufferLifetimes> computeBufferLifetimes(func::FuncOp func) {
  Block &entry = func.getBody().front();
  DenseMap<Operation *, int64_t> position;
  int64_t index = 0;
  for (Operation &op : entry)
    position[&op] = index++;

  // Symbol arguments at their bounds.
  DenseMap<Value, int64_t> bounds;
  auto entryAttr = func->getAttrOfType<DictionaryAttr>(kEntryAttrName);
  if (ArrayAttr symbols =
          entryAttr ? entryAttr.getAs<ArrayAttr>("symbols") : nullptr)
    for (BlockArgument arg : func.getArguments())
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        kSymbolAttrName))
        for (auto symbol : symbols.getAsRange<DictionaryAttr>())
          if (symbol.get("name") == name)
            bounds[arg] = cast<IntegerAttr>(symbol.get("max")).getInt();

  BufferLifetimes result;
  WalkResult walk = func.walk([&](memref::AllocOp alloc) -> WalkResult {
    MemRefType type = alloc.getType();
    int64_t bytes = elementBytes(type);
    unsigned dynamicIndex = 0;
    for (int64_t d : type.getShape()) {
      if (!ShapedType::isDynamic(d)) {
        bytes *= d;
        continue;
      }
      std::optional<int64_t> size =
          evaluateIndex(alloc.getDynamicSizes()[dynamicIndex++], bounds);
      if (!size || *size < 0)
        return alloc.emitError("scratch buffer ")
               << type
               << " has a size that is not computed from the symbolic "
                  "dimensions alone; it cannot be placed in the pool";
      bytes *= *size;
    }
    if (!alloc.getSymbolOperands().empty() || type.getLayout() &&
                                                  !type.getLayout().isIdentity())
      return alloc.emitError("scratch buffer ")
             << type << " has a layout the pool planner does not handle";
    if (alloc->getBlock() != &entry)
      return alloc.emitError("scratch buffer allocated inside a region; "
                             "the pool planner needs it at function level");
    int64_t start = position[alloc];
    int64_t end = start;
    // Follow every value that may alias the buffer to its last use. This is
    // deliberately conservative: any memref produced by an op that uses the
    // buffer (views, casts, arith.select, scf.for/if results, ...) and the
    // results of a region op whose terminator yields it are aliases.
    SmallVector<Value> worklist = {alloc.getResult()};
    DenseSet<Value> seen = {alloc.getResult()};
    auto addAlias = [&](Value v) {
      if (isa<BaseMemRefType>(v.getType()) && seen.insert(v).second)
        worklist.push_back(v);
    };
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        for (Value result : user->getResults())
          addAlias(result);
        if (user->hasTrait<OpTrait::IsTerminator>())
          if (Operation *parent = user->getParentOp())
            if (parent != func.getOperation())
              for (Value result : parent->getResults())
                addAlias(result);
        // Loop-carried: the region arguments tied to this operand.
        for (Region &region : user->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              if (arg.getType() == value.getType())
                addAlias(arg);
        if (Operation *top = entry.findAncestorOpInBlock(*user))
          end = std::max(end, position[top]);
      }
    }
    result.allocs.push_back(alloc);
    result.requests.push_back({bytes, start, end});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return result;
}

} // namespace aotc
