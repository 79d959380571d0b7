// RUN: aotc-opt %s -split-input-file -aotc-bufferize | FileCheck %s
// RUN: aotc-opt %s -split-input-file -pass-pipeline='builtin.module(aotc-bufferize{pool-alignment=128})' | FileCheck %s --check-prefix=ALIGN

#id = affine_map<(d0) -> (d0)>

// Tensors become identity-layout memrefs; the result becomes an out-parameter
// after the inputs; the two temporaries (both live at the multiply) are
// views of the trailing pool argument; no allocation, copy or dealloc is left.

// CHECK-LABEL: func.func @model(
// CHECK-SAME:    %[[X:[^:]*]]: memref<64xf32>, %[[OUT:[^:]*]]: memref<64xf32>, %[[POOL:[^:]*]]: memref<512xi8> {aotc.name = "pool"})
// CHECK-NOT:     ->
// CHECK-SAME:    aotc.entry = {inputs = [{dtype = "f32", name = "arg0", shape = array<i64: 64>}], name = "model"
// CHECK-SAME:    aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 256, 0, 0, 4>, array<i64: 256, 256, 2, 4>], bytes = 512 : i64, lower_bound = 512 : i64}
// CHECK-NOT:     memref.alloc
// CHECK:         %[[A:.*]] = memref.view %[[POOL]][%{{.*}}][] : memref<512xi8> to memref<64xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK:           math.exp
// CHECK:         %[[B:.*]] = memref.view %[[POOL]][%{{.*}}][] : memref<512xi8> to memref<64xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : memref<64xf32>) outs(%[[B]] : memref<64xf32>)
// CHECK:           math.log
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[B]] : memref<64xf32>, memref<64xf32>) outs(%[[OUT]] : memref<64xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return{{$}}
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
// ALIGN-LABEL: func.func @model(
// ALIGN-SAME:    memref<512xi8> {aotc.name = "pool"}
// ALIGN-SAME:    aotc.pool = {alignment = 128 : i64, buffers = [array<i64: 256, 0, 0, 4>, array<i64: 256, 256, 2, 4>], bytes = 512 : i64
func.func @model(%x: tensor<64xf32> {bufferization.writable = false}) -> tensor<64xf32>
    attributes {aotc.entry = {inputs = [{dtype = "f32", name = "arg0", shape = array<i64: 64>}], name = "model",
                              outputs = [{dtype = "f32", name = "result0", shape = array<i64: 64>}]}} {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.log %in : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %v = arith.mulf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Results that alias an input, a slice of it or a constant are copied into
// their out-parameters with linalg copies (never memref.copy, which would
// need the memrefCopy runtime function). Nothing needs the pool.

// CHECK-LABEL: func.func @copies(
// CHECK-SAME:    %[[X:[^:]*]]: memref<8x8xf32>, %[[R0:[^:]*]]: memref<4x4xf32>, %[[R1:[^:]*]]: memref<8x8xf32>, %[[R2:[^:]*]]: memref<4xf32>, %{{[^:]*}}: memref<0xi8> {aotc.name = "pool"})
// CHECK-SAME:    bytes = 0 : i64
// CHECK-DAG:     %[[S:.*]] = memref.subview %[[X]][2, 2] [4, 4] [1, 1]
// CHECK-DAG:     %[[G:.*]] = memref.get_global
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : memref<4x4xf32, strided<[8, 1], offset: 18>>) outs(%[[R0]] : memref<4x4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : memref<8x8xf32>) outs(%[[R1]] : memref<8x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[G]] : memref<4xf32>) outs(%[[R2]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.alloc
func.func @copies(%x: tensor<8x8xf32> {bufferization.writable = false})
    -> (tensor<4x4xf32>, tensor<8x8xf32>, tensor<4xf32>)
    attributes {aotc.entry = {inputs = [], name = "copies", outputs = []}} {
  %s = tensor.extract_slice %x[2, 2] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %s, %x, %c : tensor<4x4xf32>, tensor<8x8xf32>, tensor<4xf32>
}

// -----

// Tiled, vectorized IR (the tensor stage's output) bufferizes in place: the
// thread and register tiles become subviews of the out-parameter.

// CHECK-LABEL: func.func @tiled(
// CHECK-SAME:    %[[A:[^:]*]]: memref<8x16xf32>, %[[OUT:[^:]*]]: memref<8x16xf32>, %{{[^:]*}}: memref<0xi8>
// CHECK:         scf.forall
// CHECK:           %[[T:.*]] = memref.subview %[[OUT]]
// CHECK:           scf.for
// CHECK:             %[[V:.*]] = memref.subview %[[T]]
// CHECK:             vector.transfer_write %{{.*}}, %[[V]]
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
func.func @tiled(%a: tensor<8x16xf32> {bufferization.writable = false}) -> tensor<8x16xf32>
    attributes {aotc.entry = {inputs = [], name = "tiled", outputs = []}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = ub.poison : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = scf.forall (%i) = (0) to (8) step (4) shared_outs(%o = %e) -> (tensor<8x16xf32>) {
    %so = tensor.extract_slice %o[%i, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
    %l = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %so) -> (tensor<4x16xf32>) {
      %row = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%i, %j)
      %in = tensor.extract_slice %a[%row, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<1x16xf32>
      %dst = tensor.extract_slice %acc[%j, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<1x16xf32>
      %v = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : tensor<1x16xf32>, vector<1x16xf32>
      %x = math.exp %v : vector<1x16xf32>
      %w = vector.transfer_write %x, %dst[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf32>, tensor<1x16xf32>
      %ins = tensor.insert_slice %w into %acc[%j, 0] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<4x16xf32>
      scf.yield %ins : tensor<4x16xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %l into %o[%i, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}
