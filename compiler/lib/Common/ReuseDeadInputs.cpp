//===- ReuseDeadInputs.cpp - In-place elementwise updates -----*- C++ -*-===//
//
// This file implements the aotc-reuse-dead-inputs pass: an elementwise op
// whose input dies at that op writes its result into the input's buffer.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

namespace aotc {
#define GEN_PASS_DEF_REUSEDEADINPUTS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// True when `v` is a temporary that the op `user` may overwrite: produced by
/// an op in the function (not an argument, not a constant) and used only by
/// `user`, once.
bool isDeadTemporaryAt(Value v, Operation *user) {
  Operation *def = v.getDefiningOp();
  if (!def || def->hasTrait<OpTrait::ConstantLike>() ||
      isa<tensor::EmptyOp>(def))
    return false;
  // A slice of a tensor that is read elsewhere too (a concatenation grown
  // in place, aotc-grow-concats-in-place) does not die with the slice:
  // writing into it would make bufferization copy it first.
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
    if (!slice.getSource().hasOneUse())
      return false;
  if (!v.hasOneUse() || *v.getUsers().begin() != user)
    return false;
  return true;
}

/// Rewrites `op` so that its input `input` becomes its destination: the
/// input is dropped from `ins` and the payload reads the element through the
/// output block argument instead. Reading the destination (rather than a
/// separate value aliasing it) is what lets bufferization, also after
/// tiling, prove the update in place.
void makeInputTheDestination(RewriterBase &rewriter, linalg::GenericOp op,
                             OpOperand *input) {
  unsigned inputIndex = input->getOperandNumber();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *other : op.getDpsInputOperands()) {
    if (other == input)
      continue;
    inputs.push_back(other->get());
    maps.push_back(op.getMatchingIndexingMap(other));
  }
  maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));

  rewriter.setInsertionPoint(op);
  auto fused = linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), inputs,
      ValueRange{input->get()}, maps, op.getIteratorTypesArray());
  fused->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  Region &region = fused.getRegion();
  rewriter.inlineRegionBefore(op.getRegion(), region, region.end());
  Block &body = region.front();
  // The input's element is now the output block argument's.
  rewriter.replaceAllUsesWith(body.getArgument(inputIndex),
                              body.getArguments().back());
  body.eraseArgument(inputIndex);
  rewriter.replaceOp(op, fused.getResults());
}

struct ReuseDeadInputsPass
    : aotc::impl::ReuseDeadInputsBase<ReuseDeadInputsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) { candidates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      if (op.getNumDpsInits() != 1 ||
          op.getNumParallelLoops() != op.getNumLoops() ||
          !op.hasPureTensorSemantics())
        continue;
      OpOperand *init = op.getDpsInitOperand(0);
      // The payload must not read the init: it is overwritten by the input.
      if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
          op.payloadUsesValueFromOperand(init))
        continue;
      AffineMap initMap = op.getMatchingIndexingMap(init);
      if (!initMap.isIdentity())
        continue;
      for (OpOperand *input : op.getDpsInputOperands()) {
        if (input->get().getType() != init->get().getType() ||
            op.getMatchingIndexingMap(input) != initMap ||
            !isDeadTemporaryAt(input->get(), op))
          continue;
        makeInputTheDestination(rewriter, op, input);
        break;
      }
    }
  }
};

} // namespace
