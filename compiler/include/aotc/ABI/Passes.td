//===- Passes.td - aotc ABI passes -------------------------*- tablegen -*-===//
//
// Declares the passes of the C ABI: entry point wrappers, header and manifest.
// Each pass lives in its own file under compiler/lib/ABI/ and has a lit test in
// tests/lit/ABI/.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_ABI_PASSES
#define AOTC_ABI_PASSES

include "mlir/Pass/PassBase.td"

def EmitExternCalls : Pass<"aotc-emit-extern-calls", "mlir::ModuleOp"> {
  let summary = "Call the user's extern kernels through aot_extern.h's C signature";
  let description = [{
    Runs on the LLVM dialect, before aotc-emit-entry-points. Each call of a
    lowered extern declaration (aotc-lower-extern-calls:
    `__aotc_extern_NAME(ptr inputs..., ptr outputs..., [ptr scratch])`,
    whose `aotc.extern` holds the symbol, the operands' memref types, the
    attributes' JSON and the scratch bytes) becomes

    ```c
    status = SYMBOL(inputs, num_inputs, outputs, num_outputs, attributes,
                    scratch, scratch_bytes, &(aot_cpu_stream_t){8, threads});
    if (status != AOT_OK) return status;
    ```

    with the aot_extern_tensor_t arrays on the stack and the shapes and
    JSON as constant globals. The entry point's body then returns an i32
    status (0 where it returned before).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
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
    thread count (or `omp_get_max_threads()`). A body that calls extern
    kernels returns their status; with `aotc.pool` `output_staging`
    (aotc-stage-extern-outputs) it computes the outputs in those pool slots,
    which the wrapper copies to the caller's buffers only when the status
    is 0.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target string stored in aot_model_info_t">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
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
    Calls of extern kernels (as aotc-emit-extern-calls builds them) get
    their device buffers and the caller's stream; a failing one's status is
    the entry point's. `NAME_info()` is emitted as on the CPU.

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

#endif // AOTC_ABI_PASSES
