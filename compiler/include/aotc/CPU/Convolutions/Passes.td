//===- Passes.td - aotc CPU/Convolutions passes ------------*- tablegen -*-===//
//
// Declares the passes of CPU convolution paths. Each pass lives in its own file
// under compiler/lib/CPU/Convolutions/ and has a lit test in
// tests/lit/CPU/Convolutions/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_CONVOLUTIONS_PASSES
#define AOTC_CPU_CONVOLUTIONS_PASSES

include "mlir/Pass/PassBase.td"

def PointwiseConvToMatmul : Pass<"aotc-pointwise-conv-to-matmul",
                                 "mlir::func::FuncOp"> {
  let summary = "1x1 convolutions (stride 1, no padding) as matmul contractions";
  let description = [{
    A convolution generic whose window loops all have extent 1, whose input
    image has the output image's sizes (stride 1, no padding) and whose
    image dimensions are the trailing ones of input, filter window and
    output reads its input at the output position. Its image dimensions
    collapse into one (`tensor.collapse_shape`, free on contiguous
    tensors), the window loops disappear, and the op becomes a contraction
    that aotc-tile-and-vectorize treats like any matmul: output channels as
    register rows, the whole image as lanes.

    Before (NCHW, groups as a dimension):
    ```mlir
    linalg.generic {maps = [(n,g,m,oh,ow,c,kh,kw) -> (n,g,c,oh+kh,ow+kw),
                            (...) -> (g,m,c,kh,kw), (...) -> (n,g,m,oh,ow)]}
        ins(%x, %w : tensor<1x1x64x56x56xf32>, tensor<1x128x64x1x1xf32>)
    ```
    After:
    ```mlir
    %xc = tensor.collapse_shape %x [[0], [1], [2], [3, 4]] : ... to tensor<1x1x64x3136xf32>
    %wc = tensor.collapse_shape %w [[0], [1], [2, 3, 4]] : ... to tensor<1x128x64xf32>
    %r = linalg.generic {maps = [(n,g,m,p,c) -> (n,g,c,p), (...) -> (g,m,c),
                                 (...) -> (n,g,m,p)]} ...
    tensor.expand_shape %r [[0], [1], [2], [3, 4]] ... tensor<1x1x128x56x56xf32>
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def WinogradConvolutions : Pass<"aotc-winograd-convolutions",
                                "mlir::func::FuncOp"> {
  let summary = "3x3 stride-1 convolutions as Winograd F(4x4 or 2x2, 3x3)";
  let description = [{
    A convolution generic in the importer's NCHW form with a static batch,
    one group, a 3 x 3 window, stride 1, a constant f32 filter, at
    least 32 output tiles of 2 x 2 and at least `min-channels` input and
    output channels is computed with Winograd's minimal filtering
    F(2 x 2, 3 x 3): 16 multiplications per 2 x 2 output tile and channel
    pair instead of 36. An odd image is covered by one more row or column
    of tiles: its input padded by a row or column of zeros, its output
    computed one larger and sliced. Few channels leave the transforms most
    of the work: squeezenet1_1's 55 x 55 layers over 16 input channels gain
    little with 512-bit registers and lose with 256-bit ones, its 27 x 27
    layers over 32 gain with 512-bit registers, its 13 x 13 ones over 48 and
    64 with both, hence the default of 32.
    Where an image has 32 or more output tiles of 4 x 4 (21 x 21 and up) and
    `max-tile` is 4, the tiles are 4 x 4 instead (aotc::winogradOutputTile):
    F(4 x 4, 3 x 3), 36 multiplications per 4 x 4 tile and channel pair
    (2.25 per output, 4 with 2 x 2 tiles), from 6 x 6 input tiles at stride
    4, with Lavin and Gray's matrices for the points 0, 1, -1, 2, -2 and
    infinity; the rows of B^T and A^T then weigh their taps by 2, 4, 5 or 8
    too (a multiply-add by the constant, `math.fma`), and the stages,
    contractions and output transform below have 6 rows, 36 elements and
    6 x 6 tiles where 4, 16 and 4 x 4 are written. The rounding error is
    about ten times F(2 x 2, 3 x 3)'s (1e-5 of the outputs' scale rather than
    1e-6 in the conversion tests), still far below the models' 1e-3.
    The filter is transformed at compile time (U = G g G^T, in double
    precision, laid out [16, K, C]). The input transform B^T d B is two
    stages of signed sums (each row of B^T has two nonzero coefficients,
    +1 or -1): columns first, w[4, C, H + 2, W / 2] from stride-2 views of
    the input's columns, then rows, v[4, 4, C, H / 2, W / 2] from stride-2
    views of w's rows; each row of a stage is one elementwise generic that
    writes its slice of the stage's result. The 16 contractions over input
    channels are one generic m[16, K, T] = u[16, K, C] x v[16, C, T] (the
    matmul path of aotc-tile-and-vectorize), its T columns the H / 2 * W / 2
    tiles padded with zeros to whole register tiles (2 x the vector lanes).
    The output transform A^T m A is signed sums of m's rows again, then one
    generic that accumulates A^T's columns into the convolution's own init
    (its bias), viewed as [1, 1, K, H / 2, 2, W / 2, 2]. With a batch of N
    images the stages keep N after the channels (w[4, C, N, H + 2, W / 2],
    the column stage reading the input's batch and channel dims swapped),
    and the tiles of all images are the contractions' columns: T = N x
    H / 2 x W / 2. The 32 tiles, and whether the output channels are the
    lanes, are counted on one image: the path and the transformed filter do
    not depend on the batch, so the variants of one model at several batch
    sizes (`aotc --variant`) share their constants.
    A window dilated by (dh, dw) is computed on the phase images of its
    input and output (rows a + dh y, columns b + dw x): output pixel
    (a + dh y, b + dw x) reads input rows a + dh (y + kh) and columns
    b + dw (x + kw) only, so each phase is an undilated convolution with the
    same filter, and the dh x dw phases of each image are computed as a batch
    (the tiles counted over the phases of one image). The phases are of one
    size, ceil(H / dh) x ceil(W / dw): an output whose rows or columns are not
    multiples of dh and dw is computed larger (its input and init padded
    with zeros at the end) and sliced, when that adds at most a quarter of
    the outputs (aotc::winogradPhasesPay). The padded
    input is transposed into its phases, [n, dh, dw, C, h + 2, w + 2] (into
    zeros of the tiles' extent when that is larger), the init too unless a
    fill or broadcast computes it (computed on the phases instead), and the
    result is transposed back.
    The results differ from the direct sum by rounding; every output of a
    2 x 2 tile whose 4 x 4 input tile holds an infinity or a NaN can be NaN,
    also where the direct sum is finite.

    Before (a 14 x 14 image padded to 16 x 16):
    ```mlir
    linalg.generic {maps = [(n,g,k,oh,ow,c,kh,kw) -> (n,g,c,oh+kh,ow+kw),
                            (...) -> (g,k,c,kh,kw), (...) -> (n,g,k,oh,ow)]}
        ins(%x, %w : tensor<1x1x256x16x16xf32>, tensor<1x256x256x3x3xf32>)
        outs(%bias : tensor<1x1x256x14x14xf32>)
    ```
    After (8-lane registers):
    ```mlir
    // %c1, %c2, %c3 the same from columns 1, 2, 3
    %c0 = tensor.extract_slice %x[0, 0, 0] [256, 16, 7] [1, 1, 2]
    // %w0 = c0 - c2 (then w1 = c1 + c2, w2 = c2 - c1, w3 = c1 - c3)
    %w0 = linalg.generic ins(%c0, %c2) outs(slice 0 of %w)
    %w = tensor.insert_slice %w0 into ...  // tensor<4x256x16x7xf32>
    // w's rows 0, 2, ... (and from rows 1, 2, 3), combined the same way
    %r0 = tensor.extract_slice %w[0, 0, 0, 0] [4, 256, 7, 7] [1, 1, 2, 1]
    ...                                    // v: tensor<4x4x256x7x7xf32>
    %m = linalg.generic ins(%u : tensor<16x256x256xf32>,
                            pad(collapse(%v)) : tensor<16x256x64xf32>)
           -> tensor<16x256x64xf32>
    // s0 = m0 + m1 + m2, s1 = m1 - m2 - m3 (m's leading rows)
    %s0 = linalg.generic ins(%m0, %m1, %m2) outs(slice 0 of %s)
    %y = linalg.generic ins(%at, %s) outs(expand(%bias))
           -> tensor<1x1x256x7x2x7x2xf32>
    tensor.collapse_shape %y ... into tensor<1x1x256x14x14xf32>
    ```
  }];
  let options = [
    Option<"minChannels", "min-channels", "int64_t", /*default=*/"32",
           "Fewest input and output channels of a rewritten convolution">,
    Option<"maxTile", "max-tile", "int64_t", /*default=*/"4",
           "Largest output tile: 4 (F(4x4, 3x3) where its tiles pay, else "
           "F(2x2, 3x3)) or 2 (F(2x2, 3x3) only)">,
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def ChannelLaneConvolutions : Pass<"aotc-channel-lane-convolutions",
                                   "mlir::func::FuncOp"> {
  let summary = "Convolutions computed directly with output channels as lanes";
  let description = [{
    A convolution generic in the importer's NCHW form (any stride) with a
    reduction over input channels (not depthwise) of at least 512 elements
    (input channels x window: shallower ones do not repay transposing the
    result back), f32 operands, a constant filter and output channels a
    multiple of one contraction register tile's lanes (b = 32 with 512-bit
    registers) is computed directly in output
    channel blocks: loops (..., C / b, ..., o..., b, c, k...), the filter
    packed at compile time into [..., C / b, c, k..., b], the output computed
    as [..., C / b, o..., b] from a transposed init and transposed back. The
    output's innermost loop is then a block of channels:
    aotc-vectorize-convolutions takes register tiles of one output row's
    pixels (aotc::contractionRowTile of them) x b channels, each input
    element read in place through the window and broadcast, each filter row
    one contiguous load. Output rows that do not split into register tiles
    of at least three-quarters of a contraction's rows keep the other paths.
    A shallower reduction over at most 4 input channels (an RGB image's
    first layer) is computed straight into the NCHW output instead, its
    channels split as [..., C / b, b, o...] (a free reshape): no transpose
    pass; each register tile is stored transposed (aotc-lower-vector-ops
    shuffles its rows), and its init is made in that layout.
    A depthwise convolution (one input channel per group) that
    aotc::depthwiseLanesPay allows (stride 1, a window wider than 3, rows
    narrower than a register) is blocked the same way in blocks of one
    register (b = 16), its input too: the unpadded input transposed into
    [..., C / b, h, w, b] and then padded, each tap of a register tile one
    contiguous load of b channels.

    Before (3x3, stride 2):
    ```mlir
    linalg.generic {maps = [(n,g,m,oh,ow,c,kh,kw) -> (n,g,c,oh*2+kh,ow*2+kw),
                            (...) -> (g,m,c,kh,kw), (...) -> (n,g,m,oh,ow)]}
        ins(%x, %w : tensor<1x1x64x58x58xf32>, tensor<1x128x64x3x3xf32>)
    ```
    After:
    ```mlir
    %r = linalg.generic {maps = [(n,g,m,oh,ow,l,c,kh,kw) -> (n,g,c,oh*2+kh,ow*2+kw),
                                 (...) -> (g,m,c,kh,kw,l), (...) -> (n,g,m,oh,ow,l)]}
        ins(%x, %wp : tensor<1x1x64x58x58xf32>, tensor<1x4x64x3x3x32xf32>)
        outs(transpose(%init) : tensor<1x1x4x28x28x32xf32>)
    transpose(%r) ... tensor<1x1x128x28x28xf32>
    ```
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def Im2colConvolutions : Pass<"aotc-im2col-convolutions",
                              "mlir::func::FuncOp"> {
  let summary = "Convolutions with many channels as im2col copy + matmul";
  let description = [{
    A convolution generic in the importer's NCHW form (loops (outer..., o...,
    c, k...), input read at `o * stride + k * dilation`) with at least 8
    reduced elements (input channels x window) and 8 output channels per
    group copies its input into a column tensor col[outer..., c, k..., o...]
    (a generic that still reads through the window, so
    aotc-vectorize-convolutions vectorizes it) and contracts the filter with
    the columns. (o...) and (c, k...) are contiguous in every operand and
    collapse into one image and one reduction dimension: the contraction is a
    plain matmul (output channels x image, over c * k) that
    aotc-tile-and-vectorize register-tiles like any other. Depthwise
    convolutions and pooling keep the direct path, and so do stride-1 2-D
    convolutions with a window wider than one (aotc-flatten-convolution-images
    computes them directly on the flattened image, reading each input row
    where the copy would write it kh x kw times) unless that grid computes at
    least 1.2 times the outputs (a 13 x 13 image: 15 x 16 = 240 grid
    positions for 169 outputs; 14 x 14: 240 for 196) on an image of at least
    128 outputs (7 x 7 images stay direct: 49 rows of a contraction are six
    register tiles and a one-row remainder); 1x1 convolutions are
    aotc-pointwise-conv-to-matmul's.

    Before (3x3, stride 2):
    ```mlir
    linalg.generic {maps = [(n,g,m,oh,ow,c,kh,kw) -> (n,g,c,oh*2+kh,ow*2+kw),
                            (...) -> (g,m,c,kh,kw), (...) -> (n,g,m,oh,ow)]}
        ins(%x, %w : tensor<1x1x64x57x57xf32>, tensor<1x128x64x3x3xf32>)
    ```
    After:
    ```mlir
    %col = linalg.generic {maps = [(n,g,c,kh,kw,oh,ow) -> (n,g,c,oh*2+kh,ow*2+kw),
                                   identity]} ins(%x) -> tensor<1x1x64x3x3x28x28xf32>
    %r = linalg.generic {maps = [(n,g,m,p,r) -> (n,g,r,p), (...) -> (g,m,r),
                                 (...) -> (n,g,m,p)]}
        ins(collapse(%col) : tensor<1x1x576x784xf32>, collapse(%w) : tensor<1x128x576xf32>)
    tensor.expand_shape %r ... tensor<1x1x128x28x28xf32>
    ```
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def SplitStridePhases : Pass<"aotc-split-stride-phases", "mlir::func::FuncOp"> {
  let summary = "Stride-2 direct convolutions on the two column phases of their input";
  let description = [{
    A 2-D convolution generic in the importer's NCHW form over input
    channels that stays direct (aotc-im2col-convolutions leaves ResNet's 7x7
    stride-2 stem) with stride 2 and dilation 1 along the columns, an even
    padded width and a constant float filter: its vectorized column loads
    gather every other element (two loads and shuffles per register). The
    input is copied into its column phases, x'[..., h, p, j] =
    x[..., h, 2 * j + p] (expand_shape + linalg.transpose), and the
    convolution becomes two with stride 1 along the columns, one per phase:
    window column kw = 2 * q + p reads phase p at column ow + q, contiguous,
    with the filter's columns p, p + 2, ... (constants rebuilt at compile
    time); the odd phase accumulates into the even one's result. No zero
    taps are added (they would multiply real input columns: an infinity
    would make NaN where the convolution never read it).

    Before (7x7 stride 2, 230x230 padded input):
    ```mlir
    linalg.generic {maps = [(n,o,oh,ow,c,kh,kw) -> (n,c,oh*2+kh,ow*2+kw), ...]}
        ins(%xpad : tensor<1x3x230x230xf32>, %w : tensor<64x3x7x7xf32>) outs(%init)
    ```
    After:
    ```mlir
    %phases = linalg.transpose ins(expand_shape %xpad : tensor<1x3x230x115x2xf32>)
                outs(tensor<1x3x230x2x115xf32>) permutation = [0, 1, 2, 4, 3]
    %even = linalg.generic {maps = [(n,o,oh,ow,c,kh,q) -> (n,c,oh*2+kh,ow+q), ...]}
        ins(%phases[:, :, :, 0, :], %w0 : tensor<1x3x230x115xf32>, tensor<64x3x7x4xf32>) outs(%init)
    %r = linalg.generic {same maps}
        ins(%phases[:, :, :, 1, :], %w1 : tensor<1x3x230x115xf32>, tensor<64x3x7x3xf32>) outs(%even)
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def FlattenConvolutionImages : Pass<"aotc-flatten-convolution-images",
                                    "mlir::func::FuncOp"> {
  let summary = "Stride-1 direct convolutions computed on flattened images";
  let description = [{
    A 2-D convolution generic over input channels in the importer's NCHW
    form with stride 1 that stays direct (a window wider than one:
    aotc-im2col-convolutions leaves them here; depthwise convolutions stay
    direct, aotc-peel-padded-windows reading their padded input in place)
    reads input element (oh + kh * d, ow + kw * d)
    of its padded input, i.e. flat element j + kh * d * Wp + kw * d for
    j = oh * Wp + ow (Wp: padded width). The output is computed for every j
    of a grid [rows, lanes] (whole vector registers, whatever the image
    width; register tiles are 3 or 2 grid rows per output channel, so rows
    are padded to a multiple of 3 unless that pads more than an eighth
    beyond the next even count; the Wp - W columns past each image row are
    computed and dropped), and the image is a strided view of the grid.
    When the image's rows fit one register but its padded rows do not (7x7
    on AVX2: W = 7 <= 8 lanes < Wp = 9) and that is smaller, the
    convolution is computed on a row-aligned grid [H, lanes] instead: grid
    (r, l) is output (r, l) and reads flat input r * Wp + l + kh * d * Wp +
    kw * d (56 outputs computed for 49 instead of 72), and the image is the
    grid's first W columns. The padded input becomes one flat buffer
    (padding value, then the unpadded input inserted: the pad's copy); the
    initial value (fill or per-channel broadcast) is recomputed on the grid;
    elementwise consumers that read the image and per-channel values run on
    the grid as well, so the view is taken after them.

    A depthwise convolution of batch 1 with stride 1, a sum of products and
    an output image the size of its unpadded input, of at most four
    registers with rows narrower than one (7x7 on AVX-512), is computed on
    the flattened images of all its channels: each window tap reads one view
    of the unpadded input shifted by (kh * d - top) * W + (kw * d - left),
    [C, H * W]; where the tap leaves the pixel's image the padding value is
    read instead (select on the pixel's row and column, from linalg.index).
    Channels 1..C-2 form one elementwise generic over [C - 2, H * W] reading
    the input in place; channels 0 and C - 1 read padded copies of their own
    image; a per-channel bias broadcast is read per channel.

    Before (SqueezeNet's 3x3 16 -> 64 channels, 55x55, padded to 57x57):
    ```mlir
    linalg.generic {maps = [(n,g,m,oh,ow,c,kh,kw) -> (n,g,c,oh+kh,ow+kw), ...]}
        ins(%xpad : tensor<1x1x16x57x57xf32>, %w) outs(%bias : tensor<1x1x64x55x55xf32>)
    ```
    After (grid of 3135 -> 3168 = 198 x 16 elements per channel; the input
    holds the grid's reach, 3168 + 2 * 57 + 2, in whole registers):
    ```mlir
    %flat = ... fill + insert_slice of %x: tensor<1x1x16x3296xf32>
    %g = linalg.generic {maps = [(n,g,m,r,l,c,kh,kw) -> (n,g,c,r*16+l+kh*57+kw), ...]}
        ins(%flat, %w) outs(%bias_grid : tensor<1x1x64x198x16xf32>)
    %y = extract_slice (expand_shape (extract_slice (collapse_shape %g) [0..3135)) to 55x57) [.., 0..55]
    ```
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def ClipPaddedTaps : Pass<"aotc-clip-padded-taps", "mlir::func::FuncOp"> {
  let summary = "Windows whose taps mostly read zero padding are computed tap run by tap run, on the input alone";
  let description = [{
    A linalg op with padded windows, as aotc-peel-padded-windows matches
    them but with any reduction (a convolution over input channels too),
    whose padding is an identity of its payload (zero for a sum of
    products with a constant filter of finite values, or for a sum; -inf
    for a max). Each tap k of a padded dimension reads the unpadded input
    for the outputs [ceil((low - k * d) / s), floor((H - 1 + low - k * d) /
    s) + 1) of that dimension, and only padding for the others; consecutive
    taps with the same outputs form a run, and taps reading only padding
    are dropped. When the rule aotc::clippedTapsPay holds (most products
    read padding: an atrous convolution whose dilation is close to the
    image's size), the op is computed as one part per combination of the
    padded dimensions' runs: its window loops cut to the run, its output
    loops to the run's outputs, its input a slice of the unpadded input
    (no padded copy). The parts accumulate: the first reads the op's init,
    each later one its slice of what the parts before it wrote
    (aotc::splitIntoBoxes with `accumulate`); the part with the most
    outputs comes first. Slices of a constant filter become constants. The
    parts are ordinary ops for aotc-select-cpu-strategy: a run of one tap
    at stride 1 is a 1x1 convolution, a contraction.

    Before (DeepLabV3's rate-12 atrous convolution, 960 -> 256 channels,
    14x14 padded to 38x38: 18% of the products read the input):
    ```mlir
    %p = tensor.pad %x low[0, 0, 12, 12] high[0, 0, 12, 12] : 1x960x14x14 to 1x960x38x38
    %y = linalg.generic {maps = [(n,g,m,oh,ow,c,kh,kw) -> (n,g,c,oh+kh*12,ow+kw*12), ...]}
        ins(expand_shape %p, %w) outs(%bias : tensor<1x1x256x14x14xf32>)
    ```
    After: the centre tap on all 14 x 14 outputs from %x in place (a 1x1
    convolution), then each of the 8 other taps on the 2 x 14, 14 x 2 or
    2 x 2 outputs it reads the input for, each adding to the result.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def PeelPaddedWindows : Pass<"aotc-peel-padded-windows", "mlir::func::FuncOp"> {
  let summary = "Depthwise convolutions and pools read their unpadded input in place, but for border strips";
  let description = [{
    A linalg op (a generic, or a named convolution or pool) of a function
    body on static tensors whose input 0 is
    a tensor.pad with a constant value (directly or through an expand_shape
    that splits no padded dimension), padded only along window accesses
    `o * s + k * d` and by at most the window's reach ((K - 1) * d) on
    either side, and whose every reduction loop is a window loop or has one
    iteration (no input channels: the pad's copy of the whole input costs
    as much as the arithmetic). For each padded dimension, the outputs
    [begin, end) whose windows lie inside the unpadded input are
    begin = ceil(low / s), end = (H - 1 + low - (K - 1) * d) / s + 1. The op
    is computed in boxes: the interior (every padded dimension in its
    [begin, end)) reads the unpadded input directly; the strips before and
    after it, dimension by dimension, read a pad of the slice of the input
    their windows touch (tensor::bubbleUpPadSlice). When the padding value
    is an identity of the payload (zero for a sum of products with a
    constant filter of finite values, or for a sum; -inf for a max), the
    border outputs instead leave out the taps that would read it: each
    padded dimension's outputs fall in segments of the same valid taps (the
    interior, and each border output with its own), every combination of
    segments is a part whose window loops are cut to its taps, and every
    part reads the unpadded input in place (no padded copy at all). Each
    part computes its
    own init (fill or bias broadcast) and the op's elementwise consumer
    (an activation) on its box; the parts are inserted one after the other
    into the result (aotc::splitIntoBoxes). The interior's last dimension
    (the lanes) is cut to whole registers, the rest joining the strip after
    it. Not applied when no output reads the padding or none avoids it.
    The parts are marked `aotc.sibling_parts` (an integer per split op) for
    aotc-distribute-to-forall, which computes them in one thread loop.

    Before (depthwise 3x3, stride 2, 112x112 padded to 114x114):
    ```mlir
    %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] : 1x96x112x112 to 1x96x114x114
    %y = linalg.generic {maps = [(n,g,m,oh,ow,c,kh,kw) -> (n,g,c,oh*2+kh,ow*2+kw), ...]}
        ins(expand_shape %p, %w) outs(%bias : tensor<1x96x1x56x56xf32>)
    ```
    After: outputs [1, 56) x [1, 56) from %x[..., 1:112, 1:112] in place;
    row 0 from pad(%x[..., 0:2, :]) (3 x 114), column 0 of rows [1, 56)
    from pad(%x[..., 1:112, 0:2]) (111 x 3).
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def VectorizeConvolutions : Pass<"aotc-vectorize-convolutions",
                                 "mlir::func::FuncOp"> {
  let summary = "Direct convolution: vectorize windowed ops (conv, depthwise, pooling)";
  let description = [{
    Handles every statically shaped linalg op that reads an input through a
    sliding window (a map result `o * stride + k * dilation`): convolutions
    of any layout, depthwise convolutions, max/sum pooling, named or generic.
    Each op is tiled with `scf.for` loops to a register tile of rows x lanes
    over the two innermost output dimensions (lanes: one register of
    `vector-bits` along the innermost one; rows: up to 8 along the nearest
    outer one that divides evenly) with one iteration of every other loop.
    A convolution over input channels (a reduction loop indexing the input
    and the filter, an output-channel loop not indexing the input) instead
    takes output channels as rows and registers along the next output
    dimension (rows of a flattened image): with 512-bit registers 8 x 3
    when three divide the tile evenly (24 accumulators of 32 registers;
    each input vector loaded once for 8 FMAs, each filter value broadcast
    once for three), else 4 x 4, else 8 x 2; with narrower registers (16
    on AVX2) 4 x 3 (12 accumulators), else 4 x 2, else 8 x 1. A
    convolution on a row-aligned grid (aotc-flatten-convolution-images) is
    first split at its last multiple of three grid rows (7 = 6 + 1), each
    part with its own init and activation.
    Every window loop is then unit within a tile, so the windowed operand
    becomes a strided `tensor.extract_slice` (stride = the loop's stride)
    read through a projected permutation (rows of a row-aligned grid: a
    slice of whole padded rows, expanded to [rows, Wp], of which [rows,
    lanes] is read; taken from the source of the tile's input slice, which
    ends at the last row's last lane), and the tile is vectorized by the
    linalg vectorizer: per reduction step one vector per row of the window
    input, the filter value broadcast, and one FMA per row into accumulators
    that later hoisting keeps in registers. The innermost window loop of up
    to 3 steps (kw) is unrolled; a depthwise convolution or pool (every
    reduction loop slides a window) whose tiles have 3 or more rows unrolls
    kh too, so the rows the kh steps read, which overlap, are loaded once
    (a 6-row tile of a 3 x 3 window reads 8 rows, not 18).
    An elementwise consumer of the op's result in the same block (an
    activation fused into its thread tile by aotc-distribute-to-forall) is
    computed on each register tile right after the window loops, on the
    accumulators.

    Before (NCHW 3x3 convolution, stride 1):
    ```mlir
    %r = linalg.generic {indexing_maps = [(n,f,oh,ow,c,kh,kw) -> (n,c,oh+kh,ow+kw),
                                          (...) -> (f,c,kh,kw), (...) -> (n,f,oh,ow)]}
        ins(%x, %w : tensor<1x8x10x18xf32>, tensor<4x8x3x3xf32>)
        outs(%o : tensor<1x4x8x16xf32>)
    ```
    After:
    ```mlir
    scf.for %f ... scf.for %c ... scf.for %kh ... scf.for %kw ... {
      %xs = tensor.extract_slice %x[0, %c, %kh, %kw] [1, 1, 8, 16] [1, 1, 1, 1]
      %v = vector.transfer_read %xs ... : vector<1x1x8x16x1x1x1xf32>
      ... arith.mulf, arith.addf on vector<1x1x8x16xf32> ...
    ```
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect"];
}

def SplitTilePhases : Pass<"aotc-split-tile-phases", "mlir::func::FuncOp"> {
  let summary = "Stride-2 windowed ops of thread tiles on the column phases of their tile buffer";
  let description = [{
    A windowed op in a thread tile (a depthwise convolution or a pool the
    strategy recorded `column-phases`, or one without a record, whose input
    aotc-distribute-to-forall padded in the tile: a part inserted into a
    fill of the pad value) with stride 2 and dilation 1 along the columns
    and a window of at least two columns (aotc::tileColumnPhasesPay)
    gathers every other column into each register of output lanes: two
    loads and a shuffle per tap. The tile
    buffer is written as its column phases instead, x'[..., h, p, j] =
    x[..., h, 2 * j + p]: each row of the part read two registers at a
    time, deinterleaved (vector.deinterleave), its even and odd elements
    written to their phases. The op becomes two with stride 1 along the
    columns: window column kw = 2 * q + p reads phase p at column ow + q
    (one contiguous register), with its filter's or window's columns p,
    p + 2, ...; the odd phase accumulates into the even one's result. Only
    ops whose body folds each product into the output with one associative
    and commutative combiner (sum, max, min) are split. An op recorded
    `column-phases` that has no such tile buffer (the strategy planned
    thread tiles it did not get) loses its record, with a remark, and keeps
    its stride.

    Before (5x5 depthwise, stride 2, in a tile of 8 channels):
    ```mlir
    %buf = tensor.insert_slice %part into %fill[0, 0, 0, 2, 2] [1, 8, 1, 28, 28] [1, 1, 1, 1, 1]
    linalg.generic {maps = [(.., oh, ow, c, kh, kw) -> (.., oh * 2 + kh, ow * 2 + kw), ...]}
        ins(%buf, %w : tensor<1x8x1x31x31xf32>, tensor<8x1x1x5x5xf32>) outs(%init)
    ```
    After:
    ```mlir
    %phases = scf.for ... vector.deinterleave ... : tensor<1x8x1x31x2x16xf32>
    %even = linalg.generic {maps = [(.., oh, ow, c, kh, q) -> (.., oh * 2 + kh, ow + q), ...]}
        ins(%phases[.., 0, :], %w[.., 0:3:2] : tensor<1x8x1x31x16xf32>, tensor<8x1x1x5x3xf32>) outs(%init)
    %r = linalg.generic {same maps}
        ins(%phases[.., 1, :], %w[.., 1:2:2] : tensor<1x8x1x31x16xf32>, tensor<8x1x1x5x2xf32>) outs(%even)
    ```
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect"];
}

#endif // AOTC_CPU_CONVOLUTIONS_PASSES
