// RUN: aotc-opt %s -split-input-file -aotc-grow-concats-in-place | FileCheck %s

// DenseNet's block: each concatenation repeats the one before and appends
// one part. All three become slices of one 1x160 tensor, into which x, f1,
// f2 and f3 are each inserted once; the last one is the tensor itself.

// CHECK-LABEL: func.func @dense_block
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64xf32>, %[[F1:.*]]: tensor<1x32xf32>, %[[F2:.*]]: tensor<1x32xf32>, %[[F3:.*]]: tensor<1x32xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x160xf32>
// CHECK:         %[[T0:.*]] = tensor.insert_slice %[[X]] into %[[E]][0, 0] [1, 64] [1, 1]
// CHECK:         %[[T1:.*]] = tensor.insert_slice %[[F1]] into %[[T0]][0, 64] [1, 32] [1, 1]
// CHECK:         %[[A:.*]] = tensor.extract_slice %[[T1]][0, 0] [1, 96] [1, 1] : tensor<1x160xf32> to tensor<1x96xf32>
// CHECK:         %[[RA:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<1x96xf32>)
// CHECK:         %[[T2:.*]] = tensor.insert_slice %[[F2]] into %[[T1]][0, 96] [1, 32] [1, 1]
// CHECK:         %[[B:.*]] = tensor.extract_slice %[[T2]][0, 0] [1, 128] [1, 1] : tensor<1x160xf32> to tensor<1x128xf32>
// CHECK:         %[[RB:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<1x128xf32>)
// CHECK:         %[[T3:.*]] = tensor.insert_slice %[[F3]] into %[[T2]][0, 128] [1, 32] [1, 1]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[RA]], %[[RB]], %[[T3]]
#id = affine_map<(i, j) -> (i, j)>
func.func @dense_block(%x: tensor<1x64xf32>, %f1: tensor<1x32xf32>, %f2: tensor<1x32xf32>, %f3: tensor<1x32xf32>) -> (tensor<1x96xf32>, tensor<1x128xf32>, tensor<1x160xf32>) {
  %e96 = tensor.empty() : tensor<1x96xf32>
  %a0 = tensor.insert_slice %x into %e96[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x96xf32>
  %a = tensor.insert_slice %f1 into %a0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x96xf32>
  %ra = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x96xf32>) outs(%e96 : tensor<1x96xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<1x96xf32>
  %e128 = tensor.empty() : tensor<1x128xf32>
  %b0 = tensor.insert_slice %x into %e128[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x128xf32>
  %b1 = tensor.insert_slice %f1 into %b0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x128xf32>
  %b = tensor.insert_slice %f2 into %b1[0, 96] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x128xf32>
  %rb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<1x128xf32>) outs(%e128 : tensor<1x128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<1x128xf32>
  %e160 = tensor.empty() : tensor<1x160xf32>
  %c0 = tensor.insert_slice %x into %e160[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x160xf32>
  %c1 = tensor.insert_slice %f1 into %c0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x160xf32>
  %c2 = tensor.insert_slice %f2 into %c1[0, 96] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x160xf32>
  %c = tensor.insert_slice %f3 into %c2[0, 128] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x160xf32>
  return %ra, %rb, %c : tensor<1x96xf32>, tensor<1x128xf32>, tensor<1x160xf32>
}

// -----

// The shorter concatenation is still read after the longer one is built:
// appending into its tensor would overwrite nothing it holds, but the
// in-place write would make bufferization copy it; both stay as they are.
// So does a concatenation that does not begin with the other's parts.

// CHECK-LABEL: func.func @read_after
// CHECK-COUNT-5: tensor.insert_slice
// CHECK-NOT:     tensor.extract_slice
func.func @read_after(%x: tensor<1x64xf32>, %f1: tensor<1x32xf32>, %f2: tensor<1x32xf32>) -> (tensor<1x128xf32>, tensor<1x96xf32>) {
  %e96 = tensor.empty() : tensor<1x96xf32>
  %a0 = tensor.insert_slice %x into %e96[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x96xf32>
  %a = tensor.insert_slice %f1 into %a0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x96xf32>
  %e128 = tensor.empty() : tensor<1x128xf32>
  %b0 = tensor.insert_slice %x into %e128[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x128xf32>
  %b1 = tensor.insert_slice %f1 into %b0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x128xf32>
  %b = tensor.insert_slice %f2 into %b1[0, 96] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x128xf32>
  return %b, %a : tensor<1x128xf32>, tensor<1x96xf32>
}

// CHECK-LABEL: func.func @other_parts
// CHECK-COUNT-5: tensor.insert_slice
// CHECK-NOT:     tensor.extract_slice
func.func @other_parts(%x: tensor<1x64xf32>, %f1: tensor<1x32xf32>, %f2: tensor<1x32xf32>) -> (tensor<1x96xf32>, tensor<1x128xf32>) {
  %e96 = tensor.empty() : tensor<1x96xf32>
  %a0 = tensor.insert_slice %x into %e96[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x96xf32>
  %a = tensor.insert_slice %f1 into %a0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x96xf32>
  %e128 = tensor.empty() : tensor<1x128xf32>
  %b0 = tensor.insert_slice %x into %e128[0, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<1x128xf32>
  %b1 = tensor.insert_slice %f2 into %b0[0, 64] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x128xf32>
  %b = tensor.insert_slice %f1 into %b1[0, 96] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x128xf32>
  return %a, %b : tensor<1x96xf32>, tensor<1x128xf32>
}
