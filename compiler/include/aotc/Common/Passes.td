//===- Passes.td - aotc Common passes ----------------------*- tablegen -*-===//
//
// Declares the passes of target-neutral tensor and buffer passes. Each pass
// lives in its own file under compiler/lib/Common/ and has a lit test in
// tests/lit/Common/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_COMMON_PASSES
#define AOTC_COMMON_PASSES

include "mlir/Pass/PassBase.td"

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

def GrowConcatsInPlace : Pass<"aotc-grow-concats-in-place", "mlir::func::FuncOp"> {
  let summary = "Concatenations that extend each other as slices of one tensor";
  let description = [{
    A concatenation (a chain of `tensor.insert_slice`s into a `tensor.empty`
    along one dimension, covering it) whose parts begin with all the parts
    of an earlier one in the same block, every use of which comes before
    it (DenseNet: `[x]`, `[x, f1]`, `[x, f1, f2]`, ...), is built by
    inserting only its new parts into the tensor the earlier one was built
    in; all of them are inserts into one `tensor.empty` of the last one's
    size, and each concatenation is an `extract_slice` of its first
    elements. Bufferization then writes each part once, in place, where
    every concatenation used to copy all the parts before it.

    Before:
    ```mlir
    %a0 = tensor.insert_slice %x into %e0[0, 0] [1, 64] [1, 1]
    %a = tensor.insert_slice %f1 into %a0[0, 64] [1, 32] [1, 1]    // 1x96
    ... uses of %a ...
    %b0 = tensor.insert_slice %x into %e1[0, 0] [1, 64] [1, 1]
    %b1 = tensor.insert_slice %f1 into %b0[0, 64] [1, 32] [1, 1]
    %b = tensor.insert_slice %f2 into %b1[0, 96] [1, 32] [1, 1]    // 1x128
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<1x128xf32>
    %t0 = tensor.insert_slice %x into %e[0, 0] [1, 64] [1, 1]
    %t1 = tensor.insert_slice %f1 into %t0[0, 64] [1, 32] [1, 1]
    %a = tensor.extract_slice %t1[0, 0] [1, 96] [1, 1]
    ... uses of %a ...
    %b = tensor.insert_slice %f2 into %t1[0, 96] [1, 32] [1, 1]
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
    thread loops).
    First, a static slice of a `tensor.empty` taken in an `scf.forall` the
    empty tensor is outside of (a thread tile's im2col buffer) becomes an
    empty tensor of its own in the loop: as a slice of a tensor every
    thread writes, bufferization computed the tile in a copy, and each part
    the tile is written in (SqueezeNet's 111-wide im2col rows: 96 + 15
    columns) in one more buffer copied in.

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

def LowerExternCalls : Pass<"aotc-lower-extern-calls", "mlir::ModuleOp"> {
  let summary = "Extern kernels write their results into planned buffers";
  let description = [{
    After one-shot bufferization, a call of an extern kernel (a private
    declaration carrying `aotc.extern`, include/aot_abi/aot_extern.h)
    returns memrefs the callee would allocate. Each result becomes a
    `memref.alloc` before the call (planned in the pool by
    aotc-plan-memory, or replaced by the entry point's out-parameter), with
    one more for the kernel's scratch bytes, and the call becomes a call
    without results of `__aotc_extern_NAME(inputs..., outputs...,
    [scratch])`, whose `aotc.extern` also records the operands' types
    (aotc-emit-extern-calls builds the C call from them).

    Before:
    ```mlir
    %r = call @swish(%x) : (memref<4x8xf32>) -> memref<4x8xf32>
    ```
    After:
    ```mlir
    %r = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
    call @__aotc_extern_swish(%x, %r) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
    ```

    With `device-operands` (GPU targets, where the kernel gets device
    pointers), an operand that is a constant (`memref.get_global`, host
    data) is first copied into a buffer of its own, a copy the GPU stages
    turn into a kernel reading the constant's device copy.
  }];
  let options = [
    Option<"deviceOperands", "device-operands", "bool", /*default=*/"false",
           "Copy constant operands into buffers (GPU targets)">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def StageExternOutputs : Pass<"aotc-stage-extern-outputs",
                              "mlir::func::FuncOp"> {
  let summary = "Pool slots for the outputs of entry points calling extern kernels";
  let description = [{
    An extern kernel that fails ends the call with its status, and the
    caller's outputs must then be as they were. An entry point (with static
    shapes) that calls extern kernels therefore gets one aligned slot per
    output after its planned scratch buffers: `aotc.pool` grows (`bytes`,
    `lower_bound`) and records the offsets as `output_staging`.
    aotc-emit-entry-points has the body compute the outputs there and
    copies them to the caller's buffers once the body returned AOT_OK. The
    planned scratch offsets do not change; entry points without extern
    calls are left alone.

    Before:
    ```mlir
    func.func @f(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %pool: memref<384xi8>)
        attributes {aotc.pool = {alignment = 64, bytes = 384, lower_bound = 384, ...}}
      ... call @__aotc_extern_k(...) ...
    ```
    After:
    ```mlir
        attributes {aotc.pool = {alignment = 64, bytes = 512, lower_bound = 512,
                                 output_staging = array<i64: 384>, ...}}
    ```
  }];
}

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
    A copy of at least twice `min-parallel-work` elements (65536) outside
    every loop (bufferization's crop of a flattened grid before a matmul
    reads it collapsed), or of at least a quarter of it (8192, the share
    from which aotc-distribute-to-forall threads ops without reductions) in
    a function with thread loops (a Winograd output cropped into a
    concatenation), has an scf.forall as its outer loop, so it runs on every
    thread, in the parallel region of the ops around it.

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
    Option<"minParallelWork", "min-parallel-work", "int64_t",
           /*default=*/"32768",
           "aotc-distribute-to-forall's min-work, which the copies' thresholds follow">,
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
    64 KiB) or, up to three quarters of the target's L2 (768 KiB of 1 MiB),
    into a pool buffer of one slot per tile, viewed at the tile's slot and
    marked `aotc.thread_slot` for aotc-partition-omp-loops to make it the
    thread's. An allocation whose size depends on anything else, or inside
    any other loop, is an error.

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

#endif // AOTC_COMMON_PASSES
