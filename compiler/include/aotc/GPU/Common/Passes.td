//===- Passes.td - aotc GPU/Common passes ------------------*- tablegen -*-===//
//
// Declares the passes of GPU mapping shared by CUDA and HIP. Each pass lives in
// its own file under compiler/lib/GPU/Common/ and has a lit test in
// tests/lit/GPU/Common/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_COMMON_PASSES
#define AOTC_GPU_COMMON_PASSES

include "mlir/Pass/PassBase.td"

def TileGpuContractions : Pass<"aotc-tile-gpu-contractions",
                               "mlir::func::FuncOp"> {
  let summary = "Tile contractions through workgroup (shared) memory";
  let description = [{
    Runs on bufferized, planned entry points, before aotc-map-to-gpu. Every
    statically shaped linalg op with two inputs A, B and one output C whose
    loops split into batch loops (in A, B and C), M loops (A and C), N loops
    (B and C) and K reduction loops (A and B) -- matmul, batch_matmul,
    convolutions (an implicit GEMM: K = channels x window), generic
    contractions -- becomes one `gpu.launch`. The loops of each group are
    linearized (M, N, K); a block computes a BM x BN tile of C (grid x over
    N tiles, y over M tiles, z over batches). For each BK slice of K, all
    threads copy the A and B tiles into workgroup memory (consecutive
    threads on the operand's contiguous dimension, so global reads are
    coalesced), `gpu.barrier`, then each thread applies the payload to its
    RM x RN register tile (rows ty + i * threadsY, columns tx + j *
    threadsX: consecutive threads store consecutive columns), reading A and
    B from workgroup memory. Rows and columns past M or N read a clamped,
    valid element and are not stored; the last partial K slice runs only
    over its valid part. Tiles default to 64x64x16 (4x4 per thread, 16x16
    threads), powers of two no larger than the dimensions for small shapes.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<100x70xf32>, memref<70x300xf32>)
                  outs(%c : memref<100x300xf32>)
    ```
    After (grid 5 x 2, 16 x 16 threads):
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c5, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1)
        workgroup(%as : memref<16x65xf32, #gpu.address_space<workgroup>>,
                  %bs : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      // acc[4][4] = C[...]  (clamped reads)
      scf.for %k0 = %c0 to %c64 step %c16 iter_args(acc) {
        // as[kk][mm] = A[min(m0 + mm, 99)][k0 + kk], bs likewise
        gpu.barrier
        scf.for %kk = %c0 to %c16 ... { acc[i][j] = acc + as[kk][..] * bs[kk][..] }
        gpu.barrier
      }
      // last slice: k0 = 64, 6 steps; then guarded stores of acc into C
      gpu.terminator
    }
    ```
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Block tile M,N,K (powers of two; default: chosen per shape)">,
    Option<"allFunctions", "all-functions", "bool", /*default=*/"false",
           "Also functions that are not entry points (tests)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def GpuMmaContractions : Pass<"aotc-gpu-mma-contractions",
                              "mlir::func::FuncOp"> {
  let summary = "f16/bf16 matmuls on tensor cores (mma.sync, MFMA)";
  let description = [{
    Runs on bufferized, planned entry points, before
    aotc-tile-gpu-contractions. A statically shaped linalg op with two
    inputs A, B and one output C, one M, one N and one K loop plus any batch
    loops (matmul, batch_matmul, transposed variants, equivalent generics),
    f16 or bf16 inputs (both the same type), an f32 or input-typed output and
    the payload `C + A * B` (inputs possibly extended to f32 first) becomes a
    `gpu.launch` on matrix instructions. A block of 256 threads computes a
    64 x 64 tile of C (grid x over N tiles, y over M tiles, z over
    batches). For each 16-deep K slice all threads copy the A and B tiles
    into workgroup memory (4 elements of each per thread; elements past M,
    N or K read as zero), `gpu.barrier`, then every lane gathers its
    operand fragments from workgroup memory in the layout the instruction
    defines and issues it, accumulating in f32, `gpu.barrier`. Lanes store
    their accumulator elements (rows and columns past M or N are not
    stored), converted to C's type. Matrices smaller than one instruction
    tile, f32 (TF32 would change the numerics) and other payloads are left
    to aotc-tile-gpu-contractions. `target=nvgpu`: 2 x 4 warps of 32 x 16,
    `nvgpu.mma.sync` 16x8x16 (PTX `mma.sync.aligned.m16n8k16`, sm_80 and
    newer; bf16 through aotc-lower-bf16-mma-sync);
    `target=amdgpu`: 2 x 2 waves of 64 lanes, 32 x 32 each, `amdgpu.mfma`
    16x16x16 (CDNA2/3 `v_mfma_f32_16x16x16f16` / `bf16_1k`).

    `wgmma=1` (with target=nvgpu, for fatbins with sm_90): the kernel body
    is `scf.if %v { wgmma body } else { mma.sync body }` where `%v` is a
    zero-operand `builtin.unrealized_conversion_cast to i1` marked
    `aotc.wgmma_variant`, which aotc-select-cuda-variants resolves per
    chip. Same launch, same captured values, same workgroup attributions:
    the host side is one for both. The wgmma body: each warpgroup (4 warps)
    computes 64 x 32 of the block tile with one
    `nvvm.wgmma.mma_async` m64n32k16 per K slice (f32 accumulators, 16 per
    thread). The copy stores the A tile (64 x 16, rows m) and the B tile
    (64 x 16, rows n) in the K-major no-swizzle core-matrix layout (8 rows
    of 16 bytes per core matrix, 128 bytes apart along K, 256 bytes apart
    along M/N) inside the same workgroup buffers, then
    `nvvm.fence.proxy async.shared::cta`, `gpu.barrier`,
    `nvvm.wgmma.fence.aligned`, the wgmma on 64-bit shared-memory matrix
    descriptors built from the buffers' addresses, commit, wait 0,
    `gpu.barrier`.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x96xf16>)
                  outs(%c : memref<128x96xf32>)
    ```
    After (target=nvgpu, grid 2 x 2, 256 threads):
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
        workgroup(%as : memref<64x24xf16, #gpu.address_space<workgroup>>,
                  %bs : memref<16x72xf16, #gpu.address_space<workgroup>>) {
      // acc: 2 x 2 fragments vector<2x2xf32> loaded from C
      scf.for %k0 = %c0 to %c64 step %c16 iter_args(acc) {
        // as, bs = the A and B tiles (zero past the edges); gpu.barrier
        // fragments from as, bs, then 2 x 2 of
        %d = nvgpu.mma.sync(%fa, %fb, %acc) {mmaShape = [16, 8, 16]}
            : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        gpu.barrier
      }
      // guarded stores of the fragments into C
      gpu.terminator
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvgpu\"",
           "Matrix instructions: nvgpu (mma.sync) or amdgpu (MFMA)">,
    Option<"allFunctions", "all-functions", "bool", /*default=*/"false",
           "Also functions that are not entry points (tests)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "target=nvgpu: also a wgmma variant of every kernel (sm_90a), "
           "chosen later by aotc-select-cuda-variants">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::amdgpu::AMDGPUDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect"];
}

def GpuBlockReductions : Pass<"aotc-gpu-block-reductions",
                              "mlir::func::FuncOp"> {
  let summary = "Reductions along contiguous rows as block-level trees";
  let description = [{
    Runs on bufferized, planned entry points, before aotc-map-to-gpu. A
    statically shaped linalg op with one output whose loops are the
    output's (parallel) and reduction loops, reducing at least `min-extent`
    elements along the innermost dimension of the inputs it reads, and whose
    payload is `yield combine(value(inputs), acc)` with an associative,
    commutative combiner (addf, mulf, maximumf, minimumf, maxnumf, minnumf,
    addi, muli, max/min signed/unsigned, andi, ori, xori) becomes one
    `gpu.launch` with a block per output element: each thread combines the
    elements tid, tid + T, ... (coalesced), writes its partial into
    workgroup memory, then log2(T) halving steps between `gpu.barrier`s
    combine the partials and thread 0 combines the total into the output.
    Floating-point sums are reassociated, as in any parallel reduction.

    Before:
    ```mlir
    linalg.reduce ins(%x : memref<8x1000xf32>) outs(%s : memref<8xf32>)
        dimensions = [1] (%in: f32, %acc: f32) { %r = arith.addf %in, %acc ... }
    ```
    After (8 blocks of 256 threads):
    ```mlir
    gpu.launch blocks(%row, ...) in (%c8, ...) threads(%tid, ...) in (%c256, ...)
        workgroup(%p : memref<256xf32, #gpu.address_space<workgroup>>) {
      // partial = x[row][tid] + x[row][tid + 256] + x[row][tid + 512]
      //           (+ x[row][tid + 768] if tid < 232)
      memref.store %partial, %p[%tid]
      gpu.barrier
      // 8 steps: if tid < h: p[tid] = p[tid + h] + p[tid]; gpu.barrier
      // tid == 0: s[row] = p[0] + s[row]
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (a power of two)">,
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"64",
           "Fewest reduced elements per output worth a block">,
    Option<"allFunctions", "all-functions", "bool", /*default=*/"false",
           "Also functions that are not entry points (tests)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def MapToGpu : Pass<"aotc-map-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Map the loops of each entry point to GPU blocks and threads";
  let description = [{
    Runs on bufferized, planned entry points. Every linalg op becomes an
    `scf.parallel` nest with its parallel dimensions outermost (reduction
    dimensions become sequential `scf.for` loops inside). Each outermost
    parallel loop is collapsed into one dimension and tiled by `block-size`:
    the tile loop is mapped to `block_x`, the intra-tile loop to `thread_x`,
    so consecutive threads handle consecutive elements of the innermost
    dimension (coalesced). Memory work outside parallel loops (a reduction
    to a scalar, a rank-0 store) moves into a one-thread kernel; calls of
    extern kernels stay on the host, between the kernels. Every use of a
    global constant is re-read inside its loop so that kernel outlining
    places the constant in the device module.

    Before:
    ```mlir
    linalg.generic {iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x1000xf32>) outs(%b : memref<4x1000xf32>) {...}
    ```
    After:
    ```mlir
    scf.parallel (%blk) = (%c0) to (%c4000) step (%c256) {
      scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
        // i = (%blk + %t) / 1000, j = (%blk + %t) mod 1000, guarded < 4000
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect"];
}

def MergeGpuModules : Pass<"aotc-merge-gpu-modules", "mlir::ModuleOp"> {
  let summary = "Put every outlined kernel into one gpu.module";
  let description = [{
    Kernel outlining creates one `gpu.module` per kernel. This pass moves
    every kernel (and the globals they use, once each) into a single
    `gpu.module @aotc_kernels` and updates the `gpu.launch_func` references,
    so the artifact embeds one device image, loaded once per context.

    Before:
    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel {...} }
    gpu.module @f_kernel_0 { gpu.func @f_kernel_0(...) kernel {...} }
    gpu.launch_func @f_kernel::@f_kernel ...
    ```
    After:
    ```mlir
    gpu.module @aotc_kernels { gpu.func @f_kernel(...) kernel {...}
                               gpu.func @f_kernel_0(...) kernel {...} }
    gpu.launch_func @aotc_kernels::@f_kernel ...
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def ReserveTensorStaging : Pass<"aotc-reserve-tensor-staging",
                                "mlir::func::FuncOp"> {
  let summary = "Reserve pool space for the device copies of host tensors";
  let description = [{
    For GPU entry points whose inputs and outputs are host pointers, the
    call copies each tensor through the (device) pool. This pass appends one
    aligned slot per input and output after the planned scratch buffers,
    grows `aotc.pool` (`bytes`, `lower_bound`: the copies live for the whole
    call) and records the slot offsets as `staging`, inputs then outputs.
    The planned scratch offsets do not change.

    Before:
    ```mlir
    func.func @f(%x: memref<1000xf32>, %y: memref<1000xf32>, %pool: memref<64xi8>)
        attributes {aotc.pool = {alignment = 64, bytes = 64, lower_bound = 64, ...}}
    ```
    After:
    ```mlir
        attributes {aotc.pool = {alignment = 64, bytes = 8128, lower_bound = 8128,
                                 staging = array<i64: 64, 4096>, ...}}
    ```
  }];
}

def HoistDeviceConstants
    : Pass<"aotc-hoist-device-constants", "mlir::ModuleOp"> {
  let summary = "Keep large device-module constants once, in host data";
  let description = [{
    Runs before the device modules are lowered. A constant `memref.global`
    of a `gpu.module` (a weight) of at least `min-bytes` bytes would be
    written into the code object of every chip (and, as text, into the
    PTX): a model's weights two to three times over in the object, and
    `ptxas` parsing them once per chip. Instead, its value moves to a
    private constant `memref.global` of the host module named
    `__aotc_<module>_<global>` (64-byte aligned), and the device global
    becomes a public, uninitialised, writable global of the same type, which
    no code object stores. The host module's `aotc.device_globals`
    dictionary maps each device module to `[device symbol, host global,
    bytes]` triples; `aotc-emit-gpu-entry-points` passes them to
    `aot_<cuda|hip>_get_function_with_globals`, which fills the device
    globals from the host data when it loads the module (once per context).

    Before:
    ```mlir
    gpu.module @kernels {
      memref.global "private" constant @w : memref<512x512xf32> = dense<...>
    }
    ```
    After:
    ```mlir
    module attributes {aotc.device_globals = {kernels = [["w", @__aotc_kernels_w, 1048576]]}} {
      memref.global "private" constant @__aotc_kernels_w : memref<512x512xf32> = dense<...> {alignment = 64 : i64}
      gpu.module @kernels {
        memref.global @w : memref<512x512xf32> = uninitialized
      }
    }
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024",
           "Constants smaller than this stay in the device module">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def VerifyGpuKernels : Pass<"aotc-verify-gpu-kernels", "mlir::gpu::GPUModuleOp"> {
  let summary = "Report kernel ops that have no GPU lowering, naming them";
  let description = [{
    Runs on a `gpu.module` after `convert-gpu-to-nvvm` (or `-rocdl`). Every
    op must then belong to the llvm, nvvm or rocdl dialect; the first one
    that does not is an error at its source location, e.g.

    ```mlir
    %y = math.ctlz %a : i32
    // error: 'math.ctlz' has no GPU lowering (in kernel code)
    ```
  }];
}

def LowerBf16MmaSync : Pass<"aotc-lower-bf16-mma-sync",
                            "mlir::gpu::GPUModuleOp"> {
  let summary = "bf16 nvgpu.mma.sync 16x8x16 to nvvm.mma.sync";
  let description = [{
    MLIR 22's convert-nvgpu-to-nvvm lowers `nvgpu.mma.sync` for f16 only.
    In the CUDA device stage, before it, every `nvgpu.mma.sync` of shape
    16x8x16 with bf16 A (vector<4x2xbf16>) and B (vector<2x2xbf16>) and f32
    C becomes `nvvm.mma.sync` with bf16 multiplicands (PTX
    `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`): each register
    (a row of two bf16) is bitcast to i32, the four f32 results are
    extracted from the returned struct into vector<2x2xf32>.

    Before:
    ```mlir
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    ```
    After:
    ```mlir
    %a0 = vector.extract %a[0] : vector<2xbf16> from vector<4x2xbf16>
    %w0 = vector.bitcast %a0 : vector<2xbf16> to vector<1xi32>
    %r0 = vector.extract %w0[0] : i32 from vector<1xi32>
    ...
    %s = nvvm.mma.sync A[%r0, %r1, %r2, %r3] B[%q0, %q1] C[%c0, %c1, %c2, %c3]
        {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
         multiplicandAPtxType = #nvvm.mma_type<bf16>,
         multiplicandBPtxType = #nvvm.mma_type<bf16>,
         shape = #nvvm.shape<m = 16, n = 8, k = 16>}
        : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %d0 = llvm.extractvalue %s[0] : !llvm.struct<(f32, f32, f32, f32)>
    ...
    ```
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // AOTC_GPU_COMMON_PASSES
