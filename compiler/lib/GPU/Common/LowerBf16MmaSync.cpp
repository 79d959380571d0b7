//===- LowerBf16MmaSync.cpp - bf16 nvgpu.mma.sync to NVVM -------*- C++ -*-===//
//
// This file implements the aotc-lower-bf16-mma-sync pass: MLIR 22's
// convert-nvgpu-to-nvvm lowers nvgpu.mma.sync for f16 but not for bf16
// ("failed to deduce operand PTX types"). This pass lowers the bf16 form
// aotc-gpu-mma-contractions builds, 16x8x16 with f32 accumulators, to
// nvvm.mma.sync (PTX mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32),
// whose A and B registers hold two bf16 each (as i32).
//
//===----------------------------------------------------------------------===//

#include "aotc/GPU/Common/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aotc {
#define GEN_PASS_DEF_LOWERBF16MMASYNC
#include "aotc/GPU/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// Whether `mma` is the bf16 16x8x16 form with f32 accumulators.
bool isBf16Mma(nvgpu::MmaSyncOp mma) {
  auto a = cast<VectorType>(mma.getMatrixA().getType());
  auto b = cast<VectorType>(mma.getMatrixB().getType());
  auto c = cast<VectorType>(mma.getMatrixC().getType());
  SmallVector<int64_t> shape = llvm::to_vector(llvm::map_range(
      mma.getMmaShape(),
      [](Attribute s) { return cast<IntegerAttr>(s).getInt(); }));
  return a.getElementType().isBF16() && b.getElementType().isBF16() &&
         c.getElementType().isF32() && shape == SmallVector<int64_t>{16, 8, 16} &&
         a.getShape() == ArrayRef<int64_t>{4, 2} &&
         b.getShape() == ArrayRef<int64_t>{2, 2} &&
         c.getShape() == ArrayRef<int64_t>{2, 2};
}

void lower(nvgpu::MmaSyncOp mma) {
  OpBuilder b(mma);
  Location loc = mma.getLoc();
  Type i32 = b.getI32Type();
  auto pairType = VectorType::get({1}, i32);
  // Register r of a fragment: its row r (two bf16) as one i32.
  auto registers = [&](Value fragment, int64_t count) {
    SmallVector<Value> regs;
    for (int64_t r = 0; r < count; ++r) {
      Value pair = vector::ExtractOp::create(b, loc, fragment,
                                             ArrayRef<int64_t>{r});
      Value word = vector::BitCastOp::create(b, loc, pairType, pair);
      regs.push_back(vector::ExtractOp::create(b, loc, word,
                                               ArrayRef<int64_t>{0}));
    }
    return regs;
  };
  SmallVector<Value> a = registers(mma.getMatrixA(), 4);
  SmallVector<Value> bRegs = registers(mma.getMatrixB(), 2);
  SmallVector<Value> c;
  for (int64_t e = 0; e < 4; ++e)
    c.push_back(vector::ExtractOp::create(b, loc, mma.getMatrixC(),
                                          ArrayRef<int64_t>{e / 2, e % 2}));
  Type f32 = b.getF32Type();
  auto structType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  auto op = NVVM::MmaOp::create(
      b, loc, structType, a, bRegs, c, ArrayRef<int64_t>{16, 8, 16},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                    NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value result = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(mma.getRes().getType()));
  for (int64_t e = 0; e < 4; ++e) {
    Value v = LLVM::ExtractValueOp::create(b, loc, op.getRes(), e);
    result = vector::InsertOp::create(b, loc, v, result,
                                      ArrayRef<int64_t>{e / 2, e % 2});
  }
  mma.getRes().replaceAllUsesWith(result);
  mma.erase();
}

struct LowerBf16MmaSyncPass
    : aotc::impl::LowerBf16MmaSyncBase<LowerBf16MmaSyncPass> {
  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> ops;
    getOperation()->walk([&](nvgpu::MmaSyncOp mma) {
      if (isBf16Mma(mma))
        ops.push_back(mma);
    });
    for (nvgpu::MmaSyncOp mma : ops)
      lower(mma);
  }
};

} // namespace
