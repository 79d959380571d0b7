//===- Passes.td - aotc CPU/Lowering passes ----------------*- tablegen -*-===//
//
// Declares the passes of CPU vector, math and store lowering. Each pass lives
// in its own file under compiler/lib/CPU/Lowering/ and has a lit test in
// tests/lit/CPU/Lowering/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_LOWERING_PASSES
#define AOTC_CPU_LOWERING_PASSES

include "mlir/Pass/PassBase.td"

def OptimizeVectorTransfers : Pass<"aotc-optimize-vector-transfers",
                                   "mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant vector transfers (register accumulators)";
  let description = [{
    After bufferization, hoists `vector.transfer_read`/`transfer_write` pairs
    on the same buffer out of the loops that do not change their indices, so
    matmul accumulators stay in registers across the reduction loop.

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
  let summary = "Prefetch rows a loop reads a KiB or more apart, and streams of weights";
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
    starts a new page every one to four iterations. This pays on 1x1
    convolutions onto few channels over 55 x 55 and 56 x 56 images (rows
    12 KiB apart) and on Winograd contractions over 784 tiles (rows 3 KiB
    apart); prefetching rows 256 bytes apart as well gains nothing more.

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

    Weights: a read in an `scf.for` of unit step from a constant
    (`memref.get_global`) of more than 64 KiB, whose induction variable
    indexes a dimension of which the read takes every inner element (a
    packed left-hand side panel down the reduction: one contiguous block per
    iteration), is preceded by a prefetch 4 KiB further along the flattened
    buffer (clamped to its end). Weights of a few hundred KiB per layer do
    not stay in the caches between runs of a model; the hardware
    prefetchers fetched them too late (regnet_x_400mf's 400 -> 400 1x1
    convolutions at 7 x 7: 0.12 ms in the model, 0.074 ms alone).
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
    contraction is an 8 x 32 multiply, not 256 one-lane ones). A math op
    or division on an n-D vector of at most one register whose rows are 2
    to a quarter of a register wide (a 7 x 2 tile of a Winograd output
    transform writing two phases, with its SiLU) runs on the vector's 1-D
    shape cast, and so do the elementwise ops that take its flat result:
    LLVM holds an n-D vector as one register per row, so each step of an
    exp polynomial would run seven times on two lanes. A lone cheap op
    (a ReLU's max) and loop-carried values stay per row: reshaping them
    costs more than it saves. Last, the
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
    Option<"vectorBitsOption", "vector-bits", "int64_t", /*default=*/"0",
           "Width of one vector register in bits (0: the module's "
           "aotc.cpu_target; register tiles whose "
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

def MaskPartialVectors : Pass<"aotc-mask-partial-vectors",
                              "mlir::func::FuncOp"> {
  let summary = "Loads of a partial register as masked ones";
  let description = [{
    Runs on the CPU after vector lowering. A 1-D `vector.load` whose lanes
    past its last whole register are not a power of two (14 of 16 floats:
    an image row of 28 in vectors of 14) would be split by LLVM into
    power-of-two pieces (loads of 8, 4 and 2 floats and two inserts). When
    the target's rule (aotc::maskedAccessLanes: AVX-512, 32- and 64-bit
    elements) says so, it becomes a `vector.maskedload` of the next power of
    two of lanes past the whole registers, the extra lanes masked off (never
    read), one instruction per register. Stores stay as they are: a loop
    that loads the row after one it stored with a mask waits for that store
    to retire.

    Before (AVX-512):
    ```mlir
    %v = vector.load %m[%i, %j] : memref<28x28xf32>, vector<14xf32>
    ```
    After:
    ```mlir
    %mask = vector.constant_mask [14] : vector<16xi1>
    %w = vector.maskedload %m[%i, %j], %mask, %zero
        : memref<28x28xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    %v = vector.extract_strided_slice %w
        {offsets = [0], sizes = [14], strides = [1]}
        : vector<16xf32> to vector<14xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def OutlineThreadLoops : Pass<"aotc-outline-thread-loops", "mlir::ModuleOp"> {
  let summary = "Move each top-level thread loop into a function of its own";
  let description = [{
    Runs on the CPU before the function passes of vector lowering, so that
    MLIR's pass manager runs them on several threads: a model is one entry
    point, and its hundreds of thread loops would otherwise be lowered one
    after the other. `aotc-inline-thread-loops` puts them back before the
    loops become OpenMP regions; the two passes change no computation.

    Each `scf.forall` without results directly in a function's entry block
    moves into a new private function marked `aotc.thread_loop`, called
    where the loop was. The values the loop uses that are defined in the
    entry block by ops free of memory effects and regions (constants, views
    of the pool, `memref.get_global`, index arithmetic) are recomputed in
    the new function from its own arguments, in their original order, so
    the passes that read them (static layouts, constant weights, known
    divisors) see what they saw in place; every other value (function
    arguments, allocations, values of effectful ops) becomes an argument.
    Loops nested in other ops and loops with results stay where they are.

    Before:
    ```mlir
    func.func @main(%pool: memref<4096xi8>) {
      %c0 = arith.constant 0 : index
      %v = memref.view %pool[%c0][] : memref<4096xi8> to memref<1024xf32>
      scf.forall (%i) in (4) { ... %v ... }
      return
    }
    ```
    After:
    ```mlir
    func.func @main(%pool: memref<4096xi8>) {
      %c0 = arith.constant 0 : index
      %v = memref.view %pool[%c0][] : memref<4096xi8> to memref<1024xf32>
      call @main__thread_loop0(%pool) : (memref<4096xi8>) -> ()
      return
    }
    func.func private @main__thread_loop0(%pool: memref<4096xi8>)
        attributes {aotc.thread_loop} {
      %c0 = arith.constant 0 : index
      %v = memref.view %pool[%c0][] : memref<4096xi8> to memref<1024xf32>
      scf.forall (%i) in (4) { ... %v ... }
      return
    }
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def InlineThreadLoops : Pass<"aotc-inline-thread-loops", "mlir::ModuleOp"> {
  let summary = "Put the loops aotc-outline-thread-loops moved back in place";
  let description = [{
    The inverse of `aotc-outline-thread-loops`: each call of a function
    marked `aotc.thread_loop` is replaced by that function's body (its
    single block, without the return), its arguments mapped to the call's
    operands, and the functions are erased. The values the outlining
    recomputed appear twice afterwards; `cse` folds them. A marked function
    of more than one block, with results, or still used after its calls
    are replaced is an error (a pass in between broke the contract).
  }];
}

#endif // AOTC_CPU_LOWERING_PASSES
