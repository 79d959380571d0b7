// RUN: aotc-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(aotc-verify-gpu-kernels))' | FileCheck %s

// Kernels fully in the LLVM and NVVM dialects pass.
// CHECK-LABEL: gpu.module @ok
gpu.module @ok {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    %0 = nvvm.read.ptx.sreg.tid.x : i32
    llvm.return
  }
}

// -----

// An op left in another dialect has no GPU lowering: named at its location.
gpu.module @bad {
  llvm.func @k(%a: i32) -> i32 attributes {gpu.kernel, nvvm.kernel} {
    // expected-error @below {{'math.ctpop' has no GPU lowering (in kernel code)}}
    %0 = math.ctpop %a : i32
    llvm.return %0 : i32
  }
}
