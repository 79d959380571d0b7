// RUN: aotc-opt %s -aotc-gpu-mma-contractions -cse | FileCheck %s
// RUN: aotc-opt %s -aotc-gpu-mma-contractions=target=amdgpu -cse | FileCheck %s --check-prefix=AMD
// RUN: aotc-opt %s -aotc-gpu-mma-contractions=wgmma=1 -cse | FileCheck %s --check-prefix=WGMMA
// RUN: not aotc-opt %s -aotc-gpu-mma-contractions=target=sm_80 2>&1 | FileCheck %s --check-prefix=BAD

// 96x80 * 80x72, f16 -> f32: 64x64 block tiles, grid 2 x 2, 256 threads
// (2 x 4 warps of 32 x 16). A [64][16+8] and B [16][64+8] tiles in
// workgroup memory, four copies of each per thread and 16-deep slice
// (zero past M, N and K: selects), barrier, 2 x 2 mma.sync 16x8x16 on
// vector<2x2xf32> accumulators seeded from C, barrier; guarded stores.
// CHECK-LABEL: func.func @matmul_f16
// CHECK:         gpu.launch blocks({{.*}}) in (%{{[0-9a-z_]+}} = %c2, %{{[0-9a-z_]+}} = %c2, %{{[0-9a-z_]+}} = %c1) threads({{.*}}) in (%{{[0-9a-z_]+}} = %c256, %{{[0-9a-z_]+}} = %c1, %{{[0-9a-z_]+}} = %c1)
// CHECK-SAME:        workgroup(%[[AS:.*]] : memref<64x24xf16, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<16x72xf16, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16:  memref.load %{{.*}} : memref<96x72xf32>
// CHECK:           %[[ACC:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %c80 step %c16 iter_args({{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// CHECK:             memref.load %{{.*}} : memref<96x80xf16>
// CHECK:             arith.select %{{.*}}, %{{.*}}, %{{.*}} : f16
// CHECK:             memref.store %{{.*}}, %[[AS]]
// CHECK-COUNT-3:     memref.store %{{.*}}, %[[AS]]
// CHECK-COUNT-4:     memref.store %{{.*}}, %[[BS]]
// CHECK-NEXT:        gpu.barrier
// CHECK-COUNT-16:    memref.load %[[AS]]
// CHECK-COUNT-8:     memref.load %[[BS]]
// CHECK-COUNT-4:     nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NEXT:        gpu.barrier
// CHECK:           vector.extract %[[ACC]]#0[0, 0] : f32 from vector<2x2xf32>
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.*}} : memref<96x72xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.matmul
// AMD-LABEL: func.func @matmul_f16
// AMD:         gpu.launch {{.*}} threads({{.*}}) in (%{{[0-9a-z_]+}} = %c256,
// AMD:           scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// AMD-COUNT-4:     amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
// AMD-NOT:     linalg.matmul
// wgmma=1: the same launch and workgroup buffers, two bodies on a marker
// that aotc-attach-cuda-targets resolves. wgmma: accumulators (16 f32 per
// thread) from C, the buffers viewed as [row/8][k/8][row%8][k%8] K-major
// core matrices, shared-memory descriptors of their addresses; per
// 16-deep slice 4 + 4 stores per thread, proxy fence, barrier, one
// m64n32k16 per warpgroup, commit, wait, barrier; guarded stores.
// mma.sync: the body above.
// WGMMA-LABEL: func.func @matmul_f16
// WGMMA:         gpu.launch {{.*}} threads({{.*}}) in (%{{[0-9a-z_]+}} = %c256,
// WGMMA-SAME:        workgroup(%[[AS:.*]] : memref<64x24xf16, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<16x72xf16, #gpu.address_space<workgroup>>)
// WGMMA:           %[[V:.*]] = builtin.unrealized_conversion_cast to i1 {aotc.wgmma_variant}
// WGMMA-NEXT:      scf.if %[[V]] {
// WGMMA-COUNT-16:    memref.load %{{.*}} : memref<96x72xf32>
// WGMMA:             %[[AC:.*]] = memref.reinterpret_cast %[[AS]] to offset: [0], sizes: [8, 2, 8, 8], strides: [128, 64, 8, 1]
// WGMMA:             %[[BC:.*]] = memref.reinterpret_cast %[[BS]] to offset: [0], sizes: [8, 2, 8, 8], strides: [128, 64, 8, 1]
// WGMMA:             memref.extract_aligned_pointer_as_index %[[AC]]
// WGMMA:             memref.extract_aligned_pointer_as_index %[[BC]]
// WGMMA:             scf.for %{{.*}} = %{{.*}} to %c80 step %c16 iter_args({{.*}}) -> (vector<16xf32>)
// WGMMA-COUNT-4:       memref.store %{{.*}}, %[[AC]][
// WGMMA-COUNT-4:       memref.store %{{.*}}, %[[BC]][
// WGMMA-NEXT:          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA-NEXT:          gpu.barrier
// WGMMA:               nvvm.wgmma.fence.aligned
// WGMMA-NEXT:          nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// WGMMA-NEXT:          nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT:          nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA:               gpu.barrier
// WGMMA-NEXT:          scf.yield
// WGMMA-COUNT-16:    scf.if
// WGMMA:           } else {
// WGMMA-NOT:         nvvm.wgmma
// WGMMA-COUNT-4:     nvgpu.mma.sync
// WGMMA:           gpu.terminator
func.func @matmul_f16(%a: memref<96x80xf16>, %b: memref<80x72xf16>, %c: memref<96x72xf32>) attributes {aotc.entry = {name = "matmul_f16"}} {
  linalg.matmul ins(%a, %b : memref<96x80xf16>, memref<80x72xf16>) outs(%c : memref<96x72xf32>)
  return
}

// bf16: mma.sync on bf16 fragments (lowered by aotc-lower-bf16-mma-sync),
// MFMA bf16_1k.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-COUNT-4: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:     linalg.matmul
// WGMMA-LABEL: func.func @matmul_bf16
// WGMMA:         nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// WGMMA:         } else {
// WGMMA:         nvgpu.mma.sync
// AMD-LABEL: func.func @matmul_bf16
// AMD-COUNT-4:   amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
func.func @matmul_bf16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) attributes {aotc.entry = {name = "matmul_bf16"}} {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// f16 accumulation in the program: the kernel accumulates in f32 and
// truncates once per output; B stored [N][K] (a generic).
// CHECK-LABEL: func.func @matmul_f16_nt
// CHECK:         memref.load %{{.*}} : memref<32x64xf16>
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         nvgpu.mma.sync
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         memref.store %{{.*}} : memref<32x64xf16>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_f16_nt(%a: memref<32x48xf16>, %bt: memref<64x48xf16>, %c: memref<32x64xf16>) attributes {aotc.entry = {name = "matmul_f16_nt"}} {
  linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : memref<32x48xf16>, memref<64x48xf16>) outs(%c : memref<32x64xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %m = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %m : f16
    linalg.yield %s : f16
  }
  return
}

// Not for matrix units: f32 (TF32 would change the numerics), a payload
// that is not multiply-add, a dimension under one instruction tile.
// CHECK-LABEL: func.func @not_matched
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul {{.*}} memref<64x64xf32>
// CHECK:         linalg.generic
// CHECK:         linalg.matmul {{.*}} memref<1x64xf16>
// AMD-LABEL: func.func @not_matched
// AMD-NOT:       gpu.launch
func.func @not_matched(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>,
                       %x: memref<64x64xf16>, %y: memref<64x64xf16>, %z: memref<64x64xf16>,
                       %v: memref<1x64xf16>, %w: memref<1x64xf32>) attributes {aotc.entry = {name = "not_matched"}} {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#mk, affine_map<(m, n, k) -> (k, n)>, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<64x64xf16>, memref<64x64xf16>) outs(%z : memref<64x64xf16>) {
  ^bb0(%p: f16, %q: f16, %acc: f16):
    %s = arith.addf %p, %q : f16
    %r = arith.maximumf %acc, %s : f16
    linalg.yield %r : f16
  }
  linalg.matmul ins(%v, %y : memref<1x64xf16>, memref<64x64xf16>) outs(%w : memref<1x64xf32>)
  return
}

// BAD: error: target must be nvgpu or amdgpu, not 'sm_80'
