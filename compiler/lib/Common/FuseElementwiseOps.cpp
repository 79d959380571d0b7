//===- FuseElementwiseOps.cpp - Cost-aware elementwise fusion -*- C++ -*-===//
//
// This file implements the aotc-fuse-elementwise-ops pass: the upstream
// producer/consumer fusion of elementwise linalg ops (and the reshape
// propagation that enables it), with a control function that refuses a
// fusion which would recompute an expensive producer, or turn a contraction
// into something that is no longer one.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_FUSEELEMENTWISEOPS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// True when `op`'s payload calls a math-dialect function (exp, erf, tanh,
/// sqrt, ...): work worth far more than the memory traffic fusion saves.
bool hasMathOps(linalg::LinalgOp op) {
  return op->walk([](Operation *inner) {
             return isa_and_nonnull<math::MathDialect>(inner->getDialect())
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           })
      .wasInterrupted();
}

/// True when `op` only moves data through a transposing map: one input
/// read through a permutation other than the identity, yielded unchanged.
bool isTranspose(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield.getValues().front() != body->getArgument(0))
    return false;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return in.isPermutation() && out.isIdentity() && !in.isIdentity();
}

/// Largest payload (ops in the body) a fusion may make. Each fusion clones
/// both payloads whole, so without a bound a chain of N elementwise ops
/// fused into one costs O(N^2) (10,000 ops: minutes); with it, O(N). No
/// payload of the model corpus comes near it.
constexpr size_t kMaxFusedPayloadOps = 256;

/// Whether the producer of `fusedOperand` may be fused into its owner. As
/// upstream, only single-use producers are fused (nothing is duplicated).
/// When the consumer reads the producer's result through a map that leaves
/// out some of its loops, the fused payload runs once per point of those
/// loops instead of once per element; that is refused when
///   - the producer calls math functions (a GELU fused into the matmul that
///     consumes it runs erf N times per element), or
///   - the consumer has reduction loops and a left-out loop is parallel
///     (the consumer is a contraction or another reduction over outputs:
///     `relu(x) @ w` or `(q / s) @ k^T` would stop being a contraction and
///     lose the matmul path).
/// A broadcast operand of an all-parallel consumer (a bias), or a row
/// statistic read inside that same row's reduction, still fuses. A
/// transpose is not fused into a contraction (see below), and no fusion
/// makes a payload larger than kMaxFusedPayloadOps.
bool shouldFuse(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto producerOp = dyn_cast<linalg::LinalgOp>(producer);
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  if (!producerOp || !consumer)
    return true;
  if (producerOp.getBlock()->getOperations().size() +
          consumer.getBlock()->getOperations().size() >
      kMaxFusedPayloadOps)
    return false;
  // A producer whose payload reads its init (out += x: an accumulation
  // with no reduction loop) is no function of its inputs alone; fused, it
  // would accumulate once per read of the consumer.
  if (llvm::any_of(producerOp.getDpsInitsMutable(), [&](OpOperand &init) {
        return producerOp.payloadUsesValueFromOperand(&init);
      }))
    return false;
  // A transpose feeding a contraction stays a copy: fused, the contraction
  // would read that operand across its rows (one gather per register),
  // once per register tile instead of once.
  if (isTranspose(producerOp) && linalg::isaContractionOpInterface(consumer))
    return false;
  AffineMap map = consumer.getMatchingIndexingMap(fusedOperand);
  if (map.isPermutation())
    return true;
  if (hasMathOps(producerOp))
    return false;
  if (consumer.getNumReductionLoops() == 0)
    return true;
  SmallVector<utils::IteratorType> iterators =
      consumer.getIteratorTypesArray();
  for (unsigned d = 0, e = map.getNumDims(); d < e; ++d)
    if (!map.isFunctionOfDim(d) &&
        iterators[d] == utils::IteratorType::parallel)
      return false;
  return true;
}

struct FuseElementwiseOpsPass
    : aotc::impl::FuseElementwiseOpsBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    // The pattern set of upstream's linalg-fuse-elementwise-ops, with the
    // control function above for the fusions themselves.
    linalg::ControlFusionFn singleUse = [](OpOperand *operand) {
      Operation *producer = operand->get().getDefiningOp();
      return producer && producer->hasOneUse();
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, singleUse);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, singleUse);
    // Top-down for compile time, as upstream; not converging within the
    // iteration limit only leaves some fusion undone.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
