// RUN: aotc-opt %s -split-input-file -aotc-clip-padded-taps -canonicalize -cse | FileCheck %s

// A 3x3 window dilated by 4 with padding 4 on a 6 x 6 image (31% of the
// products read the input): one part per tap. The centre tap first, on
// every output from the bias, reading the unpadded input in place; then
// each other tap on the outputs it reads the input for, from its slice of
// what the parts before wrote. Each part's filter is its tap, a constant.

#xmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 4, ow + kw * 4)>
#wmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bmap = affine_map<(n, g, m, oh, ow) -> (g, m)>
#id5 = affine_map<(n, g, m, oh, ow) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @atrous
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x6x6xf32>, %[[B:.*]]: tensor<1x1xf32>)
// CHECK-DAG:     %[[W11:.*]] = arith.constant dense<{{\[\[\[\[\[}}5.000000e+00]], {{\[\[}}1.400000e+01]]]]]> : tensor<1x1x2x1x1xf32>
// CHECK-DAG:     %[[W10:.*]] = arith.constant dense<{{\[\[\[\[\[}}4.000000e+00]], {{\[\[}}1.300000e+01]]]]]> : tensor<1x1x2x1x1xf32>
// CHECK-DAG:     %[[W00:.*]] = arith.constant dense<{{\[\[\[\[\[}}1.000000e+00]], {{\[\[}}1.000000e+01]]]]]> : tensor<1x1x2x1x1xf32>
// CHECK-NOT:     tensor<1x1x2x3x3xf32>
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<1x1xf32>) outs({{.*}} : tensor<1x1x1x6x6xf32>)
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[X]]
// CHECK:         %[[C11:.*]] = linalg.generic {{.*}} ins(%[[XE]], %[[W11]] : tensor<1x1x2x6x6xf32>, tensor<1x1x2x1x1xf32>) outs(%[[BIAS]] : tensor<1x1x1x6x6xf32>)
// CHECK:         %[[X10:.*]] = tensor.extract_slice %[[XE]][0, 0, 0, 0, 0] [1, 1, 2, 6, 2]
// CHECK:         %[[O10:.*]] = tensor.extract_slice %[[C11]][0, 0, 0, 0, 4] [1, 1, 1, 6, 2]
// CHECK:         %[[C10:.*]] = linalg.generic {{.*}} ins(%[[X10]], %[[W10]] : tensor<1x1x2x6x2xf32>, tensor<1x1x2x1x1xf32>) outs(%[[O10]] : tensor<1x1x1x6x2xf32>)
// CHECK:         %[[I10:.*]] = tensor.insert_slice %[[C10]] into %[[C11]][0, 0, 0, 0, 4] [1, 1, 1, 6, 2]
// CHECK:         %[[X00:.*]] = tensor.extract_slice %[[XE]][0, 0, 0, 0, 0] [1, 1, 2, 2, 2]
// CHECK:         %[[O00:.*]] = tensor.extract_slice %[[I10]][0, 0, 0, 4, 4] [1, 1, 1, 2, 2]
// CHECK:         %[[C00:.*]] = linalg.generic {{.*}} ins(%[[X00]], %[[W00]] : tensor<1x1x2x2x2xf32>, tensor<1x1x2x1x1xf32>) outs(%[[O00]] : tensor<1x1x1x2x2xf32>)
// CHECK:         tensor.insert_slice %[[C00]] into %[[I10]][0, 0, 0, 4, 4] [1, 1, 1, 2, 2]
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @atrous(%x: tensor<1x2x6x6xf32>, %b: tensor<1x1xf32>) -> tensor<1x1x1x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]]]]> : tensor<1x1x2x3x3xf32>
  %pe = tensor.empty() : tensor<1x2x14x14xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x14x14xf32>) -> tensor<1x2x14x14xf32>
  %p = tensor.insert_slice %x into %pf[0, 0, 4, 4] [1, 2, 6, 6] [1, 1, 1, 1] : tensor<1x2x6x6xf32> into tensor<1x2x14x14xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 14, 14] : tensor<1x2x14x14xf32> into tensor<1x1x2x14x14xf32>
  %e = tensor.empty() : tensor<1x1x1x6x6xf32>
  %init = linalg.generic {indexing_maps = [#bmap, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<1x1xf32>) outs(%e : tensor<1x1x1x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x1x6x6xf32>
  %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x2x14x14xf32>, tensor<1x1x2x3x3xf32>) outs(%init : tensor<1x1x1x6x6xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6x6xf32>
  return %c : tensor<1x1x1x6x6xf32>
}

// -----

// A 3x3 window dilated by 8 with padding 8 on a 6 x 6 image: the outer taps
// read only padding and are dropped; the centre tap is one part, a 1x1
// window on the unpadded input.

#xmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 8, ow + kw * 8)>
#wmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @beyond_image
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x6x6xf32>, %[[INIT:.*]]: tensor<1x1x1x6x6xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<1x1x1x1x1xf32>
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[X]]
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} ins(%[[XE]], %[[W]] : tensor<1x1x1x6x6xf32>, tensor<1x1x1x1x1xf32>) outs(%[[INIT]] : tensor<1x1x1x6x6xf32>)
// CHECK-NEXT:    ^bb0
// CHECK:         return %[[C]]
func.func @beyond_image(%x: tensor<1x1x6x6xf32>, %init: tensor<1x1x1x6x6xf32>) -> tensor<1x1x1x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<1x1x1x3x3xf32>
  %p = tensor.pad %x low[0, 0, 8, 8] high[0, 0, 8, 8] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x6x6xf32> to tensor<1x1x22x22xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 1, 22, 22] : tensor<1x1x22x22xf32> into tensor<1x1x1x22x22xf32>
  %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x1x22x22xf32>, tensor<1x1x1x3x3xf32>) outs(%init : tensor<1x1x1x6x6xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6x6xf32>
  return %c : tensor<1x1x1x6x6xf32>
}

// -----

// Left alone: a 3x3 window with padding 1 on a 6 x 6 image (79% of the
// products read the input); the same atrous window with a filter that is
// not a constant (0 * w is not 0 for an infinite w); a padding value other
// than zero.

#xmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#xmap4 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh * 4, ow + kw * 4)>
#wmap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#omap = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
// CHECK-LABEL: func.func @same_padding
// CHECK:         tensor.pad
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @same_padding(%x: tensor<1x1x6x6xf32>, %init: tensor<1x1x1x6x6xf32>) -> tensor<1x1x1x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<1x1x1x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x6x6xf32> to tensor<1x1x8x8xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 1, 8, 8] : tensor<1x1x8x8xf32> into tensor<1x1x1x8x8xf32>
  %c = linalg.generic {indexing_maps = [#xmap, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x1x8x8xf32>, tensor<1x1x1x3x3xf32>) outs(%init : tensor<1x1x1x6x6xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6x6xf32>
  return %c : tensor<1x1x1x6x6xf32>
}

// CHECK-LABEL: func.func @filter_argument
// CHECK:         tensor.pad
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @filter_argument(%x: tensor<1x1x6x6xf32>, %w: tensor<1x1x1x3x3xf32>, %init: tensor<1x1x1x6x6xf32>) -> tensor<1x1x1x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 4, 4] high[0, 0, 4, 4] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x6x6xf32> to tensor<1x1x14x14xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 1, 14, 14] : tensor<1x1x14x14xf32> into tensor<1x1x1x14x14xf32>
  %c = linalg.generic {indexing_maps = [#xmap4, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x1x14x14xf32>, tensor<1x1x1x3x3xf32>) outs(%init : tensor<1x1x1x6x6xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6x6xf32>
  return %c : tensor<1x1x1x6x6xf32>
}

// CHECK-LABEL: func.func @padding_one
// CHECK:         tensor.pad
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @padding_one(%x: tensor<1x1x6x6xf32>, %init: tensor<1x1x1x6x6xf32>) -> tensor<1x1x1x6x6xf32> {
  %one = arith.constant 1.0 : f32
  %w = arith.constant dense<0.5> : tensor<1x1x1x3x3xf32>
  %p = tensor.pad %x low[0, 0, 4, 4] high[0, 0, 4, 4] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x1x6x6xf32> to tensor<1x1x14x14xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 1, 1, 14, 14] : tensor<1x1x14x14xf32> into tensor<1x1x1x14x14xf32>
  %c = linalg.generic {indexing_maps = [#xmap4, #wmap, #omap], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x1x14x14xf32>, tensor<1x1x1x3x3xf32>) outs(%init : tensor<1x1x1x6x6xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6x6xf32>
  return %c : tensor<1x1x1x6x6xf32>
}
