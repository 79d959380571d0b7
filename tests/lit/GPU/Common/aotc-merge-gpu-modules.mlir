// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-merge-gpu-modules | FileCheck %s

// Two outlined modules whose kernels share a name and a constant: one module,
// each kernel named after its old module, the constant kept once, launches
// updated.
// CHECK-LABEL: func.func @f
// CHECK:         gpu.launch_func @aotc_kernels::@f_kernel blocks
// CHECK:         gpu.launch_func @aotc_kernels::@f_kernel_0 blocks
// CHECK:       gpu.module @aotc_kernels {
// CHECK-NEXT:    gpu.func @f_kernel(
// CHECK:         memref.global "private" constant @cst
// CHECK:         gpu.func @f_kernel_0(
// CHECK-NOT:     memref.global
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %0 = memref.get_global @cst : memref<4xf32>
      gpu.return
    }
    memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %0 = memref.get_global @cst : memref<4xf32>
      gpu.return
    }
    memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
  }
}

// -----

// Two different globals of one name cannot share the module.
module attributes {gpu.container_module} {
  gpu.module @k {
    memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
  }
  gpu.module @k_0 {
    // expected-error @below {{symbol 'cst' is defined differently by two kernels}}
    memref.global "private" constant @cst : memref<4xf32> = dense<2.0>
  }
}
