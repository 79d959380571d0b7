// RUN: aotc-opt %s -aotc-attach-cuda-targets=chips=sm_80 -verify-diagnostics

// A variant marker that is not the condition of an scf.if.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f(%p: memref<1xi1>) kernel {
      %c0 = arith.constant 0 : index
      %v = builtin.unrealized_conversion_cast to i1 {aotc.wgmma_variant}
      // expected-error @below {{a wgmma variant marker must only be the condition of scf.if ops without results}}
      memref.store %v, %p[%c0] : memref<1xi1>
      gpu.return
    }
  }
}
