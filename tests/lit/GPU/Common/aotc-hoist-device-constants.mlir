// RUN: aotc-opt %s -aotc-hoist-device-constants | FileCheck %s
// RUN: aotc-opt %s -aotc-hoist-device-constants='min-bytes=16' | FileCheck %s --check-prefix=SMALL

// A 1 KiB weight moves to a 64-byte aligned host global (its name made
// unique next to the host's own symbol of that name); the device global
// keeps its type, loses its value and becomes public and writable. The
// 16-byte constant, the writable buffer and the i1 mask stay as they are.
// CHECK:       module attributes {aotc.device_globals = {kernels = {{\[}}["w", @__aotc_kernels_w_0, 1024]]}, gpu.container_module}
// CHECK:         memref.global "private" @__aotc_kernels_w
// CHECK:         memref.global "private" constant @__aotc_kernels_w_0 : memref<16x16xf32> = dense<1.500000e+00> {alignment = 64 : i64}
// CHECK:         gpu.module @kernels {
// CHECK-NEXT:      memref.global @w : memref<16x16xf32> = uninitialized {alignment = 64 : i64}
// CHECK-NEXT:      memref.global "private" constant @small : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT:      memref.global "private" @buffer : memref<512xf32> = uninitialized
// CHECK-NEXT:      memref.global "private" constant @mask : memref<2048xi1> = dense<true>
// CHECK:           memref.get_global @w
// CHECK:           memref.get_global @small

// With min-bytes=16 the 16-byte constant moves too, in module order.
// SMALL: aotc.device_globals = {kernels = {{\[}}["w", @__aotc_kernels_w_0, 1024], ["small", @__aotc_kernels_small, 16]]}
// SMALL:   memref.global @small : memref<4xf32> = uninitialized
module attributes {gpu.container_module} {
  memref.global "private" @__aotc_kernels_w : memref<1xf32> = uninitialized
  gpu.module @kernels {
    memref.global "private" constant @w : memref<16x16xf32> = dense<1.5> {alignment = 64 : i64}
    memref.global "private" constant @small : memref<4xf32> = dense<2.0>
    memref.global "private" @buffer : memref<512xf32> = uninitialized
    memref.global "private" constant @mask : memref<2048xi1> = dense<true>
    gpu.func @k(%out: memref<16x16xf32>, %v: memref<4xf32>) kernel {
      %w = memref.get_global @w : memref<16x16xf32>
      %s = memref.get_global @small : memref<4xf32>
      gpu.return
    }
  }
}
