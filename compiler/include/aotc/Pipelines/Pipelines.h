//===- Pipelines.h - aotc compilation pipelines --------------*- C++ -*-===//
//
// This file declares the stages of the aotc pipeline
// (docs/architecture.md). Each stage is a registered pass pipeline built
// from an options struct, so that aotc-opt can run any one of them in a lit
// test and `aotc --dump-dir` writes the IR between them.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_PIPELINES_PIPELINES_H
#define AOTC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace aotc {

/// Frontend: verification, TOSA to linalg, inlining, entry point signatures.
struct FrontendOptions : mlir::PassPipelineOptions<FrontendOptions> {
  Option<std::string> entryName{
      *this, "entry-name",
      llvm::cl::desc("Entry point name when the module has one public "
                     "function"),
      llvm::cl::init("")};
  ListOption<std::string> maxDims{
      *this, "max-dims",
      llvm::cl::desc("Bound of each symbolic dimension, NAME=VALUE")};
};
void buildFrontendPipeline(mlir::OpPassManager &pm,
                           const FrontendOptions &options);

/// Tensor level: decomposition, fusion, thread tiling, register tiling and
/// vectorization.
struct TensorOptions : mlir::PassPipelineOptions<TensorOptions> {
  Option<int64_t> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("Iterations below which an op runs on one thread"),
      llvm::cl::init(32768)};
  Option<int64_t> maxParallelTiles{
      *this, "max-parallel-tiles",
      llvm::cl::desc("Upper bound on parallel tiles per op"),
      llvm::cl::init(64)};
  Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits (0: the module's "
                     "aotc.cpu_target)"),
      llvm::cl::init(0)};
  Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("3x3 stride-1 convolutions as Winograd F(4x4, 3x3) or "
                     "F(2x2, 3x3)"),
      llvm::cl::init(true)};
  Option<int64_t> winogradMaxTile{
      *this, "winograd-max-tile",
      llvm::cl::desc("Largest Winograd output tile: 4 or 2"),
      llvm::cl::init(4)};
  Option<bool> genericStrategy{
      *this, "generic-strategy",
      llvm::cl::desc("No specialised path: every op takes the generic tile "
                     "and vectorize path (a debugging aid)"),
      llvm::cl::init(false)};
  Option<std::string> strategyTable{
      *this, "strategy-table",
      llvm::cl::desc("Write the strategy table to this file ('-': stdout)"),
      llvm::cl::init("")};
};
void buildTensorPipeline(mlir::OpPassManager &pm, const TensorOptions &options);
/// The part of the tensor stage after the strategy selection, on a module:
/// the convolution paths, the thread-tile selection, threads and register
/// tiles.
void buildConvolutionAndTilingPipeline(mlir::OpPassManager &pm,
                                       const TensorOptions &options);

/// Bufferization and memory planning: tensors become memrefs, results
/// become out-parameters, scratch buffers become views of the pool.
struct BufferizeOptions : mlir::PassPipelineOptions<BufferizeOptions> {
  Option<int64_t> poolAlignment{
      *this, "pool-alignment",
      llvm::cl::desc("Alignment of buffers in the pool, in bytes"),
      llvm::cl::init(64)};
  Option<bool> vectorCopies{
      *this, "vector-copies",
      llvm::cl::desc("Copy short contiguous rows with vector transfers "
                     "(CPU targets)"),
      llvm::cl::init(false)};
  Option<int64_t> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("The tensor stage's min-parallel-work, which the "
                     "threads of copies follow"),
      llvm::cl::init(32768)};
  Option<bool> deviceExternOperands{
      *this, "device-extern-operands",
      llvm::cl::desc("Constants an extern kernel reads are copied into "
                     "buffers first (GPU targets: device memory)"),
      llvm::cl::init(false)};
};
void buildBufferizePipeline(mlir::OpPassManager &pm,
                            const BufferizeOptions &options);

/// CPU lowering: loops, vectors, OpenMP and everything else to the LLVM
/// dialect, plus the ABI wrappers.
struct CPULoweringOptions : mlir::PassPipelineOptions<CPULoweringOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target string of the info struct"),
                             llvm::cl::init("cpu")};
  Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits (0: the module's "
                     "aotc.cpu_target)"),
      llvm::cl::init(0)};
};
void buildCPULoweringPipeline(mlir::OpPassManager &pm,
                              const CPULoweringOptions &options);

/// Registers every production pass of aotc (not the test-only passes of
/// compiler/lib/Test, which aotc-opt registers itself).
void registerAotcPasses();

/// Registers the pipelines above as aotc-frontend, aotc-tensor,
/// aotc-bufferize and aotc-cpu-lowering.
void registerPipelines();

} // namespace aotc

#endif // AOTC_PIPELINES_PIPELINES_H
