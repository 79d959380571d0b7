//===- PrivatizeInits.cpp - One destination per consumer -----*- C++ -*-===//
//
// This file implements the aotc-privatize-inits pass: fills and empty
// tensors shared (after CSE) by several destination-passing ops are cloned
// per use, so that bufferization fills each destination in place instead of
// copying a shared buffer.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace aotc {
#define GEN_PASS_DEF_PRIVATIZEINITS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Clones `empty` right before `user` and returns the clone's result.
Value cloneEmptyBefore(OpBuilder &b, tensor::EmptyOp empty, Operation *user) {
  b.setInsertionPoint(user);
  return b.clone(*empty)->getResult(0);
}

struct PrivatizeInitsPass
    : aotc::impl::PrivatizeInitsBase<PrivatizeInitsPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    SmallVector<DestinationStyleOpInterface> users;
    getOperation().walk(
        [&](DestinationStyleOpInterface op) { users.push_back(op); });

    for (DestinationStyleOpInterface op : users) {
      for (OpOperand &init : op.getDpsInitsMutable()) {
        Value value = init.get();
        if (value.hasOneUse())
          continue;
        if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) {
          init.set(cloneEmptyBefore(b, empty, op));
          continue;
        }
        auto fill = value.getDefiningOp<linalg::FillOp>();
        if (!fill || !fill.hasPureTensorSemantics())
          continue;
        // A private fill into a private empty tensor, right before the user.
        b.setInsertionPoint(op);
        Operation *clone = b.clone(*fill);
        if (auto empty =
                fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
          clone->setOperand(clone->getNumOperands() - 1,
                            cloneEmptyBefore(b, empty, clone));
        init.set(clone->getResult(0));
      }
    }
    // Originals whose uses all moved to clones are now dead.
    getOperation().walk([](Operation *op) {
      if (isa<linalg::FillOp, tensor::EmptyOp>(op) && op->use_empty())
        op->erase();
    });
  }
};

} // namespace
