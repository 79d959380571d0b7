//===- MultiplyByReciprocal.cpp - Divisions by row constants --*- C++ -*-===//
//
// This file implements the aotc-multiply-by-reciprocal pass: in a
// linalg.generic, a floating-point division whose divisor does not change
// along the innermost loop (softmax's division by the row sum) becomes a
// multiplication by the divisor's reciprocal, which loop-invariant code
// motion then computes once per row instead of once per element.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

namespace aotc {
#define GEN_PASS_DEF_MULTIPLYBYRECIPROCAL
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Whether `value` is the payload argument of an input of `op` read through
/// a map that does not use the innermost loop.
bool isInvariantAlongInnermost(linalg::GenericOp op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return false;
  AffineMap map =
      op.getMatchingIndexingMap(op.getDpsInputOperand(arg.getArgNumber()));
  return !map.isFunctionOfDim(op.getNumLoops() - 1);
}

struct MultiplyByReciprocalPass
    : aotc::impl::MultiplyByReciprocalBase<MultiplyByReciprocalPass> {
  void runOnOperation() override {
    SmallVector<arith::DivFOp> divisions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics() || op.getNumLoops() < 2)
        return;
      for (auto div : op.getBody()->getOps<arith::DivFOp>())
        if (isInvariantAlongInnermost(op, div.getRhs()) &&
            !isInvariantAlongInnermost(op, div.getLhs()))
          divisions.push_back(div);
    });
    IRRewriter rewriter(&getContext());
    for (arith::DivFOp div : divisions) {
      rewriter.setInsertionPoint(div);
      Location loc = div.getLoc();
      Value one = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(div.getType(), 1.0));
      Value reciprocal = arith::DivFOp::create(rewriter, loc, one,
                                               div.getRhs(),
                                               div.getFastmathAttr());
      rewriter.replaceOpWithNewOp<arith::MulFOp>(div, div.getLhs(), reciprocal,
                                                 div.getFastmathAttr());
    }
  }
};

} // namespace
