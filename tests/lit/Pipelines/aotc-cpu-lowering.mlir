// RUN: aotc-opt %s -aotc-cpu-lowering | FileCheck %s
// RUN: aotc-opt %s -aotc-cpu-lowering | FileCheck %s --check-prefix=NONE
// RUN: aotc-opt %s -pass-pipeline='builtin.module(aotc-cpu-lowering{target=cpu-test})' | FileCheck %s --check-prefix=TARGET

// A bufferized, planned entry point: an scf.forall over row tiles running a
// linalg op, then vector code through a pool buffer. Everything ends up in
// the LLVM dialect (plus omp ops, translated with the module): the forall is
// an OpenMP parallel region with the caller's thread count in which each
// thread loops over its own share of the tiles, the linalg op plain
// loops, f32 tanh/exp polynomials, and the C ABI wrapper is generated.

// CHECK:       llvm.func @omp_get_max_threads() -> i32
// CHECK-LABEL: llvm.func internal @__aotc_model_impl(
// CHECK-SAME:    %[[A:[^:]*]]: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr, %[[POOL:[^:]*]]: !llvm.ptr {aotc.name = "pool"}, %[[N:[^:]*]]: i32 {aotc.name = "num_threads"})
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT:      llvm.call @omp_get_thread_num() : () -> i32
// CHECK:           llvm.call @omp_get_num_threads() : () -> i32
// CHECK:           llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:           llvm.intr.fma
// CHECK:           llvm.store %{{.*}} : f32, !llvm.ptr
// CHECK:           omp.terminator
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK:         llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// Through the pool buffer at offset 0 (the store and the load are left to
// LLVM, which forwards the value).
// CHECK:         llvm.store %{{.*}}, %{{.*}} {{.*}} : vector<16xf32>, !llvm.ptr
// CHECK:         %[[W:.*]] = llvm.load %{{.*}} {{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK:         llvm.store %[[W]], %{{.*}} : vector<16xf32>, !llvm.ptr
// CHECK:         llvm.return

// CHECK-LABEL: llvm.func @model(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: !llvm.ptr) -> i32
// CHECK:         llvm.call @omp_get_max_threads()
// CHECK:         llvm.call @__aotc_model_impl(
// CHECK:       llvm.mlir.global internal constant @__aotc_model_target("cpu\00")
// CHECK:       llvm.func @model_info() -> !llvm.ptr

// No high-level op and no libm call is left anywhere.
// NONE-NOT:   func.func
// NONE-NOT:   memref.
// NONE-NOT:   scf.
// NONE-NOT:   vector.
// NONE-NOT:   math.
// NONE-NOT:   linalg.
// NONE-NOT:   @tanhf
// NONE-NOT:   @expf
// NONE-NOT:   unrealized_conversion_cast
// NONE-NOT:   omp.wsloop

// TARGET: llvm.mlir.global internal constant @__aotc_model_target("cpu-test\00")
func.func @model(%a: memref<64x16xf32>, %out: memref<64x16xf32>, %pool: memref<128xi8> {aotc.name = "pool"})
    attributes {aotc.entry = {inputs = [{dtype = "f32", name = "a", shape = array<i64: 64, 16>}], name = "model",
                              outputs = [{dtype = "f32", name = "out", shape = array<i64: 64, 16>}]},
                aotc.pool = {alignment = 64 : i64, buffers = [array<i64: 64, 0, 0, 2>], bytes = 128 : i64, lower_bound = 64 : i64}} {
  %c0 = arith.constant 0 : index
  %tmp = memref.view %pool[%c0][] : memref<128xi8> to memref<16xf32>
  scf.forall (%i) = (0) to (64) step (16) {
    %s = memref.subview %a[%i, 0] [16, 16] [1, 1] : memref<64x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
    %o = memref.subview %out[%i, 0] [16, 16] [1, 1] : memref<64x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
    linalg.exp ins(%s : memref<16x16xf32, strided<[16, 1], offset: ?>>) outs(%o : memref<16x16xf32, strided<[16, 1], offset: ?>>)
  }
  %p = ub.poison : f32
  %v = vector.transfer_read %out[%c0, %c0], %p {in_bounds = [true]} : memref<64x16xf32>, vector<16xf32>
  %t = math.tanh %v : vector<16xf32>
  vector.transfer_write %t, %tmp[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  %w = vector.transfer_read %tmp[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  vector.transfer_write %w, %out[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
  return
}
