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
    | `direct`           | aotc-vectorize-convolutions only   |

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
           "Consider Winograd F(2x2, 3x3) for 3x3 stride-1 convolutions">,
    Option<"winogradMinChannels", "winograd-min-channels", "int64_t",
           /*default=*/"32",
           "Input and output channels Winograd needs (as aotc-winograd-convolutions' min-channels)">,
    Option<"generic", "generic", "bool", /*default=*/"false",
           "Record the generic path for every windowed op">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "Write the strategy table to this file ('-': stdout)">,
  ];
}

#endif // AOTC_CPU_STRATEGY_PASSES
