//===- LowerCopies.cpp - memref.copy to linalg copies ---------*- C++ -*-===//
//
// This file implements the aotc-lower-copies pass. memref.copy between
// non-contiguous buffers lowers to a call of the `memrefCopy` runtime
// function; as a linalg copy it becomes plain loops instead.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Utils/Utils.h"

namespace aotc {
#define GEN_PASS_DEF_LOWERCOPIES
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct LowerCopiesPass : aotc::impl::LowerCopiesBase<LowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp op) { copies.push_back(op); });
    OpBuilder b(&getContext());
    for (memref::CopyOp copy : copies) {
      // A tile written in place and "copied" onto itself is a no-op.
      if (copy.getSource() == copy.getTarget()) {
        copy.erase();
        continue;
      }
      b.setInsertionPoint(copy);
      linalg::makeMemRefCopyOp(b, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
