// RUN: aotc-opt %s -aotc-map-to-gpu | FileCheck %s
// RUN: aotc-opt %s -aotc-map-to-gpu=block-size=128 | FileCheck %s --check-prefix=B128

// An elementwise op on 4x1000: one dimension of 4000 iterations, tiled into
// blocks of 256 threads (block_x over tiles, thread_x inside, guarded); the
// innermost index is the remainder, so consecutive threads touch
// consecutive elements.
// CHECK-LABEL: func.func @add
// CHECK:         %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[STEP:.*]] = arith.muli %{{.*}}, %[[C256]] : index
// CHECK:         scf.parallel (%[[BLK:.*]]) = (%{{.*}}) to (%[[N:.*]]) step (%[[STEP]]) {
// CHECK:           scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP]]) step
// CHECK:             %[[LIN:.*]] = arith.addi %[[T]], %[[BLK]] : index
// CHECK:             arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK:             scf.if
// CHECK:               %[[J:.*]] = arith.remsi %[[LIN]], %[[C1000:.*]] : index
// CHECK:               %[[I:.*]] = arith.divsi %[[LIN]], %[[C1000]] : index
// CHECK:               %[[II:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK:               %[[JJ:.*]] = affine.apply #{{.*}}(%[[J]])
// CHECK:               memref.load %{{.*}}[%[[II]], %[[JJ]]] : memref<4x1000xf32>
// CHECK:               math.exp
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NOT:     linalg.
// B128-LABEL: func.func @add
// B128:         arith.constant 128 : index
func.func @add(%a: memref<4x1000xf32>, %b: memref<4x1000xf32>, %pool: memref<0xi8>) attributes {aotc.entry = {name = "add"}} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x1000xf32>) outs(%b : memref<4x1000xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// A reduction over the outer dimension is interchanged: one thread per
// column (40 of them: a block of 64, one warp-multiple), the reduction a
// sequential loop inside. A reduction to a scalar has no parallel dimension:
// it runs in a one-iteration loop mapped to one block (one thread).
// CHECK-LABEL: func.func @colsum
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<6x40xf32>
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[ONE:.*]]) step (%[[ONE]]) {
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:         return
func.func @colsum(%a: memref<6x40xf32>, %b: memref<40xf32>, %s: memref<f32>, %pool: memref<0xi8>) attributes {aotc.entry = {name = "colsum"}} {
  linalg.reduce ins(%a : memref<6x40xf32>) outs(%b : memref<40xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  linalg.reduce ins(%b : memref<40xf32>) outs(%s : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return
}

// A call (of an extern kernel, which enqueues its own work) stays on the
// host: it ends the serial run before it, and the stores after it run in a
// one-thread kernel of their own.
// CHECK-LABEL: func.func @around_call
// CHECK:         scf.parallel
// CHECK:           memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NEXT:    call @__aotc_extern_k(%{{.*}}, %{{.*}}) : (memref<f32>, memref<f32>) -> ()
// CHECK-NEXT:    %{{.*}} = arith.constant
// CHECK:         scf.parallel
// CHECK:           memref.load %{{.*}}[] : memref<f32>
// CHECK:           memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:         return
func.func private @__aotc_extern_k(memref<f32>, memref<f32>)
func.func @around_call(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>, %pool: memref<0xi8>) attributes {aotc.entry = {name = "around_call"}} {
  %one = arith.constant 1.0 : f32
  memref.store %one, %a[] : memref<f32>
  call @__aotc_extern_k(%a, %b) : (memref<f32>, memref<f32>) -> ()
  %v = memref.load %b[] : memref<f32>
  memref.store %v, %c[] : memref<f32>
  return
}

// Functions that are not entry points are left alone.
// CHECK-LABEL: func.func private @not_an_entry
func.func private @not_an_entry(%a: memref<4xf32>)
