// RUN: aotc-opt %s -aotc-gpu-block-reductions -cse | FileCheck %s
// RUN: not aotc-opt %s -aotc-gpu-block-reductions=block-size=100 2>&1 | FileCheck %s --check-prefix=BAD

// Rows of 1000: 8 blocks of 256 threads. Each thread sums elements tid,
// tid + 256, tid + 512 (a loop) and tid + 768 when tid < 232, stores its
// partial, then 8 halving steps (tid < 128, 64, ..., 1) between barriers;
// thread 0 adds the total to the output.
// CHECK-LABEL: func.func @row_sum
// CHECK:         gpu.launch blocks(%[[ROW:[0-9a-z_]+]], %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) in (%{{[0-9a-z_]+}} = %c8, %{{[0-9a-z_]+}} = %c1, %{{[0-9a-z_]+}} = %c1) threads(%[[TID:[0-9a-z_]+]], %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) in (%{{[0-9a-z_]+}} = %c256,
// CHECK-SAME:        workgroup(%[[P:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[FIRST:.*]] = memref.load %{{.*}}[%[[ROW]], %[[TID]]] : memref<8x1000xf32>
// CHECK:           %[[LOOP:.*]] = scf.for %[[K:.*]] = %c256 to %c768 step %c256 iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32) {
// CHECK:             %[[AT:.*]] = arith.addi %[[K]], %[[TID]] : index
// CHECK:             %[[X:.*]] = memref.load %{{.*}}[%[[ROW]], %[[AT]]]
// CHECK:             %[[S:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:             scf.yield %[[S]]
// CHECK:           arith.cmpi ult, %[[TID]], %c232
// CHECK:           %[[PARTIAL:.*]] = scf.if
// CHECK:           memref.store %[[PARTIAL]], %[[P]][%[[TID]]]
// CHECK-NEXT:      gpu.barrier
// CHECK:           arith.cmpi ult, %[[TID]], %c128
// CHECK:           scf.if
// CHECK:             memref.load %[[P]][%[[TID]]]
// CHECK:             arith.addi %[[TID]], %c128
// CHECK:             arith.addf
// CHECK:             memref.store
// CHECK:           gpu.barrier
// CHECK-COUNT-7:   gpu.barrier
// CHECK:           arith.cmpi eq, %[[TID]], %c0
// CHECK:           scf.if
// CHECK:             %[[TOTAL:.*]] = memref.load %[[P]][%c0]
// CHECK:             %[[INIT:.*]] = memref.load %{{.*}}[%[[ROW]]] : memref<8xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[TOTAL]], %[[INIT]]
// CHECK:             memref.store %[[SUM]], %{{.*}}[%[[ROW]]] : memref<8xf32>
// CHECK-NOT:     linalg.reduce
func.func @row_sum(%x: memref<8x1000xf32>, %s: memref<8xf32>) attributes {aotc.entry = {name = "row_sum"}} {
  linalg.reduce ins(%x : memref<8x1000xf32>) outs(%s : memref<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return
}

// Softmax's denominator: exp(x - max[row]) summed; the broadcast max is
// read once per element, the payload before the combiner is cloned, 100
// elements use a block of 128 threads (threads past 100 never publish:
// the first step combines tid < 36 with tid + 64).
// CHECK-LABEL: func.func @exp_sum
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{[0-9a-z_]+}} = %c128,
// CHECK:           arith.minui %{{.*}}, %c99
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           gpu.barrier
// CHECK:           arith.cmpi ult, %{{.*}}, %c36
// CHECK:           arith.maximumf
func.func @exp_sum(%x: memref<4x100xf32>, %m: memref<4xf32>, %s: memref<4xf32>) attributes {aotc.entry = {name = "exp_sum"}} {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<4x100xf32>, memref<4xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %r = arith.maximumf %acc, %e : f32
    linalg.yield %r : f32
  }
  return
}

// Left to aotc-map-to-gpu: a reduction across rows (not along the
// contiguous dimension), a short one, and a payload whose accumulator is
// not just combined.
// CHECK-LABEL: func.func @not_block_reductions
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.reduce
// CHECK:         linalg.reduce
// CHECK:         linalg.generic
func.func @not_block_reductions(%x: memref<1000x8xf32>, %c: memref<8xf32>, %y: memref<8x40xf32>, %r: memref<8xf32>) attributes {aotc.entry = {name = "not_block_reductions"}} {
  linalg.reduce ins(%x : memref<1000x8xf32>) outs(%c : memref<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%y : memref<8x40xf32>) outs(%r : memref<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1000x8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.mulf %acc, %acc : f32
    %s = arith.addf %a, %t : f32
    linalg.yield %s : f32
  }
  return
}

// BAD: error: block-size must be a power of two in [32, 1024]
