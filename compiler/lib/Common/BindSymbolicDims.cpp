//===- BindSymbolicDims.cpp - Symbols as entry point arguments -*- C++ -*-===//
//
// This file implements the aotc-bind-symbolic-dims pass: each symbolic
// dimension of an entry point becomes a leading index argument, and each
// dynamically shaped tensor argument is rebuilt from a bare pointer (typed at
// the bound) and those arguments. Sizes read back from views of them become
// expressions of those arguments, so that buffers sized by symbolic
// dimensions can be planned.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/Common/Passes.h"

#include "mlir/IR/Builders.h"

namespace aotc {
#define GEN_PASS_DEF_BINDSYMBOLICDIMS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Row-major strides of a contiguous memref of `sizes`, static as long as
/// the trailing sizes are.
SmallVector<OpFoldResult> rowMajorStrides(OpBuilder &b, Location loc,
                                          ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(sizes.size());
  OpFoldResult stride = b.getIndexAttr(1);
  for (int64_t d = sizes.size() - 1; d >= 0; --d) {
    strides[d] = stride;
    if (d == 0)
      break;
    std::optional<int64_t> s = getConstantIntValue(stride);
    std::optional<int64_t> n = getConstantIntValue(sizes[d]);
    if (s && n) {
      stride = b.getIndexAttr(*s * *n);
      continue;
    }
    Value lhs = getValueOrCreateConstantIndexOp(b, loc, stride);
    Value rhs = getValueOrCreateConstantIndexOp(b, loc, sizes[d]);
    stride = arith::MulIOp::create(b, loc, lhs, rhs).getResult();
  }
  return strides;
}

struct BindSymbolicDimsPass
    : aotc::impl::BindSymbolicDimsBase<BindSymbolicDimsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<std::optional<aotc::EntryPointSignature>> read =
        aotc::readEntryPoint(func);
    if (failed(read))
      return signalPassFailure();
    std::optional<aotc::EntryPointSignature> &sig = *read;
    if (!sig || sig->symbols.empty() || func.isExternal())
      return;
    std::vector<aotc::TensorSignature> tensors = sig->inputs;
    llvm::append_range(tensors, sig->outputs);
    if (func.getNumArguments() != tensors.size()) {
      func.emitError("internal error: expected one argument per input and "
                     "output before binding symbolic dimensions");
      return signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    // Leading index arguments, one per symbol.
    llvm::StringMap<Value> symbolValue;
    llvm::StringMap<int64_t> symbolBound;
    for (auto [i, symbol] : llvm::enumerate(sig->symbols)) {
      if (failed(func.insertArgument(
              i, b.getIndexType(),
              b.getDictionaryAttr({b.getNamedAttr(
                  aotc::kSymbolAttrName, b.getStringAttr(symbol.name))}),
              func.getLoc())))
        return signalPassFailure();
      symbolValue[symbol.name] = func.getArgument(i);
      symbolBound[symbol.name] = symbol.max;
    }

    Block &entry = func.getBody().front();
    b.setInsertionPointToStart(&entry);
    Location loc = func.getLoc();
    unsigned first = sig->symbols.size();
    for (auto [i, tensor] : llvm::enumerate(tensors)) {
      BlockArgument arg = func.getArgument(first + i);
      auto type = cast<MemRefType>(arg.getType());
      if (type.hasStaticShape())
        continue;
      // Sizes from the symbols; row-major strides, static as far as the
      // trailing dimensions are.
      SmallVector<int64_t> boundShape;
      SmallVector<OpFoldResult> sizes;
      for (auto [d, name] : llvm::zip_equal(type.getShape(), tensor.dims)) {
        if (!ShapedType::isDynamic(d)) {
          boundShape.push_back(d);
          sizes.push_back(b.getIndexAttr(d));
          continue;
        }
        boundShape.push_back(symbolBound.lookup(name));
        sizes.push_back(symbolValue.lookup(name));
      }
      SmallVector<OpFoldResult> strides = rowMajorStrides(b, loc, sizes);
      auto boundType = MemRefType::get(boundShape, type.getElementType());
      arg.setType(boundType);
      auto view = memref::ReinterpretCastOp::create(
          b, loc, type, arg, b.getIndexAttr(0), sizes, strides);
      arg.replaceAllUsesExcept(view.getResult(), view);
    }
    SmallVector<Type> argTypes(entry.getArgumentTypes());
    func.setType(FunctionType::get(ctx, argTypes, func.getResultTypes()));

    // Sizes read back from the rebuilt arguments' views, and from reshaped
    // views of them or of buffers (collapse/expand_shape), become
    // expressions of the symbols.
    SmallVector<memref::DimOp> worklist;
    func.walk([&](memref::DimOp dim) { worklist.push_back(dim); });
    while (!worklist.empty()) {
      memref::DimOp dim = worklist.pop_back_val();
      std::optional<int64_t> index = dim.getConstantIndex();
      Operation *source = dim.getSource().getDefiningOp();
      if (!index || *index < 0 || !source ||
          *index >= cast<MemRefType>(dim.getSource().getType()).getRank())
        continue;
      b.setInsertionPoint(dim);
      Location dimLoc = dim.getLoc();
      OpFoldResult size;
      if (auto expand = dyn_cast<memref::ExpandShapeOp>(source)) {
        size = expand.getMixedOutputShape()[*index];
      } else if (auto view = dyn_cast<memref::ReinterpretCastOp>(source)) {
        size = view.getMixedSizes()[*index];
      } else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(source)) {
        // The product of the collapsed source dimensions.
        MemRefType srcType = collapse.getSrcType();
        Value product = arith::ConstantIndexOp::create(b, dimLoc, 1);
        SmallVector<ReassociationIndices> groups =
            collapse.getReassociationIndices();
        for (int64_t d : groups[*index]) {
          Value factor;
          if (srcType.isDynamicDim(d)) {
            auto inner = memref::DimOp::create(b, dimLoc, collapse.getSrc(), d);
            worklist.push_back(inner);
            factor = inner;
          } else {
            factor = arith::ConstantIndexOp::create(b, dimLoc,
                                                    srcType.getDimSize(d));
          }
          product = arith::MulIOp::create(b, dimLoc, product, factor);
        }
        size = product;
      } else {
        continue;
      }
      dim.replaceAllUsesWith(getValueOrCreateConstantIndexOp(b, dimLoc, size));
      dim.erase();
    }

    // An expansion of one dimension into several symbolic ones (e.g. [S*N]
    // into [S, N]) of a contiguous buffer becomes the equivalent
    // reinterpret_cast: LLVM 22's expand-strided-metadata cannot lower an
    // expand_shape with more than one dynamic size per group.
    SmallVector<memref::ExpandShapeOp> expands;
    func.walk([&](memref::ExpandShapeOp op) {
      ArrayRef<int64_t> shape = op.getResultType().getShape();
      bool split = llvm::any_of(
          op.getReassociationIndices(), [&](const ReassociationIndices &g) {
            return llvm::count_if(g, [&](int64_t d) {
                     return ShapedType::isDynamic(shape[d]);
                   }) > 1;
          });
      if (split && op.getSrcType().getLayout().isIdentity() &&
          op.getResultType().getLayout().isIdentity())
        expands.push_back(op);
    });
    for (memref::ExpandShapeOp op : expands) {
      b.setInsertionPoint(op);
      Location opLoc = op.getLoc();
      SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
      SmallVector<OpFoldResult> strides = rowMajorStrides(b, opLoc, sizes);
      Value view = memref::ReinterpretCastOp::create(
          b, opLoc, op.getResultType(), op.getSrc(), b.getIndexAttr(0), sizes,
          strides);
      op.replaceAllUsesWith(view);
      op.erase();
    }
  }
};

} // namespace
