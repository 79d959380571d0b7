//===- Passes.td - aotc GPU/CUDA passes --------------------*- tablegen -*-===//
//
// Declares the passes of the CUDA target's passes. Each pass lives in its own
// file under compiler/lib/GPU/CUDA/ and has a lit test in tests/lit/GPU/CUDA/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_CUDA_PASSES
#define AOTC_GPU_CUDA_PASSES

include "mlir/Pass/PassBase.td"

def AttachCudaTargets : Pass<"aotc-attach-cuda-targets", "mlir::ModuleOp"> {
  let summary = "One NVVM target per chip; wgmma kernel variants for sm_90a";
  let description = [{
    First pass of the CUDA device stage (in place of one
    `nvvm-attach-target` per chip). Every `gpu.module` gets one
    `#nvvm.target<O = O, chip = C, features = F>` per chip of `chips`, as
    `nvvm-attach-target` would attach them. Kernels with two bodies
    (`scf.if` on a value marked `aotc.wgmma_variant`, built by
    aotc-gpu-mma-contractions with `wgmma=1`) are resolved first, since
    NVVM's verifier rejects wgmma ops in a module with any target other
    than sm_90a: when `chips` holds `sm_90`, the module is cloned into
    `@<name>_sm_90a` with the single target `sm_90a` (wgmma exists only on
    that arch-specific target) and the clone keeps the wgmma branches, with
    128-byte aligned workgroup buffers (shared-memory matrix descriptors
    address 16-byte units); the original keeps the mma.sync branches and
    every chip's target (sm_90's PTX stays the portable one). Without sm_90
    only the mma.sync branches remain. aotc-link-cuda-fatbin then takes
    sm_90's SASS from the clone, assembled for sm_90a. The host side is
    unchanged: both modules define the same kernels with the same
    arguments. A chip that LLVM's NVPTX backend rejects with an older PTX
    version gets the first one it accepts instead of `features`: 8.6 for
    sm_100/101, 8.7 for sm_120, 8.8 for sm_103/121 and the family targets
    (sm_100f, ...), 9.0 for sm_88, sm_110 and newer.

    Before (chips=sm_80,sm_90):
    ```mlir
    gpu.module @k {
      gpu.func @f(...) workgroup(...) kernel {
        %v = builtin.unrealized_conversion_cast to i1 {aotc.wgmma_variant}
        scf.if %v { ... nvvm.wgmma.mma_async ... } else { ... nvgpu.mma.sync ... }
      }
    }
    ```
    After:
    ```mlir
    gpu.module @k [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">,
                   #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
      gpu.func @f(...) workgroup(...) kernel { ... nvgpu.mma.sync ... }
    }
    gpu.module @k_sm_90a [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
      gpu.func @f(...) workgroup(...) kernel { ... nvvm.wgmma.mma_async ... }
    }
    ```
  }];
  let options = [
    ListOption<"chips", "chips", "std::string", "SM architectures (sm_80,...)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "Optimization level of the NVPTX backend">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features (PTX 8.0 is the first that knows sm_90; raised per "
           "chip for newer chips)">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::NVVM::NVVMDialect",
                           "mlir::scf::SCFDialect"];
}

def LinkCudaFatbin : Pass<"aotc-link-cuda-fatbin", "mlir::ModuleOp"> {
  let summary = "Assemble per-chip PTX into one fatbin with the CUDA toolkit";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}` with one `#nvvm.target` per
    chip. For every `gpu.binary`, it assembles each chip's PTX with the
    toolkit's `ptxas` into a cubin and packs all cubins, plus the PTX of the
    newest chip (for JIT on later GPUs), into one fatbin with `fatbinary`.
    A binary `@<name>_sm_90a` (aotc-select-cuda-variants) supplies the
    SASS of sm_90 for `@<name>`, assembled for sm_90a; it is then erased.
    The binary then holds that single fatbin object. A missing toolkit or
    tool is an error naming the path that was searched.

    Before:
    ```mlir
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "...">,
                   #gpu.object<#nvvm.target<chip = "sm_90">, assembly = "...">]
    ```
    After:
    ```mlir
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "...">]
    ```
  }];
  let options = [
    Option<"toolkitPath", "toolkit-path", "std::string",
           /*default=*/"\"/usr/local/cuda\"",
           "CUDA toolkit directory (holds bin/ptxas and bin/fatbinary)">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

#endif // AOTC_GPU_CUDA_PASSES
