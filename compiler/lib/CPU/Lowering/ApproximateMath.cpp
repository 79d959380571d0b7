//===- ApproximateMath.cpp - Polynomial math approximations ---*- C++ -*-===//
//
// This file implements the aotc-approximate-math pass: f32 transcendental
// functions become inline polynomial code (vectorizable, no libm calls).
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Lowering/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aotc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "aotc/CPU/Lowering/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// f32 erf as one rational function, x * P(x^2) / Q(x^2), on x clamped to
/// [-3.92, 3.92] (erf rounds to +-1 beyond +-3.9193): 2 selects, 12 FMAs
/// and multiplies, one division. Upstream's approximation blends three
/// intervals' coefficients (about 45 vector instructions per erf, twice as
/// many as this) for a similar accuracy: measured on every 7th f32 in
/// [2^-20, 5] against float64 erf, at most 6 ulp (upstream 4.75), mean 0.71
/// (0.70); erf(NaN) is NaN. The coefficients are our own minimax fit of the
/// relative error (a linear program per step of a Loeb iteration, degrees
/// 5 and 5 in x^2), rounded to f32.
struct ErfRational : OpRewritePattern<math::ErfOp> {
  ErfRational(MLIRContext *context)
      : OpRewritePattern<math::ErfOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    static constexpr float kNumerator[] = {
        1.12837923f,     0.189140841f,    0.0525522269f,
        0.0037046189f,   0.000282253342f, 2.04211437e-06f};
    static constexpr float kDenominator[] = {
        1.0f,          0.500955045f,  0.113559395f,
        0.0148466937f, 0.00114550465f, 3.78746008e-05f};
    static constexpr float kClamp = 3.92f; // R(3.92) rounds to 1
    Location loc = op.getLoc();
    auto constant = [&](float value) -> Value {
      FloatAttr attr = rewriter.getF32FloatAttr(value);
      if (auto shaped = dyn_cast<ShapedType>(type))
        return arith::ConstantOp::create(rewriter, loc,
                                         SplatElementsAttr::get(shaped, attr));
      return arith::ConstantOp::create(rewriter, loc, attr);
    };
    // erf(a / c), c constant (GELU's erf(x / sqrt 2)): the polynomial is
    // evaluated at a * (1 / c), one rounding of the argument more (<= 0.5
    // ulp) instead of a division per element.
    Value x = op.getOperand();
    APFloat divisor(0.0f);
    if (auto division = x.getDefiningOp<arith::DivFOp>();
        division && matchPattern(division.getRhs(), m_ConstantFloat(&divisor)) &&
        !divisor.isZero())
      x = arith::MulFOp::create(
          rewriter, loc, division.getLhs(),
          constant(static_cast<float>(1.0 / divisor.convertToDouble())));
    // Clamped by compare + select so that NaN passes through.
    Value high = constant(kClamp), low = constant(-kClamp);
    x = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, x,
                              high),
        high, x);
    x = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, x,
                              low),
        low, x);
    Value t = arith::MulFOp::create(rewriter, loc, x, x);
    auto horner = [&](ArrayRef<float> coefficients) {
      Value sum = constant(coefficients.back());
      for (float c : llvm::reverse(coefficients.drop_back()))
        sum = math::FmaOp::create(rewriter, loc, sum, t, constant(c));
      return sum;
    };
    Value numerator =
        arith::MulFOp::create(rewriter, loc, x, horner(kNumerator));
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, numerator,
                                               horner(kDenominator));
    return success();
  }
};

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
    patterns.add<ErfRational>(&getContext());
    populateMathF32ExpansionPatterns(patterns, approximate);
    populateMathPolynomialApproximationPatterns(patterns, approximate);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
