//===- Pipelines.cpp - aotc compilation pipelines ------------*- C++ -*-===//
//
// This file implements the aotc pipeline stages. Upstream passes are added by
// their registered names (the same spelling a lit test uses); aotc passes
// through their generated constructors.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/Passes.h"
#include "aotc/CPU/Convolutions/Passes.h"
#include "aotc/CPU/Lowering/Passes.h"
#include "aotc/CPU/OpenMP/Passes.h"
#include "aotc/CPU/Strategy/Passes.h"
#include "aotc/CPU/Tiling/Passes.h"
#include "aotc/Common/Passes.h"
#include "aotc/GPU/CUDA/Passes.h"
#include "aotc/GPU/Common/Passes.h"
#include "aotc/GPU/HIP/Passes.h"
#include "aotc/Input/Passes.h"
#include "aotc/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

namespace aotc {

/// Appends upstream passes written in the textual pipeline syntax. The
/// strings are constants of this file, so a parse error is a bug here.
static void addPasses(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("aotc: invalid built-in pipeline: " + pipeline);
}

void buildFrontendPipeline(OpPassManager &pm, const FrontendOptions &options) {
  // Reject what cannot be compiled before anything changes the program.
  pm.addPass(createVerifyInput());
  // The ABI signature is fixed on the program as written.
  AnnotateEntryPointsOptions annotate;
  annotate.entryName = options.entryName;
  annotate.maxDims.assign(options.maxDims.begin(), options.maxDims.end());
  pm.addPass(createAnnotateEntryPoints(annotate));
  // TOSA to linalg/tensor/arith: the upstream TOSA-to-linalg pipeline
  // (decompositions, shape inference, broadcasting, validation, named and
  // elementwise ops), then constants/rescales and reshapes/slices.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions());
  addPasses(pm, "func.func(tosa-to-arith{include-apply-rescale=1},"
                "tosa-to-tensor)");
  // arith/math ops applied to whole tensors become linalg generics.
  addPasses(pm, "func.func(convert-elementwise-to-linalg)");
  // One function per entry point: calls are inlined, helpers removed.
  addPasses(pm, "inline,symbol-dce,canonicalize,cse");
}

void buildTensorPipeline(OpPassManager &pm, const TensorOptions &options) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // Composite ops to linalg primitives, then producer/consumer fusion of
  // elementwise ops into single generics (not where it would recompute
  // transcendental math or break a contraction).
  fpm.addPass(createDecomposeOps());
  fpm.addPass(createFuseElementwiseOps());
  addPasses(fpm, "canonicalize,cse");
  // Divisions by a per-row value (softmax's sum): one reciprocal per row.
  fpm.addPass(createMultiplyByReciprocal());
  // Concatenations that extend each other (DenseNet) as slices of one
  // tensor, each part inserted once.
  fpm.addPass(createGrowConcatsInPlace());
  // One destination per consumer (CSE merges identical fills), and in-place
  // elementwise updates of dead temporaries.
  fpm.addPass(createPrivatizeInits());
  fpm.addPass(createReuseDeadInputs());
  // Symbolic dimensions: a loop around each op, which is static inside.
  fpm.addPass(createTileSymbolicDims());
  // Windows whose products mostly read zero padding: tap run by tap run,
  // each on the outputs it reads the input for (fewer products).
  if (!options.genericStrategy)
    fpm.addPass(createClipPaddedTaps());
  // The strategy: one convolution path per windowed op, recorded on it; the
  // passes below carry the paths out (docs/architecture.md).
  SelectCpuStrategyOptions select;
  select.vectorBitsOption = options.vectorBits;
  select.winograd = options.winograd;
  select.generic = options.genericStrategy;
  select.minWork = options.minParallelWork;
  select.maxTiles = options.maxParallelTiles;
  select.table = options.strategyTable;
  pm.addPass(createSelectCpuStrategy(select));
  buildConvolutionAndTilingPipeline(pm, options);
}

void buildConvolutionAndTilingPipeline(OpPassManager &pm,
                                       const TensorOptions &options) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // 1x1 convolutions become contractions (the matmul path below).
  fpm.addPass(createPointwiseConvToMatmul());
  // 3x3 stride-1 convolutions with enough channels and tiles: Winograd
  // F(4x4, 3x3) or F(2x2, 3x3), whose 36 or 16 contractions take the matmul
  // path below.
  if (options.winograd) {
    WinogradConvolutionsOptions winograd;
    winograd.vectorBitsOption = options.vectorBits;
    winograd.maxTile = options.winogradMaxTile;
    fpm.addPass(createWinogradConvolutions(winograd));
  }
  // Other convolutions over enough input channels: direct, output channels
  // as lanes (blocks of them), the input read in place.
  ChannelLaneConvolutionsOptions channelLanes;
  channelLanes.vectorBitsOption = options.vectorBits;
  fpm.addPass(createChannelLaneConvolutions(channelLanes));
  // Convolutions with fewer channels or awkward widths: an im2col copy, then
  // the same matmul path.
  Im2colConvolutionsOptions im2col;
  im2col.vectorBitsOption = options.vectorBits;
  fpm.addPass(createIm2colConvolutions(im2col));
  // Direct stride-2 convolutions read the column phases of their input.
  fpm.addPass(createSplitStridePhases());
  // The remaining stride-1 convolutions over input channels on flattened
  // images: whole registers of output whatever the image width.
  FlattenConvolutionImagesOptions flatten;
  flatten.vectorBitsOption = options.vectorBits;
  fpm.addPass(createFlattenConvolutionImages(flatten));
  // Depthwise convolutions and pools left direct read their input in place
  // but for border strips (no copy of the whole padded input).
  PeelPaddedWindowsOptions peel;
  peel.vectorBitsOption = options.vectorBits;
  fpm.addPass(createPeelPaddedWindows(peel));
  // Reshaped weights fold into constants (packed below at compile time).
  addPasses(fpm, "canonicalize");
  // Row reductions (softmax, layer normalization) carry one register of
  // accumulators per row instead of a scalar. Before threads: the partial
  // results are function-level buffers, planned in the pool.
  // The generic strategy leaves both out.
  if (!options.genericStrategy) {
    SplitRowReductionsOptions rows;
    rows.vectorBitsOption = options.vectorBits;
    fpm.addPass(createSplitRowReductions(rows));
    // Operands of contractions in register-tile panels (weights at compile
    // time): the strategy's decision recorded on each contraction (with one
    // reduction loop), then carried out.
    fpm.addPass(createNormalizeContractions());
    SelectCpuPackingOptions packing;
    packing.vectorBitsOption = options.vectorBits;
    packing.table = options.strategyTable;
    pm.addPass(createSelectCpuPacking(packing));
    PackContractionOperandsOptions pack;
    pack.vectorBitsOption = options.vectorBits;
    pm.nest<func::FuncOp>().addPass(createPackContractionOperands(pack));
  }
  // Transposes (the blocked layouts above, packed operands) with the loops
  // they move together merged, so that their tiles are squares of lanes.
  pm.nest<func::FuncOp>().addPass(createMergeTransposeLoops());
  // Threads: the strategy's thread tiles recorded on each op, then one
  // scf.forall per op with enough work.
  SelectCpuTilesOptions tiles;
  tiles.minWork = options.minParallelWork;
  tiles.maxTiles = options.maxParallelTiles;
  tiles.vectorBitsOption = options.vectorBits;
  tiles.table = options.strategyTable;
  pm.addPass(createSelectCpuTiles(tiles));
  OpPassManager &threads = pm.nest<func::FuncOp>();
  DistributeToForallOptions distribute;
  distribute.minWork = options.minParallelWork;
  distribute.maxTiles = options.maxParallelTiles;
  distribute.vectorBitsOption = options.vectorBits;
  threads.addPass(createDistributeToForall(distribute));
  // Stride-2 windows of the thread tiles on the column phases of their
  // tile buffers.
  SplitTilePhasesOptions phases;
  phases.vectorBitsOption = options.vectorBits;
  threads.addPass(createSplitTilePhases(phases));
  // Registers: convolutions and pools as direct vectorized convolutions
  // (rows x lanes of output, window loops unit), then every other op as
  // static register tiles, vectorized.
  VectorizeConvolutionsOptions convolutions;
  convolutions.vectorBitsOption = options.vectorBits;
  threads.addPass(createVectorizeConvolutions(convolutions));
  // Contractions in parts of whole register tiles, the strategy's register
  // tiles and cache blocks recorded on each op, then carried out.
  SplitRegisterRemaindersOptions remainders;
  remainders.vectorBitsOption = options.vectorBits;
  threads.addPass(createSplitRegisterRemainders(remainders));
  SelectRegisterTilesOptions registers;
  registers.vectorBitsOption = options.vectorBits;
  registers.table = options.strategyTable;
  pm.addPass(createSelectRegisterTiles(registers));
  OpPassManager &vectors = pm.nest<func::FuncOp>();
  TileAndVectorizeOptions vectorize;
  vectorize.vectorBitsOption = options.vectorBits;
  vectors.addPass(createTileAndVectorize(vectorize));
  // Accumulators live in registers: the read/write pair of an output tile
  // inside a reduction loop becomes a vector loop-carried value. No CSE here:
  // it would merge the now-private vectorized fills again.
  addPasses(vectors, "canonicalize,loop-invariant-code-motion,"
                 "loop-invariant-subset-hoisting,canonicalize");
}

void buildBufferizePipeline(OpPassManager &pm,
                            const BufferizeOptions &options) {
  // Every dynamic size in terms of the entry point's arguments (so that
  // buffers sized by symbolic dimensions can be planned), then destinations
  // replace empty tensors wherever possible (no extra buffers).
  addPasses(pm, "resolve-ranked-shaped-type-result-dims,canonicalize");
  pm.nest<func::FuncOp>().addPass(createEliminateReshapedEmptyTensors());
  addPasses(pm, "eliminate-empty-tensors");
  // Function boundaries use contiguous, identity-layout memrefs: the
  // caller's plain row-major pointers.
  addPasses(pm, "one-shot-bufferize{bufferize-function-boundaries=1 "
                "function-boundary-type-conversion=identity-layout-map}");
  // Extern kernels write their results into buffers allocated before them.
  LowerExternCallsOptions externs;
  externs.deviceOperands = options.deviceExternOperands;
  pm.addPass(createLowerExternCalls(externs));
  // Results become caller-owned out-parameters, written in place
  // (canonicalization first forwards loop-carried buffers to their
  // allocations, so the allocation itself is replaced by the out-parameter).
  addPasses(pm, "canonicalize,buffer-results-to-out-params{hoist-static-allocs=1 hoist-dynamic-allocs=1 "
                "modify-public-functions=1},canonicalize,cse");
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // Results reached through reshapes of a scratch buffer: computed in the
  // out-parameter itself instead of copied into it.
  fpm.addPass(createReuseResultBuffers());
  // No memrefCopy runtime calls: copies become loops (or vector rows).
  LowerCopiesOptions copies;
  copies.vectorRows = options.vectorCopies;
  copies.minParallelWork = options.minParallelWork;
  fpm.addPass(createLowerCopies(copies));
  // Loads through expanded views of collapsed buffers index linearly.
  fpm.addPass(createLinearizeReshapeViews());
  // Symbolic dimensions: index arguments, sizes computed from them.
  fpm.addPass(createBindSymbolicDims());
  addPasses(fpm, "canonicalize,cse");
  // Every scratch buffer becomes a view of the caller's pool.
  PlanMemoryOptions plan;
  plan.alignment = options.poolAlignment;
  fpm.addPass(createPlanMemory(plan));
  // NAME_pool_bytes(dims...) for entry points with symbolic dimensions.
  pm.addPass(createOutlinePoolBytes());
}

void buildCPULoweringPipeline(OpPassManager &pm,
                              const CPULoweringOptions &options) {
  // Outputs of entry points that call extern kernels: held in the pool
  // until every kernel succeeded.
  pm.nest<func::FuncOp>().addPass(createStageExternOutputs());
  // Each thread loop in a function of its own, so that the function passes
  // up to the OpenMP conversion run on several threads (on 2 cores,
  // densenet121 and efficientnet_b1 compile 13% and 19% faster).
  pm.addPass(createOutlineThreadLoops());
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // Register-resident accumulators, then everything left in linalg to loops.
  addPasses(fpm, "canonicalize,cse");
  fpm.addPass(createOptimizeVectorTransfers());
  addPasses(fpm, "convert-linalg-to-loops,fold-memref-alias-ops");
  // Rows read a KiB or more apart, one per iteration: prefetched two reads
  // ahead.
  fpm.addPass(createPrefetchStridedRows());
  // Vectors down to 1-D, transcendental math to polynomials.
  LowerVectorOpsOptions lowerVectors;
  lowerVectors.vectorBitsOption = options.vectorBits;
  fpm.addPass(createLowerVectorOps(lowerVectors));
  addPasses(fpm, "convert-vector-to-scf{full-unroll=1},canonicalize");
  fpm.addPass(createLowerVectorOps(lowerVectors));
  fpm.addPass(createApproximateMath());
  // bf16 conversions as integer arithmetic (rounding to nearest even):
  // without AVX512-BF16, LLVM would call __truncsfbf2, which neither our
  // runtime nor Debian 12's libgcc provides.
  addPasses(fpm, "arith-expand{include-bf16=1}");
  // Outputs larger than the caches: non-temporal stores where aligned.
  fpm.addPass(createStreamingStores());
  // Loads of a partial register (14 of 16 floats) as one masked load
  // instead of power-of-two pieces, where the target has them.
  fpm.addPass(createMaskPartialVectors());
  // The loops back in place (the views they recomputed folded again), so
  // that adjacent thread loops can share one parallel region.
  pm.addPass(createInlineThreadLoops());
  // Threads: scf.forall -> scf.parallel -> omp.parallel + omp.wsloop, with
  // the caller's thread count.
  addPasses(pm, "func.func(cse,scf-forall-to-parallel)");
  addPasses(pm, "convert-scf-to-openmp");
  pm.nest<func::FuncOp>().addPass(createBindOmpNumThreads());
  pm.nest<func::FuncOp>().addPass(createElideOmpLoopBarriers());
  // Each thread's share of a thread loop from its thread number, not from
  // libomp's scheduling calls.
  pm.addPass(createPartitionOmpLoops());
  // Adjacent thread loops in one parallel region: one fork and join.
  pm.nest<func::FuncOp>().addPass(createMergeParallelRegions());
  // Everything to the LLVM dialect. Memrefs are lowered before scf-to-cf
  // (alloca_scope regions); entry points use bare pointers.
  addPasses(pm, "expand-strided-metadata,lower-affine,"
                "finalize-memref-to-llvm,convert-scf-to-cf,"
                "convert-vector-to-llvm{enable-x86vector=0},"
                "convert-math-to-llvm,convert-math-to-libm,"
                "convert-arith-to-llvm,convert-index-to-llvm,"
                "convert-cf-to-llvm,convert-ub-to-llvm,"
                "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},"
                "convert-openmp-to-llvm,reconcile-unrealized-casts");
  // No canonicalize after the conversion: LLVM's O3 pipeline folds the
  // same (densenet121's object runs as fast without it, and its compile
  // skips the 2-3 s the canonicalizer took on the merged parallel region).
  // Weights as flat arrays: one LLVM constant each, not one per row.
  pm.addPass(createFlattenConstantGlobals());
  // Extern kernels called through aot_extern.h, then the public C ABI
  // around each entry point.
  pm.addPass(createEmitExternCalls());
  EmitEntryPointsOptions emit;
  emit.target = options.target;
  pm.addPass(createEmitEntryPoints(emit));
}

void registerAotcPasses() {
  registerAotcInputPasses();
  registerAotcCommonPasses();
  registerAotcABIPasses();
  registerAotcCPUStrategyPasses();
  registerAotcCPUConvolutionsPasses();
  registerAotcCPUTilingPasses();
  registerAotcCPULoweringPasses();
  registerAotcCPUOpenMPPasses();
  registerAotcGPUPasses();
  registerAotcGPUCUDAPasses();
  registerAotcGPUHIPPasses();
}

void registerPipelines() {
  PassPipelineRegistration<FrontendOptions>(
      "aotc-frontend", "aotc frontend: verify, TOSA to linalg, entry points",
      buildFrontendPipeline);
  PassPipelineRegistration<TensorOptions>(
      "aotc-tensor", "aotc tensor stage: fusion, tiling, vectorization",
      buildTensorPipeline);
  PassPipelineRegistration<BufferizeOptions>(
      "aotc-bufferize", "aotc bufferization and memory planning",
      buildBufferizePipeline);
  PassPipelineRegistration<CPULoweringOptions>(
      "aotc-cpu-lowering", "aotc CPU lowering to the LLVM dialect",
      buildCPULoweringPipeline);
}

} // namespace aotc
