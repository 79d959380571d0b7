// REQUIRES: cuda
// RUN: aotc-opt %s -gpu-module-to-binary=format=isa -aotc-link-cuda-fatbin | FileCheck %s
// RUN: not aotc-opt %s -gpu-module-to-binary=format=isa -aotc-link-cuda-fatbin=toolkit-path=%t.nocuda 2>&1 | FileCheck %s --check-prefix=MISSING -DDIR=%t

// PTX for sm_80 and sm_90 becomes one fatbin object (little-endian magic
// 0xBA55ED50 first; fatbin is the default format, not printed), tagged with
// the newest chip.
// CHECK:      gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, "P\EDU\BA
// CHECK-NOT:  assembly
// MISSING: error: CUDA toolkit tool 'ptxas' not found at '[[DIR]].nocuda/bin/ptxas' (set --cuda-path or AOTC_CUDA_PATH)
// MISSING-NOT: error
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80", features = "+ptx80">,
                       #nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @k(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      llvm.store %0, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
}
