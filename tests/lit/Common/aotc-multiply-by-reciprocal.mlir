// RUN: aotc-opt %s -split-input-file -aotc-multiply-by-reciprocal | FileCheck %s

// Softmax's last step: exp(x - max) / sum, the sum read once per row.

// CHECK-LABEL: func.func @softmax_divide
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[E:.*]] = math.exp
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[R:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK:           %[[Y:.*]] = arith.mulf %[[E]], %[[R]] : f32
// CHECK:           linalg.yield %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_divide(%x: tensor<2x8xf32>, %m: tensor<2xf32>, %s: tensor<2xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x1 = math.exp %d : f32
    %y = arith.divf %x1, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Left alone: a divisor that changes along the row (d1), a division of two
// per-row values, and a one-loop op (nothing to hoist it out of).

// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     arith.mulf
// CHECK-COUNT-3: arith.divf
// CHECK-NOT:     arith.divf
// CHECK-NOT:     arith.mulf
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @untouched(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<2x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2x8xf32>
  %1 = linalg.generic {indexing_maps = [#row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %v : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2x8xf32>
  %e1 = tensor.empty() : tensor<2xf32>
  %2 = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%m, %v : tensor<2xf32>, tensor<2xf32>) outs(%e1 : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2xf32>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2xf32>
}
