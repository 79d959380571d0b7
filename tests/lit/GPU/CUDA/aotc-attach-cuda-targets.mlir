// RUN: aotc-opt %s -aotc-attach-cuda-targets=chips=sm_80,sm_90 | FileCheck %s
// RUN: aotc-opt %s -aotc-attach-cuda-targets=chips=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: aotc-opt %s -aotc-attach-cuda-targets=chips=sm_80,sm_88,sm_100,sm_103,sm_110,sm_120,sm_120f | FileCheck %s --check-prefix=NEWER

// sm_80 + sm_90: @kernels keeps the mma.sync branch and both chips'
// targets; a clone @kernels_sm_90a, for sm_90a only, keeps the wgmma
// branch with 128-byte aligned workgroup buffers. A module without
// variants only gets the targets. Every kernel asks for one block per SM
// (nvvm.minctasm = 1: ptxas sizes registers for the code, not for an
// occupancy target); other functions are left alone.
// CHECK-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// CHECK:         gpu.func @f
// CHECK-SAME:      kernel attributes {nvvm.minctasm = 1 : i32}
// CHECK-NOT:       unrealized_conversion_cast
// CHECK-NOT:       scf.if
// CHECK-NOT:       nvvm.wgmma
// CHECK:           gpu.barrier
// CHECK-NEXT:      gpu.return
// CHECK-LABEL: gpu.module @kernels_sm_90a [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK:         gpu.func @f(%{{.*}}: memref<4xf32>) workgroup(%{{.*}} : memref<64xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}) kernel attributes {nvvm.minctasm = 1 : i32}
// CHECK-NOT:       unrealized_conversion_cast
// CHECK-NOT:       scf.if
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-NEXT:      gpu.return
// CHECK-LABEL: gpu.module @plain [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// CHECK:         gpu.func @g() kernel attributes {nvvm.minctasm = 1 : i32}
// CHECK:         gpu.func @helper()
// CHECK-NOT:       nvvm.minctasm
// CHECK-NOT:   gpu.module

// Chips newer than sm_90 get the first PTX version LLVM's NVPTX backend
// accepts for them (it aborts on +ptx80 there); older chips keep +ptx80.
// NEWER-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, #nvvm.target<O = 3, chip = "sm_88", features = "+ptx90">, #nvvm.target<O = 3, chip = "sm_100", features = "+ptx86">, #nvvm.target<O = 3, chip = "sm_103", features = "+ptx88">, #nvvm.target<O = 3, chip = "sm_110", features = "+ptx90">, #nvvm.target<O = 3, chip = "sm_120", features = "+ptx87">, #nvvm.target<O = 3, chip = "sm_120f", features = "+ptx88">]

// sm_80 only: no clone, the mma.sync branch.
// SM80-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// SM80-NOT:     nvvm.wgmma
// SM80:         gpu.barrier
// SM80-LABEL: gpu.module @plain [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// SM80-NOT:   sm_90a
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f(%p: memref<4xf32>)
        workgroup(%w : memref<64xf16, #gpu.address_space<workgroup>>) kernel {
      %v = builtin.unrealized_conversion_cast to i1 {aotc.wgmma_variant}
      scf.if %v {
        nvvm.wgmma.fence.aligned
      } else {
        gpu.barrier
      }
      gpu.return
    }
  }
  gpu.module @plain {
    gpu.func @g() kernel {
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
  }
}
