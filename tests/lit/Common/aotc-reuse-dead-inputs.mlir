// RUN: aotc-opt %s -split-input-file -aotc-reuse-dead-inputs | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// A temporary that dies at an elementwise op becomes that op's destination:
// it moves from `ins` to `outs` and the payload reads it through the output
// block argument.

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @reuse
// CHECK-SAME:    (%[[A:.*]]: tensor<8xf32>)
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<8xf32>
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8xf32>) outs(%[[E0]] : tensor<8xf32>)
// CHECK:           math.exp
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel"]} outs(%[[T]] : tensor<8xf32>) {
// CHECK-NEXT:    ^bb0(%[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[N]] : f32
// CHECK:         return %[[R]]
func.func @reuse(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// Binary op: the dead temporary of the right type and map is chosen, not the
// function argument (first operand) nor the broadcast operand.

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @binary
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}}} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%[[T]] : tensor<4x8xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[S]], %[[Z]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         return %[[R]]
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.absf %in : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %t : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Negative cases: every destination stays the tensor.empty.

// The input is a function argument (the caller's memory).
// CHECK-LABEL: func.func @argument
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK:         linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
func.func @argument(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// The input is a constant.
// CHECK-LABEL: func.func @constant
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK:         linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
func.func @constant() -> tensor<8xf32> {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// The temporary is still used afterwards.
// CHECK-LABEL: func.func @live_after
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
// CHECK:         return {{.*}}, %[[T]]
func.func @live_after(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r, %t : tensor<8xf32>, tensor<8xf32>
}

// Different element type (f32 -> i32).
// CHECK-LABEL: func.func @type_change
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8xi32>
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<8xf32>) outs(%[[E]] : tensor<8xi32>)
func.func @type_change(%a: tensor<8xf32>) -> tensor<8xi32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%e1 : tensor<8xi32>) {
  ^bb0(%in: f32, %out: i32):
    %x = arith.fptosi %in : f32 to i32
    linalg.yield %x : i32
  } -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#red = affine_map<(d0, d1) -> (d0)>

// A transposed read: element (i, j) is written before (j, i) is read.
// CHECK-LABEL: func.func @transposed
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<4x4xf32>) outs(%[[E]] : tensor<4x4xf32>)
func.func @transposed(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e0 = tensor.empty() : tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// A reduction is not elementwise.
// CHECK-LABEL: func.func @reduction
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<4x4xf32>) outs(%[[F]] : tensor<4xf32>)
func.func @reduction(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<4x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// The destination is not an empty tensor (its values are read).
// CHECK-LABEL: func.func @accumulate
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<4x4xf32>) outs(%[[F]] : tensor<4x4xf32>)
func.func @accumulate(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e0 = tensor.empty() : tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%one : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A slice of a tensor that is read again later (a concatenation grown in
// place by aotc-grow-concats-in-place) does not die with the slice: the op
// keeps its own destination, so that bufferization need not copy the
// tensor to update the slice in place.

#sid = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @slice_of_live_tensor
// CHECK:         %[[S:.*]] = tensor.extract_slice
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
func.func @slice_of_live_tensor(%a: tensor<16xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<16xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %t = linalg.generic {indexing_maps = [#sid, #sid], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e0 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<16xf32>
  %s = tensor.extract_slice %t[0] [8] [1] : tensor<16xf32> to tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#sid, #sid], iterator_types = ["parallel"]}
      ins(%s : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %g = tensor.insert_slice %b into %t[8] [8] [1] : tensor<8xf32> into tensor<16xf32>
  return %r, %g : tensor<8xf32>, tensor<16xf32>
}
