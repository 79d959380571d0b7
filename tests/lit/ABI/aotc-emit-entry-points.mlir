// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-emit-entry-points | FileCheck %s
// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-emit-entry-points=target=cuda:sm_80 | FileCheck %s --check-prefix=TARGET

// One entry point: x f32[2,3] in, y i64[] out, a 128-byte pool aligned to 64.
// The body becomes internal `__aotc_model_impl`; the public `model` checks its
// arguments, reads the thread count from the stream and calls the body.

// CHECK-LABEL: llvm.func internal @__aotc_model_impl(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-NOT:     aotc.entry
// CHECK-SAME:    aotc.pool
// CHECK:         llvm.store

// aot_status_t model(const float *x, int64_t *y, void *pool, size_t pool_bytes,
//                    aot_stream_t stream)
// CHECK-LABEL: llvm.func @model(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr, %[[Y:.*]]: !llvm.ptr, %[[POOL:.*]]: !llvm.ptr, %[[BYTES:.*]]: i64, %[[STREAM:.*]]: !llvm.ptr) -> i32
// CHECK-SAME:    aotc.entry = {inputs = [{dtype = "f32", name = "x"

// pool_bytes < 128 -> AOT_ERROR_POOL_TOO_SMALL (2)
// CHECK:         %[[C128:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK:         %[[SMALL:.*]] = llvm.icmp "ult" %[[BYTES]], %[[C128]] : i64
// CHECK:         %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         %[[S0:.*]] = llvm.select %[[SMALL]], %[[C2]], %{{.*}} : i1, i32
// pool NULL or not 64-aligned -> AOT_ERROR_INVALID_ARGUMENT (1), which wins
// CHECK:         %[[PI:.*]] = llvm.ptrtoint %[[POOL]] : !llvm.ptr to i64
// CHECK:         llvm.icmp "eq" %[[PI]], %{{.*}} : i64
// CHECK:         %[[M63:.*]] = llvm.mlir.constant(63 : i64) : i64
// CHECK:         llvm.and %[[PI]], %[[M63]] : i64
// CHECK:         %[[S1:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[S0]] : i1, i32
// x: NULL or not 4-aligned (f32)
// CHECK:         %[[XI:.*]] = llvm.ptrtoint %[[X]] : !llvm.ptr to i64
// CHECK:         %[[M3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK:         llvm.and %[[XI]], %[[M3]] : i64
// CHECK:         %[[S2:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[S1]] : i1, i32
// y: NULL or not 8-aligned (i64)
// CHECK:         %[[YI:.*]] = llvm.ptrtoint %[[Y]] : !llvm.ptr to i64
// CHECK:         %[[M7:.*]] = llvm.mlir.constant(7 : i64) : i64
// CHECK:         llvm.and %[[YI]], %[[M7]] : i64
// CHECK:         %[[S3:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[S2]] : i1, i32
// any error: return it before touching anything
// CHECK:         %[[BAD:.*]] = llvm.icmp "ne" %[[S3]], %{{.*}} : i32
// CHECK:         llvm.cond_br %[[BAD]], ^[[DONE:bb[0-9]+]](%[[S3]] : i32), ^[[CHECKSTREAM:bb[0-9]+]]
// stream NULL -> default threads (0)
// CHECK:       ^[[CHECKSTREAM]]:
// CHECK:         %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[ISNULL:.*]] = llvm.icmp "eq" %[[STREAM]], %[[NULL]] : !llvm.ptr
// CHECK:         llvm.cond_br %[[ISNULL]], ^[[BODY:bb[0-9]+]](%{{.*}} : i32), ^[[LOAD:bb[0-9]+]]
// aot_cpu_stream_t: struct_size must be 8, then num_threads at offset 4
// CHECK:       ^[[LOAD]]:
// CHECK:         %[[SIZE:.*]] = llvm.load %[[STREAM]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK:         %[[TP:.*]] = llvm.getelementptr %[[STREAM]][1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK:         %[[THREADS:.*]] = llvm.load %[[TP]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:         %[[WRONG:.*]] = llvm.icmp "ne" %[[SIZE]], %[[C8]] : i32
// CHECK:         llvm.cond_br %[[WRONG]], ^[[DONE]](%{{.*}} : i32), ^[[BODY]](%[[THREADS]] : i32)
// threads <= 0 -> omp_get_max_threads()
// CHECK:       ^[[BODY]](%[[T:.*]]: i32):
// CHECK:         %[[DEF:.*]] = llvm.icmp "sle" %[[T]], %{{.*}} : i32
// CHECK:         %[[MAX:.*]] = llvm.call @omp_get_max_threads() : () -> i32
// CHECK:         %[[N:.*]] = llvm.select %[[DEF]], %[[MAX]], %[[T]] : i1, i32
// CHECK:         llvm.call @__aotc_model_impl(%[[X]], %[[Y]], %[[POOL]], %[[N]])
// CHECK:         llvm.br ^[[DONE]](%{{.*}} : i32)
// CHECK:       ^[[DONE]](%[[STATUS:.*]]: i32):
// CHECK:         llvm.return %[[STATUS]] : i32
// CHECK:       llvm.func @omp_get_max_threads() -> i32

// The info structs (aot_tensor_info_t[], aot_model_info_t).
// CHECK:       llvm.mlir.global internal constant @__aotc_model_name("model\00")
// CHECK:       llvm.mlir.global internal constant @__aotc_model_target("cpu\00")
// CHECK:       llvm.mlir.global internal constant @__aotc_model_inputs_0_name("x\00")
// CHECK:       llvm.mlir.global internal constant @__aotc_model_inputs_0_shape(dense<[2, 3]> : tensor<2xi64>) {{.*}} : !llvm.array<2 x i64>
// CHECK:       llvm.mlir.global internal constant @__aotc_model_inputs() {{.*}} : !llvm.array<1 x struct<(ptr, i32, i32, ptr)>>
// CHECK:         llvm.mlir.addressof @__aotc_model_inputs_0_name
// dtype AOT_DTYPE_F32 = 1, rank 2
// CHECK-NEXT:    llvm.insertvalue %{{.*}}[0]
// CHECK-NEXT:    llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.insertvalue %{{.*}}[1]
// CHECK-NEXT:    llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    llvm.insertvalue %{{.*}}[2]
// CHECK-NEXT:    llvm.mlir.addressof @__aotc_model_inputs_0_shape
// CHECK:       llvm.mlir.global internal constant @__aotc_model_outputs_0_name("y\00")
// CHECK-NOT:   @__aotc_model_outputs_0_shape
// CHECK:       llvm.mlir.global internal constant @__aotc_model_outputs() {{.*}} : !llvm.array<1 x struct<(ptr, i32, i32, ptr)>>
// dtype AOT_DTYPE_I64 = 9, rank 0, shape NULL
// CHECK:         llvm.mlir.addressof @__aotc_model_outputs_0_name
// CHECK-NEXT:    llvm.insertvalue %{{.*}}[0]
// CHECK-NEXT:    llvm.mlir.constant(9 : i32) : i32
// CHECK-NEXT:    llvm.insertvalue %{{.*}}[1]
// CHECK-NEXT:    llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.insertvalue %{{.*}}[2]
// CHECK-NEXT:    llvm.mlir.zero : !llvm.ptr
// { abi_version 1, name, target, 1 input, 1 output, inputs, outputs, 128, 64 }
// CHECK:       llvm.mlir.global internal constant @__aotc_model_info() {{.*}} : !llvm.struct<(i32, ptr, ptr, i32, i32, ptr, ptr, i64, i32)>
// CHECK-NEXT:    llvm.mlir.undef
// CHECK-NEXT:    llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.mlir.addressof @__aotc_model_name
// CHECK-NEXT:    llvm.mlir.addressof @__aotc_model_target
// CHECK-NEXT:    llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.mlir.addressof @__aotc_model_inputs
// CHECK-NEXT:    llvm.mlir.addressof @__aotc_model_outputs
// CHECK-NEXT:    llvm.mlir.constant(128 : i64) : i64
// CHECK-NEXT:    llvm.mlir.constant(64 : i32) : i32
// const aot_model_info_t *model_info(void)
// CHECK:       llvm.func @model_info() -> !llvm.ptr {
// CHECK-NEXT:    %[[I:.*]] = llvm.mlir.addressof @__aotc_model_info : !llvm.ptr
// CHECK-NEXT:    llvm.return %[[I]] : !llvm.ptr

// TARGET-LABEL: llvm.func @model(
// TARGET:       llvm.mlir.global internal constant @__aotc_model_target("cuda:sm_80\00")
module {
  llvm.func @model(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = array<i64: 2, 3>}], name = "model",
                    outputs = [{dtype = "i64", name = "y", shape = array<i64>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 64, 0, 0, 3>], bytes = 128 : i64, lower_bound = 128 : i64}} {
    %c = llvm.mlir.constant(7 : i64) : i64
    llvm.store %c, %y : i64, !llvm.ptr
    llvm.return
  }
}

// -----

// No pool: no pool check at all (the pool may be NULL). Byte-sized elements
// (i8, i1) only get a NULL check. Two entry points share one declaration of
// omp_get_max_threads; other functions are left alone.

// CHECK-LABEL: llvm.func internal @__aotc_first_impl(
// CHECK-LABEL: llvm.func @first(
// CHECK-SAME:    %[[A:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: !llvm.ptr, %[[POOL:[^:]*]]: !llvm.ptr, %[[BYTES:[^:]*]]: i64, %{{.*}}: !llvm.ptr) -> i32
// CHECK-NOT:     %[[BYTES]]
// CHECK-NOT:     llvm.ptrtoint %[[POOL]]
// CHECK:         %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr to i64
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[NULL:.*]] = llvm.icmp "eq" %[[AI]], %[[Z]] : i64
// CHECK-NEXT:    llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.select %[[NULL]]
// CHECK:         llvm.ptrtoint %[[B]]
// CHECK:         llvm.call @__aotc_first_impl(%[[A]], %[[B]], %[[POOL]], %{{.*}})
// CHECK-LABEL: llvm.func @helper(
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func internal @__aotc_second_impl(
// CHECK-LABEL: llvm.func @second(
// CHECK:         llvm.call @omp_get_max_threads()
// CHECK:         llvm.call @__aotc_second_impl(
// CHECK:       llvm.func @omp_get_max_threads() -> i32
// CHECK-NOT:   llvm.func @omp_get_max_threads
// CHECK-LABEL: llvm.func @first_info()
// CHECK:       llvm.mlir.global internal constant @__aotc_second_inputs() {{.*}} : !llvm.array<0 x struct<(ptr, i32, i32, ptr)>>
// CHECK-LABEL: llvm.func @second_info()
// CHECK-NOT:   llvm.func @omp_get_max_threads
module {
  llvm.func @first(%a: !llvm.ptr, %b: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "i8", name = "a", shape = array<i64: 4>}], name = "first",
                    outputs = [{dtype = "i1", name = "b", shape = array<i64: 4>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
    llvm.return
  }
  llvm.func @helper(%a: !llvm.ptr) {
    llvm.return
  }
  llvm.func @second(%a: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [], name = "second",
                    outputs = [{dtype = "f64", name = "r", shape = array<i64: 1>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry point body does not have the expected signature (symbols..., tensor pointers..., pool, num_threads)}}
  llvm.func @no_threads(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}], name = "no_threads",
                    outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry point body does not have the expected signature (symbols..., tensor pointers..., pool, num_threads)}}
  llvm.func @not_pointer(%x: i64, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}], name = "not_pointer",
                    outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry point has no memory plan (aotc.pool)}}
  llvm.func @no_plan(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}], name = "no_plan",
                    outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]}} {
    llvm.return
  }
}

// -----

// Malformed records (hand-written IR; aotc-verify-input rejects both
// attributes in aotc's input): one error each, no crash.
module {
  // expected-error @+1 {{malformed name: is missing}}
  llvm.func @no_name(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}],
                    outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{malformed shape: has an unexpected type}}
  llvm.func @bad_shape(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = [4]}], name = "bad_shape",
                    outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 0 : i64, lower_bound = 0 : i64}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{malformed buffers: holds a buffer that is not four integers}}
  llvm.func @short_buffer(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = {inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}], name = "short_buffer",
                    outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}]},
      aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 0, 64>], bytes = 64 : i64, lower_bound = 64 : i64}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{malformed aotc.entry: is not a dictionary}}
  llvm.func @not_dictionary(%x: !llvm.ptr, %y: !llvm.ptr, %pool: !llvm.ptr, %n: i32) attributes {
      aotc.entry = "model"} {
    llvm.return
  }
}
