// RUN: aotc-opt %s -split-input-file -verify-diagnostics -aotc-verify-input -o /dev/null
//
// An unsupported op with a region is reported once, at the op; the ops nested
// in it (here a terminator and another unsupported op) are not reported
// again. VerifyInput.cpp returns WalkResult::skip() for this, but its walk is
// post-order, so the nested ops have already been visited and each gets its
// own error (scf.yield included).

func.func @scf_loop(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{unsupported op 'scf.for'}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> tensor<4xf32> {
    %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
