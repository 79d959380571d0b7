// RUN: aotc-opt %s -split-input-file -aotc-split-row-reductions | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-split-row-reductions=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// A row sum: 64 columns become 4 steps of one 16-lane register of partial
// sums per row (inner split parallel), then one reduction of the 16 lanes.

// CHECK-DAG:   #[[IN3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ACC3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xf32>, %[[INIT:.*]]: tensor<4xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [4, 4, 16] : tensor<4x64xf32> into tensor<4x4x16xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[IN3]], #[[ACC3]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[E]] : tensor<4x4x16xf32>) outs(%[[Z]] : tensor<4x16xf32>)
// CHECK:           arith.addf
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[P]] : tensor<4x16xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK:           arith.addf
// CHECK:         return %[[S]]
// AVX2-LABEL:  func.func @row_sum
// AVX2:          tensor.expand_shape %{{.*}} output_shape [4, 8, 8] : tensor<4x64xf32> into tensor<4x8x8xf32>
// AVX2:          linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Softmax's sum of exp(x - max): the row maximum is read once per row (its
// map gains the new loop but not the split one); partial max of a maximum
// reduction starts from -inf.

// CHECK-LABEL: func.func @sum_exp
// CHECK-SAME:    (%[[X:.*]]: tensor<2x32xf32>, %[[M:.*]]: tensor<2xf32>, %[[INIT:.*]]: tensor<2xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [2, 2, 16]
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[E]], %[[M]] : tensor<2x2x16xf32>, tensor<2xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[P]] : tensor<2x16xf32>) outs(%[[INIT]] : tensor<2xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_exp(%x: tensor<2x32xf32>, %m: tensor<2xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<2x32xf32>, tensor<2xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @row_max
// CHECK:         %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<3x16xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:           arith.maximumf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maximumf
func.func @row_max(%x: tensor<3x48xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x48xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Left alone: a reduction over the outer dimension (columns are already
// the vector), a matmul (the GEMM path), a row of one register, and a row
// shorter than two registers (24 columns).

// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     linalg.fill
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @untouched(%x: tensor<64x64xf32>, %c: tensor<64xf32>, %a: tensor<8x16xf32>,
                     %r: tensor<8xf32>, %b: tensor<8x24xf32>, %w: tensor<64x64xf32>,
                     %mm: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<64x64xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%c : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<8x24xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%mm : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<64x64xf32>
}

// -----

// A row of 40 columns, two registers and a half: the first 32 are split as
// above, the last 8 are reduced into their result (upstream splitOp: a part
// reading columns [32, 40) whose init is the first part's result).

// CHECK-LABEL: func.func @part_register
// CHECK-SAME:    (%[[X:.*]]: tensor<8x40xf32>, %[[INIT:.*]]: tensor<8xf32>)
// CHECK:         %[[BULK:.*]] = tensor.extract_slice %[[X]][0, 0] [8, 32] [1, 1]
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[BULK]] {{\[}}[0], [1, 2]] output_shape [8, 2, 16]
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[E]] : tensor<8x2x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[P]] : tensor<8x16xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:         %[[SI:.*]] = tensor.insert_slice %[[S]] into %[[INIT]][0] [8] [1]
// CHECK:         %[[REST:.*]] = tensor.extract_slice %[[X]][0, 32] [8, 8] [1, 1]
// CHECK:         %[[SO:.*]] = tensor.extract_slice %[[SI]][0] [8] [1]
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[REST]] : tensor<8x8xf32>) outs(%[[SO]] : tensor<8xf32>)
// CHECK:         %[[TI:.*]] = tensor.insert_slice %[[T]] into %[[SI]][0] [8] [1]
// CHECK:         return %[[TI]]
func.func @part_register(%x: tensor<8x40xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x40xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A global average pool's sum with its ReLU, over a 13 x 13 image: the two
// trailing reduction loops read one contiguous range, so they become one
// loop of 169 (upstream collapseOpIterationDims), split as 160 + 9.

// CHECK-LABEL: func.func @image_sum
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x13x13xf32>, %[[INIT:.*]]: tensor<1x8xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x13x13xf32> into tensor<1x8x169xf32>
// CHECK:         %[[BULK:.*]] = tensor.extract_slice %[[C]][0, 0, 0] [1, 8, 160] [1, 1, 1]
// CHECK:         tensor.expand_shape %[[BULK]] {{\[}}[0], [1], [2, 3]] output_shape [1, 8, 10, 16]
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK:           arith.maximumf
// CHECK:           arith.addf
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[P]] : tensor<1x8x16xf32>) outs(%{{.*}} : tensor<1x8xf32>)
// CHECK:         %[[SI:.*]] = tensor.insert_slice %[[S]] into %[[INIT]][0, 0] [1, 8] [1, 1]
// CHECK:         %[[REST:.*]] = tensor.extract_slice %[[C]][0, 0, 160] [1, 8, 9] [1, 1, 1]
// CHECK:         %[[SO:.*]] = tensor.extract_slice %[[SI]][0, 0] [1, 8] [1, 1]
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[REST]] : tensor<1x8x9xf32>) outs(%[[SO]] : tensor<1x8xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[TI:.*]] = tensor.insert_slice %[[T]] into %[[SI]][0, 0] [1, 8] [1, 1]
// CHECK:         return %[[TI]]
func.func @image_sum(%x: tensor<1x8x13x13xf32>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x8x13x13xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maximumf %v, %zero : f32
    %s = arith.addf %r, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// Not collapsed: the image read transposed ([w, h]: not one contiguous
// range in loop order), so the innermost loop alone (13 columns, less than
// two registers) is no row this pass splits.

// CHECK-LABEL: func.func @transposed_image
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "reduction"]
func.func @transposed_image(%x: tensor<1x8x13x13xf32>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, w, h)>, affine_map<(n, c, h, w) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x8x13x13xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// A row sum whose body reads the reduction's loop index (a padding fused
// into an average pool): linalg::splitReduction would keep the body, whose
// linalg.index 1 would then name the outer part of the split loop only. The
// op is left as it is (a scalar accumulator).

// CHECK-LABEL: func.func @row_sum_reading_index
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:           linalg.index 1
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum_reading_index(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %k = linalg.index 1 : index
    %inside = arith.cmpi uge, %k, %c3 : index
    %v = arith.select %inside, %in, %zero : f32
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
