// RUN: aotc-opt %s -aotc-emit-gpu-entry-points='target=cuda:sm_90' | FileCheck %s
// RUN: sed -e 's/, staging = array<i64: 0, 64>//' %s | aotc-opt -aotc-emit-gpu-entry-points='target=cuda:sm_90 on-device-tensors=1' | FileCheck %s --check-prefix=DEV
// RUN: sed -e 's/, staging = array<i64: 0, 64>//' %s | not aotc-opt -aotc-emit-gpu-entry-points 2>&1 | FileCheck %s --check-prefix=NOSTAGING
// RUN: aotc-opt %s -aotc-emit-gpu-entry-points='runtime=hip' | FileCheck %s --check-prefix=HIP

// The body gets the stream and returns the first failing status: look the
// kernel up in the image's module cache, pack the arguments, launch on the
// stream.
// CHECK-LABEL: llvm.func internal @__aotc_f_impl(
// CHECK-SAME:      %[[X:.*]]: !llvm.ptr, %[[Y:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[STREAM:.*]]: !llvm.ptr) -> i32
// CHECK:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK:         %[[ARGS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK:         %[[CACHE:.*]] = llvm.mlir.addressof @__aotc_aotc_kernels_cache
// CHECK:         %[[IMAGE:.*]] = llvm.mlir.addressof @__aotc_aotc_kernels_image
// CHECK:         %[[NAME:.*]] = llvm.mlir.addressof @__aotc_kernel_k
// CHECK:         %[[S1:.*]] = llvm.call @aot_cuda_get_function(%[[CACHE]], %[[IMAGE]], %[[NAME]], %[[SLOT]])
// CHECK:         llvm.cond_br %{{.*}}, ^[[FAIL:.*]](%[[S1]] : i32), ^
// CHECK:         %[[FN:.*]] = llvm.load %[[SLOT]]
// CHECK:         llvm.store %[[X]],
// CHECK:         llvm.store %[[Y]],
// CHECK:         %[[S2:.*]] = llvm.call @aot_cuda_launch(%[[FN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STREAM]], %[[ARGS]])
// CHECK:         llvm.cond_br %{{.*}}, ^[[FAIL]](%[[S2]] : i32), ^
// CHECK:       ^[[FAIL]](%[[S:.*]]: i32):
// CHECK-NEXT:    llvm.return %[[S]] : i32

// The wrapper: every check first, then host input -> pool slot 0, run, pool
// slot 64 -> host output, synchronize.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME:      %[[HX:.*]]: !llvm.ptr, %[[HY:.*]]: !llvm.ptr, %[[POOL:.*]]: !llvm.ptr, %[[BYTES:.*]]: i64, %[[ST:.*]]: !llvm.ptr) -> i32
// CHECK:         llvm.icmp "ult" %[[BYTES]]
// CHECK:         %[[DX:.*]] = llvm.getelementptr %[[POOL]][0]
// CHECK:         %[[DY:.*]] = llvm.getelementptr %[[POOL]][64]
// CHECK:         llvm.call @aot_cuda_memcpy_htod_async(%[[DX]], %[[HX]], %{{.*}}, %[[ST]])
// CHECK:         llvm.call @__aotc_f_impl(%[[DX]], %[[DY]], %[[POOL]], %[[ST]])
// CHECK:         llvm.call @aot_cuda_memcpy_dtoh_async(%[[HY]], %[[DY]], %{{.*}}, %[[ST]])
// CHECK:         llvm.call @aot_cuda_stream_synchronize(%[[ST]])
// CHECK:       llvm.mlir.global internal constant @__aotc_aotc_kernels_image("IMAGE") {{.*}}alignment = 64
// CHECK:       llvm.mlir.global internal @__aotc_aotc_kernels_cache(dense<0> : tensor<17xi64>)
// CHECK:       llvm.mlir.global internal constant @__aotc_f_target("cuda:sm_90\00")
// CHECK:       llvm.func @f_info() -> !llvm.ptr
// CHECK-NOT:   gpu.

// With device tensors the caller's pointers go straight to the body: no
// copy, no synchronization.
// DEV-LABEL: llvm.func @f(
// DEV-SAME:      %[[X:.*]]: !llvm.ptr, %[[Y:.*]]: !llvm.ptr, %[[POOL:.*]]: !llvm.ptr, %{{.*}}: i64, %[[ST:.*]]: !llvm.ptr)
// DEV-NOT:       memcpy
// DEV:           llvm.call @__aotc_f_impl(%[[X]], %[[Y]], %[[POOL]], %[[ST]])
// DEV-NOT:       memcpy
// DEV-NOT:       synchronize
// DEV:         llvm.func @f_info

// NOSTAGING: error: host tensors need one staging slot per tensor (aotc-reserve-tensor-staging)

// HIP-LABEL: llvm.func internal @__aotc_f_impl(
// HIP:         llvm.call @aot_hip_get_function(
// HIP:         llvm.call @aot_hip_launch(
// HIP-LABEL: llvm.func @f(
// HIP:         llvm.call @aot_hip_stream_synchronize(
module attributes {gpu.container_module} {
  llvm.func @f(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr)
      attributes {aotc.entry = {name = "f",
                     inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}],
                     outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
                  aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 128 : i64, lower_bound = 32 : i64, staging = array<i64: 0, 64>}} {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c4 = llvm.mlir.constant(4 : index) : i64
    gpu.launch_func @aotc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) : i64 args(%x : !llvm.ptr, %y : !llvm.ptr)
    llvm.return
  }
  gpu.binary @aotc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "IMAGE">]
}
