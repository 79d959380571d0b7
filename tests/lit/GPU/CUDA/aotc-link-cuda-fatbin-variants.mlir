// REQUIRES: cuda
// RUN: aotc-opt %s -gpu-module-to-binary=format=isa -aotc-link-cuda-fatbin | FileCheck %s

// @kernels_sm_90a (aotc-attach-cuda-targets) gives @kernels its sm_90
// SASS, assembled for sm_90a, and disappears; one fatbin remains, tagged
// with the newest plain chip (its PTX is the portable one).
// CHECK:      gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, "P\EDU\BA
// CHECK-NOT:  gpu.binary
// CHECK-NOT:  assembly
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80", features = "+ptx80">,
                       #nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @k(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      llvm.store %0, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
  gpu.module @kernels_sm_90a [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    llvm.func @k(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      nvvm.wgmma.fence.aligned
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      llvm.store %0, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
}
