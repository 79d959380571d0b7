//===- ReuseDeadInputs.cpp - In-place elementwise updates -----*- C++ -*-===//
//
// This file implements the aotc-reuse-dead-inputs pass: an elementwise op
// whose input dies at that op writes its result into the input's buffer.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

namespace aotc {
#define GEN_PASS_DEF_REUSEDEADINPUTS
#include "aotc/Transforms/Passes.h.inc"
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
  if (!v.hasOneUse() || *v.getUsers().begin() != user)
    return false;
  return true;
}

struct ReuseDeadInputsPass
    : aotc::impl::ReuseDeadInputsBase<ReuseDeadInputsPass> {
  void runOnOperation() override {
    getOperation().walk([](linalg::GenericOp op) {
      if (op.getNumDpsInits() != 1 ||
          op.getNumParallelLoops() != op.getNumLoops() ||
          !op.hasPureTensorSemantics())
        return;
      OpOperand *init = op.getDpsInitOperand(0);
      // The payload must not read the init: it is overwritten by the input.
      if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
          op.payloadUsesValueFromOperand(init))
        return;
      AffineMap initMap = op.getMatchingIndexingMap(init);
      if (!initMap.isIdentity())
        return;
      for (OpOperand *input : op.getDpsInputOperands()) {
        if (input->get().getType() != init->get().getType() ||
            op.getMatchingIndexingMap(input) != initMap ||
            !isDeadTemporaryAt(input->get(), op))
          continue;
        init->set(input->get());
        return;
      }
    });
  }
};

} // namespace
