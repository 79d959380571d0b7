// RUN: not aotc-opt %s -split-input-file -aotc-annotate-entry-points 2>&1 | FileCheck %s
//
// Run on its own (without aotc-verify-input before it), the pass must reject
// what it cannot describe with a diagnostic. Today a non-tensor argument
// crashes it (cast<RankedTensorType> in AnnotateEntryPoints.cpp); `not`
// treats a crash as a failure.

// CHECK: error: {{.*}}argument 0
// CHECK-NOT: Stack dump
func.func @scalar_argument(%a: f32) -> f32 {
  return %a : f32
}
