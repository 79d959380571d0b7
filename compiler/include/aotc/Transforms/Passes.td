//===- Passes.td - aotc transformation passes --------------*- tablegen -*-===//
//
// Declares every aotc pass. Each pass lives in its own file under
// compiler/lib/Transforms/ and has a lit test in tests/lit/Transforms/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_PASSES
#define AOTC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Frontend
//===----------------------------------------------------------------------===//

def VerifyInput : Pass<"aotc-verify-input", "mlir::ModuleOp"> {
  let summary = "Reject programs aotc cannot compile, naming the op and location";
  let description = [{
    Checks that the input is a tensor program aotc supports before anything
    else runs: only ops of the builtin, func, arith, math, tensor, linalg and
    tosa dialects; ranked, statically shaped tensors; element types f16, bf16,
    f32, f64, i1, i8, i16, i32 and i64; at least one public function. Every
    violation is an error at the offending op, e.g.

    ```mlir
    func.func @f(%a: tensor<?xf32>) -> tensor<?xf32>
    // error: 'func.func' op argument 0 has dynamic shape tensor<?xf32>;
    //        dynamic shapes are not supported yet
    ```
  }];
}

def AnnotateEntryPoints : Pass<"aotc-annotate-entry-points", "mlir::ModuleOp"> {
  let summary = "Record each public function's ABI signature as `aotc.entry`";
  let description = [{
    Every public `func.func` becomes an entry point. This pass attaches a
    dictionary `aotc.entry = {name, inputs, outputs}` describing the tensors
    (name from `aotc.name` argument/result attributes or `argN`/`resultN`,
    dtype, shape), marks every argument `bufferization.writable = false`
    (inputs belong to the caller), gives a value returned more than once a
    copy per extra occurrence (each output is its own caller buffer), and,
    when `entry-name` is given and the module has exactly one public
    function, renames it.

    Symbolic dimensions: a dynamic dimension of an argument or result must be
    named by the `aotc.dims` argument/result attribute (`["N", ""]`), and
    every name needs a bound from `max-dims` (`N=64`). The entry dictionary
    then also holds `symbols` (name and max of each, in parameter order: first use in
    the arguments), each tensor's `dims`, and the function's `aotc.guards`.

    Before:
    ```mlir
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
    ```
    After (entry-name=model):
    ```mlir
    func.func @model(%x: tensor<4xf32> {bufferization.writable = false})
        -> tensor<4xf32> attributes {aotc.entry = {name = "model",
        inputs = [{dtype = "f32", name = "arg0", shape = array<i64: 4>} ],
        outputs = [{dtype = "f32", name = "result0", shape = array<i64: 4>} ]}}
    ```
  }];
  let options = [
    Option<"entryName", "entry-name", "std::string", /*default=*/"\"\"",
           "Name of the entry point when the module has one public function">,
    ListOption<"maxDims", "max-dims", "std::string",
               "Bound of each symbolic dimension, NAME=VALUE">,
  ];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

//===----------------------------------------------------------------------===//
// Tensor level
//===----------------------------------------------------------------------===//

def DecomposeOps : Pass<"aotc-decompose-ops", "mlir::func::FuncOp"> {
  let summary = "Decompose aggregate ops into linalg primitives";
  let description = [{
    Rewrites ops that have no direct tiled/vectorized lowering into simpler
    ones: aggregated linalg ops (`linalg.softmax` into reductions and
    elementwise generics), `tensor.concat` into `tensor.insert_slice`s, and
    `tensor.pad` into `linalg.fill` + `tensor.insert_slice`. All-parallel
    named ops other than fills (`linalg.add`, `linalg.broadcast`,
    `linalg.transpose`, ...) become `linalg.generic`s so that elementwise
    fusion can merge them.

    Before:
    ```mlir
    %0 = tensor.concat dim(0) %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<5xf32>
    %1 = tensor.insert_slice %a into %e[0] [2] [1]
    %0 = tensor.insert_slice %b into %1[2] [3] [1]
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def FuseElementwiseOps : Pass<"aotc-fuse-elementwise-ops", "mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops, unless that recomputes expensive work";
  let description = [{
    Upstream `linalg-fuse-elementwise-ops` (producer into consumer, reshape
    propagation, constant folding) with a cost-aware control function. A
    single-use elementwise producer is fused into its consumer, except when
    the consumer reads it through a map that leaves out some of its loops
    (the payload would run once per point of those loops) and either the
    producer calls math functions (exp, erf, sqrt, ...) or the consumer has
    reduction loops and a left-out loop is parallel. That keeps a GELU out
    of the matmul that consumes it (erf would run N times per element and
    the matmul would lose the contraction path), keeps `(q / s) @ k^T` a
    contraction, and keeps a row's `rsqrt(var + eps)` computed once per row.
    A transpose (a copy through a permuted map) is not fused into a
    contraction either: as a copy it is read once, fused it would make the
    contraction read that operand across its rows, a gather per register.

    Before:
    ```mlir
    %g = linalg.generic {iterator_types = ["parallel", "parallel"]}
           ins(%h : tensor<64x1024xf32>) ... { math.erf ... }
    %y = linalg.generic {indexing_maps = [(m, n, k) -> (m, k), (m, n, k) -> (k, n), ...],
           iterator_types = ["parallel", "parallel", "reduction"]}
           ins(%g, %w : tensor<64x1024xf32>, tensor<1024x256xf32>) ... { mulf, addf }
    ```
    After: unchanged (upstream fusion would move the erf into the matmul).
    A bias broadcast into an elementwise op, or an elementwise chain, fuses
    as upstream.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def MultiplyByReciprocal : Pass<"aotc-multiply-by-reciprocal", "mlir::func::FuncOp"> {
  let summary = "Divide by a per-row value as a multiplication by its reciprocal";
  let description = [{
    In a `linalg.generic` with at least two loops, an `arith.divf` whose
    divisor is an input read through a map that does not use the innermost
    loop (constant along a row: softmax's row sum), and whose dividend is
    not, becomes a multiplication by `1 / divisor`. Once vectorized, the
    reciprocal is loop-invariant in the row loop and computed once per row:
    one division per row instead of one per element (a vector division costs
    about ten multiplications). The result may differ from the division in
    the last bit.

    Before:
    ```mlir
    ^bb0(%e: f32, %sum: f32, %out: f32):   // %sum: (d0, d1) -> (d0)
      %0 = arith.divf %e, %sum : f32
    ```
    After:
    ```mlir
      %r = arith.divf %cst_1, %sum : f32
      %0 = arith.mulf %e, %r : f32
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def PrivatizeInits : Pass<"aotc-privatize-inits", "mlir::func::FuncOp"> {
  let summary = "Give every op its own fill/empty destination";
  let description = [{
    CSE merges identical `linalg.fill`s and `tensor.empty`s, so several ops
    end up sharing one initial value as their destination; bufferization must
    then keep the shared buffer intact and copy it for every consumer. This
    pass clones such a fill (and its `tensor.empty`) for each destination use,
    so each consumer fills its own buffer in place and no copy remains.

    Before:
    ```mlir
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %a = linalg.matmul ins(...) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    %b = linalg.matmul ins(...) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    ```
    After:
    ```mlir
    %z0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %a = linalg.matmul ins(...) outs(%z0 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %b = linalg.matmul ins(...) outs(%z1 : tensor<4x4xf32>) -> tensor<4x4xf32>
    ```
  }];
}

def ReuseDeadInputs : Pass<"aotc-reuse-dead-inputs", "mlir::func::FuncOp"> {
  let summary = "Let elementwise ops write into an input that dies there";
  let description = [{
    For an all-parallel `linalg.generic` whose `outs` is a `tensor.empty` and
    one of whose `ins` has the same type, an identity indexing map and no
    other use (and is neither a function argument nor a constant), the input
    becomes the destination: it moves from `ins` to `outs` and the payload
    reads it through the output block argument. Bufferization then updates
    that buffer in place instead of allocating a new one: each element is
    read before it is written at the same index, so this is always safe.

    Before:
    ```mlir
    %e = tensor.empty() : tensor<8xf32>
    %r = linalg.generic {...} ins(%t, %u : tensor<8xf32>, tensor<8xf32>)
                              outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32): ... %a ... %b ...
    ```
    After:
    ```mlir
    %r = linalg.generic {...} ins(%u : tensor<8xf32>) outs(%t : tensor<8xf32>) {
    ^bb0(%b: f32, %a: f32): ... %a ... %b ...
    ```
  }];
}

def TileSymbolicDims : Pass<"aotc-tile-symbolic-dims", "mlir::func::FuncOp"> {
  let summary = "Loop over symbolic dimensions so every op inside is static";
  let description = [{
    Each linalg op on tensors with a dynamic loop range (a symbolic dimension
    such as the batch) is tiled by 1 along those loops with `scf.for`, so
    the op left inside the loop has static shapes and the later passes
    (threads, register tiles, vectorization) apply to it as to any static
    op. Static loops are not tiled.

    Before:
    ```mlir
    %r = linalg.generic ... ins(%x : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>)
    ```
    After:
    ```mlir
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e) {
      %xs = tensor.extract_slice %x[%i, 0] [1, 64] [1, 1]
      %t = linalg.generic ... ins(%xs : tensor<1x64xf32>) outs(... : tensor<1x64xf32>)
      %u = tensor.insert_slice %t into %acc[%i, 0] [1, 64] [1, 1]
      scf.yield %u
    }
    ```
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

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
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
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
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def WinogradConvolutions : Pass<"aotc-winograd-convolutions",
                                "mlir::func::FuncOp"> {
  let summary = "3x3 stride-1 convolutions as Winograd F(2x2, 3x3)";
  let description = [{
    A convolution generic in the importer's NCHW form with batch 1, one
    group, a 3 x 3 window, stride 1, dilation 1, a constant f32 filter, at
    least 32 output tiles of 2 x 2 and at least `min-channels` input and
    output channels is computed with Winograd's minimal filtering
    F(2 x 2, 3 x 3): 16 multiplications per 2 x 2 output tile and channel
    pair instead of 36. An odd image is covered by one more row or column
    of tiles: its input padded by a row or column of zeros, its output
    computed one larger and sliced. Few channels leave the transforms most
    of the work: with 16 input channels (squeezenet1_1's 55 x 55 layers) the
    model took 1.09x the time, with 32 (27 x 27) the same, with 48 and 64
    (13 x 13) 0.95x (Zen 3, AVX2). On AVX-512 (Zen 5) the 27 x 27 layers
    (32 -> 128 channels) took squeezenet1_1 0.978x / 0.977x the time at 1 /
    2 threads (A/B in one process); its 55 x 55 ones (16 -> 64) as well
    only 0.989x at 1 thread, hence the default of 32.
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
    (its bias), viewed as [1, 1, K, H / 2, 2, W / 2, 2].
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
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
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
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
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
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def PackContractionOperands : Pass<"aotc-pack-contraction-operands",
                                   "mlir::func::FuncOp"> {
  let summary = "Operands of f32 contractions in register-tile panels";
  let description = [{
    A static f32 contraction with one reduction loop whose right-hand side is
    read as (batch..., k, n), with n the lanes of the register tile
    (aotc-tile-and-vectorize: two vector registers, 32 f32 lanes at 512 bits)
    and the output's innermost dimension, reads that operand from panels
    [..., N / 32, K, 32] instead: the register tile then walks one contiguous
    panel down the reduction (one cache line pair after the other) rather than
    a new row, cache line and page of the whole matrix per reduction step.
    A constant right-hand side (weights) is packed at compile time; another
    one by a copy before the contraction, only when at least 64 rows reuse it
    (32 when its rows are a multiple of 4 KiB apart, 48 when of 2 KiB: a
    panel's lines then share one or two L1 sets and every row tile reads them
    again from L2). That copy is a linalg.generic over (..., K / 4, N / 32,
    4, 32) that reads four whole rows, panel after panel, and writes each
    panel's part of them as one run (a linalg.transpose [K, N / 32, 32] ->
    [N / 32, K, 32] when K is not a multiple of 4), its result viewed as
    the panels. A constant read as (batch..., n, k) (a Gemm with transB) is
    packed at compile time too. Columns beyond the last whole panel are
    split off (linalg::splitOp) and stay unpacked (a (n, k) constant's
    remaining rows become a constant of their own, so the whole one is not
    kept besides the packed one); each part computes its own init (fill,
    bias) and its own elementwise consumer (an activation reached through
    reshapes: aotc::splitElementwiseConsumer), so that both can join its
    tiles instead of running as passes over the whole result. A
    contraction with unit reduction loops
    besides its real one (a classifier's [1, 1, C] x [N, 1, C], as Flatten +
    Gemm leave it) first loses them, its constant operands reshaped at
    compile time. One whose lanes are few (a 7x7 image's 49 pixels, less
    than two panels), short of four panels by a remainder while its rows
    only have register tiles smaller than the most (49 pixels with 256-bit
    registers: 3 panels + 1, on 1280 rows in tiles of 5), or would be
    packed at run time at a higher cost than two transposes, with many
    rows of constant weights, is computed transposed (the weights' output
    channels as lanes, packed at compile time): a transpose copies its init
    in and its result out, and an activation of the result (a ReLU6 reached
    through reshapes, reading nothing else but scalars) is computed before
    that transpose, on the contraction's layout, where it joins the
    register tiles.

    Then a left-hand side read as (batch..., m, k) is put in row panels
    [..., M / t, K, t] of t = one register tile's rows, so that a register
    tile reads its rows as one stream instead of t: a constant (the weights
    of a convolution, whatever its operand position) at compile time, one
    computed at run time by a copy when the output has at least 512 columns
    to reuse it; in both cases when there are at least two tiles of rows
    and either its rows are a multiple of 4 KiB apart (K = 1024 f32 and
    multiples: a register tile's rows would share one L1 set) or M is a
    whole number of tiles. The contraction's m loop becomes (row panel, row
    in panel) and its output is viewed as [..., M / t, t, ...]. Rows beyond
    the last whole panel (aliased rows only) are split off and stay
    unpacked, like columns.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : tensor<64x576xf32>, tensor<576x3136xf32>)
                  outs(%c : tensor<64x3136xf32>)
    ```
    After:
    ```mlir
    %be = tensor.expand_shape %b [[0], [1, 2]] : ... into tensor<576x98x32xf32>
    %bp = linalg.transpose ins(%be) outs(... : tensor<98x576x32xf32>) permutation = [1, 0, 2]
    %ce = tensor.expand_shape %c [[0], [1, 2]] : ... into tensor<64x98x32xf32>
    %r = linalg.generic {maps = [(m, j, l, k) -> (m, k), (m, j, l, k) -> (j, k, l),
                                 (m, j, l, k) -> (m, j, l)]} ins(%a, %bp) outs(%ce)
    tensor.collapse_shape %r [[0], [1, 2]] : ... into tensor<64x3136xf32>
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def DistributeToForall : Pass<"aotc-distribute-to-forall", "mlir::func::FuncOp"> {
  let summary = "Tile the parallel loops of each linalg op into an scf.forall";
  let description = [{
    Tiles the outer parallel dimensions of every statically shaped linalg op
    with enough work into an `scf.forall`, which later becomes one OpenMP
    parallel region. Tile counts are divisors of the dimensions so every tile
    keeps a static shape, and never exceed `max-tiles` tiles. Ops with
    fewer than `min-work` iterations stay sequential; in a function with an
    op of `min-work` iterations, ops without reduction loops (copies, fills,
    transforms, activations) are threaded from a quarter of it: left
    sequential between threaded ops, such an op splits their parallel
    region in two. Tiles hold about
    `min-work` iterations, but an op other than a contraction (a copy, a
    pack, an elementwise op) with more gets two tiles at least. Loops an
    indexing map reads through a mod or a division (ONNX Tile's `d0 mod 2`)
    are never split: a tile's operand slice would not be bounded by the
    expression's values at the tile's ends. Contractions are split
    along their register-tile rows first (tiles of at least 64 rows, which
    share each cache block of the right-hand side; 256 rows, or all, when
    the right-hand side holds 8 MiB or more, as each tile of rows reads all
    of it), then along their
    columns (at least 256, one cache block; 128 when that would leave the
    contraction in one piece, as 64 x 256 outputs; when even that leaves it
    whole, as a 1x1 convolution at 7 x 7 with 49 pixels x 5 panels: with
    more columns than rows and an even number of column panels, two tiles
    of half the panels each, which read the larger right-hand side once,
    as 49 pixels x 10 panels of 16; otherwise the rows past the last whole
    register tile (8 rows with 512-bit registers, else 6) are split off,
    48 + 1, and the 48 are tiled by whole register tiles). Any other op
    whose outermost
    parallel dimension has no divisor near the wanted tile count (197 rows)
    is first split into a bulk that divides evenly and a remainder (196 + 1
    rows), each distributed on its own if it has enough work. An odd count
    of fewer than 16 tiles, which leaves one of an even number of threads
    idle for a whole tile (3 tiles take as long as 4 on 2 threads), is
    replaced by the first even count from one more tile, twice as many,
    (contractions) twice as many with half the minimum columns or one more
    with half the minimum rows, and last up to a quarter fewer tiles (72
    row panels: 8 tiles of 9, not 9 of 8), even when those tiles hold less
    than `min-work` iterations; a contraction for
    which none of these is even (tiles are divisors: 729 = 3^6 columns,
    125 row panels) is first split along its tiled loop where the bulk
    holds the nearest even count of tiles of whole registers, panels or
    register-tile rows, when less than half a tile is left, or less than a
    tile of columns (729 = 704 + 25, 125 = 124 + 1, 3025 = 2880 + 145), each
    part with its own init and activation. Thread tiles
    along the innermost loop (the vector dimension) of other ops are at
    least 64 elements wide, and at least 16 along the loop of a transposed
    input's innermost dimension (one 16 x 16 register transpose). A convolution over input channels
    (aotc-vectorize-convolutions' channel rows) keeps whole register tiles
    per thread tile: rows of 8 output channels, a multiple of 3 (else 2)
    grid rows, the lanes unsplit. The init of a reducing op (contraction,
    convolution, pooling) made by an all-parallel op used only there (the
    zero fill, a bias broadcast; for a contraction rebuilt in the init's
    shape when reshapes or transposes sit between them, its inputs reshaped
    the same way where the reshapes split a dim they index) is computed in
    each thread tile right before the op's tile instead of in a pass of its
    own (not when the op is first split into a bulk and a remainder). An
    elementwise consumer of a reducing op's result (an activation, a
    residual add), reached through reshapes, is rebuilt in the op's result
    shape and computed on each thread tile right after the op's tile, in
    place on it, instead of in a thread loop of its own over the whole
    result; through the crop of a flattened convolution's image only a
    floating-point consumer of that result and scalars (it then also
    computes the grid's padding). Its other shaped operands must be defined
    before the op. A padding (a source inserted into a filled tensor, from
    aotc-decompose-ops) whose fill is split along dims the source spans
    whole (an image's channels) becomes one thread loop: each tile fills
    only its border and copies its part of the source, instead of a fill of
    the whole tensor, then a copy over most of it; not when the source can
    be computed in the slice itself (aotc-eliminate-reshaped-empty-tensors).
    The padded input of a convolution with channel lanes
    (aotc-channel-lane-convolutions; an RGB stem) is padded by each thread
    tile for its own window instead, in a buffer of the tile (at most 64 KiB,
    on the thread's stack): the pad value filled, the source rows the window
    covers inserted; not when the tiles' windows would together copy more
    than 1.5 times the padded input (overlapping 7x7 windows).
    The parts of one op computed in boxes by aotc-peel-padded-windows
    (marked `aotc.sibling_parts`: the interior, then the border strips) are
    tiled alike along the loops they all span whole (a depthwise
    convolution's channels), with tile sizes chosen for the interior, and
    computed in one thread loop: each tile of the whole result (the cut
    loops whole) takes every part's tile, inserted at its box, so that the
    small strips neither run sequentially nor get parallel regions of their
    own. Not when that gives fewer than half the tiles the interior alone
    would get (an image of 3 channels); the parts are then distributed one
    by one.

    Before:
    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x128xf32>)
                       outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
    ```
    After:
    ```mlir
    %0 = scf.forall (%i) in (64) shared_outs(%o = %c) -> (tensor<256x128xf32>) {
      ... linalg.matmul on tensor<4x64xf32>, tensor<64x128xf32> ...
      scf.forall.in_parallel { tensor.parallel_insert_slice ... }
    }
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Iterations below which an op is not distributed">,
    Option<"maxTiles", "max-tiles", "int64_t", /*default=*/"64",
           "Upper bound on the number of parallel tiles">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits (contractions' thread "
           "tiles hold whole register tiles of aotc::contractionRows)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def SplitRowReductions : Pass<"aotc-split-row-reductions", "mlir::func::FuncOp"> {
  let summary = "Reduce rows into one register of accumulators, then across it";
  let description = [{
    A reduction over the innermost, contiguous dimension (the max, sum, mean
    and variance of softmax and layer normalization, a matrix-vector
    product's dot products) would otherwise carry a scalar through its loop:
    every register of the row is reduced across its lanes before being added
    to it. This pass splits such a reduction (upstream `splitReduction`,
    inner part parallel) into a partial reduction into `lanes` accumulators
    per output element, one register of `vector-bits`, and a final reduction
    of those lanes. aotc-tile-and-vectorize then turns the partial reduction
    into a loop carrying one vector (elementwise ops only) and the final one
    into one horizontal reduction per row (a halving tree after
    aotc-lower-vector-ops). Trailing reduction loops that every input reads
    as its innermost indices in loop order (a global average pool's 13 x 13
    image: one contiguous range of 169) are collapsed into one first
    (upstream `collapseOpIterationDims`); a row that is not a whole number
    of registers is split (upstream `splitOp`) into the registers, split as
    above, and the rest, which reduces into their result (169 = 160 + 9: one
    register of partial sums per channel instead of 13 horizontal
    reductions of 13 elements). Contractions, reductions over an outer
    dimension, strided reads, rows shorter than two registers and ops
    nested in loops (the partial results must be function-level buffers for
    the memory planner) are left alone.

    Before:
    ```mlir
    %s = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0)],
                         iterator_types = ["parallel", "reduction"]}
           ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) { addf }
    ```
    After (vector-bits=512, 16 f32 lanes):
    ```mlir
    %e = tensor.expand_shape %x [[0], [1, 2]] : tensor<4x64xf32> into tensor<4x4x16xf32>
    %z = linalg.fill ins(%zero : f32) outs(%t : tensor<4x16xf32>)
    %p = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d1, d2), (d0, d1, d2) -> (d0, d2)],
                         iterator_types = ["parallel", "reduction", "parallel"]}
           ins(%e : tensor<4x4x16xf32>) outs(%z : tensor<4x16xf32>) { addf }
    %s = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0)],
                         iterator_types = ["parallel", "reduction"]}
           ins(%p : tensor<4x16xf32>) outs(%init : tensor<4xf32>) { addf }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def TileAndVectorize : Pass<"aotc-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile linalg ops to register-sized tiles and vectorize them";
  let description = [{
    Tiles every statically shaped linalg op with `scf.for` loops so that each
    tile fits the vector registers (innermost dimension one register of
    `vector-bits`), using divisors of the dimensions so tiles stay static,
    then vectorizes the tile with the upstream linalg vectorizer.
    Contractions (named or generic) get an 8-row x 2-register accumulator
    block with 512-bit registers (AVX-512's 32 registers; 7 or 6 rows when
    that divides the rows and 8 does not: 49 rows are seven 7-row blocks),
    6 x 2 with narrower ones (AVX2's 16 registers; 5 rows when that divides
    the rows and 6 does not), lanes along the output's innermost dimension;
    with lanes of one register or less on rows in row panels (the columns
    past the last whole panel), the block spans as many row panels as a
    full block's accumulators allow (2 x 5 rows x 1 register with 256-bit
    registers); they are first split into static parts when the rows or
    columns are not a multiple of the block (197 rows: 192 + 5; row panels
    that the span does not divide: 31 = 30 + 1), and
    blocked for the cache (256 columns x 512 reduction steps with 512-bit
    registers, x 256 with narrower ones) around the
    register tiles. A contraction's init
    producer in the same block (see aotc-distribute-to-forall) is computed in
    each register tile before the reduction loop when no reduction cache
    block intervenes, so the accumulators start from it in registers and the
    output is never read; with reduction blocks only, in the first block's
    register tiles (that block peeled off the loop of blocks). Likewise an elementwise consumer of a whole
    contraction's result in the same block (the activation or residual add
    aotc-distribute-to-forall put in its thread tile) is computed on each
    register tile right after the reduction loop, on the accumulators,
    instead of in loops of its own. An op that reads an input across its rows (a
    transpose) gets square lanes x lanes tiles: whole input rows are read
    and transposed in registers instead of gathered element by element. Ops
    the vectorizer does not support (convolutions and pools left by
    aotc-vectorize-convolutions, i1 memory) are left for loop lowering.

    Before:
    ```mlir
    %0 = linalg.add ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%c : ...)
    ```
    After:
    ```mlir
    scf.for %i = %c0 to %c4 step %c1 ... {
      scf.for %j = %c0 to %c64 step %c16 ... {
        %va = vector.transfer_read ... : tensor<4x64xf32>, vector<1x16xf32>
        ... arith.addf ... vector.transfer_write ...
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect"];
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
    (MobileNetV2's 56 x 56 x 144 depthwise layer alone: 0.70x the time).
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
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect"];
}

def EliminateReshapedEmptyTensors
    : Pass<"aotc-eliminate-reshaped-empty-tensors", "mlir::func::FuncOp"> {
  let summary = "Results inserted into a larger tensor through reshapes are "
                "computed in it";
  let description = [{
    A `tensor.insert_slice` (static offsets, sizes and strides) whose
    destination starts as a `tensor.empty` (a concatenation's) or was
    computed into one and has no other use (a padded image: its fill), and
    whose source was computed into another `tensor.empty`, reached from the
    source back through reshapes (collapse_shape, expand_shape), the
    destinations of inserts and of destination-style ops (linalg,
    scf.forall): that empty tensor becomes the slice of the destination,
    reshaped like the source was, so bufferization computes the source in
    the destination's buffer and the insert copies nothing. Upstream
    `eliminate-empty-tensors` does this without reshapes in between, and
    only where the insert's destination is defined before the empty tensor;
    here the destination and what computes it (when free of memory effects
    and in the same block) move before it. A source expanded on its way
    (a flat 64 x 3136 result inserted as 64 x 56 x 56) is only computed in
    a contiguous slice: the interior of a padded image cannot be collapsed
    back. Always correct: the empty tensor's values were undefined, the
    slice's are defined; bufferization copies where the in-place writes
    would conflict. resnet18: its stem's output is computed in the max
    pool's padded image (one copy less, pool 6.5 MB -> 4.3 MB).
    Reads of the source, or of what it was collapsed from, after the insert
    read the insert's slice instead (and another reshape of it, read only
    after the insert, moves there): in the source itself they would follow
    the insert's write into the buffer they share, a conflict bufferization
    resolves by computing the source out of place and copying it in and
    back. resnet18's residual blocks, whose output is both the next padded
    image and the next residual input, lost 8 such copies (101 -> 93
    thread loops; 0.973x / 0.970x the time at 1 / 2 threads).
    First, a static slice of a `tensor.empty` taken in an `scf.forall` the
    empty tensor is outside of (a thread tile's im2col buffer) becomes an
    empty tensor of its own in the loop: as a slice of a tensor every
    thread writes, bufferization computed the tile in a copy, and each part
    the tile is written in (SqueezeNet's 111-wide im2col rows: 96 + 15
    columns) in one more buffer copied in (its stem: 0.95x the time at 1
    and 2 threads).

    Before (a 1x1 convolution computed as a matmul, then concatenated):
    ```mlir
    %e = tensor.empty() : tensor<64x3025xf32>
    %m = linalg.generic {...} outs(%e : tensor<64x3025xf32>) ...
    %x = tensor.expand_shape %m [[0], [1, 2]] output_shape [64, 55, 55] ...
    %c = tensor.empty() : tensor<128x55x55xf32>
    %i = tensor.insert_slice %x into %c[0, 0, 0] [64, 55, 55] [1, 1, 1] ...
    ```
    After:
    ```mlir
    %c = tensor.empty() : tensor<128x55x55xf32>
    %s = tensor.extract_slice %c[0, 0, 0] [64, 55, 55] [1, 1, 1] ...
    %e = tensor.collapse_shape %s [[0], [1, 2]] ... into tensor<64x3025xf32>
    %m = linalg.generic {...} outs(%e : tensor<64x3025xf32>) ...
    ...
    ```
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// Buffer level
//===----------------------------------------------------------------------===//

def ReuseResultBuffers : Pass<"aotc-reuse-result-buffers",
                              "mlir::func::FuncOp"> {
  let summary = "Results computed in their out-parameters through reshapes";
  let description = [{
    After buffer-results-to-out-params, a result that is a reshape
    (collapse_shape / expand_shape chain) of a scratch allocation is copied
    into its out-parameter: upstream hoisting replaces only an allocation
    returned as it is. When that copy is the last operation to touch the
    allocation (directly or through views) and the out-parameter has no
    other use, the allocation becomes a reinterpret_cast of the
    out-parameter (both are contiguous and row-major) and the copy goes: a
    convolution computed as a matmul on a collapsed image writes the
    caller's output directly, without a second pass over it.

    Before:
    ```mlir
    %a = memref.alloc() : memref<1x144x3136xf32>
    ... writes %a ...
    %e = memref.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 144, 56, 56] : ...
    memref.copy %e, %out : memref<1x144x56x56xf32> to memref<1x144x56x56xf32>
    ```
    After:
    ```mlir
    %a = memref.reinterpret_cast %out to offset: [0], sizes: [1, 144, 3136], strides: [451584, 3136, 1]
    ... writes %a ...
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def LinearizeReshapeViews : Pass<"aotc-linearize-reshape-views",
                                 "mlir::func::FuncOp"> {
  let summary = "Expanded views of collapsed buffers as reinterpret_casts";
  let description = [{
    A memref.expand_shape whose source is a view chain (subview,
    collapse_shape, expand_shape) of a buffer with the identity layout, with
    a collapse_shape on the way and a static strided result, becomes the
    equivalent memref.reinterpret_cast of that buffer. Otherwise
    fold-memref-alias-ops folds loads through the chain and delinearizes the
    collapsed index with div/mod: a row of an image cropped from the
    flattened grid of aotc-flatten-convolution-images ([R, 16] collapsed,
    expanded to [H, Wp]) would be read element by element.

    Before:
    ```mlir
    %f = memref.collapse_shape %grid [[0, 1]] : memref<203x16xf32> into memref<3248xf32>
    %e = memref.expand_shape %f [[0, 1]] output_shape [56, 58] : memref<3248xf32> into memref<56x58xf32>
    ```
    After:
    ```mlir
    %e = memref.reinterpret_cast %grid to offset: [0], sizes: [56, 58], strides: [58, 1]
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def LowerCopies : Pass<"aotc-lower-copies", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg copies (no memrefCopy calls)";
  let description = [{
    `memref.copy` between non-contiguous buffers lowers to a call of the
    `memrefCopy` runtime function, which the object must not need. This pass
    rewrites every `memref.copy` into a `linalg.generic` copy, which becomes
    plain (vectorizable) loops. With `vector-rows` (the CPU target), a static
    copy whose rows are contiguous on both sides becomes loops over its rows,
    each row copied with one vector transfer when at most 2048 bits long (the
    tiles of slice copies; LLVM keeps such short loops scalar), or in equal
    vector pieces of at least a quarter of that (a 224-float row as 4 x 56).
    A copy of at least 65536 elements outside every loop (bufferization's
    crop of a flattened grid before a matmul reads it collapsed), or of at
    least 8192 in a function with thread loops (a Winograd output cropped
    into a concatenation), has an scf.forall as its outer loop, so it runs on
    every thread, in the parallel region of the ops around it.

    Before:
    ```mlir
    memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
    ```
    After:
    ```mlir
    linalg.generic {...} ins(%a : ...) outs(%b : memref<4x4xf32>) { linalg.yield %in }
    ```
  }];
  let options = [
    Option<"vectorRows", "vector-rows", "bool", /*default=*/"false",
           "Copy short contiguous rows with vector transfers (CPU)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect", "mlir::ub::UBDialect",
                           "mlir::vector::VectorDialect"];
}

def BindSymbolicDims : Pass<"aotc-bind-symbolic-dims", "mlir::func::FuncOp"> {
  let summary = "Symbolic dimensions become index arguments of the entry point";
  let description = [{
    Runs after bufferization on entry points with symbols (`aotc.entry`
    `symbols`). Prepends one `index` argument per symbol (marked
    `aotc.symbol = "N"`), gives every dynamically shaped tensor argument the
    static type of its bound (so it stays a bare pointer at the ABI) and
    rebuilds its dynamic view with `memref.reinterpret_cast` from the symbol
    arguments, row-major and contiguous. Afterwards every size in the body is
    computed from the symbol arguments.

    Before (symbols = [N, max 16]):
    ```mlir
    func.func @f(%x: memref<?x4xf32>, %y: memref<?x4xf32>) { ... }
    ```
    After:
    ```mlir
    func.func @f(%n: index {aotc.symbol = "N"}, %x: memref<16x4xf32>,
                 %y: memref<16x4xf32>) {
      %xv = memref.reinterpret_cast %x to offset: [0], sizes: [%n, 4],
          strides: [4, 1] : memref<16x4xf32> to memref<?x4xf32>
      ...
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def PlanMemory : Pass<"aotc-plan-memory", "mlir::func::FuncOp"> {
  let summary = "Place every scratch buffer of an entry point in the pool";
  let description = [{
    Applies the static memory plan (compiler/lib/Analysis/MemoryPlan.cpp) to
    an entry point after bufferization: computes each top-level
    `memref.alloc`'s lifetime (its position to the last use of any alias),
    plans offsets, appends a `memref<Nxi8>` pool argument and replaces every
    allocation by a `memref.view` of the pool. Records the plan as
    `aotc.pool = {alignment, bytes, lower_bound, buffers}`. A buffer sized
    by symbolic dimensions is planned at their bounds; its view keeps the
    dynamic sizes and names its buffer (`aotc.slot`). A static scratch
    buffer in the body of a thread loop goes on the thread's stack (at most
    64 KiB) or, up to 768 KiB, into a pool buffer of one slot per tile,
    viewed at the tile's slot and marked `aotc.thread_slot` for
    aotc-partition-omp-loops to make it the thread's. An allocation whose
    size depends on anything else, or inside any other loop, is an error.

    Before:
    ```mlir
    func.func @f(%a: memref<16xf32>, %out: memref<16xf32>) {
      %t = memref.alloc() : memref<16xf32>
      ...
    ```
    After:
    ```mlir
    func.func @f(%a: memref<16xf32>, %out: memref<16xf32>, %pool: memref<64xi8>) {
      %c0 = arith.constant 0 : index
      %t = memref.view %pool[%c0][] : memref<64xi8> to memref<16xf32>
      ...
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Alignment of every buffer in the pool, in bytes">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def TestMemoryPlan : Pass<"aotc-test-memory-plan", "mlir::func::FuncOp"> {
  let summary = "Print the memory plan of each function (test only)";
  let description = [{
    Runs the pool planning analysis on a bufferized function without changing
    it and prints one line per buffer (`size`, `offset`, lifetime) plus the
    pool size and lower bound, for FileCheck.
  }];
}

def TestGpuLaunchToOmp : Pass<"aotc-test-gpu-launch-to-omp", "mlir::ModuleOp"> {
  let summary = "Run gpu.launch bodies on CPU threads (test only)";
  let description = [{
    Emulates kernels on a machine without a GPU: every `gpu.launch` becomes
    a loop over its blocks, each block an `omp.parallel` with one thread per
    GPU thread (thread ids from `omp_get_thread_num`; a smaller team fails
    a `cf.assert`), workgroup attributions a `memref.alloca` shared by the
    team and `gpu.barrier` an `omp.barrier`. Used by tests that compare the
    results of aotc's tiled kernels with an oracle. Matrix instructions run
    as the hardware defines them, independently of how aotc builds their
    operands: for `nvgpu.mma.sync` 16x8x16 (warps of 32 lanes) and
    `amdgpu.mfma` 16x16x16 (waves of 64 lanes) every lane writes its
    fragments into a scratch buffer of the block, `omp.barrier`, each lane
    computes its result elements from the A, B and C elements the PTX ISA
    (or CDNA ISA) layout assigns to the warp's lanes, `omp.barrier`.
    Kernels with both variants (`aotc.wgmma_variant`) run the one the
    `wgmma` option names. `nvvm.wgmma.mma_async` (m64nNk16, f16/bf16, f32
    accumulators, no swizzle) reads A and B from workgroup memory through
    its descriptors: workgroup attributions are then views of one byte
    buffer, the "shared window", and a descriptor's start address (bits
    0-13, address / 16 modulo 2^14) is taken relative to it, its leading
    (bits 16-29) and stride (bits 32-45) byte offsets place the core
    matrices; each thread computes the accumulator elements the PTX ISA
    assigns to it (warp w of the warpgroup: rows 16w + lane / 4 (+8), columns
    8j + 2 (lane % 4) (+1)). The wgmma fences, commit and wait are no-ops
    on CPU threads (the kernels' own barriers order the tiles).

    Before:
    ```mlir
    gpu.launch blocks(%bx, ...) in (%gx = %c2, ...) threads(%tx, ...) in (%sx = %c16, ...)
        workgroup(%t : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ... gpu.barrier ...
    }
    ```
    After:
    ```mlir
    %t = memref.alloca() : memref<16x64xf32>
    scf.for %bz ... { scf.for %by ... { scf.for %bx ... {
      omp.parallel num_threads(%n : i32) { ... omp.barrier ... omp.terminator }
    } } }
    ```
  }];
  let options = [
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "Run the wgmma variants of aotc-gpu-mma-contractions kernels "
           "(default: the mma.sync ones)">,
  ];
  let dependentDialects = ["mlir::omp::OpenMPDialect", "mlir::scf::SCFDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

//===----------------------------------------------------------------------===//
// CPU lowering
//===----------------------------------------------------------------------===//

def OptimizeVectorTransfers : Pass<"aotc-optimize-vector-transfers",
                                   "mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant vector transfers (register accumulators)";
  let description = [{
    After bufferization, hoists `vector.transfer_read`/`transfer_write` pairs
    on the same buffer out of the loops that do not change their indices, so
    matmul accumulators stay in registers across the reduction loop, and
    forwards stores to loads.

    Before:
    ```mlir
    scf.for %k = ... {
      %acc = vector.transfer_read %C[%i, %j] ...
      %r = vector.contract ... %acc
      vector.transfer_write %r, %C[%i, %j] ...
    }
    ```
    After:
    ```mlir
    %acc0 = vector.transfer_read %C[%i, %j] ...
    %acc = scf.for %k = ... iter_args(%acc1 = %acc0) { ... scf.yield %r }
    vector.transfer_write %acc, %C[%i, %j] ...
    ```
  }];
}

def PrefetchStridedRows : Pass<"aotc-prefetch-strided-rows",
                               "mlir::func::FuncOp"> {
  let summary = "Prefetch the rows a loop reads a KiB or more apart, two reads ahead";
  let description = [{
    Runs on the CPU after bufferization, once loops and views are folded
    into the transfers' indices. A `vector.transfer_read` directly in an
    `scf.for` that reads one contiguous row (every dimension but the
    innermost at one index, at least a cache line of lanes) of a static
    buffer of more than 64 KiB (smaller ones, such as a thread tile's im2col
    block, stay in L1 and L2 after their writes) and whose loop's induction
    variable indexes a dimension at least `min-row-bytes` apart (a register
    tile walking down the reduction of a right-hand side read in place: a
    1x1 convolution's input channels, one image apart) is preceded by a
    `memref.prefetch` of the same row two reads further along its innermost
    dimension, one per cache line of the read, the column clamped to the
    row. The tiles after the next one then find their rows in L1: the
    hardware prefetchers follow streams within a page, and such a loop
    starts a new page every one to four iterations. Measured on Zen 3
    (AVX2) in one process against the same code without prefetches, 1 / 2
    threads: squeezenet1_1's two squeeze layers over 55 x 55 images (rows
    12 KiB apart) 572 -> 377 us / 442 -> 262 us, MobileNetV2's 96 -> 24 and
    144 -> 24 projections over 56 x 56 600 -> 547 us / 527 -> 405 us,
    ResNet-18's Winograd contractions over 784 tiles (rows 3 KiB apart)
    0.86x the time at 1 thread. Rows 256 bytes apart gained nothing more.

    Before:
    ```mlir
    scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<16xf32>) {
      %b = vector.transfer_read %in[%k, %j], %pad : memref<64x3025xf32>, vector<16xf32>
      ...
    }
    ```
    After:
    ```mlir
    scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<16xf32>) {
      %j2 = affine.min affine_map<(d0) -> (d0 + 32, 3024)>(%j)
      memref.prefetch %in[%k, %j2], read, locality<3>, data : memref<64x3025xf32>
      %b = vector.transfer_read %in[%k, %j], %pad : memref<64x3025xf32>, vector<16xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"minRowBytes", "min-row-bytes", "int64_t", /*default=*/"1024",
           "Fewest bytes between the rows of consecutive iterations">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def LowerVectorOps : Pass<"aotc-lower-vector-ops", "mlir::func::FuncOp"> {
  let summary = "Lower high-level vector ops to 1-D vector arithmetic";
  let description = [{
    Progressively lowers `vector.contract` (to outer products / FMAs),
    `vector.multi_reduction`, `vector.transpose`, `vector.broadcast`, masks
    and transfers with permutation maps into 1-D vector operations that the
    LLVM conversion handles directly. A read with a constant innermost
    stride s > 1 (the window of a strided convolution or pool) becomes a
    contiguous read of the span through a stride-1 view of the same buffer
    plus one `vector.shuffle` per row (elements 0, s, 2s, ...), instead of
    one scalar load per element. A read of at most 8 contiguous elements
    each broadcast across the lanes (the broadcast operand of a register
    tile whose rows are contiguous in memory) becomes one read per element,
    which LLVM emits as broadcasting loads, instead of a vector load whose
    elements are splat by shuffles in registers the tile needs. The
    reduction of a single row (softmax's
    max and sum, once per row) is a halving tree of shuffles and elementwise
    ops, not one lane after the other, and unit dimensions of elementwise
    ops are dropped (a `vector<1x8x32x1xf32>` multiply of a batched
    contraction is an 8 x 32 multiply, not 256 one-lane ones). Last, the
    `arith.maxnumf` (`minnumf`) of a value provably never NaN (a max pool's
    accumulator: it starts at -inf and only takes numbers) and another
    becomes `x > acc ? x : acc` (`<`), the same value and one x86 max
    instruction instead of the general lowering's two compares, a mask or
    and a blend.

    First of all, a register tile's reduction loop (at least 256 steps)
    whose accumulator rows fill whole `vector-bits` registers but whose
    lanes do not (2 x 8 output channels by the 9 pixels of a 13 x 13 image
    past its last whole register) is accumulated transposed: one register
    of rows per lane, each step one multiply-add per lane with that lane's
    element broadcast and the rows' elements (two row panels' runs of 8
    read as one register), 9 instead of 16 per step; the accumulator is
    transposed in before the loop and back after it, with the same sums.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of one vector register in bits (register tiles whose "
           "rows fill whole registers and whose lanes do not are "
           "accumulated transposed)">,
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::ub::UBDialect",
                           "mlir::memref::MemRefDialect"];
}

def ApproximateMath : Pass<"aotc-approximate-math", "mlir::func::FuncOp"> {
  let summary = "Replace f32 transcendental math ops by polynomial approximations";
  let description = [{
    Applies MLIR's polynomial approximations to `math.exp`, `math.tanh`,
    `math.erf`, `math.log`, ... on f32 (scalars and vectors), so no libm call
    remains inside a loop. f64 ops are left for libm.

    Before: `%y = math.erf %x : vector<16xf32>`
    After: a vector polynomial of `arith` ops, no calls.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::math::MathDialect"];
}

def StreamingStores : Pass<"aotc-streaming-stores", "mlir::func::FuncOp"> {
  let summary = "Non-temporal vector stores for thread loops that only write buffers larger than the caches";
  let description = [{
    Runs on the CPU after vector lowering, before threads become OpenMP. An
    outermost `scf.forall` whose only uses of a static buffer of at least
    `min-bytes` are `vector.store`s whose offsets are multiples of their
    vector size (from constants, loop bounds and steps, affine maps and the
    buffer's static strides and offset) stores into it non-temporally: no
    read of each line before it is written (memory traffic of a loop that
    reads two such buffers and writes one drops by a quarter) and the lines
    it reads stay cached. The tensors of the ABI are only element-aligned,
    so the loop is versioned on the buffers' addresses: `scf.if` every
    address is a multiple of the vector size, the loop with
    `vector.store {nontemporal = true, alignment = N}` and an `llvm.fence`
    at the end of each iteration, a thread tile (non-temporal stores are weakly
    ordered), else the loop unchanged. Buffers read in the loop, partial or
    unaligned stores, and buffers below `min-bytes` (which a consumer may
    still find in the cache) are left alone.

    Before (min-bytes = 4096):
    ```mlir
    scf.forall (%i) = (0) to (64) step (8) {
      scf.for %j = %c0 to %c64 step %c16 {
        vector.store %v, %out[%i, %j] : memref<64x64xf32>, vector<16xf32>
      }
    }
    ```
    After:
    ```mlir
    %p = memref.extract_aligned_pointer_as_index %out
    scf.if (%p % 64 == 0) {
      scf.forall ... {
        vector.store %v, %out[%i, %j] {alignment = 64, nontemporal = true}
        ...
        llvm.fence seq_cst
      }
    } else {
      scf.forall ... { vector.store %v, %out[%i, %j] ... }
    }
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"33554432",
           "Smallest buffer stored non-temporally (default 32 MiB: more "
           "than the last-level cache of most CPUs, or than a core's share of it)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def OutlinePoolBytes : Pass<"aotc-outline-pool-bytes", "mlir::ModuleOp"> {
  let summary = "Generate NAME_pool_bytes(dims...) for symbolic entry points";
  let description = [{
    For each planned entry point with symbolic dimensions, creates the public
    function `NAME_pool_bytes(int64_t dims...) -> int64_t` the header
    declares: -1 when a dimension breaks a guard (outside `[1, bound]`, an
    `aotc.guards` equality, or a buffer larger than the slot planned for the
    bound), else the pool bytes these dimensions need (the largest end of a
    buffer, with the sizes computed by a copy of the entry point's own size
    arithmetic). The entry point wrapper calls it before any work.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect"];
}

def BindOmpNumThreads : Pass<"aotc-bind-omp-num-threads", "mlir::func::FuncOp"> {
  let summary = "Thread count of every omp.parallel from the entry point";
  let description = [{
    Appends an `i32` argument `num_threads` to each entry point (functions
    with `aotc.entry`) and makes it the `num_threads` clause of every
    `omp.parallel` in it, so the caller's `aot_cpu_stream_t` decides the
    thread count without touching global OpenMP state.

    Before:
    ```mlir
    func.func @f(%a: memref<4xf32>, %pool: memref<0xi8>) attributes {aotc.entry = ...} {
      omp.parallel { ... }
    ```
    After:
    ```mlir
    func.func @f(%a: memref<4xf32>, %pool: memref<0xi8>, %n: i32) ... {
      omp.parallel num_threads(%n : i32) { ... }
    ```
  }];
  let dependentDialects = ["mlir::omp::OpenMPDialect"];
}

def FlattenConstantGlobals : Pass<"aotc-flatten-constant-globals", "mlir::ModuleOp"> {
  let summary = "Constant globals of multi-dimensional arrays as flat arrays of the same bytes";
  let description = [{
    An `llvm.mlir.global` constant whose value is a dense tensor of rank 2 or
    more (of integers or floats of whole bytes, stored as the global's
    elements) gets the one-dimensional array type and value of the same
    elements in the same order. The translation to LLVM IR makes one LLVM
    constant per innermost row of a multi-dimensional value (ResNet-18's
    weights: over a million arrays of 3 to 16 elements, uniqued in the LLVM
    context, visited by the optimizer and the code generator, freed one by
    one), and one constant from the raw bytes of a flat one. The global's
    users see only its address (opaque pointers: each getelementptr names
    its own element type), so they are left as they are.

    Before:
    ```mlir
    llvm.mlir.global private constant @w(dense<...> : tensor<64x3x3xf32>)
        {alignment = 64 : i64} : !llvm.array<64 x array<3 x array<3 x f32>>>
    ```
    After:
    ```mlir
    llvm.mlir.global private constant @w(dense<...> : tensor<576xf32>)
        {alignment = 64 : i64} : !llvm.array<576 x f32>
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ElideOmpLoopBarriers : Pass<"aotc-elide-omp-loop-barriers", "mlir::func::FuncOp"> {
  let summary = "No barrier of its own for a worksharing loop that ends its parallel region";
  let description = [{
    An `omp.wsloop` that is the last operation of an `omp.parallel` region
    (one per thread loop, as convert-scf-to-openmp makes them) gets `nowait`:
    the region's end already waits for every thread, so the loop's own
    barrier (a second `__kmpc_barrier` per region, ~0.6 us at 2 threads
    here) only adds a wait. Loops with reductions keep theirs.

    Before:
    ```mlir
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) { ... }
      }
      omp.terminator
    }
    ```
    After:
    ```mlir
    omp.parallel {
      omp.wsloop nowait {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) { ... }
      }
      omp.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::omp::OpenMPDialect"];
}

def MergeParallelRegions : Pass<"aotc-merge-parallel-regions", "mlir::func::FuncOp"> {
  let summary = "Adjacent parallel regions as one, with a barrier between their parts";
  let description = [{
    An `omp.parallel` region followed by another with the same thread count
    takes in the second's body after an `omp.barrier`; each merged region
    then takes in the next, so a run of thread loops (one per op after
    aotc-distribute-to-forall) forks and joins the threads once. Of the ops
    between them, side-effect-free ones without regions that read none of
    the others' results (addresses, views, constants) move before the first
    region; the others, the sequential code between thread loops (a small
    op's loops, a remainder's contraction), run in an `omp.masked` (the
    primary thread) between two barriers, when none of their results is
    read after them (else the regions stay apart). A fork and join costs
    ~0.35 us at 2 threads here, a barrier ~0.1 us (libomp, C
    microbenchmark); each of the four models is one parallel region per
    call (11-13 before), mobilenet_v2 0.988x-0.994x the time at 2 threads,
    the others within noise (A/B in one process). Regions with other clauses
    (if, proc_bind, private, reduction, allocate) or several blocks, and
    sequential code holding OpenMP ops, are left alone.

    Before:
    ```mlir
    omp.parallel num_threads(%n : i32) { A; omp.terminator }
    %v = memref.subview ...
    omp.parallel num_threads(%n : i32) { B(%v); omp.terminator }
    scf.for ... { C }
    omp.parallel num_threads(%n : i32) { D; omp.terminator }
    ```
    After:
    ```mlir
    %v = memref.subview ...
    omp.parallel num_threads(%n : i32) {
      A; omp.barrier; B(%v); omp.barrier
      omp.masked { scf.for ... { C }; omp.terminator }
      omp.barrier; D; omp.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::omp::OpenMPDialect"];
}

def PartitionOmpLoops : Pass<"aotc-partition-omp-loops", "mlir::ModuleOp"> {
  let summary = "Each thread computes its own share of a worksharing loop";
  let description = [{
    An `omp.wsloop` directly in an `omp.parallel` region, with no clause but
    `nowait`, becomes a sequential `scf.for` over the calling thread's share
    of its iterations: the loop nest's iteration space is linearized and cut
    into `omp_get_num_threads()` contiguous ranges whose sizes differ by at
    most one, the first `total % threads` threads taking one more (the
    bounds libomp's static schedule gives), and each iteration's indices are
    recovered from its linear number. The region no longer calls
    `__kmpc_for_static_init` / `__kmpc_for_static_fini`, which in Debian 12's
    libomp (`libomp5-19`, a build with `KMP_DEBUG`) format their trace
    messages with `vsnprintf` on every call: ~0.25 us more per parallel
    region at 2 threads here. A loop without `nowait` keeps its barrier
    (`omp.barrier`); loops with reductions stay worksharing loops.

    Before:
    ```mlir
    omp.parallel {
      omp.wsloop nowait {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c4) { ... omp.yield }
      }
      omp.terminator
    }
    ```
    After:
    ```mlir
    omp.parallel {
      %t = func.call @omp_get_thread_num() : () -> i32
      %nt = func.call @omp_get_num_threads() : () -> i32
      ...
      scf.for %j = %first to %end step %c1 {
        %i = ... %c0 + %j * %c4
        ...
      }
      omp.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect", "mlir::omp::OpenMPDialect"];
}

def EmitEntryPoints : Pass<"aotc-emit-entry-points", "mlir::ModuleOp"> {
  let summary = "Generate the C ABI wrapper and NAME_info() of each entry point";
  let description = [{
    Runs on the LLVM dialect. For each `llvm.func @f` carrying `aotc.entry`
    (signature: bare tensor pointers, the pool pointer, the thread count), it
    renames the body `f_impl` with internal linkage and creates

    ```c
    aot_status_t f(const T *in..., T *out..., void *pool, size_t pool_bytes,
                   aot_stream_t stream);
    const aot_model_info_t *f_info(void);
    ```

    The wrapper checks every pointer (NULL, alignment), the pool (NULL,
    alignment, size) and the stream (`struct_size`) before running, so an
    error never writes an output, then calls the body with the stream's
    thread count (or `omp_get_max_threads()`).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target string stored in aot_model_info_t">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// GPU targets (CUDA, HIP)
//===----------------------------------------------------------------------===//

def TileGpuContractions : Pass<"aotc-tile-gpu-contractions",
                               "mlir::func::FuncOp"> {
  let summary = "Tile contractions through workgroup (shared) memory";
  let description = [{
    Runs on bufferized, planned entry points, before aotc-map-to-gpu. Every
    statically shaped linalg op with two inputs A, B and one output C whose
    loops split into batch loops (in A, B and C), M loops (A and C), N loops
    (B and C) and K reduction loops (A and B) -- matmul, batch_matmul,
    convolutions (an implicit GEMM: K = channels x window), generic
    contractions -- becomes one `gpu.launch`. The loops of each group are
    linearized (M, N, K); a block computes a BM x BN tile of C (grid x over
    N tiles, y over M tiles, z over batches). For each BK slice of K, all
    threads copy the A and B tiles into workgroup memory (consecutive
    threads on the operand's contiguous dimension, so global reads are
    coalesced), `gpu.barrier`, then each thread applies the payload to its
    RM x RN register tile (rows ty + i * threadsY, columns tx + j *
    threadsX: consecutive threads store consecutive columns), reading A and
    B from workgroup memory. Rows and columns past M or N read a clamped,
    valid element and are not stored; the last partial K slice runs only
    over its valid part. Tiles default to 64x64x16 (4x4 per thread, 16x16
    threads), powers of two no larger than the dimensions for small shapes.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<100x70xf32>, memref<70x300xf32>)
                  outs(%c : memref<100x300xf32>)
    ```
    After (grid 5 x 2, 16 x 16 threads):
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c5, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1)
        workgroup(%as : memref<16x65xf32, #gpu.address_space<workgroup>>,
                  %bs : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      // acc[4][4] = C[...]  (clamped reads)
      scf.for %k0 = %c0 to %c64 step %c16 iter_args(acc) {
        // as[kk][mm] = A[min(m0 + mm, 99)][k0 + kk], bs likewise
        gpu.barrier
        scf.for %kk = %c0 to %c16 ... { acc[i][j] = acc + as[kk][..] * bs[kk][..] }
        gpu.barrier
      }
      // last slice: k0 = 64, 6 steps; then guarded stores of acc into C
      gpu.terminator
    }
    ```
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Block tile M,N,K (powers of two; default: chosen per shape)">,
    Option<"allFunctions", "all-functions", "bool", /*default=*/"false",
           "Also functions that are not entry points (tests)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def GpuMmaContractions : Pass<"aotc-gpu-mma-contractions",
                              "mlir::func::FuncOp"> {
  let summary = "f16/bf16 matmuls on tensor cores (mma.sync, MFMA)";
  let description = [{
    Runs on bufferized, planned entry points, before
    aotc-tile-gpu-contractions. A statically shaped linalg op with two
    inputs A, B and one output C, one M, one N and one K loop plus any batch
    loops (matmul, batch_matmul, transposed variants, equivalent generics),
    f16 or bf16 inputs (both the same type), an f32 or input-typed output and
    the payload `C + A * B` (inputs possibly extended to f32 first) becomes a
    `gpu.launch` on matrix instructions. A block of 256 threads computes a
    64 x 64 tile of C (grid x over N tiles, y over M tiles, z over
    batches). For each 16-deep K slice all threads copy the A and B tiles
    into workgroup memory (4 elements of each per thread; elements past M,
    N or K read as zero), `gpu.barrier`, then every lane gathers its
    operand fragments from workgroup memory in the layout the instruction
    defines and issues it, accumulating in f32, `gpu.barrier`. Lanes store
    their accumulator elements (rows and columns past M or N are not
    stored), converted to C's type. Matrices smaller than one instruction
    tile, f32 (TF32 would change the numerics) and other payloads are left
    to aotc-tile-gpu-contractions. `target=nvgpu`: 2 x 4 warps of 32 x 16,
    `nvgpu.mma.sync` 16x8x16 (PTX `mma.sync.aligned.m16n8k16`, sm_80 and
    newer; bf16 through aotc-lower-bf16-mma-sync);
    `target=amdgpu`: 2 x 2 waves of 64 lanes, 32 x 32 each, `amdgpu.mfma`
    16x16x16 (CDNA2/3 `v_mfma_f32_16x16x16f16` / `bf16_1k`).

    `wgmma=1` (with target=nvgpu, for fatbins with sm_90): the kernel body
    is `scf.if %v { wgmma body } else { mma.sync body }` where `%v` is a
    zero-operand `builtin.unrealized_conversion_cast to i1` marked
    `aotc.wgmma_variant`, which aotc-select-cuda-variants resolves per
    chip. Same launch, same captured values, same workgroup attributions:
    the host side is one for both. The wgmma body: each warpgroup (4 warps)
    computes 64 x 32 of the block tile with one
    `nvvm.wgmma.mma_async` m64n32k16 per K slice (f32 accumulators, 16 per
    thread). The copy stores the A tile (64 x 16, rows m) and the B tile
    (64 x 16, rows n) in the K-major no-swizzle core-matrix layout (8 rows
    of 16 bytes per core matrix, 128 bytes apart along K, 256 bytes apart
    along M/N) inside the same workgroup buffers, then
    `nvvm.fence.proxy async.shared::cta`, `gpu.barrier`,
    `nvvm.wgmma.fence.aligned`, the wgmma on 64-bit shared-memory matrix
    descriptors built from the buffers' addresses, commit, wait 0,
    `gpu.barrier`.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x96xf16>)
                  outs(%c : memref<128x96xf32>)
    ```
    After (target=nvgpu, grid 2 x 2, 256 threads):
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
        workgroup(%as : memref<64x24xf16, #gpu.address_space<workgroup>>,
                  %bs : memref<16x72xf16, #gpu.address_space<workgroup>>) {
      // acc: 2 x 2 fragments vector<2x2xf32> loaded from C
      scf.for %k0 = %c0 to %c64 step %c16 iter_args(acc) {
        // as, bs = the A and B tiles (zero past the edges); gpu.barrier
        // fragments from as, bs, then 2 x 2 of
        %d = nvgpu.mma.sync(%fa, %fb, %acc) {mmaShape = [16, 8, 16]}
            : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        gpu.barrier
      }
      // guarded stores of the fragments into C
      gpu.terminator
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvgpu\"",
           "Matrix instructions: nvgpu (mma.sync) or amdgpu (MFMA)">,
    Option<"allFunctions", "all-functions", "bool", /*default=*/"false",
           "Also functions that are not entry points (tests)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "target=nvgpu: also a wgmma variant of every kernel (sm_90a), "
           "chosen later by aotc-select-cuda-variants">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::amdgpu::AMDGPUDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect"];
}

def LowerBf16MmaSync : Pass<"aotc-lower-bf16-mma-sync",
                            "mlir::gpu::GPUModuleOp"> {
  let summary = "bf16 nvgpu.mma.sync 16x8x16 to nvvm.mma.sync";
  let description = [{
    MLIR 22's convert-nvgpu-to-nvvm lowers `nvgpu.mma.sync` for f16 only.
    In the CUDA device stage, before it, every `nvgpu.mma.sync` of shape
    16x8x16 with bf16 A (vector<4x2xbf16>) and B (vector<2x2xbf16>) and f32
    C becomes `nvvm.mma.sync` with bf16 multiplicands (PTX
    `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`): each register
    (a row of two bf16) is bitcast to i32, the four f32 results are
    extracted from the returned struct into vector<2x2xf32>.

    Before:
    ```mlir
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    ```
    After:
    ```mlir
    %a0 = vector.extract %a[0] : vector<2xbf16> from vector<4x2xbf16>
    %w0 = vector.bitcast %a0 : vector<2xbf16> to vector<1xi32>
    %r0 = vector.extract %w0[0] : i32 from vector<1xi32>
    ...
    %s = nvvm.mma.sync A[%r0, %r1, %r2, %r3] B[%q0, %q1] C[%c0, %c1, %c2, %c3]
        {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
         multiplicandAPtxType = #nvvm.mma_type<bf16>,
         multiplicandBPtxType = #nvvm.mma_type<bf16>,
         shape = #nvvm.shape<m = 16, n = 8, k = 16>}
        : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %d0 = llvm.extractvalue %s[0] : !llvm.struct<(f32, f32, f32, f32)>
    ...
    ```
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

def GpuBlockReductions : Pass<"aotc-gpu-block-reductions",
                              "mlir::func::FuncOp"> {
  let summary = "Reductions along contiguous rows as block-level trees";
  let description = [{
    Runs on bufferized, planned entry points, before aotc-map-to-gpu. A
    statically shaped linalg op with one output whose loops are the
    output's (parallel) and reduction loops, reducing at least `min-extent`
    elements along the innermost dimension of the inputs it reads, and whose
    payload is `yield combine(value(inputs), acc)` with an associative,
    commutative combiner (addf, mulf, maximumf, minimumf, maxnumf, minnumf,
    addi, muli, max/min signed/unsigned, andi, ori, xori) becomes one
    `gpu.launch` with a block per output element: each thread combines the
    elements tid, tid + T, ... (coalesced), writes its partial into
    workgroup memory, then log2(T) halving steps between `gpu.barrier`s
    combine the partials and thread 0 combines the total into the output.
    Floating-point sums are reassociated, as in any parallel reduction.

    Before:
    ```mlir
    linalg.reduce ins(%x : memref<8x1000xf32>) outs(%s : memref<8xf32>)
        dimensions = [1] (%in: f32, %acc: f32) { %r = arith.addf %in, %acc ... }
    ```
    After (8 blocks of 256 threads):
    ```mlir
    gpu.launch blocks(%row, ...) in (%c8, ...) threads(%tid, ...) in (%c256, ...)
        workgroup(%p : memref<256xf32, #gpu.address_space<workgroup>>) {
      // partial = x[row][tid] + x[row][tid + 256] + x[row][tid + 512]
      //           (+ x[row][tid + 768] if tid < 232)
      memref.store %partial, %p[%tid]
      gpu.barrier
      // 8 steps: if tid < h: p[tid] = p[tid + h] + p[tid]; gpu.barrier
      // tid == 0: s[row] = p[0] + s[row]
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (a power of two)">,
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"64",
           "Fewest reduced elements per output worth a block">,
    Option<"allFunctions", "all-functions", "bool", /*default=*/"false",
           "Also functions that are not entry points (tests)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def MapToGpu : Pass<"aotc-map-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Map the loops of each entry point to GPU blocks and threads";
  let description = [{
    Runs on bufferized, planned entry points. Every linalg op becomes an
    `scf.parallel` nest with its parallel dimensions outermost (reduction
    dimensions become sequential `scf.for` loops inside). Each outermost
    parallel loop is collapsed into one dimension and tiled by `block-size`:
    the tile loop is mapped to `block_x`, the intra-tile loop to `thread_x`,
    so consecutive threads handle consecutive elements of the innermost
    dimension (coalesced). Memory work outside parallel loops (a reduction
    to a scalar, a rank-0 store) moves into a one-thread kernel, and every
    use of a global constant is re-read inside its loop so that kernel
    outlining places the constant in the device module.

    Before:
    ```mlir
    linalg.generic {iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x1000xf32>) outs(%b : memref<4x1000xf32>) {...}
    ```
    After:
    ```mlir
    scf.parallel (%blk) = (%c0) to (%c4000) step (%c256) {
      scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
        // i = (%blk + %t) / 1000, j = (%blk + %t) mod 1000, guarded < 4000
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect"];
}

def MergeGpuModules : Pass<"aotc-merge-gpu-modules", "mlir::ModuleOp"> {
  let summary = "Put every outlined kernel into one gpu.module";
  let description = [{
    Kernel outlining creates one `gpu.module` per kernel. This pass moves
    every kernel (and the globals they use, once each) into a single
    `gpu.module @aotc_kernels` and updates the `gpu.launch_func` references,
    so the artifact embeds one device image, loaded once per context.

    Before:
    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel {...} }
    gpu.module @f_kernel_0 { gpu.func @f_kernel_0(...) kernel {...} }
    gpu.launch_func @f_kernel::@f_kernel ...
    ```
    After:
    ```mlir
    gpu.module @aotc_kernels { gpu.func @f_kernel(...) kernel {...}
                               gpu.func @f_kernel_0(...) kernel {...} }
    gpu.launch_func @aotc_kernels::@f_kernel ...
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def ReserveTensorStaging : Pass<"aotc-reserve-tensor-staging",
                                "mlir::func::FuncOp"> {
  let summary = "Reserve pool space for the device copies of host tensors";
  let description = [{
    For GPU entry points whose inputs and outputs are host pointers, the
    call copies each tensor through the (device) pool. This pass appends one
    aligned slot per input and output after the planned scratch buffers,
    grows `aotc.pool` (`bytes`, `lower_bound`: the copies live for the whole
    call) and records the slot offsets as `staging`, inputs then outputs.
    The planned scratch offsets do not change.

    Before:
    ```mlir
    func.func @f(%x: memref<1000xf32>, %y: memref<1000xf32>, %pool: memref<64xi8>)
        attributes {aotc.pool = {alignment = 64, bytes = 64, lower_bound = 64, ...}}
    ```
    After:
    ```mlir
        attributes {aotc.pool = {alignment = 64, bytes = 8128, lower_bound = 8128,
                                 staging = array<i64: 64, 4096>, ...}}
    ```
  }];
}

def VerifyGpuKernels : Pass<"aotc-verify-gpu-kernels", "mlir::gpu::GPUModuleOp"> {
  let summary = "Report kernel ops that have no GPU lowering, naming them";
  let description = [{
    Runs on a `gpu.module` after `convert-gpu-to-nvvm` (or `-rocdl`). Every
    op must then belong to the llvm, nvvm or rocdl dialect; the first one
    that does not is an error at its source location, e.g.

    ```mlir
    %y = math.ctlz %a : i32
    // error: 'math.ctlz' has no GPU lowering (in kernel code)
    ```
  }];
}

def AttachCudaTargets : Pass<"aotc-attach-cuda-targets", "mlir::ModuleOp"> {
  let summary = "One NVVM target per chip; wgmma kernel variants for sm_90a";
  let description = [{
    First pass of the CUDA device stage (in place of one
    `nvvm-attach-target` per chip). Every `gpu.module` gets one
    `#nvvm.target<O = O, chip = C, features = F>` per chip of `chips`, as
    `nvvm-attach-target` would attach them. Kernels with two bodies
    (`scf.if` on a value marked `aotc.wgmma_variant`, built by
    aotc-gpu-mma-contractions with `wgmma=1`) are resolved first, since
    NVVM's verifier rejects wgmma ops in a module with any target other
    than sm_90a: when `chips` holds `sm_90`, the module is cloned into
    `@<name>_sm_90a` with the single target `sm_90a` (wgmma exists only on
    that arch-specific target) and the clone keeps the wgmma branches, with
    128-byte aligned workgroup buffers (shared-memory matrix descriptors
    address 16-byte units); the original keeps the mma.sync branches and
    every chip's target (sm_90's PTX stays the portable one). Without sm_90
    only the mma.sync branches remain. aotc-link-cuda-fatbin then takes
    sm_90's SASS from the clone, assembled for sm_90a. The host side is
    unchanged: both modules define the same kernels with the same
    arguments. A chip that LLVM's NVPTX backend rejects with an older PTX
    version gets the first one it accepts instead of `features`: 8.6 for
    sm_100/101, 8.7 for sm_120, 8.8 for sm_103/121 and the family targets
    (sm_100f, ...), 9.0 for sm_88, sm_110 and newer.

    Before (chips=sm_80,sm_90):
    ```mlir
    gpu.module @k {
      gpu.func @f(...) workgroup(...) kernel {
        %v = builtin.unrealized_conversion_cast to i1 {aotc.wgmma_variant}
        scf.if %v { ... nvvm.wgmma.mma_async ... } else { ... nvgpu.mma.sync ... }
      }
    }
    ```
    After:
    ```mlir
    gpu.module @k [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">,
                   #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
      gpu.func @f(...) workgroup(...) kernel { ... nvgpu.mma.sync ... }
    }
    gpu.module @k_sm_90a [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
      gpu.func @f(...) workgroup(...) kernel { ... nvvm.wgmma.mma_async ... }
    }
    ```
  }];
  let options = [
    ListOption<"chips", "chips", "std::string", "SM architectures (sm_80,...)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "Optimization level of the NVPTX backend">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features (PTX 8.0 is the first that knows sm_90; raised per "
           "chip for newer chips)">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::NVVM::NVVMDialect",
                           "mlir::scf::SCFDialect"];
}

def LinkCudaFatbin : Pass<"aotc-link-cuda-fatbin", "mlir::ModuleOp"> {
  let summary = "Assemble per-chip PTX into one fatbin with the CUDA toolkit";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}` with one `#nvvm.target` per
    chip. For every `gpu.binary`, it assembles each chip's PTX with the
    toolkit's `ptxas` into a cubin and packs all cubins, plus the PTX of the
    newest chip (for JIT on later GPUs), into one fatbin with `fatbinary`.
    A binary `@<name>_sm_90a` (aotc-select-cuda-variants) supplies the
    SASS of sm_90 for `@<name>`, assembled for sm_90a; it is then erased.
    The binary then holds that single fatbin object. A missing toolkit or
    tool is an error naming the path that was searched.

    Before:
    ```mlir
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "...">,
                   #gpu.object<#nvvm.target<chip = "sm_90">, assembly = "...">]
    ```
    After:
    ```mlir
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "...">]
    ```
  }];
  let options = [
    Option<"toolkitPath", "toolkit-path", "std::string",
           /*default=*/"\"/usr/local/cuda\"",
           "CUDA toolkit directory (holds bin/ptxas and bin/fatbinary)">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def HoistDeviceConstants
    : Pass<"aotc-hoist-device-constants", "mlir::ModuleOp"> {
  let summary = "Keep large device-module constants once, in host data";
  let description = [{
    Runs before the device modules are lowered. A constant `memref.global`
    of a `gpu.module` (a weight) of at least `min-bytes` bytes would be
    written into the code object of every chip (and, as text, into the
    PTX): a model's weights two to three times over in the object, and
    `ptxas` parsing them once per chip. Instead, its value moves to a
    private constant `memref.global` of the host module named
    `__aotc_<module>_<global>` (64-byte aligned), and the device global
    becomes a public, uninitialised, writable global of the same type, which
    no code object stores. The host module's `aotc.device_globals`
    dictionary maps each device module to `[device symbol, host global,
    bytes]` triples; `aotc-emit-gpu-entry-points` passes them to
    `aot_<cuda|hip>_get_function_with_globals`, which fills the device
    globals from the host data when it loads the module (once per context).

    Before:
    ```mlir
    gpu.module @kernels {
      memref.global "private" constant @w : memref<512x512xf32> = dense<...>
    }
    ```
    After:
    ```mlir
    module attributes {aotc.device_globals = {kernels = [["w", @__aotc_kernels_w, 1048576]]}} {
      memref.global "private" constant @__aotc_kernels_w : memref<512x512xf32> = dense<...> {alignment = 64 : i64}
      gpu.module @kernels {
        memref.global @w : memref<512x512xf32> = uninitialized
      }
    }
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024",
           "Constants smaller than this stay in the device module">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def LinkHipBundle : Pass<"aotc-link-hip-bundle", "mlir::ModuleOp"> {
  let summary = "Pack per-chip AMDGPU code objects into one offload bundle";
  let description = [{
    Runs after `gpu-module-to-binary{format=bin}` with one `#rocdl.target`
    per chip. Every `gpu.binary` then holds a single clang offload bundle
    (`__CLANG_OFFLOAD_BUNDLE__`, an empty host entry and one
    `hipv4-amdgcn-amd-amdhsa--<chip>` entry per code object), the image
    `hipModuleLoadData` selects the running GPU's code object from.

    Before:
    ```mlir
    gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF...">,
                   #gpu.object<#rocdl.target<chip = "gfx942">, bin = "\7FELF...">]
    ```
    After:
    ```mlir
    gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx90a">,
                               bin = "__CLANG_OFFLOAD_BUNDLE__...">]
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def EmitGpuEntryPoints : Pass<"aotc-emit-gpu-entry-points", "mlir::ModuleOp"> {
  let summary = "Generate the host side of GPU entry points (thin runtime calls)";
  let description = [{
    Runs on the LLVM dialect after `gpu-to-llvm`, with one `gpu.binary`
    holding the device image. The image becomes a constant global with a
    zero-initialised module cache (`aot_gpu_module_cache_t`); every
    `gpu.launch_func` becomes `aot_<runtime>_get_function` +
    `aot_<runtime>_launch` on the caller's stream, returning the first
    failing status. Each entry point body gets the stream and returns a
    status; the public wrapper checks every argument first (an error writes
    no output), then, for host tensors, copies the inputs into their pool
    slots (`aotc.pool` `staging`), runs, copies the outputs back and
    synchronises the stream; with `on-device-tensors` it only enqueues.
    `NAME_info()` is emitted as on the CPU.

    ```c
    aot_status_t f(const float *x, float *y, void *pool, size_t pool_bytes,
                   aot_stream_t stream);  /* CUstream / hipStream_t */
    ```
  }];
  let options = [
    Option<"runtime", "runtime", "std::string", /*default=*/"\"cuda\"",
           "Thin runtime to call: cuda or hip">,
    Option<"target", "target", "std::string", /*default=*/"\"cuda\"",
           "Target string stored in aot_model_info_t">,
    Option<"onDeviceTensors", "on-device-tensors", "bool", /*default=*/"false",
           "Inputs and outputs are device pointers (no copies, no sync)">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // AOTC_TRANSFORMS_PASSES
