// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-link-hip-bundle | FileCheck %s

// Two code objects become one bundle: magic, 3 entries (the empty host one
// first), each with offset, size, triple length and triple; the payloads at
// 4096-byte boundaries (0x1000, 0x2000: "\00 ").
// CHECK-LABEL: gpu.binary @kernels
// CHECK-SAME:    [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "__CLANG_OFFLOAD_BUNDLE__\03\00\00\00\00\00\00\00
// CHECK-SAME:    \00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\1D\00\00\00\00\00\00\00host-x86_64-unknown-linux-gnu
// CHECK-SAME:    \00\10\00\00\00\00\00\00\07\00\00\00\00\00\00\00\1F\00\00\00\00\00\00\00hipv4-amdgcn-amd-amdhsa--gfx90a
// CHECK-SAME:    \00 \00\00\00\00\00\00\08\00\00\00\00\00\00\00\1F\00\00\00\00\00\00\00hipv4-amdgcn-amd-amdhsa--gfx942
// CHECK-SAME:    \00\00{{(\\00)*}}\7FELF-90{{(\\00)*}}\7FELF-942">]
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF-90">,
                       #gpu.object<#rocdl.target<chip = "gfx942">, bin = "\7FELF-942">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{expected code objects of ROCDL targets}}
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF">]
}
