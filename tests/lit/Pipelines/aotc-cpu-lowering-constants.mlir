// RUN: aotc-opt %s -aotc-cpu-lowering | FileCheck %s

// Weights reach LLVM as flat arrays (aotc-flatten-constant-globals): one
// LLVM constant each when translated, not one per innermost row.
// CHECK: llvm.mlir.global private constant @weights(dense<{{.*}}> : tensor<64xf32>) {{.*}} : !llvm.array<64 x f32>
// CHECK-NOT: llvm.mlir.global {{.*}}!llvm.array<4 x array<16 x f32>>
memref.global "private" constant @weights : memref<4x16xf32> = dense<0.5> {alignment = 64 : i64}
func.func @model(%out: memref<4x16xf32>, %pool: memref<64xi8> {aotc.name = "pool"})
    attributes {aotc.entry = {inputs = [], name = "model",
                              outputs = [{dtype = "f32", name = "out", shape = array<i64: 4, 16>}]},
                aotc.pool = {alignment = 64 : i64, buffers = [], bytes = 64 : i64, lower_bound = 0 : i64}} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %w = memref.get_global @weights : memref<4x16xf32>
  %p = ub.poison : f32
  %v = vector.transfer_read %w[%c1, %c0], %p {in_bounds = [true]} : memref<4x16xf32>, vector<16xf32>
  vector.transfer_write %v, %out[%c1, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
  return
}
