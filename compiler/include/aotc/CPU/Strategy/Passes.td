//===- Passes.td - aotc CPU/Strategy passes ----------------*- tablegen -*-===//
//
// Declares the passes of the CPU strategy selection. Each pass lives in its own
// file under compiler/lib/CPU/Strategy/ and has a lit test in
// tests/lit/CPU/Strategy/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_STRATEGY_PASSES
#define AOTC_CPU_STRATEGY_PASSES

include "mlir/Pass/PassBase.td"

def SelectCpuStrategy : Pass<"aotc-select-cpu-strategy", "mlir::ModuleOp"> {
  let summary = "Choose one convolution path per op and record it as `aotc.strategy`";
  let description = [{
    The one place where the CPU target decides how a windowed op is
    computed. For every linalg op it evaluates the preconditions of the
    convolution paths (aotc/CPU/Convolutions/Paths.h) in their order of
    preference and records the first that holds:

    | path               | pass carrying it out               |
    |--------------------|------------------------------------|
    | `pointwise-matmul` | aotc-pointwise-conv-to-matmul      |
    | `winograd`         | aotc-winograd-convolutions         |
    | `channel-lanes`    | aotc-channel-lane-convolutions     |
    | `im2col`           | aotc-im2col-convolutions           |
    | `stride-phases`    | aotc-split-stride-phases           |
    | `flat-image`       | aotc-flatten-convolution-images    |
    | `flat-depthwise`   | aotc-flatten-convolution-images    |
    | `peeled-windows`   | aotc-peel-padded-windows           |
    | `column-phases`    | aotc-split-tile-phases             |
    | `direct`           | aotc-vectorize-convolutions only   |

    `column-phases` depends on the thread tiles the op will get
    (aotc::ThreadTiling with `min-work` and `max-tiles`, as
    aotc-select-cpu-tiles will plan them): each must pad its window of the
    input in a buffer of its own (aotc::tilePadPays).

    Each of those passes rewrites the ops recorded for it and leaves ops
    recorded for another path alone; ops without a record (made by an
    earlier path's rewrite) are matched by its precondition. With
    `generic=1` every windowed op is recorded `generic`: no specialised path
    rewrites it (the tensor pipeline also leaves out row-reduction splitting
    and operand packing), a debugging aid and a numerical oracle for the
    paths.

    ```mlir
    %0 = linalg.generic {...} ins(%x, %w : tensor<1x64x58x58xf32>, ...)  // 3x3 conv
    // becomes
    %0 = linalg.generic {..., aotc.strategy = "winograd"} ins(%x, %w : ...)
    ```

    With `table=FILE` (`-` for stdout) the pass also writes one line per
    linalg op: function, location, op, loop ranges, path (or the kind of a
    non-windowed op) and the reason (`aotc --dump-dir` writes
    NAME.strategy.txt).
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the module's "
           "aotc.cpu_target)">,
    Option<"winograd", "winograd", "bool", /*default=*/"true",
           "Consider Winograd F(4x4, 3x3) or F(2x2, 3x3) for 3x3 stride-1 convolutions">,
    Option<"winogradMinChannels", "winograd-min-channels", "int64_t",
           /*default=*/"32",
           "Input and output channels Winograd needs (as aotc-winograd-convolutions' min-channels)">,
    Option<"generic", "generic", "bool", /*default=*/"false",
           "Record the generic path for every windowed op">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Iterations below which an op is not distributed (as "
           "aotc-distribute-to-forall's min-work)">,
    Option<"maxTiles", "max-tiles", "int64_t", /*default=*/"64",
           "Upper bound on the number of parallel tiles (as "
           "aotc-distribute-to-forall's max-tiles)">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "Write the strategy table to this file ('-': stdout)">,
  ];
}

def SelectCpuPacking : Pass<"aotc-select-cpu-packing", "mlir::ModuleOp"> {
  let summary = "Choose the operand layouts of every contraction and record them as `aotc.packing`";
  let description = [{
    Runs right before aotc-pack-contraction-operands, on the contractions
    the convolution paths and aotc-normalize-contractions left: for every
    contraction it makes the packing decision of the strategy
    (aotc::planPacking in aotc/CPU/Tiling/Packing.h: the operand layouts
    the pack pass can rewrite and the rules transposesLanes, packsRuntimeRhs
    and packsLhs of aotc/CPU/Strategy/Tiles.h) and records it with the loop
    ranges it was made for:

    | field           | aotc-pack-contraction-operands does                 |
    |-----------------|-----------------------------------------------------|
    | `transpose`     | computes the output transposed, then plans anew     |
    | `rhs`           | right-hand side in column panels                    |
    | `lhs`           | left-hand side in row panels (of the whole panels)  |
    | `remainder_lhs` | the same for the columns past the last whole panel  |

    each `none`, `compile-time` (a constant, packed by the compiler) or
    `run-time` (a copy before the contraction).

    ```mlir
    %0 = linalg.matmul ins(%a, %w : tensor<256x512xf32>, tensor<512x512xf32>) ...
    // becomes (%w a constant)
    %0 = linalg.matmul {aotc.packing = {lhs = "none",
        ranges = array<i64: 256, 512, 512>, remainder_lhs = "none",
        rhs = "compile-time"}} ...
    ```

    With `table=FILE` (`-` for stdout) the pass appends one line per
    contraction to the strategy table: function, location, op, loop ranges,
    `packing:` and the decision.
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the module's "
           "aotc.cpu_target)">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "Append the packing decisions to the strategy table in this file "
           "('-': stdout)">,
  ];
}

def SelectCpuTiles : Pass<"aotc-select-cpu-tiles", "mlir::ModuleOp"> {
  let summary = "Choose the thread tiles of every op and record them as `aotc.tiles`";
  let description = [{
    Runs right before aotc-distribute-to-forall, on the ops the convolution
    paths, row-reduction splitting and packing left: for every statically
    shaped linalg op directly in a function body it makes the thread-tile
    decision of the strategy (aotc::ThreadTiling::plan in
    aotc/CPU/Strategy/Tiles.h, a function of the op's loops, operands and
    the options below) and records it with the loop ranges it was made for:

    | kind              | aotc-distribute-to-forall does                   |
    |-------------------|--------------------------------------------------|
    | `sequential`      | nothing: too little work for threads             |
    | `tiles`           | one scf.forall of tiles `threads` (0: untiled)   |
    | `parts`           | the same tiles for every part of one op          |
    | `split-even`      | split at `split` = [loop, at]; parts planned anew |
    | `split-remainder` | split at `split`; each part tiled on its own     |
    | `split-rows`      | the rows past the last register tile split off   |

    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x512xf32>)
                       outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
    // becomes
    %0 = linalg.matmul {aotc.tiles = {kind = "tiles",
                                      ranges = array<i64: 256, 512, 512>,
                                      threads = array<i64: 64, 256, 0>}} ...
    ```

    aotc-distribute-to-forall carries out the recorded plan of an op whose
    loop ranges are still those recorded; ops made after this pass ran (the
    parts of a split op, a consumer rebuilt in another shape) are decided
    there by the same functions. With `table=FILE` (`-` for stdout) the pass
    appends one line per op to the strategy table: function, location, op,
    loop ranges, `threads:` and the decision.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Iterations below which an op is not distributed (as "
           "aotc-distribute-to-forall's min-work)">,
    Option<"maxTiles", "max-tiles", "int64_t", /*default=*/"64",
           "Upper bound on the number of parallel tiles (as "
           "aotc-distribute-to-forall's max-tiles)">,
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the module's "
           "aotc.cpu_target)">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "Append the thread tiles to the strategy table in this file "
           "('-': stdout)">,
  ];
}

def SelectRegisterTiles : Pass<"aotc-select-register-tiles", "mlir::ModuleOp"> {
  let summary = "Choose the register tiles and cache blocks of every op and record them as `aotc.register_tiles`";
  let description = [{
    Runs right before aotc-tile-and-vectorize, on the ops the thread loops
    and aotc-split-register-remainders left (a thread loop's body holds one
    tile of its op): for every statically shaped linalg op that
    aotc-tile-and-vectorize vectorizes (aotc::vectorLanesOf) it makes the
    register-level decision of the strategy (aotc::planRegisters in
    aotc/CPU/Strategy/Tiles.h): the lanes, the register tile sizes, a
    contraction's cache blocks, or a split of a long row at its last whole
    register first. It records them with the loop ranges they were made
    for:

    ```mlir
    %0 = linalg.matmul ins(... : tensor<64x512xf32>, tensor<512x256xf32>) ...
    // becomes
    %0 = linalg.matmul {aotc.register_tiles = {cache = array<i64: 0, 0, 512>,
        lanes = 16 : i64, ranges = array<i64: 64, 256, 512>,
        registers = array<i64: 8, 32, 1>}} ...
    ```

    aotc-tile-and-vectorize carries out the recorded plan of an op whose
    loop ranges are still those recorded; ops made after this pass ran (the
    parts of a split row, cache blocks, fused producers) are decided there
    by the same functions. With `table=FILE` (`-` for stdout) the pass
    appends one line per op to the strategy table: function, location, op,
    loop ranges, `registers:` and the decision.
  }];
  let options = [
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: the module's "
           "aotc.cpu_target)">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "Append the register tiles to the strategy table in this file "
           "('-': stdout)">,
  ];
}

#endif // AOTC_CPU_STRATEGY_PASSES
