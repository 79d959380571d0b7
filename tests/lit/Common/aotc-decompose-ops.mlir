// RUN: aotc-opt %s -split-input-file -aotc-decompose-ops | FileCheck %s

// tensor.concat becomes a destination and one insert_slice per operand.

// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK-NOT:     tensor.concat
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK:         %[[S0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0] [2] [1] : tensor<2xf32> into tensor<5xf32>
// CHECK:         %[[S1:.*]] = tensor.insert_slice %[[B]] into %[[S0]][2] [3] [1] : tensor<3xf32> into tensor<5xf32>
// CHECK:         return %[[S1]]
func.func @concat(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<5xf32> {
  %0 = tensor.concat dim(0) %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Along an inner dimension, with three operands.

// CHECK-LABEL: func.func @concat_inner
// CHECK-SAME:    (%[[A:.*]]: tensor<2x1xi32>, %[[B:.*]]: tensor<2x2xi32>, %[[C:.*]]: tensor<2x1xi32>)
// CHECK-NOT:     tensor.concat
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x4xi32>
// CHECK:         %[[S0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 1] [1, 1]
// CHECK:         %[[S1:.*]] = tensor.insert_slice %[[B]] into %[[S0]][0, 1] [2, 2] [1, 1]
// CHECK:         %[[S2:.*]] = tensor.insert_slice %[[C]] into %[[S1]][0, 3] [2, 1] [1, 1]
// CHECK:         return %[[S2]]
func.func @concat_inner(%a: tensor<2x1xi32>, %b: tensor<2x2xi32>, %c: tensor<2x1xi32>) -> tensor<2x4xi32> {
  %0 = tensor.concat dim(1) %a, %b, %c : (tensor<2x1xi32>, tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// linalg.softmax: max-reduce, exp(x - max), sum-reduce, divide.

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.*]]: tensor<2x16xf32>)
// CHECK-NOT:     linalg.softmax
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<2x16xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[X]], %[[MAX]] : tensor<2x16xf32>, tensor<2xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[EXP]] : tensor<2x16xf32>)
// CHECK:           arith.addf
// CHECK:         %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x16xf32>, tensor<2xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[DIV]]
// CHECK-NOT:     linalg.softmax
func.func @softmax(%a: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<2x16xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

// tensor.pad with a constant becomes fill + insert_slice at the low padding.

// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT:     tensor.pad
// CHECK-DAG:     %[[Z:.*]] = arith.constant 2.500000e+00 : f32
// CHECK-DAG:     %[[E:.*]] = tensor.empty() : tensor<4x6xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x6xf32>)
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[X]] into %[[F]][1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
// CHECK:         return %[[R]]
func.func @pad(%a: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %z = arith.constant 2.5 : f32
  %0 = tensor.pad %a low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<2x3xf32> to tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// All-parallel named ops become linalg.generic (so elementwise fusion can
// merge them): elementwise, transpose, broadcast.

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[TR:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[BIN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[BOUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @parallel_named
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK-NOT:     linalg.add
// CHECK:         %[[ADD:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:           arith.addf
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [#[[TR]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[ADD]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         %[[BC:.*]] = linalg.generic {indexing_maps = [#[[BIN]], #[[BOUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[A]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK:         return %[[ADD]], %[[T]], %[[BC]]
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.broadcast
func.func @parallel_named(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<2x4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %1 = linalg.transpose ins(%0 : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<2x4x8xf32>
  %2 = linalg.broadcast ins(%a : tensor<4x8xf32>) outs(%eb : tensor<2x4x8xf32>) dimensions = [0]
  return %0, %1, %2 : tensor<4x8xf32>, tensor<8x4xf32>, tensor<2x4x8xf32>
}

// -----

// Ops that already are primitives are left alone: fills (destinations are
// recognized by them), contractions, slices.

// CHECK-LABEL: func.func @untouched
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK:         %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>) outs(%[[F]] : tensor<4x4xf32>)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[M]][0, 0] [2, 4] [1, 1]
// CHECK:         return %[[S]]
func.func @untouched(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tensor.extract_slice %0[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
