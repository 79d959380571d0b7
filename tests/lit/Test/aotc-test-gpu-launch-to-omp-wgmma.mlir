// RUN: aotc-opt %s -aotc-test-gpu-launch-to-omp=wgmma=1 | FileCheck %s
// RUN: aotc-opt %s -aotc-test-gpu-launch-to-omp | FileCheck %s --check-prefix=MMA

// wgmma m64n8k16 on descriptors of two workgroup buffers: the buffers are
// 128-byte aligned views of one byte buffer (the shared window, 2048 + 256
// bytes), each descriptor is decoded against the window's address (a
// swizzle mode or base offset aborts), each thread sums 16 products per
// accumulator register from the window; fences, commit and wait vanish.
// CHECK-LABEL: func.func @wgmma
// CHECK:         %[[WIN:.*]] = memref.alloca() {alignment = 128 : i64} : memref<2304xi8>
// CHECK:         memref.extract_aligned_pointer_as_index %[[WIN]]
// CHECK:         memref.view %[[WIN]][%{{.*}}][] : memref<2304xi8> to memref<1024xf16>
// CHECK:         memref.view %[[WIN]][%{{.*}}][] : memref<2304xi8> to memref<128xf16>
// CHECK:         omp.parallel
// CHECK:           cf.assert %{{.*}}, "wgmma emulation: swizzle mode or base offset set"
// CHECK:           memref.view %{{.*}}[%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xf16>
// CHECK-COUNT-4:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:           llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:           omp.terminator
// CHECK-NOT:     nvvm.
// CHECK-NOT:     gpu.

// The default (mma.sync) variant: the else branch, no wgmma.
// MMA-LABEL: func.func @wgmma
// MMA:         memref.alloca() : memref<1024xf16>
// MMA-NOT:     nvvm.
// MMA:         omp.barrier
// MMA-NOT:     nvvm.
func.func @wgmma(%out: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
      workgroup(%a : memref<1024xf16, #gpu.address_space<workgroup>>,
                %b : memref<128xf16, #gpu.address_space<workgroup>>) {
    %v = builtin.unrealized_conversion_cast to i1 {aotc.wgmma_variant}
    scf.if %v {
      %pa = memref.extract_aligned_pointer_as_index %a : memref<1024xf16, #gpu.address_space<workgroup>> -> index
      %pb = memref.extract_aligned_pointer_as_index %b : memref<128xf16, #gpu.address_space<workgroup>> -> index
      %ia = arith.index_cast %pa : index to i64
      %ib = arith.index_cast %pb : index to i64
      %c4 = arith.constant 4 : i64
      %mask = arith.constant 262143 : i64
      %fields = arith.constant 68720001024 : i64
      %ma = arith.andi %ia, %mask : i64
      %sa = arith.shrui %ma, %c4 : i64
      %da = arith.ori %sa, %fields : i64
      %mb = arith.andi %ib, %mask : i64
      %sb = arith.shrui %mb, %c4 : i64
      %db = arith.ori %sb, %fields : i64
      %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %z, #nvvm.shape<m = 64, n = 8, k = 16>,
          D [<f32>, #nvvm.wgmma_scale_out<one>],
          A [<f16>, #nvvm.wgmma_scale_in<one>, <row>],
          B [<f16>, #nvvm.wgmma_scale_in<one>, <col>]
          : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %e = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %e, %out[%tx] : memref<128xf32>
    } else {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
