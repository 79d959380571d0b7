//===- TilingUtils.cpp - Helpers shared by the tiling passes -*- C++ -*-===//
//
// This file implements tiling a linalg op and replacing it by the loop nest.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/TilingUtils.h"

#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

namespace aotc {

FailureOr<Operation *> tileAndReplace(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      ArrayRef<int64_t> tileSizes,
                                      scf::SCFTilingOptions::LoopType loopType) {
  scf::SCFTilingOptions options;
  options.setLoopType(loopType);
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tileSizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return op.emitError("failed to tile");
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

} // namespace aotc
