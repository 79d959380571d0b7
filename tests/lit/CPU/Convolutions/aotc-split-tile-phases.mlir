// RUN: aotc-opt %s -split-input-file -aotc-split-tile-phases=vector-bits=128 -canonicalize -cse | FileCheck %s

// A 3x3 depthwise window with stride 2 in a thread tile of 2 channels,
// its 4 x 8 planes padded by 1 in a 6 x 10 tile buffer: the buffer becomes
// its column phases [.., 6, 2, 5], written in vectors of two registers (8
// lanes with 128-bit registers) of buffer columns, deinterleaved: rows 0
// and 5 the pad value; each of the part's rows shifted right by its column
// offset (1) with the pad value before it, then read from part column 7
// on (beyond the part: the pad value). The even window columns (taps 0
// and 2) read phase 0 at column ow + q, then the odd one (tap 1) phase 1,
// accumulating into the even result; the filter's columns are sliced
// with stride 2.

#xmap = affine_map<(n, c, g, oh, ow, m, kh, kw) -> (n, c, m, oh * 2 + kh, ow * 2 + kw)>
#wmap = affine_map<(n, c, g, oh, ow, m, kh, kw) -> (c, g, m, kh, kw)>
#omap = affine_map<(n, c, g, oh, ow, m, kh, kw) -> (n, c, g, oh, ow)>
// CHECK-DAG:   #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 + d7)>
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG:     %[[PAD:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK:         scf.forall
// CHECK:           %[[PART:.*]] = tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0, 0] [1, 2, 1, 4, 8]
// CHECK:           %[[W:.*]] = tensor.extract_slice %{{.*}} [2, 1, 1, 3, 3]
// CHECK:           %[[EMPTY:.*]] = tensor.empty() : tensor<1x2x1x6x2x5xf32>
// CHECK:           %[[PHASES:.*]] = scf.for %[[C:.*]] = %{{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// CHECK:             vector.deinterleave %[[PAD]]
// CHECK-COUNT-8:     vector.transfer_write
// CHECK:             scf.for %[[R:.*]] = %{{.*}} to %{{.*}}
// CHECK:               %[[ROW:.*]] = arith.addi %[[R]], %{{.*}}
// CHECK:               %[[V0:.*]] = vector.transfer_read %[[PART]][%{{.*}}, %[[C]], %{{.*}}, %[[R]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1x2x1x4x8xf32>, vector<8xf32>
// CHECK:               %[[S0:.*]] = vector.shuffle %[[V0]], %[[PAD]] [8, 0, 1, 2, 3, 4, 5, 6]
// CHECK:               %[[E0:.*]], %[[O0:.*]] = vector.deinterleave %[[S0]] : vector<8xf32> -> vector<4xf32>
// CHECK:               vector.transfer_write %[[E0]], %{{.*}}[%{{.*}}, %[[C]], %{{.*}}, %[[ROW]], %{{.*}}, %{{.*}}] {in_bounds = [true]}
// CHECK:               vector.transfer_write %[[O0]]
// CHECK:               %[[V1:.*]] = vector.transfer_read %[[PART]][%{{.*}}, %[[C]], %{{.*}}, %[[R]], %c7], %{{.*}} : tensor<1x2x1x4x8xf32>, vector<8xf32>
// CHECK:               %[[E1:.*]], %[[O1:.*]] = vector.deinterleave %[[V1]]
// CHECK:               vector.transfer_write %[[E1]], %{{.*}}[%{{.*}}, %[[C]], %{{.*}}, %[[ROW]], %c0, %c4] :
// CHECK:               vector.transfer_write %[[O1]], %{{.*}}[%{{.*}}, %[[C]], %{{.*}}, %[[ROW]], %c1, %c4] :
// CHECK:           %[[EVEN:.*]] = tensor.extract_slice %[[PHASES]][0, 0, 0, 0, 0, 0] [1, 2, 1, 6, 1, 5] [1, 1, 1, 1, 1, 1] : tensor<1x2x1x6x2x5xf32> to tensor<1x2x1x6x5xf32>
// CHECK:           %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0, 0] [2, 1, 1, 3, 2] [1, 1, 1, 1, 2]
// CHECK:           %[[R0:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], {{.*}}ins(%[[EVEN]], %[[W0]] : tensor<1x2x1x6x5xf32>, tensor<2x1x1x3x2xf32>)
// CHECK:           %[[ODD:.*]] = tensor.extract_slice %[[PHASES]][0, 0, 0, 0, 1, 0] [1, 2, 1, 6, 1, 5]
// CHECK:           %[[W1:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0, 1] [2, 1, 1, 3, 1] [1, 1, 1, 1, 2]
// CHECK:           %[[R1:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], {{.*}}ins(%[[ODD]], %[[W1]] : tensor<1x2x1x6x5xf32>, tensor<2x1x1x3x1xf32>) outs(%[[R0]] :
// CHECK:           tensor.parallel_insert_slice %[[R1]]
func.func @depthwise(%x: tensor<1x4x1x4x8xf32>, %w: tensor<4x1x1x3x3xf32>, %o: tensor<1x4x1x2x4xf32>) -> tensor<1x4x1x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %r = scf.forall (%i) = (0) to (4) step (2) shared_outs(%out = %o) -> (tensor<1x4x1x2x4xf32>) {
    %e = tensor.empty() : tensor<1x2x1x6x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x1x6x10xf32>) -> tensor<1x2x1x6x10xf32>
    %part = tensor.extract_slice %x[0, %i, 0, 0, 0] [1, 2, 1, 4, 8] [1, 1, 1, 1, 1] : tensor<1x4x1x4x8xf32> to tensor<1x2x1x4x8xf32>
    %buf = tensor.insert_slice %part into %f[0, 0, 0, 1, 1] [1, 2, 1, 4, 8] [1, 1, 1, 1, 1] : tensor<1x2x1x4x8xf32> into tensor<1x2x1x6x10xf32>
    %ws = tensor.extract_slice %w[%i, 0, 0, 0, 0] [2, 1, 1, 3, 3] [1, 1, 1, 1, 1] : tensor<4x1x1x3x3xf32> to tensor<2x1x1x3x3xf32>
    %os = tensor.extract_slice %out[0, %i, 0, 0, 0] [1, 2, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<1x4x1x2x4xf32> to tensor<1x2x1x2x4xf32>
    %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%buf, %ws : tensor<1x2x1x6x10xf32>, tensor<2x1x1x3x3xf32>) outs(%os : tensor<1x2x1x2x4xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<1x2x1x2x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %out[0, %i, 0, 0, 0] [1, 2, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<1x2x1x2x4xf32> into tensor<1x4x1x2x4xf32>
    }
  }
  return %r : tensor<1x4x1x2x4xf32>
}

// -----

// A 3x3 max pool with stride 2 (its window a shape-only operand), the
// planes padded with -inf by 1 above and 2 to the left in a tile buffer of
// dynamic rows of the part: the window operand's columns are sliced, the
// pad value fills the phases, and the max of the odd phase folds into the
// even one's.

#xmap = affine_map<(c, oh, ow, kh, kw) -> (c, oh * 2 + kh, ow * 2 + kw)>
#wmap = affine_map<(c, oh, ow, kh, kw) -> (kh, kw)>
#omap = affine_map<(c, oh, ow, kh, kw) -> (c, oh, ow)>
// CHECK-LABEL: func.func @max_pool
// CHECK-DAG:     %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK:         scf.forall
// CHECK:           %[[EMPTY:.*]] = tensor.empty() : tensor<2x7x2x6xf32>
// CHECK:           vector.deinterleave %[[NEG]]
// CHECK:           vector.shuffle %{{.*}}, %[[NEG]] [8, 9, 0, 1, 2, 3, 4, 5]
// CHECK:           %[[K0:.*]] = tensor.extract_slice %{{.*}}[0, 0] [3, 2] [1, 2] : tensor<3x3xf32> to tensor<3x2xf32>
// CHECK:           %[[R0:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[K0]] : tensor<2x7x6xf32>, tensor<3x2xf32>)
// CHECK:             arith.maximumf
// CHECK:           %[[K1:.*]] = tensor.extract_slice %{{.*}}[0, 1] [3, 1] [1, 2] : tensor<3x3xf32> to tensor<3x1xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[K1]] : tensor<2x7x6xf32>, tensor<3x1xf32>) outs(%[[R0]] :
func.func @max_pool(%x: tensor<4x5x9xf32>, %o: tensor<4x3x5xf32>, %rows: index) -> tensor<4x3x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %r = scf.forall (%i) = (0) to (4) step (2) shared_outs(%out = %o) -> (tensor<4x3x5xf32>) {
    %e = tensor.empty() : tensor<2x7x12xf32>
    %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x7x12xf32>) -> tensor<2x7x12xf32>
    %part = tensor.extract_slice %x[%i, 0, 0] [2, %rows, 9] [1, 1, 1] : tensor<4x5x9xf32> to tensor<2x?x9xf32>
    %buf = tensor.insert_slice %part into %f[0, 1, 2] [2, %rows, 9] [1, 1, 1] : tensor<2x?x9xf32> into tensor<2x7x12xf32>
    %os = tensor.extract_slice %out[%i, 0, 0] [2, 3, 5] [1, 1, 1] : tensor<4x3x5xf32> to tensor<2x3x5xf32>
    %m = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%buf, %window : tensor<2x7x12xf32>, tensor<3x3xf32>) outs(%os : tensor<2x3x5xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %s = arith.maximumf %acc, %a : f32
      linalg.yield %s : f32
    } -> tensor<2x3x5xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %out[%i, 0, 0] [2, 3, 5] [1, 1, 1] : tensor<2x3x5xf32> into tensor<4x3x5xf32>
    }
  }
  return %r : tensor<4x3x5xf32>
}

// -----

// Left as they are: stride 1; a single window column; a body that does not
// fold its products into the output (the last tap wins); outside a thread
// loop.

#s1 = affine_map<(c, oh, ow, kh, kw) -> (c, oh + kh, ow + kw)>
#s2 = affine_map<(c, oh, ow, kh, kw) -> (c, oh * 2 + kh, ow * 2 + kw)>
#wmap = affine_map<(c, oh, ow, kh, kw) -> (kh, kw)>
#omap = affine_map<(c, oh, ow, kh, kw) -> (c, oh, ow)>
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     vector.deinterleave
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @kept(%x: tensor<2x6x10xf32>, %o: tensor<2x2x4xf32>, %o1: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %k3 = tensor.empty() : tensor<3x3xf32>
  %k1 = tensor.empty() : tensor<3x1xf32>
  %r:3 = scf.forall (%i) = (0) to (2) step (1) shared_outs(%a = %o1, %b = %o, %c = %o) -> (tensor<2x4x8xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>) {
    %e = tensor.empty() : tensor<2x6x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x10xf32>) -> tensor<2x6x10xf32>
    %part = tensor.extract_slice %x[0, 0, 0] [2, 4, 8] [1, 1, 1] : tensor<2x6x10xf32> to tensor<2x4x8xf32>
    %buf1 = tensor.insert_slice %part into %f[0, 1, 1] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x6x10xf32>
    %buf2 = tensor.insert_slice %part into %f[0, 1, 1] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x6x10xf32>
    %buf3 = tensor.insert_slice %part into %f[0, 1, 1] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x6x10xf32>
    %m1 = linalg.generic {indexing_maps = [#s1, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%buf1, %k3 : tensor<2x6x10xf32>, tensor<3x3xf32>) outs(%o1 : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %w: f32, %acc: f32):
      %s = arith.maximumf %acc, %in : f32
      linalg.yield %s : f32
    } -> tensor<2x4x8xf32>
    %m2 = linalg.generic {indexing_maps = [#s2, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%buf2, %k1 : tensor<2x6x10xf32>, tensor<3x1xf32>) outs(%o : tensor<2x2x4xf32>) {
    ^bb0(%in: f32, %w: f32, %acc: f32):
      %s = arith.maximumf %acc, %in : f32
      linalg.yield %s : f32
    } -> tensor<2x2x4xf32>
    %m3 = linalg.generic {indexing_maps = [#s2, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%buf3, %k3 : tensor<2x6x10xf32>, tensor<3x3xf32>) outs(%o : tensor<2x2x4xf32>) {
    ^bb0(%in: f32, %w: f32, %acc: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m1 into %a[0, 0, 0] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x4x8xf32>
      tensor.parallel_insert_slice %m2 into %b[0, 0, 0] [2, 2, 4] [1, 1, 1] : tensor<2x2x4xf32> into tensor<2x2x4xf32>
      tensor.parallel_insert_slice %m3 into %c[0, 0, 0] [2, 2, 4] [1, 1, 1] : tensor<2x2x4xf32> into tensor<2x2x4xf32>
    }
  }
  %e = tensor.empty() : tensor<2x6x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x10xf32>) -> tensor<2x6x10xf32>
  %part = tensor.extract_slice %x[0, 0, 0] [2, 4, 8] [1, 1, 1] : tensor<2x6x10xf32> to tensor<2x4x8xf32>
  %buf = tensor.insert_slice %part into %f[0, 1, 1] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x6x10xf32>
  %m4 = linalg.generic {indexing_maps = [#s2, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%buf, %k3 : tensor<2x6x10xf32>, tensor<3x3xf32>) outs(%o : tensor<2x2x4xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %s = arith.maximumf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x2x4xf32>
  return %r#0, %r#1, %r#2, %m4 : tensor<2x4x8xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>
}
