// RUN: aotc-opt %s -aotc-emit-gpu-entry-points='target=cuda:sm_90 on-device-tensors=1' | FileCheck %s
// RUN: aotc-opt %s -aotc-emit-gpu-entry-points='runtime=hip on-device-tensors=1' | FileCheck %s --check-prefix=HIP
// RUN: sed -e 's/@__aotc_aotc_kernels_w, 1024/@missing, 1024/' %s | not aotc-opt -aotc-emit-gpu-entry-points 2>&1 | FileCheck %s --check-prefix=BAD

// A module with device globals listed by aotc-hoist-device-constants is
// looked up with its table of (name, host data, bytes): the runtime fills
// the globals when it loads the module.
// CHECK-NOT:   aotc.device_globals
// CHECK-LABEL: llvm.func internal @__aotc_f_impl(
// CHECK:         %[[CACHE:.*]] = llvm.mlir.addressof @__aotc_aotc_kernels_cache
// CHECK:         %[[IMAGE:.*]] = llvm.mlir.addressof @__aotc_aotc_kernels_image
// CHECK:         %[[TABLE:.*]] = llvm.mlir.addressof @__aotc_aotc_kernels_globals
// CHECK:         %[[COUNT:.*]] = llvm.mlir.constant(2 : i32)
// CHECK:         %[[NAME:.*]] = llvm.mlir.addressof @__aotc_kernel_k
// CHECK:         llvm.call @aot_cuda_get_function_with_globals(%[[CACHE]], %[[IMAGE]], %[[TABLE]], %[[COUNT]], %[[NAME]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT:     @aot_cuda_get_function(
// CHECK:       llvm.mlir.global internal constant @__aotc_aotc_kernels_global_name_0("w\00")
// CHECK:       llvm.mlir.global internal constant @__aotc_aotc_kernels_global_name_1("b\00")
// CHECK:       llvm.mlir.global internal constant @__aotc_aotc_kernels_globals() {{.*}}alignment = 8 {{.*}}: !llvm.array<2 x struct<(ptr, ptr, i64)>> {
// CHECK:         llvm.mlir.addressof @__aotc_aotc_kernels_global_name_0
// CHECK:         llvm.mlir.addressof @__aotc_aotc_kernels_w
// CHECK:         llvm.mlir.constant(1024 : i64)
// CHECK:         llvm.mlir.addressof @__aotc_aotc_kernels_global_name_1
// CHECK:         llvm.mlir.addressof @__aotc_aotc_kernels_b
// CHECK:         llvm.mlir.constant(2048 : i64)

// HIP: llvm.call @aot_hip_get_function_with_globals(

// BAD: error: malformed aotc.device_globals entry ["w", @missing, 1024] for 'aotc_kernels'
module attributes {gpu.container_module, aotc.device_globals = {aotc_kernels = [["w", @__aotc_aotc_kernels_w, 1024 : i64], ["b", @__aotc_aotc_kernels_b, 2048 : i64]]}} {
  llvm.mlir.global private constant @__aotc_aotc_kernels_w(dense<1.0> : tensor<256xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<256 x f32>
  llvm.mlir.global private constant @__aotc_aotc_kernels_b(dense<2.0> : tensor<512xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<512 x f32>
  llvm.func @f(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr)
      attributes {aotc.entry = {name = "f",
                     inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}],
                     outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
                  aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 128 : i64, lower_bound = 32 : i64}} {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c4 = llvm.mlir.constant(4 : index) : i64
    gpu.launch_func @aotc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) : i64 args(%x : !llvm.ptr, %y : !llvm.ptr)
    llvm.return
  }
  gpu.binary @aotc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "IMAGE">]
}
