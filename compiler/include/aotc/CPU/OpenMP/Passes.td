//===- Passes.td - aotc CPU/OpenMP passes ------------------*- tablegen -*-===//
//
// Declares the passes of CPU OpenMP regions and thread loops. Each pass lives
// in its own file under compiler/lib/CPU/OpenMP/ and has a lit test in
// tests/lit/CPU/OpenMP/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_CPU_OPENMP_PASSES
#define AOTC_CPU_OPENMP_PASSES

include "mlir/Pass/PassBase.td"

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

def ElideOmpLoopBarriers : Pass<"aotc-elide-omp-loop-barriers", "mlir::func::FuncOp"> {
  let summary = "No barrier of its own for a worksharing loop that ends its parallel region";
  let description = [{
    An `omp.wsloop` that is the last operation of an `omp.parallel` region
    (one per thread loop, as convert-scf-to-openmp makes them) gets `nowait`:
    the region's end already waits for every thread, so the loop's own
    barrier (a second `__kmpc_barrier` per region) only adds a wait. Loops
    with reductions keep theirs.

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
    read after them (else the regions stay apart). A barrier costs a
    fraction of a fork and join in libomp; each of the four models becomes
    one parallel region per call (11 to 13 before). Regions with other
    clauses (if, proc_bind, private, reduction, allocate) or several blocks,
    and sequential code holding OpenMP ops, are left alone.

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
    messages with `vsnprintf` on every call, a cost paid again for every
    parallel region. A loop without `nowait` keeps its barrier
    (`omp.barrier`); loops with reductions stay worksharing loops.

    The last `1/dynamic-tail` of each thread's share is handed out at run
    time instead: a thread that has run its static iterations claims the
    next of its own tail's iterations through an atomic counter, then those
    of the next threads' tails (at most 4 tails: its own and 3 others).
    Threads that run at different speeds (a busy or slower core, another
    process) then finish together, while threads that keep pace each run
    just their own range, as the static schedule does (their data stays in
    their caches from one loop to the next). Each counter is visited by a known
    number of threads, each of which ends with exactly one failed claim, so
    the thread whose claim is the counter's last resets it to zero; the
    barrier after the loop orders that before the next loop's claims. Only
    loops followed by a barrier (their own, or the region's end) have a
    dynamic tail. The counters, one per 64-byte line for at most 256 threads,
    are a stack array of the function, zeroed at its entry; threads numbered
    256 or more keep their static share.

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
  let options = [
    Option<"dynamicTail", "dynamic-tail", "int64_t", /*default=*/"4",
           "Each thread's last 1/N iterations are claimed at run time by "
           "whichever thread is free (0: a static share only)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect", "mlir::omp::OpenMPDialect"];
}

#endif // AOTC_CPU_OPENMP_PASSES
