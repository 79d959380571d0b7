//===- TestGpuLaunchToOmp.cpp - Run gpu.launch bodies on CPU threads -*- C++ -*-===//
//
// This file implements the test-only aotc-test-gpu-launch-to-omp pass: every
// gpu.launch becomes a loop over its blocks, each block an OpenMP parallel
// region with one CPU thread per GPU thread, workgroup memory a stack buffer
// of the block that all its threads share, and gpu.barrier an OpenMP
// barrier. Kernels built by aotc (shared-memory tiles, barriers) then run on
// a machine without a GPU, so their results can be compared with an oracle.
// Warp-level matrix instructions (nvgpu.mma.sync 16x8x16, amdgpu.mfma
// 16x16x16) run as the hardware defines them: the lanes of a warp exchange
// their fragments through a scratch buffer of the block and each lane
// computes the result elements the vendor's layout gives it. wgmma
// (nvvm.wgmma.mma_async) reads A and B from workgroup memory through its
// matrix descriptors, decoded against a single "shared window" buffer.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/OpenMP/OpenMPUtils.h"
#include "aotc/GPU/CUDA/WgmmaVariant.h"
#include "aotc/Test/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_TESTGPULAUNCHTOOMP
#include "aotc/Test/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Matrix instructions
//===----------------------------------------------------------------------===//

/// Scratch slots of a lane: its A, B and C fragment elements (as f32).
constexpr int64_t kScratchSlots = 16, kSlotB = 8, kSlotC = 12;

/// Where the hardware keeps the elements of one warp-level matrix
/// instruction D (16 x n) = A (16 x 16) * B (16 x n) + C. Written from the
/// vendors' documents, independently of the kernels' fragment gathering:
///  - PTX ISA, mma.m16n8k16 with .f16/.bf16 A and B, f32 C/D. Lane l,
///    g = l / 4, t = l % 4. A element (r, k) is in lane (r % 8) * 4 +
///    (k % 8) / 2, register half k % 2 of register (r / 8) + 2 * (k / 8);
///    B element (k, n) in lane n * 4 + (k % 8) / 2, register k / 8, half
///    k % 2; C/D element (r, n) in lane (r % 8) * 4 + n / 2, register
///    r / 8, half n % 2.
///  - CDNA3 ISA, v_mfma_f32_16x16x16_f16/bf16: A element (i, k) in lane
///    i + 16 * (k / 4), item k % 4; B element (k, j) in lane j + 16 *
///    (k / 4), item k % 4; D element (i, j) in lane j + 16 * (i / 4), item
///    i % 4.
struct HardwareLayout {
  bool nvidia;
  int64_t warp, n;
};

/// Elements of a fragment vector in row-major order.
SmallVector<SmallVector<int64_t>> positions(VectorType type) {
  SmallVector<SmallVector<int64_t>> result;
  int64_t count = type.getNumElements();
  for (int64_t e = 0; e < count; ++e) {
    if (type.getRank() == 2)
      result.push_back({e / type.getDimSize(1), e % type.getDimSize(1)});
    else
      result.push_back({e});
  }
  return result;
}

/// Replaces one matrix instruction by the exchange through `scratch`
/// (memref<threads x kScratchSlots x f32>); `tid` is the linear thread id.
LogicalResult emulateMatrixOp(Operation *op, Value scratch, Value tid) {
  HardwareLayout hw;
  Value a, bv, c;
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    SmallVector<int64_t> shape = llvm::to_vector(llvm::map_range(
        mma.getMmaShape(), [](Attribute s) {
          return cast<IntegerAttr>(s).getInt();
        }));
    if (shape != SmallVector<int64_t>{16, 8, 16})
      return op->emitError("only mma.sync 16x8x16 is emulated (test pass)");
    hw = {true, 32, 8};
    a = mma.getMatrixA(), bv = mma.getMatrixB(), c = mma.getMatrixC();
  } else {
    auto mfma = cast<amdgpu::MFMAOp>(op);
    if (mfma.getM() != 16 || mfma.getN() != 16 || mfma.getK() != 16 ||
        mfma.getBlocks() != 1 || mfma.getCbsz() || mfma.getAbid() ||
        mfma.getBlgp() != amdgpu::MFMAPermB::none)
      return op->emitError("only mfma 16x16x16 is emulated (test pass)");
    hw = {false, 64, 16};
    a = mfma.getSourceA(), bv = mfma.getSourceB(), c = mfma.getDestC();
  }
  auto aType = dyn_cast<VectorType>(a.getType());
  auto bType = dyn_cast<VectorType>(bv.getType());
  auto cType = dyn_cast<VectorType>(c.getType());
  int64_t aCount = hw.nvidia ? 8 : 4;
  if (!aType || !bType || !cType || aType.getNumElements() != aCount ||
      bType.getNumElements() != 4 || cType.getNumElements() != 4 ||
      !cType.getElementType().isF32() ||
      !(aType.getElementType().isF16() || aType.getElementType().isBF16()))
    return op->emitError("unsupported matrix operand types (test pass)");

  Location loc = op->getLoc();
  OpBuilder b(op);
  Type f32 = b.getF32Type();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto div = [&](Value x, int64_t y) -> Value {
    return arith::DivUIOp::create(b, loc, x, cst(y));
  };
  auto rem = [&](Value x, int64_t y) -> Value {
    return arith::RemUIOp::create(b, loc, x, cst(y));
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(b, loc, x, cst(y));
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto addc = [&](Value x, int64_t y) -> Value { return add(x, cst(y)); };

  // 1. Every lane publishes its fragments.
  auto publish = [&](Value v, VectorType type, int64_t first) {
    for (auto [e, pos] : llvm::enumerate(positions(type))) {
      Value x = vector::ExtractOp::create(b, loc, v, pos);
      if (x.getType() != f32)
        x = arith::ExtFOp::create(b, loc, f32, x);
      memref::StoreOp::create(b, loc, x, scratch,
                              ValueRange{tid, cst(first + e)});
    }
  };
  publish(a, aType, 0);
  publish(bv, bType, kSlotB);
  publish(c, cType, kSlotC);
  omp::BarrierOp::create(b, loc);

  // 2. Each lane computes its D elements from the warp's A and B.
  Value lane = rem(tid, hw.warp);
  Value warpBase = arith::SubIOp::create(b, loc, tid, lane);
  Value result = arith::ConstantOp::create(b, loc, b.getZeroAttr(cType));
  for (auto [e, pos] : llvm::enumerate(positions(cType))) {
    int64_t idx = e;
    Value row, col;
    if (hw.nvidia) {
      // register idx / 2 -> rows +8, half idx % 2 -> column + 1.
      row = addc(div(lane, 4), 8 * (idx / 2));
      col = addc(mul(rem(lane, 4), 2), idx % 2);
    } else {
      row = addc(mul(div(lane, 16), 4), idx);
      col = rem(lane, 16);
    }
    Value acc = memref::LoadOp::create(b, loc, scratch,
                                       ValueRange{tid, cst(kSlotC + idx)});
    auto loop = scf::ForOp::create(b, loc, cst(0), cst(16), cst(1),
                                   ValueRange{acc});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      Value aLane, aSlot, bLane, bSlot;
      if (hw.nvidia) {
        aLane = add(mul(rem(row, 8), 4), div(rem(k, 8), 2));
        aSlot = add(rem(k, 2), add(mul(div(row, 8), 2), mul(div(k, 8), 4)));
        bLane = add(mul(col, 4), div(rem(k, 8), 2));
        bSlot = add(rem(k, 2), mul(div(k, 8), 2));
      } else {
        aLane = add(row, mul(div(k, 4), 16));
        aSlot = rem(k, 4);
        bLane = add(col, mul(div(k, 4), 16));
        bSlot = rem(k, 4);
      }
      Value x = memref::LoadOp::create(
          b, loc, scratch, ValueRange{add(warpBase, aLane), aSlot});
      Value y = memref::LoadOp::create(
          b, loc, scratch,
          ValueRange{add(warpBase, bLane), addc(bSlot, kSlotB)});
      Value p = arith::MulFOp::create(b, loc, x, y);
      Value sum = arith::AddFOp::create(b, loc, loop.getRegionIterArg(0), p);
      scf::YieldOp::create(b, loc, sum);
    }
    result = vector::InsertOp::create(b, loc, loop.getResult(0), result, pos);
  }
  // 3. Nobody overwrites the scratch before the whole warp has read it.
  omp::BarrierOp::create(b, loc);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

/// Replaces one nvvm.wgmma.mma_async by the computation of the calling
/// thread's accumulator elements. `window` (memref<?xi8>) holds every
/// workgroup buffer of the block, `windowBase` is its address, `tid` the
/// linear thread id. Written from the PTX ISA ("Asynchronous Warpgroup
/// Level Matrix Instructions"), independently of the kernels:
///  - matrix descriptor: start address (bits 0-13) = shared address >> 4
///    modulo 2^14, leading dimension byte offset >> 4 (bits 16-29),
///    stride dimension byte offset >> 4 (bits 32-45), base offset (bits
///    49-51), swizzle mode (bits 62-63; only 0, none, is emulated);
///  - K-major operands without swizzle: core matrices of 8 rows x 16 bytes
///    (row r of a core matrix at byte 16 r), the core matrix holding
///    element (i, k) of A (M x K) or of B (stored N x K) at start +
///    (i / 8) * stride offset + (k / 8) * leading offset;
///  - accumulator D of m64nNk16: warp w % 4 of the warpgroup holds rows
///    16 (w % 4) .. +15; register 4 j + e of a lane is D(16 (w % 4) +
///    lane / 4 + 8 (e / 2), 8 j + 2 (lane % 4) + e % 2).
LogicalResult emulateWgmma(NVVM::WgmmaMmaAsyncOp op, Value window,
                           Value windowBase, Value tid) {
  NVVM::MMAShapeAttr shape = op.getShape();
  auto structType = cast<LLVM::LLVMStructType>(op.getInouts().getType());
  int64_t regs = shape.getN() / 2;
  bool f16 = op.getTypeA() == NVVM::WGMMATypes::f16;
  if (shape.getM() != 64 || shape.getK() != 16 || shape.getN() % 8 ||
      op.getTypeA() != op.getTypeB() ||
      !(f16 || op.getTypeA() == NVVM::WGMMATypes::bf16) ||
      op.getTypeD() != NVVM::WGMMATypes::f32 ||
      op.getScaleD() != NVVM::WGMMAScaleOut::one ||
      op.getScaleA() != NVVM::WGMMAScaleIn::one ||
      op.getScaleB() != NVVM::WGMMAScaleIn::one ||
      op.getLayoutA() != NVVM::MMALayout::row ||
      op.getLayoutB() != NVVM::MMALayout::col ||
      (int64_t)structType.getBody().size() != regs)
    return op.emitError("only K-major f16/bf16 wgmma m64nNk16 with f32 "
                        "accumulation is emulated (test pass)");
  Location loc = op.getLoc();
  OpBuilder b(op);
  Type f32 = b.getF32Type();
  Type element = f16 ? Type(b.getF16Type()) : Type(b.getBF16Type());
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  auto div = [&](Value x, int64_t y) -> Value {
    return arith::DivUIOp::create(b, loc, x, cst(y));
  };
  auto rem = [&](Value x, int64_t y) -> Value {
    return arith::RemUIOp::create(b, loc, x, cst(y));
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  // A descriptor's fields (as index), the operand's byte offset in the
  // window; swizzled layouts and base offsets abort.
  struct Operand {
    Value start, leading, stride;
  };
  auto field = [&](Value desc, int64_t shift, int64_t mask) -> Value {
    Value v = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, desc, c64(shift)), c64(mask));
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  Value base16 = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, windowBase, c64(4)),
      c64(0x3FFF));
  auto decode = [&](Value desc) -> Operand {
    Value modes = arith::ShRUIOp::create(b, loc, desc, c64(49));
    Value plain = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, modes, c64(0x7FFF)),
        c64(0));
    cf::AssertOp::create(b, loc, plain,
                         "wgmma emulation: swizzle mode or base offset set");
    Value start16 = arith::AndIOp::create(b, loc, desc, c64(0x3FFF));
    Value rel = arith::AndIOp::create(
        b, loc, arith::SubIOp::create(b, loc, start16, base16), c64(0x3FFF));
    Value start = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::ShLIOp::create(b, loc, rel, c64(4)));
    return {start, mul(field(desc, 16, 0x3FFF), cst(16)),
            mul(field(desc, 32, 0x3FFF), cst(16))};
  };
  Operand a = decode(op.getDescriptorA()), bo = decode(op.getDescriptorB());
  // The window as 16-bit elements.
  Value bytes = memref::DimOp::create(b, loc, window, 0);
  Value elements = memref::ViewOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, element), window,
      cst(0), ValueRange{div(bytes, 2)});
  auto load = [&](const Operand &o, Value row, Value k) -> Value {
    Value byte = add(
        add(o.start, add(mul(div(row, 8), o.stride), mul(div(k, 8), o.leading))),
        add(mul(rem(row, 8), cst(16)), mul(rem(k, 8), cst(2))));
    Value v = memref::LoadOp::create(b, loc, elements, ValueRange{div(byte, 2)});
    return arith::ExtFOp::create(b, loc, f32, v);
  };
  Value lane = rem(tid, 32);
  Value warpRow = mul(rem(div(tid, 32), 4), cst(16));
  Value result = LLVM::PoisonOp::create(b, loc, structType);
  for (int64_t r = 0; r < regs; ++r) {
    int64_t j = r / 4, e = r % 4;
    Value row = add(add(warpRow, div(lane, 4)), cst(8 * (e / 2)));
    Value col = add(mul(rem(lane, 4), cst(2)), cst(8 * j + e % 2));
    Value acc = LLVM::ExtractValueOp::create(b, loc, op.getInouts(), r);
    auto loop = scf::ForOp::create(b, loc, cst(0), cst(16), cst(1),
                                   ValueRange{acc});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      Value p = arith::MulFOp::create(b, loc, load(a, row, k),
                                      load(bo, col, k));
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::AddFOp::create(b, loc, loop.getRegionIterArg(0), p)});
    }
    result = LLVM::InsertValueOp::create(b, loc, result, loop.getResult(0), r);
  }
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

LogicalResult lowerLaunch(gpu::LaunchOp launch, ModuleOp module) {
  if (!launch.getBody().hasOneBlock() || launch.getAsyncToken() ||
      !launch.getAsyncDependencies().empty() || launch.hasClusterSize() ||
      launch.getDynamicSharedMemorySize())
    return launch.emitError("unsupported gpu.launch (test pass)");
  Location loc = launch.getLoc();
  OpBuilder b(launch);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();

  if (!launch.getPrivateAttributions().empty())
    return launch.emitError("private attributions (test pass)");
  // Workgroup memory, shared by the threads of a block (and reused by the
  // next block).
  IRMapping mapping;
  bool hasWgmma = false;
  launch.walk([&](NVVM::WgmmaMmaAsyncOp) { hasWgmma = true; });
  Value window, windowBase;
  if (hasWgmma) {
    // One byte buffer for all workgroup attributions (128-byte aligned
    // views), so that matrix descriptors can be decoded against it.
    SmallVector<int64_t> offsets;
    int64_t bytes = 0;
    for (BlockArgument arg : launch.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(arg.getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return launch.emitError("dynamic workgroup buffer (test pass)");
      offsets.push_back(bytes);
      bytes += llvm::alignTo(type.getNumElements() *
                                 type.getElementTypeBitWidth() / 8,
                             128);
    }
    auto windowType = MemRefType::get({bytes}, b.getI8Type());
    window = memref::AllocaOp::create(b, loc, windowType, ValueRange{},
                                      b.getI64IntegerAttr(128));
    windowBase = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, window));
    for (auto [arg, offset] :
         llvm::zip(launch.getWorkgroupAttributions(), offsets)) {
      auto type = cast<MemRefType>(arg.getType());
      auto local = MemRefType::get(type.getShape(), type.getElementType());
      Value shift = arith::ConstantIndexOp::create(b, loc, offset);
      mapping.map(arg, memref::ViewOp::create(b, loc, local, window, shift,
                                              ValueRange{})
                           .getResult());
    }
    window = memref::CastOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()),
        window);
  } else {
    for (BlockArgument arg : launch.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(arg.getType());
      auto local = MemRefType::get(type.getShape(), type.getElementType());
      mapping.map(arg, memref::AllocaOp::create(b, loc, local).getResult());
    }
  }
  // Fragment exchange of matrix instructions: kScratchSlots f32 per thread.
  Value scratch;
  bool hasMatrixOps = false;
  launch.walk([&](Operation *op) {
    hasMatrixOps |= isa<nvgpu::MmaSyncOp, amdgpu::MFMAOp>(op);
  });
  if (hasMatrixOps) {
    Value xy = arith::MulIOp::create(b, loc, block.x, block.y);
    Value count = arith::MulIOp::create(b, loc, xy, block.z);
    auto type = MemRefType::get({ShapedType::kDynamic, kScratchSlots},
                                b.getF32Type());
    scratch = memref::AllocaOp::create(b, loc, type, ValueRange{count});
  }
  // Blocks one after the other.
  SmallVector<Value> blockIds;
  for (Value size : {grid.z, grid.y, grid.x}) {
    auto loop = scf::ForOp::create(b, loc, zero, size, one);
    b.setInsertionPointToStart(loop.getBody());
    blockIds.push_back(loop.getInductionVar());
  }
  Value xy = arith::MulIOp::create(b, loc, block.x, block.y);
  Value threads = arith::MulIOp::create(b, loc, xy, block.z);
  Value threads32 =
      arith::IndexCastOp::create(b, loc, b.getI32Type(), threads);
  omp::ParallelOperands clauses;
  clauses.numThreads = threads32;
  auto parallel = omp::ParallelOp::create(b, loc, clauses);
  b.createBlock(&parallel.getRegion());

  // Thread ids from the OpenMP thread number; a team smaller than the block
  // would silently compute something else, so it aborts.
  func::FuncOp threadNum =
      aotc::ompQueryFunction(module, "omp_get_thread_num");
  func::FuncOp numThreads =
      aotc::ompQueryFunction(module, "omp_get_num_threads");
  Value team = func::CallOp::create(b, loc, numThreads).getResult(0);
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, team,
                                     threads32);
  cf::AssertOp::create(b, loc, full,
                       "OpenMP team smaller than the GPU block");
  Value t = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      func::CallOp::create(b, loc, threadNum).getResult(0));
  Value tx = arith::RemUIOp::create(b, loc, t, block.x);
  Value ty = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, t, block.x), block.y);
  Value tz = arith::DivUIOp::create(b, loc, t, xy);

  gpu::KernelDim3 blockArgs = launch.getBlockIds();
  gpu::KernelDim3 threadArgs = launch.getThreadIds();
  gpu::KernelDim3 gridArgs = launch.getGridSize();
  gpu::KernelDim3 sizeArgs = launch.getBlockSize();
  mapping.map(blockArgs.z, blockIds[0]);
  mapping.map(blockArgs.y, blockIds[1]);
  mapping.map(blockArgs.x, blockIds[2]);
  mapping.map(threadArgs.x, tx);
  mapping.map(threadArgs.y, ty);
  mapping.map(threadArgs.z, tz);
  mapping.map(gridArgs.x, grid.x);
  mapping.map(gridArgs.y, grid.y);
  mapping.map(gridArgs.z, grid.z);
  mapping.map(sizeArgs.x, block.x);
  mapping.map(sizeArgs.y, block.y);
  mapping.map(sizeArgs.z, block.z);
  for (Operation &op : launch.getBody().front()) {
    if (isa<gpu::TerminatorOp>(op)) {
      omp::TerminatorOp::create(b, loc);
      continue;
    }
    b.clone(op, mapping);
  }
  // Views of workgroup buffers (memref.reinterpret_cast, ...) now view
  // the CPU buffers: no memory space.
  parallel.walk([](Operation *op) {
    for (OpResult result : op->getResults()) {
      auto type = dyn_cast<MemRefType>(result.getType());
      if (type && isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
        result.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                       type.getLayout()));
    }
  });
  // Barriers (anywhere in the body) between the threads of the team.
  SmallVector<gpu::BarrierOp> barriers;
  parallel.walk([&](gpu::BarrierOp barrier) { barriers.push_back(barrier); });
  for (gpu::BarrierOp barrier : barriers) {
    OpBuilder at(barrier);
    omp::BarrierOp::create(at, barrier.getLoc());
    barrier.erase();
  }
  // Matrix instructions (anywhere in the body) as exchanges between lanes.
  SmallVector<Operation *> matrixOps;
  parallel.walk([&](Operation *op) {
    if (isa<nvgpu::MmaSyncOp, amdgpu::MFMAOp>(op))
      matrixOps.push_back(op);
  });
  for (Operation *op : matrixOps)
    if (failed(emulateMatrixOp(op, scratch, t)))
      return failure();
  // wgmma: fences, commit and wait order nothing between CPU threads (the
  // kernels' barriers order the tiles); the instruction reads the window.
  SmallVector<Operation *> wgmmaOps;
  parallel.walk([&](Operation *op) {
    if (isa<NVVM::WgmmaMmaAsyncOp, NVVM::WgmmaFenceAlignedOp,
            NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp,
            NVVM::FenceProxyOp>(op))
      wgmmaOps.push_back(op);
  });
  for (Operation *op : wgmmaOps) {
    if (auto wgmma = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op)) {
      if (failed(emulateWgmma(wgmma, window, windowBase, t)))
        return failure();
      continue;
    }
    op->erase();
  }
  WalkResult rest = parallel.walk([](Operation *op) {
    if (op->getDialect() &&
        llvm::is_contained({"gpu", "nvgpu", "amdgpu", "nvvm"},
                           op->getDialect()->getNamespace()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (rest.wasInterrupted())
    return launch.emitError("gpu op without a CPU form (test pass)");
  launch.erase();
  return success();
}

struct TestGpuLaunchToOmpPass
    : aotc::impl::TestGpuLaunchToOmpBase<TestGpuLaunchToOmpPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Kernels with a wgmma and an mma.sync body: the one asked for.
    if (failed(aotc::resolveWgmmaVariants(module, wgmma)))
      return signalPassFailure();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(lowerLaunch(launch, module)))
        return signalPassFailure();
  }
};

} // namespace
