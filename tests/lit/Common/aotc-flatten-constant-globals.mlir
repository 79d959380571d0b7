// RUN: aotc-opt %s -aotc-flatten-constant-globals | FileCheck %s
// RUN: aotc-opt %s -aotc-flatten-constant-globals | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// A constant global of a multi-dimensional dense value becomes a flat array
// of the same elements in the same order; its users (the address, and
// getelementptrs that name the nested type themselves) are unchanged.
// CHECK-LABEL: llvm.mlir.global private constant @weights(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<6 x f32>
// CHECK-LABEL: llvm.mlir.global private constant @bytes(dense<{{\[}}1, 2, 3, 4]> : tensor<4xi8>) {addr_space = 0 : i32} : !llvm.array<4 x i8>
// Left as they are: a one-dimensional value, a mutable global, bits (i1 is
// stored bit-packed), index elements (not the global's element type).
// CHECK-LABEL: llvm.mlir.global private constant @row(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
// CHECK-LABEL: llvm.mlir.global private @mutable(dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x f32>>
// CHECK-LABEL: llvm.mlir.global private constant @bits(dense<{{\[\[}}true, false]]> : tensor<1x2xi1>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x i1>>
// CHECK-LABEL: llvm.mlir.global private constant @indices(dense<{{\[\[}}1, 2]]> : tensor<1x2xindex>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x i64>>
// CHECK-LABEL: llvm.func @second_row
// CHECK:         llvm.getelementptr %{{.*}}[0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>

// One LLVM constant from the raw data, not one per row.
// LLVM: @weights = private constant [6 x float] [float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00, float 5.000000e+00, float 6.000000e+00], align 64
// LLVM: @bytes = private constant [4 x i8] c"\01\02\03\04"
// LLVM: load float, ptr getelementptr inbounds nuw (i8, ptr @weights, i64 12)

llvm.mlir.global private constant @weights(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<3 x f32>>
llvm.mlir.global private constant @bytes(dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi8>) {addr_space = 0 : i32} : !llvm.array<2 x array<1 x array<2 x i8>>>
llvm.mlir.global private constant @row(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
llvm.mlir.global private @mutable(dense<[[1.0, 2.0]]> : tensor<1x2xf32>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x f32>>
llvm.mlir.global private constant @bits(dense<[[true, false]]> : tensor<1x2xi1>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x i1>>
llvm.mlir.global private constant @indices(dense<[[1, 2]]> : tensor<1x2xindex>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x i64>>

llvm.func @second_row() -> f32 {
  %0 = llvm.mlir.addressof @weights : !llvm.ptr
  %1 = llvm.getelementptr %0[0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>
  %2 = llvm.load %1 : !llvm.ptr -> f32
  llvm.return %2 : f32
}
