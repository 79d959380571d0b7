// RUN: aotc-opt %s -split-input-file -aotc-eliminate-reshaped-empty-tensors | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-eliminate-reshaped-empty-tensors -eliminate-empty-tensors -one-shot-bufferize -canonicalize -cse -canonicalize | FileCheck %s --check-prefix=BUF

// A concatenation of a matmul's result (computed as 64 x 3025, inserted as
// 64 x 55 x 55) and of another tensor: the matmul is computed in the
// concatenation's first half, reshaped, and the insert copies nothing.

#a = affine_map<(m, n, k) -> (m, k)>
#x = affine_map<(m, n, k) -> (k, n)>
#o = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @concat_reshaped
// CHECK:         %[[C:.*]] = tensor.empty() : tensor<128x55x55xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[C]][0, 0, 0] [64, 55, 55] [1, 1, 1]
// CHECK:         %[[E:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0], [1, 2]] : tensor<64x55x55xf32> into tensor<64x3025xf32>
// CHECK:         linalg.fill {{.*}} outs(%[[E]] : tensor<64x3025xf32>)
// CHECK-NOT:     tensor.empty
// CHECK:         tensor.insert_slice {{.*}} into %[[C]][0, 0, 0] [64, 55, 55]
// BUF-LABEL:   func.func @concat_reshaped
// BUF:           %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<128x55x55xf32>
// BUF:           %[[SV:.*]] = memref.subview %[[ALLOC]][0, 0, 0] [64, 55, 55] [1, 1, 1]
// BUF:           %[[CS:.*]] = memref.collapse_shape %[[SV]]
// BUF:           linalg.fill {{.*}} outs(%[[CS]] :
// BUF:           linalg.generic {{.*}} outs(%[[CS]] :
// BUF-NOT:       memref.alloc
// BUF:           %[[SV1:.*]] = memref.subview %[[ALLOC]][64, 0, 0] [64, 55, 55] [1, 1, 1]
// BUF-NEXT:      memref.copy %{{.*}}, %[[SV1]]
// BUF-NOT:       memref.copy
// BUF:           return
// BUF-LABEL:   func.func @not_from_empty
func.func @concat_reshaped(%w: tensor<64x16xf32>, %x: tensor<16x3025xf32>, %other: tensor<64x55x55xf32>) -> tensor<128x55x55xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x3025xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x3025xf32>) -> tensor<64x3025xf32>
  %m = linalg.generic {indexing_maps = [#a, #x, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x : tensor<64x16xf32>, tensor<16x3025xf32>) outs(%f : tensor<64x3025xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %mul = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %mul : f32
    linalg.yield %s : f32
  } -> tensor<64x3025xf32>
  %r = tensor.expand_shape %m [[0], [1, 2]] output_shape [64, 55, 55] : tensor<64x3025xf32> into tensor<64x55x55xf32>
  %c = tensor.empty() : tensor<128x55x55xf32>
  %i0 = tensor.insert_slice %r into %c[0, 0, 0] [64, 55, 55] [1, 1, 1] : tensor<64x55x55xf32> into tensor<128x55x55xf32>
  %i1 = tensor.insert_slice %other into %i0[64, 0, 0] [64, 55, 55] [1, 1, 1] : tensor<64x55x55xf32> into tensor<128x55x55xf32>
  return %i1 : tensor<128x55x55xf32>
}

// -----

// A source that does not start from an empty tensor (a function argument
// updated in place) is left alone.

// CHECK-LABEL: func.func @not_from_empty
// CHECK:         %[[F:.*]] = linalg.fill {{.*}} outs(%{{.*}} : tensor<16xf32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[F]]
// CHECK:         %[[C:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK:         tensor.insert_slice %[[R]] into %[[C]][0, 0] [4, 4] [1, 1]
func.func @not_from_empty(%t: tensor<16xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%t : tensor<16xf32>) -> tensor<16xf32>
  %r = tensor.expand_shape %f [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  %c = tensor.empty() : tensor<8x4xf32>
  %i = tensor.insert_slice %r into %c[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x4xf32>
  return %i : tensor<8x4xf32>
}
