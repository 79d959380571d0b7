//===- ApproximateMath.cpp - Polynomial math approximations ---*- C++ -*-===//
//
// This file implements the aotc-approximate-math pass: f32 transcendental
// functions become inline polynomial code (vectorizable, no libm calls).
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

struct ApproximateMathPass
    : aotc::impl::ApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // rsqrt has only an x86-specific (AVX2 intrinsic) rewrite upstream; LLVM
    // lowers it portably. Everything else: f16/bf16 math is computed in f32,
    // then approximated like f32. The predicates see full op names.
    auto approximate = [](StringRef name) {
      return name != math::RsqrtOp::getOperationName();
    };
    populateMathF32ExpansionPatterns(patterns, approximate);
    populateMathPolynomialApproximationPatterns(patterns, approximate);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
