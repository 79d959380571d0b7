// RUN: aotc-opt %s -split-input-file -aotc-tile-symbolic-dims | FileCheck %s

// The dynamic loop (rows) is tiled by 1 with scf.for; the static one is not:
// the generic inside works on static 1x64 slices.

// CHECK-LABEL: func.func @rows
// CHECK-SAME:    (%[[X:.*]]: tensor<?x64xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?x64xf32>)
// CHECK:           %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<1x64xf32>
// CHECK:           %[[T:.*]] = linalg.generic {{.*}} ins(%[[XS]] : tensor<1x64xf32>) outs(%{{.*}} : tensor<1x64xf32>)
// CHECK:           tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<?x64xf32>
func.func @rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

// Static ops are left alone.

// CHECK-LABEL: func.func @static
// CHECK-NOT:     scf.for
func.func @static(%x: tensor<4x64xf32>, %e: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = linalg.exp ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
