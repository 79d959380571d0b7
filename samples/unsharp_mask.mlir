//===- unsharp_mask.mlir - Unsharp-mask sharpening of an 8-bit image ------===//
//
// A small, readable image-processing model for the aotc samples.
//
//   image     : 1080x1920x3 bytes (HWC, interleaved RGB), read as UNSIGNED 0..255
//   blur      : separable 3x3 binomial filter, [1,2,1]/4 along W then along H,
//               per channel, with zero padding outside the image
//   sharpened : clamp(x + 1.5 * (x - blur(x)), 0, 255) as f32
//
// Every value on the way is exactly representable in f32 (integers, then
// multiples of 1/4, 1/16 and 1/32 below 2^10), so any correct implementation,
// whatever its evaluation order or FMA contraction, produces bit-identical
// output.
//
// Structure: tensor.pad materialises the zero border once; the two 1-D
// passes read shifted windows of it with tensor.extract_slice, so every
// linalg.generic below is purely element-wise (identity indexing maps) and
// stays easy to fuse, tile and vectorize. The slices bufferize to views.
//
// The function is the single public entry point, so with `--name=N` aotc
// names it N; the argument and result names come from `aotc.name`.
//
//===----------------------------------------------------------------------===//

#id = affine_map<(h, w, c) -> (h, w, c)>

func.func @unsharp_mask(%img: tensor<1080x1920x3xi8> {aotc.name = "image"})
    -> (tensor<1080x1920x3xf32> {aotc.name = "sharpened"}) {
  %zero = arith.constant 0.0 : f32

  //===--------------------------------------------------------------------===//
  // 1. Bytes -> f32. The i8 element type carries raw bytes: uitofp reads
  //    0xFF as 255.0, not -1.0.
  //===--------------------------------------------------------------------===//
  %xInit = tensor.empty() : tensor<1080x1920x3xf32>
  %x = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%img : tensor<1080x1920x3xi8>) outs(%xInit : tensor<1080x1920x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %f = arith.uitofp %in : i8 to f32
    linalg.yield %f : f32
  } -> tensor<1080x1920x3xf32>

  //===--------------------------------------------------------------------===//
  // 2. Zero border of one pixel on H and W (not on channels).
  //===--------------------------------------------------------------------===//
  %xp = tensor.pad %x low[1, 1, 0] high[1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1080x1920x3xf32> to tensor<1082x1922x3xf32>

  //===--------------------------------------------------------------------===//
  // 3. Horizontal pass over all 1082 padded rows (the border rows give 0):
  //    hb[r, w] = (xp[r, w] + 2 xp[r, w+1] + xp[r, w+2]) / 4
  //===--------------------------------------------------------------------===//
  %west = tensor.extract_slice %xp[0, 0, 0] [1082, 1920, 3] [1, 1, 1]
      : tensor<1082x1922x3xf32> to tensor<1082x1920x3xf32>
  %mid = tensor.extract_slice %xp[0, 1, 0] [1082, 1920, 3] [1, 1, 1]
      : tensor<1082x1922x3xf32> to tensor<1082x1920x3xf32>
  %east = tensor.extract_slice %xp[0, 2, 0] [1082, 1920, 3] [1, 1, 1]
      : tensor<1082x1922x3xf32> to tensor<1082x1920x3xf32>
  %hbInit = tensor.empty() : tensor<1082x1920x3xf32>
  %hb = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%west, %mid, %east
          : tensor<1082x1920x3xf32>, tensor<1082x1920x3xf32>, tensor<1082x1920x3xf32>)
      outs(%hbInit : tensor<1082x1920x3xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %quarter = arith.constant 0.25 : f32
    %b2 = arith.mulf %b, %two : f32
    %s0 = arith.addf %a, %b2 : f32
    %s1 = arith.addf %s0, %c : f32
    %r = arith.mulf %s1, %quarter : f32
    linalg.yield %r : f32
  } -> tensor<1082x1920x3xf32>

  //===--------------------------------------------------------------------===//
  // 4. Vertical pass fused with the sharpening step:
  //    blur[h, w] = (hb[h, w] + 2 hb[h+1, w] + hb[h+2, w]) / 4
  //    out        = clamp(x + 1.5 (x - blur), 0, 255)
  //===--------------------------------------------------------------------===//
  %north = tensor.extract_slice %hb[0, 0, 0] [1080, 1920, 3] [1, 1, 1]
      : tensor<1082x1920x3xf32> to tensor<1080x1920x3xf32>
  %centre = tensor.extract_slice %hb[1, 0, 0] [1080, 1920, 3] [1, 1, 1]
      : tensor<1082x1920x3xf32> to tensor<1080x1920x3xf32>
  %south = tensor.extract_slice %hb[2, 0, 0] [1080, 1920, 3] [1, 1, 1]
      : tensor<1082x1920x3xf32> to tensor<1080x1920x3xf32>
  %outInit = tensor.empty() : tensor<1080x1920x3xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %north, %centre, %south
          : tensor<1080x1920x3xf32>, tensor<1080x1920x3xf32>,
            tensor<1080x1920x3xf32>, tensor<1080x1920x3xf32>)
      outs(%outInit : tensor<1080x1920x3xf32>) {
  ^bb0(%v: f32, %n: f32, %m: f32, %s: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %quarter = arith.constant 0.25 : f32
    %amount = arith.constant 1.5 : f32
    %lo = arith.constant 0.0 : f32
    %hi = arith.constant 255.0 : f32
    %m2 = arith.mulf %m, %two : f32
    %t0 = arith.addf %n, %m2 : f32
    %t1 = arith.addf %t0, %s : f32
    %blur = arith.mulf %t1, %quarter : f32
    %detail = arith.subf %v, %blur : f32
    %boost = arith.mulf %detail, %amount : f32
    %sharp = arith.addf %v, %boost : f32
    %c0 = arith.maximumf %sharp, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    linalg.yield %c1 : f32
  } -> tensor<1080x1920x3xf32>

  return %out : tensor<1080x1920x3xf32>
}
