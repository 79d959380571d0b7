//===- Passes.td - aotc Test passes ------------------------*- tablegen -*-===//
//
// Declares the passes of test-only passes (aotc-opt only). Each pass lives in
// its own file under compiler/lib/Test/ and has a lit test in tests/lit/Test/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TEST_PASSES
#define AOTC_TEST_PASSES

include "mlir/Pass/PassBase.td"

def TestMemoryPlan : Pass<"aotc-test-memory-plan", "mlir::func::FuncOp"> {
  let summary = "Print the memory plan of each function (test only)";
  let description = [{
    Runs the pool planning analysis on a bufferized function without changing
    it and prints one line per buffer (`size`, `offset`, lifetime) plus the
    pool size and lower bound, for FileCheck.
  }];
}

def TestGpuLaunchToOmp : Pass<"aotc-test-gpu-launch-to-omp", "mlir::ModuleOp"> {
  let summary = "Run gpu.launch bodies on CPU threads (test only)";
  let description = [{
    Emulates kernels on a machine without a GPU: every `gpu.launch` becomes
    a loop over its blocks, each block an `omp.parallel` with one thread per
    GPU thread (thread ids from `omp_get_thread_num`; a smaller team fails
    a `cf.assert`), workgroup attributions a `memref.alloca` shared by the
    team and `gpu.barrier` an `omp.barrier`. Used by tests that compare the
    results of aotc's tiled kernels with an oracle. Matrix instructions run
    as the hardware defines them, independently of how aotc builds their
    operands: for `nvgpu.mma.sync` 16x8x16 (warps of 32 lanes) and
    `amdgpu.mfma` 16x16x16 (waves of 64 lanes) every lane writes its
    fragments into a scratch buffer of the block, `omp.barrier`, each lane
    computes its result elements from the A, B and C elements the PTX ISA
    (or CDNA ISA) layout assigns to the warp's lanes, `omp.barrier`.
    Kernels with both variants (`aotc.wgmma_variant`) run the one the
    `wgmma` option names. `nvvm.wgmma.mma_async` (m64nNk16, f16/bf16, f32
    accumulators, no swizzle) reads A and B from workgroup memory through
    its descriptors: workgroup attributions are then views of one byte
    buffer, the "shared window", and a descriptor's start address (bits
    0-13, address / 16 modulo 2^14) is taken relative to it, its leading
    (bits 16-29) and stride (bits 32-45) byte offsets place the core
    matrices; each thread computes the accumulator elements the PTX ISA
    assigns to it (warp w of the warpgroup: rows 16w + lane / 4 (+8), columns
    8j + 2 (lane % 4) (+1)). The wgmma fences, commit and wait are no-ops
    on CPU threads (the kernels' own barriers order the tiles).

    Before:
    ```mlir
    gpu.launch blocks(%bx, ...) in (%gx = %c2, ...) threads(%tx, ...) in (%sx = %c16, ...)
        workgroup(%t : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ... gpu.barrier ...
    }
    ```
    After:
    ```mlir
    %t = memref.alloca() : memref<16x64xf32>
    scf.for %bz ... { scf.for %by ... { scf.for %bx ... {
      omp.parallel num_threads(%n : i32) { ... omp.barrier ... omp.terminator }
    } } }
    ```
  }];
  let options = [
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "Run the wgmma variants of aotc-gpu-mma-contractions kernels "
           "(default: the mma.sync ones)">,
  ];
  let dependentDialects = ["mlir::omp::OpenMPDialect", "mlir::scf::SCFDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif // AOTC_TEST_PASSES
