// RUN: aotc-opt %s -pass-pipeline='builtin.module(gpu.module(aotc-lower-bf16-mma-sync))' | FileCheck %s

// bf16 16x8x16: four A and two B registers as i32 (two bf16 each), four
// f32 accumulators, nvvm.mma.sync with bf16 multiplicands, the four
// results back into vector<2x2xf32>. f16 is left to convert-nvgpu-to-nvvm.
// CHECK-LABEL: gpu.func @bf16
// CHECK-COUNT-6: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[S:.*]] = nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME:      shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME:      (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         llvm.extractvalue %[[S]][0]
// CHECK:         vector.insert %{{.*}}, %{{.*}} [0, 0] : f32 into vector<2x2xf32>
// CHECK:         llvm.extractvalue %[[S]][3]
// CHECK:         vector.insert %{{.*}}, %{{.*}} [1, 1] : f32 into vector<2x2xf32>
// CHECK-NOT:     nvgpu.mma.sync
// CHECK-LABEL: gpu.func @f16
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     nvvm.mma.sync
gpu.module @kernels {
  gpu.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>, %out: memref<1xvector<2x2xf32>>) kernel {
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    memref.store %d, %out[%c0] : memref<1xvector<2x2xf32>>
    gpu.return
  }
  gpu.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %out: memref<1xvector<2x2xf32>>) kernel {
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    memref.store %d, %out[%c0] : memref<1xvector<2x2xf32>>
    gpu.return
  }
}
