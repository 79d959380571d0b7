// RUN: aotc-opt %s -split-input-file -aotc-fuse-elementwise-ops | FileCheck %s

// An elementwise chain becomes one generic, as upstream.

// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A GELU-like producer (erf) stays out of the matmul that consumes it: the
// matmul keeps a multiply-add payload (a contraction) and erf runs once per
// element.

// CHECK-LABEL: func.func @gelu_matmul
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK:           math.erf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[G]], %{{.*}} : tensor<4x16xf32>, tensor<16x8xf32>)
// CHECK-NOT:       math.erf
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
#id = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @gelu_matmul(%h: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.erf %x : f32
    %p = arith.mulf %x, %r : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A cheap producer (a scale) still stays out of a contraction that would
// recompute it for every output column: (q / s) @ k^T stays a contraction.

// CHECK-LABEL: func.func @scale_matmul
// CHECK:         %[[Q:.*]] = linalg.generic
// CHECK:           arith.divf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[Q]], %{{.*}} : tensor<4x16xf32>, tensor<8x16xf32>)
// CHECK-NOT:       arith.divf
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
#id = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @scale_matmul(%q: tensor<4x16xf32>, %k: tensor<8x16xf32>, %s: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.divf %x, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%qs, %k : tensor<4x16xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A per-row statistic read inside that row's reduction fuses (it is
// recomputed only along the reduction): the mean of a variance.

// CHECK-LABEL: func.func @mean_into_variance
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:           arith.divf
// CHECK:           arith.subf
// CHECK-NOT:     linalg.generic
// CHECK:         return
#row = affine_map<(d0, d1) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @mean_into_variance(%x: tensor<4x8xf32>, %sum: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %n = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.divf %s, %n : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %var = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<4x8xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %c = arith.subf %a, %m : f32
    %q = arith.mulf %c, %c : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %var : tensor<4xf32>
}

// -----

// A bias broadcast into an elementwise op fuses; a per-row rsqrt broadcast
// along the row does not (it would run once per element, not once per row).

// CHECK-LABEL: func.func @broadcasts
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK:           math.rsqrt
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.*}}, %{{.*}}, %[[R]] : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>)
// CHECK-NOT:       math.rsqrt
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @broadcasts(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %v: tensor<4xf32>) -> tensor<4x8xf32> {
  %two = arith.constant 2.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %b2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%b : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.mulf %s, %two : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = math.rsqrt %s : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #col, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b2, %r : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %s: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    %u = arith.mulf %t, %s : f32
    linalg.yield %u : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A transpose feeding a matmul stays a copy: fused, the matmul would read
// k^T across its rows. The same transpose into an elementwise op fuses.

// CHECK-LABEL: func.func @transpose_matmul
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]]
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.*}}, %[[T]] : tensor<4x16xf32>, tensor<16x8xf32>)
// CHECK-LABEL: func.func @transpose_add
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>)
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @transpose_matmul(%q: tensor<4x16xf32>, %k: tensor<8x16xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %kt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @transpose_add(%k: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %kt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%kt, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %z : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// -----

// A producer that accumulates into its init (out += x, no reduction loop)
// stays apart: fused into a consumer that reads it through a broadcast, it
// would add once per read.

// CHECK-LABEL: func.func @accumulating_producer
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<4x1xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x4xf32>)
func.func @accumulating_producer(%x: tensor<4x1xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x1xf32>) outs(%f : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t, %y : tensor<1x4xf32>, tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
