// RUN: aotc-opt %s -split-input-file -aotc-normalize-contractions -aotc-pack-contraction-operands -canonicalize -mlir-print-elementsattrs-with-hex-if-larger=1000 | FileCheck %s
// RUN: aotc-opt %s -split-input-file -aotc-normalize-contractions -aotc-pack-contraction-operands='vector-bits=256' -canonicalize | FileCheck %s --check-prefix=AVX2

// A matmul whose right-hand side is computed at run time and reused by 64
// rows over 160 steps: B [160, 200] is split at 192 columns (6 panels of
// 32); the head reads B copied into panels [6, 160, 32] four rows at a time
// (a generic over (row block, panel, row, lane) from B viewed as [40, 4, 6,
// 32] into [6, 40, 4, 32], viewed as [6, 160, 32]), the output viewed as
// [64, 6, 32]; the last 8 columns stay an unpacked matmul.

// CHECK-DAG:   #[[AM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-DAG:   #[[BM:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>
// CHECK-DAG:   #[[CM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG:   #[[PIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-DAG:   #[[POUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK-LABEL: func.func @runtime_rhs
// CHECK-SAME:    (%[[A:.*]]: tensor<64x160xf32>, %[[B:.*]]: tensor<160x200xf32>, %[[C:.*]]: tensor<64x200xf32>)
// CHECK:         %[[BH:.*]] = tensor.extract_slice %[[B]][0, 0] [160, 192] [1, 1]
// CHECK:         %[[CH:.*]] = tensor.extract_slice %[[C]][0, 0] [64, 192] [1, 1]
// CHECK:         %[[BE:.*]] = tensor.expand_shape %[[BH]] {{\[}}[0, 1], [2, 3]] output_shape [40, 4, 6, 32]
// CHECK:         %[[BB:.*]] = linalg.generic {indexing_maps = [#[[PIN]], #[[POUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[BE]] : tensor<40x4x6x32xf32>) outs(%{{.*}} : tensor<6x40x4x32xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK:         %[[BP:.*]] = tensor.collapse_shape %[[BB]] {{\[}}[0], [1, 2], [3]] : tensor<6x40x4x32xf32> into tensor<6x160x32xf32>
// CHECK:         %[[CE:.*]] = tensor.expand_shape %[[CH]] {{\[}}[0], [1, 2]] output_shape [64, 6, 32]
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[AM]], #[[BM]], #[[CM]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[A]], %[[BP]] : tensor<64x160xf32>, tensor<6x160x32xf32>) outs(%[[CE]] : tensor<64x6x32xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[RC:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2]] : tensor<64x6x32xf32> into tensor<64x192xf32>
// CHECK:         %[[C2:.*]] = tensor.insert_slice %[[RC]] into %[[C]][0, 0] [64, 192]
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x160xf32>, tensor<160x8xf32>) outs(%{{.*}} : tensor<64x8xf32>)
func.func @runtime_rhs(%a: tensor<64x160xf32>, %b: tensor<160x200xf32>, %c: tensor<64x200xf32>) -> tensor<64x200xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x160xf32>, tensor<160x200xf32>) outs(%c : tensor<64x200xf32>) -> tensor<64x200xf32>
  return %r : tensor<64x200xf32>
}

// -----

// A constant right-hand side is packed at compile time, even for few rows:
// row 0 of B is 0..63, row 1 is 100..163; panel 0 holds columns 0..31 of
// both rows, then panel 1 columns 32..63.

// CHECK-LABEL: func.func @constant_rhs
// CHECK:         %[[P:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 1.000000e+00,
// CHECK-SAME:        3.100000e+01], [1.000000e+02, 1.010000e+02,
// CHECK-SAME:        1.310000e+02]], {{\[\[}}3.200000e+01, 3.300000e+01,
// CHECK-SAME:        1.630000e+02]]]> : tensor<2x2x32xf32>
// CHECK-NOT:     tensor<2x64xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %[[P]] : tensor<8x2xf32>, tensor<2x2x32xf32>)
func.func @constant_rhs(%a: tensor<8x2xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %b = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0, 160.0, 161.0, 162.0, 163.0]]> : tensor<2x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x2xf32>, tensor<2x64xf32>) outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

// Left alone: a run-time right-hand side reused by only 8 rows (the copy
// would cost as much as it saves), a right-hand side read transposed
// (n, k), and a matmul narrower than two panels.

// CHECK-LABEL: func.func @few_rows
// CHECK-NOT:     linalg.{{transpose|generic}}
// CHECK:         linalg.matmul
func.func @few_rows(%a: tensor<8x96xf32>, %b: tensor<96x256xf32>, %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x96xf32>, tensor<96x256xf32>) outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}

// A run-time right-hand side 128 steps deep, reused by 64 rows: each
// register tile's 32 columns (16 KiB) stay in L1 after the first row tile,
// so it is read in place rather than copied.

// CHECK-LABEL: func.func @shallow_rhs
// CHECK-NOT:     linalg.{{transpose|generic}}
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<128x256xf32>)
func.func @shallow_rhs(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// Fewer rows suffice when the right-hand side's rows alias in L1: 32 rows
// over rows 4 KiB apart (1024 columns) and 48 over rows 2 KiB apart (512
// columns) are packed; 32 rows over 2 KiB and 24 over 4 KiB are not.

// CHECK-LABEL: func.func @aliased_rhs_4k
// CHECK:         %[[BB:.*]] = linalg.generic
// CHECK-SAME:        ins(%{{.*}} : tensor<64x4x32x32xf32>) outs(%{{.*}} : tensor<32x64x4x32xf32>)
// CHECK:         %[[BP:.*]] = tensor.collapse_shape %[[BB]] {{\[}}[0], [1, 2], [3]] : tensor<32x64x4x32xf32> into tensor<32x256x32xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %[[BP]] : tensor<4x256x8xf32>, tensor<32x256x32xf32>)
func.func @aliased_rhs_4k(%a: tensor<32x256xf32>, %b: tensor<256x1024xf32>, %c: tensor<32x1024xf32>) -> tensor<32x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x256xf32>, tensor<256x1024xf32>) outs(%c : tensor<32x1024xf32>) -> tensor<32x1024xf32>
  return %r : tensor<32x1024xf32>
}

// CHECK-LABEL: func.func @aliased_rhs_2k
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}} : tensor<64x4x16x32xf32>) outs(%{{.*}} : tensor<16x64x4x32xf32>)
func.func @aliased_rhs_2k(%a: tensor<48x256xf32>, %b: tensor<256x512xf32>, %c: tensor<48x512xf32>) -> tensor<48x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<48x256xf32>, tensor<256x512xf32>) outs(%c : tensor<48x512xf32>) -> tensor<48x512xf32>
  return %r : tensor<48x512xf32>
}

// CHECK-LABEL: func.func @aliased_rhs_few_rows
// CHECK-NOT:     x64x4x32xf32>
// CHECK:         ins(%{{.*}}, %{{.*}} : tensor<4x256x8xf32>, tensor<256x512xf32>)
// CHECK-NOT:     x64x4x32xf32>
// CHECK:         ins(%{{.*}}, %{{.*}} : tensor<3x256x8xf32>, tensor<256x1024xf32>)
func.func @aliased_rhs_few_rows(%a: tensor<32x256xf32>, %b: tensor<256x512xf32>, %c: tensor<32x512xf32>,
                                %d: tensor<24x256xf32>, %e: tensor<256x1024xf32>, %f: tensor<24x1024xf32>) -> (tensor<32x512xf32>, tensor<24x1024xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<32x256xf32>, tensor<256x512xf32>) outs(%c : tensor<32x512xf32>) -> tensor<32x512xf32>
  %s = linalg.matmul ins(%d, %e : tensor<24x256xf32>, tensor<256x1024xf32>) outs(%f : tensor<24x1024xf32>) -> tensor<24x1024xf32>
  return %r, %s : tensor<32x512xf32>, tensor<24x1024xf32>
}

// CHECK-LABEL: func.func @transposed_rhs
// CHECK-NOT:     linalg.{{transpose|generic}}
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<64x96xf32>, tensor<256x96xf32>)
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_rhs(%a: tensor<64x96xf32>, %b: tensor<256x96xf32>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x96xf32>, tensor<256x96xf32>) outs(%c : tensor<64x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @narrow
// CHECK-NOT:     linalg.{{transpose|generic}}
// CHECK:         linalg.matmul
func.func @narrow(%a: tensor<64x96xf32>, %b: tensor<96x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

// A 1x1 convolution on a 7x7 image (as aotc-pointwise-conv-to-matmul writes
// it): 49 lanes are less than two panels, and the 64 rows come from
// constant weights [1, 64, 2] read as (g, m, r). The output is computed
// transposed ([1, 1, 49, 64], transposes in and out), the loops are
// interchanged back to rows (the 49 pixels) x lanes (the 64 channels), and
// the weights are packed at compile time from (lane, k) order: w[m, r] is
// m + 100 r, so panel 0 holds 0..31 then 100..131, panel 1 32..63 then
// 132..163.

// CHECK-DAG:   #[[XM:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d2)>
// CHECK-DAG:   #[[WM:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d3, d5, d4)>
// CHECK-DAG:   #[[OM:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @small_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x2x49xf32>, %[[O:.*]]: tensor<1x1x64x49xf32>)
// CHECK:         %[[P:.*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 1.000000e+00,
// CHECK-SAME:        3.100000e+01], [1.000000e+02, 1.010000e+02,
// CHECK-SAME:        1.310000e+02]], {{\[\[}}3.200000e+01,
// CHECK-SAME:        1.630000e+02]]]]> : tensor<1x2x2x32xf32>
// CHECK:         %[[OT:.*]] = linalg.transpose ins(%[[O]] : tensor<1x1x64x49xf32>) outs(%{{.*}} : tensor<1x1x49x64xf32>) permutation = [0, 1, 3, 2]
// CHECK:         %[[OE:.*]] = tensor.expand_shape %[[OT]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 1, 49, 2, 32]
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[XM]], #[[WM]], #[[OM]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[X]], %[[P]] : tensor<1x1x2x49xf32>, tensor<1x2x2x32xf32>) outs(%[[OE]] : tensor<1x1x49x2x32xf32>)
// CHECK:         %[[RC:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x49x2x32xf32> into tensor<1x1x49x64xf32>
// CHECK:         %[[RT:.*]] = linalg.transpose ins(%[[RC]] : tensor<1x1x49x64xf32>) outs(%{{.*}} : tensor<1x1x64x49xf32>) permutation = [0, 1, 3, 2]
// CHECK:         return %[[RT]]
#x = affine_map<(n, g, m, p, r) -> (n, g, r, p)>
#w = affine_map<(n, g, m, p, r) -> (g, m, r)>
#o = affine_map<(n, g, m, p, r) -> (n, g, m, p)>
func.func @small_image(%x: tensor<1x1x2x49xf32>, %o: tensor<1x1x64x49xf32>) -> tensor<1x1x64x49xf32> {
  %w = arith.constant dense<[[[0.0, 100.0], [1.0, 101.0], [2.0, 102.0], [3.0, 103.0], [4.0, 104.0], [5.0, 105.0], [6.0, 106.0], [7.0, 107.0], [8.0, 108.0], [9.0, 109.0], [10.0, 110.0], [11.0, 111.0], [12.0, 112.0], [13.0, 113.0], [14.0, 114.0], [15.0, 115.0], [16.0, 116.0], [17.0, 117.0], [18.0, 118.0], [19.0, 119.0], [20.0, 120.0], [21.0, 121.0], [22.0, 122.0], [23.0, 123.0], [24.0, 124.0], [25.0, 125.0], [26.0, 126.0], [27.0, 127.0], [28.0, 128.0], [29.0, 129.0], [30.0, 130.0], [31.0, 131.0], [32.0, 132.0], [33.0, 133.0], [34.0, 134.0], [35.0, 135.0], [36.0, 136.0], [37.0, 137.0], [38.0, 138.0], [39.0, 139.0], [40.0, 140.0], [41.0, 141.0], [42.0, 142.0], [43.0, 143.0], [44.0, 144.0], [45.0, 145.0], [46.0, 146.0], [47.0, 147.0], [48.0, 148.0], [49.0, 149.0], [50.0, 150.0], [51.0, 151.0], [52.0, 152.0], [53.0, 153.0], [54.0, 154.0], [55.0, 155.0], [56.0, 156.0], [57.0, 157.0], [58.0, 158.0], [59.0, 159.0], [60.0, 160.0], [61.0, 161.0], [62.0, 162.0], [63.0, 163.0]]]> : tensor<1x64x2xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x2x49xf32>, tensor<1x64x2xf32>) outs(%o : tensor<1x1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x49xf32>
  return %r : tensor<1x1x64x49xf32>
}

// -----

// With 256-bit registers (panels of 16 lanes), 49 lanes are three panels and
// a one-column remainder, and 80 rows only have register tiles of 5 rows
// (not 6): the remainder op would read all the weights again for one column
// and the rest run on 5-row tiles, so the output is computed transposed
// (MobileNetV2's 320 -> 1280 expansion at 7 x 7). 96 rows have 6-row tiles:
// not transposed.

// AVX2-LABEL: func.func @partial_lanes
// AVX2:         linalg.transpose ins(%{{.*}} : tensor<1x1x80x49xf32>) outs(%{{.*}} : tensor<1x1x49x80xf32>)
// AVX2:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x64x49xf32>, tensor<1x5x64x16xf32>) outs(%{{.*}} : tensor<1x1x49x5x16xf32>)
// AVX2:         linalg.transpose ins(%{{.*}} : tensor<1x1x49x80xf32>) outs(%{{.*}} : tensor<1x1x80x49xf32>)
// AVX2-LABEL: func.func @partial_lanes_whole_tiles
// AVX2-NOT:     linalg.transpose
// AVX2:         return
#px = affine_map<(n, g, m, p, r) -> (n, g, r, p)>
#pw = affine_map<(n, g, m, p, r) -> (g, m, r)>
#po = affine_map<(n, g, m, p, r) -> (n, g, m, p)>
func.func @partial_lanes(%x: tensor<1x1x64x49xf32>, %o: tensor<1x1x80x49xf32>) -> tensor<1x1x80x49xf32> {
  %w = arith.constant dense<1.0> : tensor<1x80x64xf32>
  %r = linalg.generic {indexing_maps = [#px, #pw, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x64x49xf32>, tensor<1x80x64xf32>) outs(%o : tensor<1x1x80x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x80x49xf32>
  return %r : tensor<1x1x80x49xf32>
}
func.func @partial_lanes_whole_tiles(%x: tensor<1x1x64x49xf32>, %o: tensor<1x1x96x49xf32>) -> tensor<1x1x96x49xf32> {
  %w = arith.constant dense<1.0> : tensor<1x96x64xf32>
  %r = linalg.generic {indexing_maps = [#px, #pw, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x64x49xf32>, tensor<1x96x64xf32>) outs(%o : tensor<1x1x96x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x96x49xf32>
  return %r : tensor<1x1x96x49xf32>
}

// -----

// The same convolution with a ReLU6 on its image ([1, 1, 64, 7, 7], through
// an expand_shape): the activation is computed on the contraction's
// transposed layout, before the transpose back (it can then join the
// register tiles), and the transpose, reshaped, replaces its result.

// CHECK-LABEL: func.func @small_image_activation
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<1x1x49x2x32xf32>)
// CHECK:         %[[RC:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x49x2x32xf32> into tensor<1x1x49x64xf32>
// CHECK:         %[[A:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[RC]] : tensor<1x1x49x64xf32>) outs(%{{.*}} : tensor<1x1x49x64xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:         %[[AT:.*]] = linalg.transpose ins(%[[A]] : tensor<1x1x49x64xf32>) outs(%{{.*}} : tensor<1x1x64x49xf32>) permutation = [0, 1, 3, 2]
// CHECK:         %[[AE:.*]] = tensor.expand_shape %[[AT]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 1, 64, 7, 7]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[AE]]
#xa = affine_map<(n, g, m, p, r) -> (n, g, r, p)>
#wa = affine_map<(n, g, m, p, r) -> (g, m, r)>
#oa = affine_map<(n, g, m, p, r) -> (n, g, m, p)>
#ida = affine_map<(n, g, m, h, w) -> (n, g, m, h, w)>
func.func @small_image_activation(%x: tensor<1x1x2x49xf32>, %o: tensor<1x1x64x49xf32>) -> tensor<1x1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %w = arith.constant dense<[[[0.0, 100.0], [1.0, 101.0], [2.0, 102.0], [3.0, 103.0], [4.0, 104.0], [5.0, 105.0], [6.0, 106.0], [7.0, 107.0], [8.0, 108.0], [9.0, 109.0], [10.0, 110.0], [11.0, 111.0], [12.0, 112.0], [13.0, 113.0], [14.0, 114.0], [15.0, 115.0], [16.0, 116.0], [17.0, 117.0], [18.0, 118.0], [19.0, 119.0], [20.0, 120.0], [21.0, 121.0], [22.0, 122.0], [23.0, 123.0], [24.0, 124.0], [25.0, 125.0], [26.0, 126.0], [27.0, 127.0], [28.0, 128.0], [29.0, 129.0], [30.0, 130.0], [31.0, 131.0], [32.0, 132.0], [33.0, 133.0], [34.0, 134.0], [35.0, 135.0], [36.0, 136.0], [37.0, 137.0], [38.0, 138.0], [39.0, 139.0], [40.0, 140.0], [41.0, 141.0], [42.0, 142.0], [43.0, 143.0], [44.0, 144.0], [45.0, 145.0], [46.0, 146.0], [47.0, 147.0], [48.0, 148.0], [49.0, 149.0], [50.0, 150.0], [51.0, 151.0], [52.0, 152.0], [53.0, 153.0], [54.0, 154.0], [55.0, 155.0], [56.0, 156.0], [57.0, 157.0], [58.0, 158.0], [59.0, 159.0], [60.0, 160.0], [61.0, 161.0], [62.0, 162.0], [63.0, 163.0]]]> : tensor<1x64x2xf32>
  %r = linalg.generic {indexing_maps = [#xa, #wa, #oa], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x2x49xf32>, tensor<1x64x2xf32>) outs(%o : tensor<1x1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x49xf32>
  %img = tensor.expand_shape %r [[0], [1], [2], [3, 4]] output_shape [1, 1, 64, 7, 7] : tensor<1x1x64x49xf32> into tensor<1x1x64x7x7xf32>
  %clip = linalg.generic {indexing_maps = [#ida, #ida], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%img : tensor<1x1x64x7x7xf32>) outs(%img : tensor<1x1x64x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x1x64x7x7xf32>
  return %clip : tensor<1x1x64x7x7xf32>
}

// -----

// A residual add (it reads another image) and a truncation to f16 (another
// result type) stay after the transpose back.

// CHECK-LABEL: func.func @small_image_residual
// CHECK:         %[[RT:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x1x49x64xf32>) outs(%{{.*}} : tensor<1x1x64x49xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[RT]], %{{.*}} : tensor<1x1x64x49xf32>, tensor<1x1x64x49xf32>)
// CHECK:           arith.addf
// CHECK-LABEL: func.func @small_image_truncate
// CHECK:         %[[TT:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x1x49x64xf32>) outs(%{{.*}} : tensor<1x1x64x49xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[TT]] : tensor<1x1x64x49xf32>) outs(%{{.*}} : tensor<1x1x64x49xf16>)
// CHECK:           arith.truncf
#xr = affine_map<(n, g, m, p, r) -> (n, g, r, p)>
#wr = affine_map<(n, g, m, p, r) -> (g, m, r)>
#or = affine_map<(n, g, m, p, r) -> (n, g, m, p)>
#idr = affine_map<(n, g, m, p) -> (n, g, m, p)>
func.func @small_image_residual(%x: tensor<1x1x2x49xf32>, %o: tensor<1x1x64x49xf32>, %skip: tensor<1x1x64x49xf32>) -> tensor<1x1x64x49xf32> {
  %w = arith.constant dense<[[[0.0, 100.0], [1.0, 101.0], [2.0, 102.0], [3.0, 103.0], [4.0, 104.0], [5.0, 105.0], [6.0, 106.0], [7.0, 107.0], [8.0, 108.0], [9.0, 109.0], [10.0, 110.0], [11.0, 111.0], [12.0, 112.0], [13.0, 113.0], [14.0, 114.0], [15.0, 115.0], [16.0, 116.0], [17.0, 117.0], [18.0, 118.0], [19.0, 119.0], [20.0, 120.0], [21.0, 121.0], [22.0, 122.0], [23.0, 123.0], [24.0, 124.0], [25.0, 125.0], [26.0, 126.0], [27.0, 127.0], [28.0, 128.0], [29.0, 129.0], [30.0, 130.0], [31.0, 131.0], [32.0, 132.0], [33.0, 133.0], [34.0, 134.0], [35.0, 135.0], [36.0, 136.0], [37.0, 137.0], [38.0, 138.0], [39.0, 139.0], [40.0, 140.0], [41.0, 141.0], [42.0, 142.0], [43.0, 143.0], [44.0, 144.0], [45.0, 145.0], [46.0, 146.0], [47.0, 147.0], [48.0, 148.0], [49.0, 149.0], [50.0, 150.0], [51.0, 151.0], [52.0, 152.0], [53.0, 153.0], [54.0, 154.0], [55.0, 155.0], [56.0, 156.0], [57.0, 157.0], [58.0, 158.0], [59.0, 159.0], [60.0, 160.0], [61.0, 161.0], [62.0, 162.0], [63.0, 163.0]]]> : tensor<1x64x2xf32>
  %r = linalg.generic {indexing_maps = [#xr, #wr, #or], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x2x49xf32>, tensor<1x64x2xf32>) outs(%o : tensor<1x1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x49xf32>
  %e = tensor.empty() : tensor<1x1x64x49xf32>
  %sum = linalg.generic {indexing_maps = [#idr, #idr, #idr], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %skip : tensor<1x1x64x49xf32>, tensor<1x1x64x49xf32>) outs(%e : tensor<1x1x64x49xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<1x1x64x49xf32>
  return %sum : tensor<1x1x64x49xf32>
}

func.func @small_image_truncate(%x: tensor<1x1x2x49xf32>, %o: tensor<1x1x64x49xf32>) -> tensor<1x1x64x49xf16> {
  %w = arith.constant dense<[[[0.0, 100.0], [1.0, 101.0], [2.0, 102.0], [3.0, 103.0], [4.0, 104.0], [5.0, 105.0], [6.0, 106.0], [7.0, 107.0], [8.0, 108.0], [9.0, 109.0], [10.0, 110.0], [11.0, 111.0], [12.0, 112.0], [13.0, 113.0], [14.0, 114.0], [15.0, 115.0], [16.0, 116.0], [17.0, 117.0], [18.0, 118.0], [19.0, 119.0], [20.0, 120.0], [21.0, 121.0], [22.0, 122.0], [23.0, 123.0], [24.0, 124.0], [25.0, 125.0], [26.0, 126.0], [27.0, 127.0], [28.0, 128.0], [29.0, 129.0], [30.0, 130.0], [31.0, 131.0], [32.0, 132.0], [33.0, 133.0], [34.0, 134.0], [35.0, 135.0], [36.0, 136.0], [37.0, 137.0], [38.0, 138.0], [39.0, 139.0], [40.0, 140.0], [41.0, 141.0], [42.0, 142.0], [43.0, 143.0], [44.0, 144.0], [45.0, 145.0], [46.0, 146.0], [47.0, 147.0], [48.0, 148.0], [49.0, 149.0], [50.0, 150.0], [51.0, 151.0], [52.0, 152.0], [53.0, 153.0], [54.0, 154.0], [55.0, 155.0], [56.0, 156.0], [57.0, 157.0], [58.0, 158.0], [59.0, 159.0], [60.0, 160.0], [61.0, 161.0], [62.0, 162.0], [63.0, 163.0]]]> : tensor<1x64x2xf32>
  %r = linalg.generic {indexing_maps = [#xr, #wr, #or], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1x2x49xf32>, tensor<1x64x2xf32>) outs(%o : tensor<1x1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x64x49xf32>
  %h = tensor.empty() : tensor<1x1x64x49xf16>
  %t = linalg.generic {indexing_maps = [#idr, #idr], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<1x1x64x49xf32>) outs(%h : tensor<1x1x64x49xf16>) {
  ^bb0(%in: f32, %out: f16):
    %c = arith.truncf %in : f32 to f16
    linalg.yield %c : f16
  } -> tensor<1x1x64x49xf16>
  return %t : tensor<1x1x64x49xf16>
}

// -----

// A classifier (Flatten + Gemm with transB, as the importer leaves it): the
// [1, 1, 2] activations times constant weights [72, 1, 2] read as (n, 1, k),
// with a unit reduction loop besides k. The unit loop is dropped (the
// weights fold into a [72, 2] constant), the 64 lanes of the whole panels
// are packed at compile time from (lane, k) order (w[n, k] = n + 100 k:
// panel 0 holds 0..31 then 100..131, panel 1 32..63 then 132..163) and the
// 8 lanes past them are split off with a constant of their own rows (the
// whole [72, 2] constant is not kept besides the packed one).

#fx = affine_map<(m, n, u, k) -> (m, u, k)>
#fw = affine_map<(m, n, u, k) -> (n, u, k)>
#fo = affine_map<(m, n, u, k) -> (m, n)>
// CHECK-LABEL: func.func @classifier
// CHECK:         %[[TAIL:.*]] = arith.constant dense<{{\[\[}}6.400000e+01, 1.640000e+02], [6.500000e+01, 1.650000e+02]
// CHECK-SAME:        [7.100000e+01, 1.710000e+02]]> : tensor<8x2xf32>
// CHECK:         %[[P:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 1.000000e+00,
// CHECK-SAME:        3.100000e+01], [1.000000e+02, 1.010000e+02,
// CHECK-SAME:        1.310000e+02]], {{\[\[}}3.200000e+01,
// CHECK-SAME:        1.630000e+02]]]> : tensor<2x2x32xf32>
// CHECK-NOT:     tensor<72x2xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[P]] : tensor<1x2xf32>, tensor<2x2x32xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[TAIL]] : tensor<1x2xf32>, tensor<8x2xf32>)
func.func @classifier(%x: tensor<1x1x2xf32>, %o: tensor<1x72xf32>) -> tensor<1x72xf32> {
  %w = arith.constant dense<[[[0.0, 100.0]], [[1.0, 101.0]], [[2.0, 102.0]], [[3.0, 103.0]], [[4.0, 104.0]], [[5.0, 105.0]], [[6.0, 106.0]], [[7.0, 107.0]], [[8.0, 108.0]], [[9.0, 109.0]], [[10.0, 110.0]], [[11.0, 111.0]], [[12.0, 112.0]], [[13.0, 113.0]], [[14.0, 114.0]], [[15.0, 115.0]], [[16.0, 116.0]], [[17.0, 117.0]], [[18.0, 118.0]], [[19.0, 119.0]], [[20.0, 120.0]], [[21.0, 121.0]], [[22.0, 122.0]], [[23.0, 123.0]], [[24.0, 124.0]], [[25.0, 125.0]], [[26.0, 126.0]], [[27.0, 127.0]], [[28.0, 128.0]], [[29.0, 129.0]], [[30.0, 130.0]], [[31.0, 131.0]], [[32.0, 132.0]], [[33.0, 133.0]], [[34.0, 134.0]], [[35.0, 135.0]], [[36.0, 136.0]], [[37.0, 137.0]], [[38.0, 138.0]], [[39.0, 139.0]], [[40.0, 140.0]], [[41.0, 141.0]], [[42.0, 142.0]], [[43.0, 143.0]], [[44.0, 144.0]], [[45.0, 145.0]], [[46.0, 146.0]], [[47.0, 147.0]], [[48.0, 148.0]], [[49.0, 149.0]], [[50.0, 150.0]], [[51.0, 151.0]], [[52.0, 152.0]], [[53.0, 153.0]], [[54.0, 154.0]], [[55.0, 155.0]], [[56.0, 156.0]], [[57.0, 157.0]], [[58.0, 158.0]], [[59.0, 159.0]], [[60.0, 160.0]], [[61.0, 161.0]], [[62.0, 162.0]], [[63.0, 163.0]], [[64.0, 164.0]], [[65.0, 165.0]], [[66.0, 166.0]], [[67.0, 167.0]], [[68.0, 168.0]], [[69.0, 169.0]], [[70.0, 170.0]], [[71.0, 171.0]]]> : tensor<72x1x2xf32>
  %r = linalg.generic {indexing_maps = [#fx, #fw, #fo], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x2xf32>, tensor<72x1x2xf32>) outs(%o : tensor<1x72xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x72xf32>
  return %r : tensor<1x72xf32>
}

// -----

// An output projection over attention heads (a transformer's [64, 2, 2]
// activations, heads x head width, times constant weights [64, 2, 2] read
// as (n, h, d)): its two reduction loops, adjacent in every operand, are
// collapsed into one of 4 (the weights fold into a [64, 4] constant), and
// the weights are packed at compile time into panels like any right-hand
// side's (w[n, h, d] = n + 100 (2 h + d): panel 0 holds 0..31, then
// 100..131, 200..231, 300..331).

#hx = affine_map<(m, n, h, d) -> (m, h, d)>
#hw = affine_map<(m, n, h, d) -> (n, h, d)>
#ho = affine_map<(m, n, h, d) -> (m, n)>
// CHECK-LABEL: func.func @heads_projection
// CHECK:         %[[P:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 1.000000e+00,
// CHECK-SAME:        3.100000e+01], [1.000000e+02, 1.010000e+02,
// CHECK-SAME:        3.310000e+02]], {{\[\[}}3.200000e+01,
// CHECK-SAME:        3.630000e+02]]]> : tensor<2x4x32xf32>
// CHECK:         %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<64x2x2xf32> into tensor<64x4xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]], %[[P]] : tensor<64x4xf32>, tensor<2x4x32xf32>)
// CHECK-NOT:     linalg.generic
func.func @heads_projection(%x: tensor<64x2x2xf32>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %w = arith.constant dense<[[[0.0, 100.0], [200.0, 300.0]], [[1.0, 101.0], [201.0, 301.0]], [[2.0, 102.0], [202.0, 302.0]], [[3.0, 103.0], [203.0, 303.0]], [[4.0, 104.0], [204.0, 304.0]], [[5.0, 105.0], [205.0, 305.0]], [[6.0, 106.0], [206.0, 306.0]], [[7.0, 107.0], [207.0, 307.0]], [[8.0, 108.0], [208.0, 308.0]], [[9.0, 109.0], [209.0, 309.0]], [[10.0, 110.0], [210.0, 310.0]], [[11.0, 111.0], [211.0, 311.0]], [[12.0, 112.0], [212.0, 312.0]], [[13.0, 113.0], [213.0, 313.0]], [[14.0, 114.0], [214.0, 314.0]], [[15.0, 115.0], [215.0, 315.0]], [[16.0, 116.0], [216.0, 316.0]], [[17.0, 117.0], [217.0, 317.0]], [[18.0, 118.0], [218.0, 318.0]], [[19.0, 119.0], [219.0, 319.0]], [[20.0, 120.0], [220.0, 320.0]], [[21.0, 121.0], [221.0, 321.0]], [[22.0, 122.0], [222.0, 322.0]], [[23.0, 123.0], [223.0, 323.0]], [[24.0, 124.0], [224.0, 324.0]], [[25.0, 125.0], [225.0, 325.0]], [[26.0, 126.0], [226.0, 326.0]], [[27.0, 127.0], [227.0, 327.0]], [[28.0, 128.0], [228.0, 328.0]], [[29.0, 129.0], [229.0, 329.0]], [[30.0, 130.0], [230.0, 330.0]], [[31.0, 131.0], [231.0, 331.0]], [[32.0, 132.0], [232.0, 332.0]], [[33.0, 133.0], [233.0, 333.0]], [[34.0, 134.0], [234.0, 334.0]], [[35.0, 135.0], [235.0, 335.0]], [[36.0, 136.0], [236.0, 336.0]], [[37.0, 137.0], [237.0, 337.0]], [[38.0, 138.0], [238.0, 338.0]], [[39.0, 139.0], [239.0, 339.0]], [[40.0, 140.0], [240.0, 340.0]], [[41.0, 141.0], [241.0, 341.0]], [[42.0, 142.0], [242.0, 342.0]], [[43.0, 143.0], [243.0, 343.0]], [[44.0, 144.0], [244.0, 344.0]], [[45.0, 145.0], [245.0, 345.0]], [[46.0, 146.0], [246.0, 346.0]], [[47.0, 147.0], [247.0, 347.0]], [[48.0, 148.0], [248.0, 348.0]], [[49.0, 149.0], [249.0, 349.0]], [[50.0, 150.0], [250.0, 350.0]], [[51.0, 151.0], [251.0, 351.0]], [[52.0, 152.0], [252.0, 352.0]], [[53.0, 153.0], [253.0, 353.0]], [[54.0, 154.0], [254.0, 354.0]], [[55.0, 155.0], [255.0, 355.0]], [[56.0, 156.0], [256.0, 356.0]], [[57.0, 157.0], [257.0, 357.0]], [[58.0, 158.0], [258.0, 358.0]], [[59.0, 159.0], [259.0, 359.0]], [[60.0, 160.0], [260.0, 360.0]], [[61.0, 161.0], [261.0, 361.0]], [[62.0, 162.0], [262.0, 362.0]], [[63.0, 163.0], [263.0, 363.0]]]> : tensor<64x2x2xf32>
  %r = linalg.generic {indexing_maps = [#hx, #hw, #ho], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<64x2x2xf32>, tensor<64x2x2xf32>) outs(%o : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Columns beyond the last whole panel (97 = 96 + 1) are split off with
// their share of the bias: each part broadcasts the bias into its own slice
// of one buffer (the tail's after the head's insert) instead of both
// reading back a broadcast over the whole output, which is gone.

#b = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>
#a = affine_map<(m, n, k) -> (m, k)>
#x = affine_map<(m, n, k) -> (k, n)>
#o = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @split_bias
// CHECK-SAME:    (%[[X:.*]]: tensor<144x97xf32>, %[[BIAS:.*]]: tensor<80xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<80x97xf32>
// CHECK-NOT:     outs(%[[E]] : tensor<80x97xf32>)
// CHECK:         %[[HS:.*]] = tensor.extract_slice %[[E]][0, 0] [80, 96] [1, 1]
// CHECK:         %[[HB:.*]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<80xf32>) outs(%[[HS]] : tensor<80x96xf32>)
// CHECK:         %[[HI:.*]] = tensor.expand_shape %[[HB]] {{\[}}[0, 1], [2, 3]] output_shape [10, 8, 3, 32]
// CHECK:         %[[H:.*]] = linalg.generic {{.*}} outs(%[[HI]] : tensor<10x8x3x32xf32>)
// CHECK:         %[[HC:.*]] = tensor.collapse_shape %[[H]]
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[HC]] into %[[E]][0, 0] [80, 96] [1, 1]
// CHECK:         %[[TS:.*]] = tensor.extract_slice %[[INS]][0, 96] [80, 1] [1, 1]
// CHECK:         %[[TB:.*]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<80xf32>) outs(%[[TS]] : tensor<80x1xf32>)
// CHECK:         %[[TI:.*]] = tensor.expand_shape %[[TB]] {{\[}}[0, 1], [2]] output_shape [10, 8, 1]
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} outs(%[[TI]] : tensor<10x8x1xf32>)
// CHECK:         %[[TC:.*]] = tensor.collapse_shape %[[T]]
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[TC]] into %[[INS]][0, 96] [80, 1] [1, 1]
// CHECK:         return %[[R]]
func.func @split_bias(%x: tensor<144x97xf32>, %bias: tensor<80xf32>) -> tensor<80x97xf32> {
  %w = arith.constant dense<0.5> : tensor<80x144xf32>
  %e = tensor.empty() : tensor<80x97xf32>
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<80xf32>) outs(%e : tensor<80x97xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<80x97xf32>
  %r = linalg.generic {indexing_maps = [#a, #x, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x : tensor<80x144xf32>, tensor<144x97xf32>) outs(%init : tensor<80x97xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<80x97xf32>
  return %r : tensor<80x97xf32>
}

// -----

// The activation and residual add after a contraction split at its last
// whole panel (reached through a reshape) are computed on each part before
// its insert, in place on the part's result (the read of the result becomes
// a read of the init), the residual sliced like the part: the parts can take
// them into their tiles instead of leaving a pass over the whole result.

#a = affine_map<(m, n, k) -> (m, k)>
#x = affine_map<(m, n, k) -> (k, n)>
#o = affine_map<(m, n, k) -> (m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
// CHECK-LABEL: func.func @split_activation
// CHECK-SAME:    (%[[X:.*]]: tensor<144x97xf32>, %[[C:.*]]: tensor<80x97xf32>, %[[RES:.*]]: tensor<1x80x97xf32>)
// CHECK:         %[[RC:.*]] = tensor.collapse_shape %[[RES]] {{\[}}[0, 1], [2]] : tensor<1x80x97xf32> into tensor<80x97xf32>
// CHECK:         %[[RH:.*]] = tensor.extract_slice %[[RC]][0, 0] [80, 96] [1, 1]
// CHECK:         %[[RT:.*]] = tensor.extract_slice %[[RC]][0, 96] [80, 1] [1, 1]
// CHECK:         %[[H:.*]] = linalg.generic {{.*}} outs({{.*}} : tensor<10x8x3x32xf32>)
// CHECK:         %[[HC:.*]] = tensor.collapse_shape %[[H]]
// CHECK:         %[[HA:.*]] = linalg.generic {{.*}} ins(%[[RH]] : tensor<80x96xf32>) outs(%[[HC]] : tensor<80x96xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.addf
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[HA]] into %[[C]][0, 0] [80, 96] [1, 1]
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} outs({{.*}} : tensor<10x8x1xf32>)
// CHECK:         %[[TC:.*]] = tensor.collapse_shape %[[T]]
// CHECK:         %[[TA:.*]] = linalg.generic {{.*}} ins(%[[RT]] : tensor<80x1xf32>) outs(%[[TC]] : tensor<80x1xf32>)
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[TA]] into %[[INS]][0, 96] [80, 1] [1, 1]
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0, 1], [2]] output_shape [1, 80, 97]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[E]]
func.func @split_activation(%x: tensor<144x97xf32>, %c: tensor<80x97xf32>, %res: tensor<1x80x97xf32>) -> tensor<1x80x97xf32> {
  %w = arith.constant dense<0.5> : tensor<80x144xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#a, #x, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x : tensor<80x144xf32>, tensor<144x97xf32>) outs(%c : tensor<80x97xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<80x97xf32>
  %e = tensor.expand_shape %r [[0, 1], [2]] output_shape [1, 80, 97] : tensor<80x97xf32> into tensor<1x80x97xf32>
  %init = tensor.empty() : tensor<1x80x97xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %res : tensor<1x80x97xf32>, tensor<1x80x97xf32>) outs(%init : tensor<1x80x97xf32>) {
  ^bb0(%in: f32, %r2: f32, %out: f32):
    %relu = arith.maximumf %in, %zero : f32
    %sum = arith.addf %relu, %r2 : f32
    linalg.yield %sum : f32
  } -> tensor<1x80x97xf32>
  return %y : tensor<1x80x97xf32>
}

// -----

// A consumer that reads the result transposed is not split.

#a = affine_map<(m, n, k) -> (m, k)>
#x = affine_map<(m, n, k) -> (k, n)>
#o = affine_map<(m, n, k) -> (m, n)>
#t = affine_map<(m, n) -> (n, m)>
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @split_transposed_consumer
// CHECK:         %[[R:.*]] = tensor.insert_slice {{.*}}[0, 96] [80, 1] [1, 1]
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<80x97xf32>)
// CHECK:         return %[[Y]]
func.func @split_transposed_consumer(%x: tensor<144x97xf32>, %c: tensor<80x97xf32>) -> tensor<97x80xf32> {
  %w = arith.constant dense<0.5> : tensor<80x144xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#a, #x, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x : tensor<80x144xf32>, tensor<144x97xf32>) outs(%c : tensor<80x97xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<80x97xf32>
  %init = tensor.empty() : tensor<97x80xf32>
  %y = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<80x97xf32>) outs(%init : tensor<97x80xf32>) {
  ^bb0(%in: f32, %out: f32):
    %relu = arith.maximumf %in, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<97x80xf32>
  return %y : tensor<97x80xf32>
}

// -----

// A run-time left-hand side whose rows are 4 KiB apart (K = 1024 f32),
// times 512 output columns: its 16 whole register-tile rows (8 at 512 bits)
// are copied into row panels [2, 1024, 8] and the output viewed as
// [2, 8, 512]; the last 4 rows stay an unpacked matmul.

// CHECK-DAG:   #[[AP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG:   #[[BP:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG:   #[[CP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @aliased_lhs
// CHECK-SAME:    (%[[A:.*]]: tensor<20x1024xf32>, %[[B:.*]]: tensor<1024x512xf32>, %[[C:.*]]: tensor<20x512xf32>)
// CHECK:         %[[AH:.*]] = tensor.extract_slice %[[A]][0, 0] [16, 1024] [1, 1]
// CHECK:         %[[CH:.*]] = tensor.extract_slice %[[C]][0, 0] [16, 512] [1, 1]
// CHECK:         %[[AE:.*]] = tensor.expand_shape %[[AH]] {{\[}}[0, 1], [2]] output_shape [2, 8, 1024]
// CHECK:         %[[AT:.*]] = linalg.transpose ins(%[[AE]] : tensor<2x8x1024xf32>) outs(%{{.*}} : tensor<2x1024x8xf32>) permutation = [0, 2, 1]
// CHECK:         %[[CE:.*]] = tensor.expand_shape %[[CH]] {{\[}}[0, 1], [2]] output_shape [2, 8, 512]
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[AP]], #[[BP]], #[[CP]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[AT]], %[[B]] : tensor<2x1024x8xf32>, tensor<1024x512xf32>) outs(%[[CE]] : tensor<2x8x512xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[}}[0, 1], [2]] : tensor<2x8x512xf32> into tensor<16x512xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[B]] : tensor<4x1024xf32>, tensor<1024x512xf32>) outs(%{{.*}} : tensor<4x512xf32>)
func.func @aliased_lhs(%a: tensor<20x1024xf32>, %b: tensor<1024x512xf32>, %c: tensor<20x512xf32>) -> tensor<20x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<20x1024xf32>, tensor<1024x512xf32>) outs(%c : tensor<20x512xf32>) -> tensor<20x512xf32>
  return %r : tensor<20x512xf32>
}

// -----

// Rows 4000 bytes apart (K = 1000) that are two whole register tiles: row
// panels [2, 1000, 8], no remainder.

// CHECK-LABEL: func.func @whole_row_panels
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<2x8x1000xf32>) outs(%{{.*}} : tensor<2x1000x8xf32>) permutation = [0, 2, 1]
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<2x8x512xf32>)
// CHECK-NOT:     linalg.matmul
func.func @whole_row_panels(%a: tensor<16x1000xf32>, %b: tensor<1000x512xf32>, %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x1000xf32>, tensor<1000x512xf32>) outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %r : tensor<16x512xf32>
}

// -----

// Left alone: rows 4000 bytes apart (K = 1000) that are not a whole number
// of register tiles (20 = 16 + 4: the split-off 4 rows would read all of B
// again), and aliased rows times only 256 output columns (one column block:
// the copy would not be reused).

// CHECK-LABEL: func.func @unaliased_lhs
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul
// CHECK-LABEL: func.func @narrow_output
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul
func.func @unaliased_lhs(%a: tensor<20x1000xf32>, %b: tensor<1000x512xf32>, %c: tensor<20x512xf32>) -> tensor<20x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<20x1000xf32>, tensor<1000x512xf32>) outs(%c : tensor<20x512xf32>) -> tensor<20x512xf32>
  return %r : tensor<20x512xf32>
}
func.func @narrow_output(%a: tensor<16x1024xf32>, %b: tensor<1024x256xf32>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x1024xf32>, tensor<1024x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

// A constant left-hand side (a 1x1 convolution's weights, its second
// operand, rows = output channels) is put in row panels at compile time,
// whatever the output columns (64 here, fewer than a run-time copy needs to
// pay): W[r][k] = 2r + k becomes [2, 2, 8], panel p holding W[8p + i][k] at
// [p, k, i]; the output is viewed as [2, 8, 64].

// CHECK-DAG:   #[[XP:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG:   #[[WP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-LABEL: func.func @constant_lhs
// CHECK-SAME:    (%[[X:.*]]: tensor<2x64xf32>, %[[C:.*]]: tensor<16x64xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01]], {{\[}}[1.600000e+01, 1.800000e+01, 2.000000e+01, 2.200000e+01, 2.400000e+01, 2.600000e+01, 2.800000e+01, 3.000000e+01], [1.700000e+01, 1.900000e+01, 2.100000e+01, 2.300000e+01, 2.500000e+01, 2.700000e+01, 2.900000e+01, 3.100000e+01]]]> : tensor<2x2x8xf32>
// CHECK:         %[[CE:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [2, 8, 64]
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[XP]], #[[WP]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[X]], %[[W]] : tensor<2x64xf32>, tensor<2x2x8xf32>) outs(%[[CE]] : tensor<2x8x64xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[}}[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
#x = affine_map<(r, n, k) -> (k, n)>
#w = affine_map<(r, n, k) -> (r, k)>
#o = affine_map<(r, n, k) -> (r, n)>
func.func @constant_lhs(%x: tensor<2x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %w = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0], [16.0, 17.0], [18.0, 19.0], [20.0, 21.0], [22.0, 23.0], [24.0, 25.0], [26.0, 27.0], [28.0, 29.0], [30.0, 31.0]]> : tensor<16x2xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x64xf32>, tensor<16x2xf32>) outs(%c : tensor<16x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The pass carries out the `aotc.packing` record made for the op's loop
// ranges (aotc-select-cpu-packing), not its own decision: constant weights
// recorded as left unpacked stay as they are, and a run-time left-hand side
// recorded for row panels goes into them although 64 output columns would
// not repay the copy. A record made for other loop ranges is ignored: the
// op is decided here (its constant right-hand side in panels).

// CHECK-LABEL: func.func @recorded
// CHECK-SAME:    (%[[A:.*]]: tensor<64x64xf32>, %[[C:.*]]: tensor<64x64xf32>)
// CHECK:         %[[AP:.*]] = linalg.transpose ins(%{{.*}} : tensor<8x8x64xf32>) outs(%{{.*}} : tensor<8x64x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[AP]], %{{.*}} : tensor<8x64x8xf32>, tensor<64x64xf32>)
// CHECK-NOT:     aotc.packing
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<64x64xf32>, tensor<2x64x32xf32>)
// CHECK-NOT:     aotc.packing
func.func @recorded(%a: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %w = arith.constant dense<1.0> : tensor<64x64xf32>
  %m = linalg.matmul {aotc.packing = {lhs = "run-time", ranges = array<i64: 64, 64, 64>, remainder_lhs = "none", rhs = "none"}} ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %n = linalg.matmul {aotc.packing = {lhs = "none", ranges = array<i64: 32, 64, 64>, remainder_lhs = "none", rhs = "none"}} ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m, %n : tensor<64x64xf32>, tensor<64x64xf32>
}
