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

// -----

// A padded image (its border filled, as a max pool's -inf padding): the
// producer (computed as 1 x 1 x 4 x 6 x 6, collapsed to 1 x 4 x 6 x 6) is
// computed in the padded image's interior. The fill, defined after the
// producer's empty tensor, moves before it; the insert copies nothing.

// CHECK-LABEL: func.func @padded_interior
// CHECK:         %[[PE:.*]] = tensor.empty() : tensor<1x4x8x8xf32>
// CHECK:         %[[P:.*]] = linalg.fill {{.*}} outs(%[[PE]] : tensor<1x4x8x8xf32>)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[P]][0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1]
// CHECK:         %[[X:.*]] = tensor.expand_shape %[[S]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} outs(%[[X]] : tensor<1x1x4x6x6xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[R]]
// CHECK:         tensor.insert_slice %[[C]] into %[[P]][0, 0, 1, 1] [1, 4, 6, 6]
// BUF-LABEL:   func.func @padded_interior
// BUF:           %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<1x4x8x8xf32>
// BUF:           linalg.fill {{.*}} outs(%[[ALLOC]] :
// BUF:           %[[SV:.*]] = memref.subview %[[ALLOC]][0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1]
// BUF:           %[[EX:.*]] = memref.expand_shape %[[SV]]
// BUF:           linalg.generic {{.*}} outs(%[[EX]] :
// BUF-NOT:       memref.alloc
// BUF-NOT:       memref.copy
// BUF:           bufferization.to_tensor %[[ALLOC]]
#id5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>
func.func @padded_interior(%x: tensor<1x1x4x6x6xf32>) -> tensor<1x4x8x8xf32> {
  %e = tensor.empty() : tensor<1x1x4x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x4x6x6xf32>) outs(%e : tensor<1x1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4x6x6xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]] : tensor<1x1x4x6x6xf32> into tensor<1x4x6x6xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pe = tensor.empty() : tensor<1x4x8x8xf32>
  %p = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %i = tensor.insert_slice %c into %p[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x6x6xf32> into tensor<1x4x8x8xf32>
  return %i : tensor<1x4x8x8xf32>
}

// -----

// A producer whose rows are flattened (4 x 36, expanded to 4 x 6 x 6) is
// not computed in a padded interior: the interior's rows are not adjacent,
// so its slice cannot be collapsed back to 4 x 36. Left alone.

// CHECK-LABEL: func.func @padded_flat_rows
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x36xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[E]] : tensor<4x36xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         tensor.insert_slice
#id2 = affine_map<(a, b) -> (a, b)>
func.func @padded_flat_rows(%x: tensor<4x36xf32>) -> tensor<4x8x8xf32> {
  %e = tensor.empty() : tensor<4x36xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x36xf32>) outs(%e : tensor<4x36xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x36xf32>
  %x3 = tensor.expand_shape %r [[0], [1, 2]] output_shape [4, 6, 6] : tensor<4x36xf32> into tensor<4x6x6xf32>
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<4x8x8xf32>
  %p = linalg.fill ins(%zero : f32) outs(%pe : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %i = tensor.insert_slice %x3 into %p[0, 1, 1] [4, 6, 6] [1, 1, 1] : tensor<4x6x6xf32> into tensor<4x8x8xf32>
  return %i : tensor<4x8x8xf32>
}

// -----

// The same padded interior, the producer also read after the insert
// (a residual connection's input: the padded image feeds the next
// convolution, the producer a later add) through another collapse defined
// before the insert, and the collapsed source read by another op. The later read takes the insert's slice, carried back
// through the collapse, and the other collapse moves after the insert: the
// producer is still computed in the interior, and nothing is copied
// (reading the producer itself after the insert wrote its buffer, one-shot
// bufferization computed it out of place and copied it in).

#id5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
// CHECK-LABEL: func.func @padded_interior_read_after
// CHECK:         %[[P:.*]] = linalg.fill
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[P]][0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1]
// CHECK:         %[[X:.*]] = tensor.expand_shape %[[S]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} outs(%[[X]] : tensor<1x1x4x6x6xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK:         %[[I:.*]] = tensor.insert_slice %[[C]] into %[[P]][0, 0, 1, 1] [1, 4, 6, 6]
// CHECK:         %[[IS:.*]] = tensor.extract_slice %[[I]][0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1]
// CHECK:         %[[IX:.*]] = tensor.expand_shape %[[IS]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK:         %[[C2:.*]] = tensor.collapse_shape %[[IX]] {{\[}}[0, 1, 2], [3], [4]]
// CHECK:         linalg.generic {{.*}} ins(%[[C2]], %{{.*}} : tensor<4x6x6xf32>, tensor<4x6x6xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[IS]] : tensor<1x4x6x6xf32>)
// BUF-LABEL:   func.func @padded_interior_read_after
// BUF:           %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<1x4x8x8xf32>
// BUF:           linalg.fill {{.*}} outs(%[[ALLOC]] :
// BUF:           %[[SV:.*]] = memref.subview %[[ALLOC]][0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1]
// BUF:           linalg.generic {{.*}} outs(%{{.*}} :
// BUF-NOT:       memref.copy
// BUF:           memref.alloc() {{.*}} : memref<4x6x6xf32>
// BUF-NOT:       memref.copy
// BUF:           memref.alloc() {{.*}} : memref<1x4x6x6xf32>
// BUF-NOT:       memref.copy
// BUF:           return
func.func @padded_interior_read_after(%x: tensor<1x1x4x6x6xf32>, %y: tensor<4x6x6xf32>) -> (tensor<1x4x8x8xf32>, tensor<4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %e = tensor.empty() : tensor<1x1x4x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x4x6x6xf32>) outs(%e : tensor<1x1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4x6x6xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]] : tensor<1x1x4x6x6xf32> into tensor<1x4x6x6xf32>
  %c2 = tensor.collapse_shape %r [[0, 1, 2], [3], [4]] : tensor<1x1x4x6x6xf32> into tensor<4x6x6xf32>
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<1x4x8x8xf32>
  %p = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %i = tensor.insert_slice %c into %p[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x6x6xf32> into tensor<1x4x8x8xf32>
  %ae = tensor.empty() : tensor<4x6x6xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c2, %y : tensor<4x6x6xf32>, tensor<4x6x6xf32>) outs(%ae : tensor<4x6x6xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x6x6xf32>
  %be = tensor.empty() : tensor<1x4x6x6xf32>
  %b = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x6x6xf32>) outs(%be : tensor<1x4x6x6xf32>) {
  ^bb0(%u: f32, %out: f32):
    %n = arith.negf %u : f32
    linalg.yield %n : f32
  } -> tensor<1x4x6x6xf32>
  return %i, %a, %b : tensor<1x4x8x8xf32>, tensor<4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// A thread tile's slice of an empty tensor outside its scf.forall (an im2col
// tile, written in two parts of 96 and 15 columns) becomes an empty tensor
// of its own: one buffer per tile, both parts written in place. As a slice
// of the shared tensor, which every thread writes, the tile was computed in
// a copy and its 96 columns in one more buffer, copied in.

// CHECK-LABEL: func.func @tile_scratch
// CHECK:         scf.forall
// CHECK-NEXT:      %[[T:.*]] = tensor.empty() : tensor<4x111xf32>
// CHECK:           tensor.extract_slice %[[T]][0, 0] [4, 96] [1, 1]
// BUF-LABEL:   func.func @tile_scratch
// BUF:           scf.forall
// BUF-NEXT:        %[[A:.*]] = memref.alloc() {{.*}} : memref<4x111xf32>
// BUF-NOT:         memref.alloc
// BUF-NOT:         memref.copy
// BUF:             linalg.exp ins(%[[A]] : memref<4x111xf32>)
func.func @tile_scratch(%x: tensor<8x111xf32>) -> tensor<8x111xf32> {
  %scratch = tensor.empty() : tensor<8x111xf32>
  %out = tensor.empty() : tensor<8x111xf32>
  %r = scf.forall (%i) = (0) to (8) step (4) shared_outs(%o = %out) -> (tensor<8x111xf32>) {
    %s = tensor.extract_slice %scratch[%i, 0] [4, 111] [1, 1] : tensor<8x111xf32> to tensor<4x111xf32>
    %x96 = tensor.extract_slice %x[%i, 0] [4, 96] [1, 1] : tensor<8x111xf32> to tensor<4x96xf32>
    %s96 = tensor.extract_slice %s[0, 0] [4, 96] [1, 1] : tensor<4x111xf32> to tensor<4x96xf32>
    %c96 = linalg.copy ins(%x96 : tensor<4x96xf32>) outs(%s96 : tensor<4x96xf32>) -> tensor<4x96xf32>
    %s1 = tensor.insert_slice %c96 into %s[0, 0] [4, 96] [1, 1] : tensor<4x96xf32> into tensor<4x111xf32>
    %x15 = tensor.extract_slice %x[%i, 96] [4, 15] [1, 1] : tensor<8x111xf32> to tensor<4x15xf32>
    %s15 = tensor.extract_slice %s1[0, 96] [4, 15] [1, 1] : tensor<4x111xf32> to tensor<4x15xf32>
    %c15 = linalg.copy ins(%x15 : tensor<4x15xf32>) outs(%s15 : tensor<4x15xf32>) -> tensor<4x15xf32>
    %s2 = tensor.insert_slice %c15 into %s1[0, 96] [4, 15] [1, 1] : tensor<4x15xf32> into tensor<4x111xf32>
    %os = tensor.extract_slice %o[%i, 0] [4, 111] [1, 1] : tensor<8x111xf32> to tensor<4x111xf32>
    %e = linalg.exp ins(%s2 : tensor<4x111xf32>) outs(%os : tensor<4x111xf32>) -> tensor<4x111xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%i, 0] [4, 111] [1, 1] : tensor<4x111xf32> into tensor<8x111xf32>
    }
  }
  return %r : tensor<8x111xf32>
}
