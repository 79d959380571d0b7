//===- TestGpuLaunchToOmp.cpp - Run gpu.launch bodies on CPU threads -*- C++ -*-===//
//
// This file implements the test-only aotc-test-gpu-launch-to-omp pass: every
// gpu.launch becomes a loop over its blocks, each block an OpenMP parallel
// region with one CPU thread per GPU thread, workgroup memory a stack buffer
// of the block that all its threads share, and gpu.barrier an OpenMP
// barrier. Kernels built by aotc (shared-memory tiles, barriers) then run on
// a machine without a GPU, so their results can be compared with an oracle.
//
//===----------------------------------------------------------------------===//

#include "aotc/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"

namespace aotc {
#define GEN_PASS_DEF_TESTGPULAUNCHTOOMP
#include "aotc/Transforms/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// `name() -> i32` from the OpenMP runtime, declared in `module` once.
func::FuncOp runtimeFunction(ModuleOp module, StringRef name) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto f = func::FuncOp::create(
      b, module.getLoc(), name,
      b.getFunctionType({}, {b.getI32Type()}));
  f.setPrivate();
  return f;
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
  for (BlockArgument arg : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(arg.getType());
    auto local = MemRefType::get(type.getShape(), type.getElementType());
    mapping.map(arg, memref::AllocaOp::create(b, loc, local).getResult());
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
  func::FuncOp threadNum = runtimeFunction(module, "omp_get_thread_num");
  func::FuncOp numThreads = runtimeFunction(module, "omp_get_num_threads");
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
  // Barriers (anywhere in the body) between the threads of the team.
  SmallVector<gpu::BarrierOp> barriers;
  parallel.walk([&](gpu::BarrierOp barrier) { barriers.push_back(barrier); });
  for (gpu::BarrierOp barrier : barriers) {
    OpBuilder at(barrier);
    omp::BarrierOp::create(at, barrier.getLoc());
    barrier.erase();
  }
  WalkResult rest = parallel.walk([](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "gpu")
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
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(lowerLaunch(launch, module)))
        return signalPassFailure();
  }
};

} // namespace
