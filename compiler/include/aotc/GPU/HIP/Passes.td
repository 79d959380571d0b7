//===- Passes.td - aotc GPU/HIP passes ---------------------*- tablegen -*-===//
//
// Declares the passes of the HIP target's passes. Each pass lives in its own
// file under compiler/lib/GPU/HIP/ and has a lit test in tests/lit/GPU/HIP/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_GPU_HIP_PASSES
#define AOTC_GPU_HIP_PASSES

include "mlir/Pass/PassBase.td"

def LinkHipBundle : Pass<"aotc-link-hip-bundle", "mlir::ModuleOp"> {
  let summary = "Pack per-chip AMDGPU code objects into one offload bundle";
  let description = [{
    Runs after `gpu-module-to-binary{format=bin}` with one `#rocdl.target`
    per chip. Every `gpu.binary` then holds a single clang offload bundle
    (`__CLANG_OFFLOAD_BUNDLE__`, an empty host entry and one
    `hipv4-amdgcn-amd-amdhsa--<chip>` entry per code object), the image
    `hipModuleLoadData` selects the running GPU's code object from.

    Before:
    ```mlir
    gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF...">,
                   #gpu.object<#rocdl.target<chip = "gfx942">, bin = "\7FELF...">]
    ```
    After:
    ```mlir
    gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx90a">,
                               bin = "__CLANG_OFFLOAD_BUNDLE__...">]
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

#endif // AOTC_GPU_HIP_PASSES
