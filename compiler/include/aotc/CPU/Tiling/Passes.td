//===- Passes.td - aotc CPU/Tiling passes ------------------*- tablegen -*-===//
//
// Declares the passes of CPU threads, cache blocks, register tiles and packing.
// Each pass lives in its own file under compiler/lib/CPU/Tiling/ and has a lit
// test in tests/lit/CPU/Tiling/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_TILING_PASSES
#define AOTC_CPU_TILING_PASSES

include "mlir/Pass/PassBase.td"

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
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def NormalizeContractions : Pass<"aotc-normalize-contractions",
                                 "mlir::func::FuncOp"> {
  let summary = "Contractions with one reduction loop and one row loop where they allow it";
  let description = [{
    Runs before the packing strategy (aotc-select-cpu-packing,
    aotc-pack-contraction-operands), which needs a contraction's one
    reduction loop. A static contraction with unit reduction loops besides
    its real one (a classifier's [1, 1, C] activations times [N, 1, C]
    weights, as Flatten + Gemm leave it) loses them; one whose reduction
    runs over several adjacent loops that every operand reads as adjacent
    dimensions in the same order (attention heads x head width in a
    transformer's output projection: [64, 4, 64] activations times
    [256, 4, 64] weights) has them collapsed into one. So do a contraction's
    adjacent row loops (all of the output's loops of one kind, M or N, but
    the lanes, its innermost) in a function body: a Linear layer on a
    channels-last image ([1, 7, 7, 768] activations times [768, 3072]
    weights) gets 49 rows, so that its thread tiles split the columns and
    read each weight panel once for the whole image. Constant operands
    reshaped by any of these are folded into reshaped constants.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "parallel", "reduction",
                                      "reduction"]}
        ins(%x, %w : tensor<64x4x64xf32>, tensor<256x4x64xf32>) ...
    // becomes
    linalg.generic {iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x2, %w2 : tensor<64x256xf32>, tensor<256x256xf32>) ...
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def MergeTransposeLoops : Pass<"aotc-merge-transpose-loops",
                               "mlir::func::FuncOp"> {
  let summary = "Transposes with the loops they move together merged into one";
  let description = [{
    Runs before the thread and register tiles are chosen. A static
    transpose (an all-parallel op that reads an input through a permutation
    other than the identity) whose adjacent loops every operand reads as
    adjacent dimensions in the same order has them collapsed into one loop
    when that group holds the innermost loop or a transposed one and at
    least two of its loops are not unit: the image rows and columns of a
    channel block moved behind its 16 channels ([C / 16, 16, 1, 14, 14] ->
    [C / 16, 1, 14, 14, 16], as aotc-channel-lane-convolutions packs a
    depthwise convolution's input) become one loop of 196 pixels, so that
    the register tiles are whole squares of lanes x lanes (the register
    plan splits off the 4 pixels past the last whole register,
    aotc::planRegisters) rather than 14 x 16 tiles of part registers, which
    LLVM's shuffles transpose at a third of the speed. Only ops in a
    function body whose operands are whole buffers (results of ops, function
    arguments, constants, through reshapes; tensors that slices were
    inserted into, as a peeled window op's parts) and whose result is not
    inserted into a larger tensor: a collapse of a slice would need a copy.

    ```mlir
    linalg.transpose ins(%x : tensor<30x16x14x14xf32>)
                     outs(%e : tensor<30x14x14x16xf32>) permutation = [0, 2, 3, 1]
    // becomes, through collapse_shape / expand_shape views:
    linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d2, d1),
                                     (d0, d1, d2) -> (d0, d1, d2)]}
        ins(%x2 : tensor<30x16x196xf32>) outs(%e2 : tensor<30x196x16xf32>)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
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
    contraction whose lanes are few (a 7x7 image's 49 pixels, less
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

    Each contraction is rewritten as its `aotc.packing` record says
    (aotc-select-cpu-packing); one without a record for its loop ranges (a
    contraction computed transposed, or this pass run alone) is decided here
    by the same function, aotc::planPacking. Contractions come with one
    reduction loop (aotc-normalize-contractions).

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
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
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
    parallel region. It carries out the plan aotc-select-cpu-tiles recorded
    on an op (`aotc.tiles`) when the op's loop ranges are still those of the
    record; other ops (made by a split) are decided here by the same
    functions of the strategy (aotc/CPU/Strategy/Tiles.h), whose rules
    follow. Tile counts are divisors of the dimensions so every tile
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
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target; contractions' thread "
           "tiles hold whole register tiles of aotc::contractionRows)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def SplitRegisterRemainders : Pass<"aotc-split-register-remainders",
                                   "mlir::func::FuncOp"> {
  let summary = "Split contractions into parts of whole register tiles";
  let description = [{
    Splits every statically shaped contraction that
    aotc-tile-and-vectorize vectorizes into static parts whose rows and
    columns are whole register tiles (8 or 7 rows x 2 registers with
    512-bit registers, 6 or 5 rows otherwise), so that the register tiles
    chosen next (aotc-select-register-tiles) are those of the parts: 197
    rows become 192 + 5, 49 columns 32 + 16 + 1 (a vector a little wider
    than a register is lowered element by element), row panels that a
    register tile's span does not divide 30 + 1. Each part computes its own
    init producer and elementwise consumer. aotc-tile-and-vectorize does
    the same for a function given to it alone.

    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<197x64xf32>, tensor<64x64xf32>) ...
    // becomes
    %0 = linalg.matmul ins(... : tensor<192x64xf32>, tensor<64x64xf32>) ...
    %1 = linalg.matmul ins(... : tensor<5x64xf32>, tensor<64x64xf32>) ...
    ```
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def TileAndVectorize : Pass<"aotc-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile linalg ops to register-sized tiles and vectorize them";
  let description = [{
    Tiles every statically shaped linalg op with `scf.for` loops so that each
    tile fits the vector registers (innermost dimension one register of
    `vector-bits`), using divisors of the dimensions so tiles stay static,
    then vectorizes the tile with the upstream linalg vectorizer. It
    carries out the register tiles and cache blocks aotc-select-register-
    tiles recorded on an op (`aotc.register_tiles`) when the op's loop
    ranges are still those of the record; other ops (parts, cache blocks,
    fused producers) are decided here by the same functions of the
    strategy (aotc/CPU/Strategy/Tiles.h), whose rules follow.
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
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect"];
}

#endif // AOTC_CPU_TILING_PASSES
