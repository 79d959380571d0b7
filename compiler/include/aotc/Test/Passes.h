//===- Passes.h - aotc Test passes ------------------------------*- C++ -*-===//
//
// This file declares the passes of test-only passes (aotc-opt only), generated
// from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TEST_PASSES_H
#define AOTC_TEST_PASSES_H

#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/Pass/Pass.h"

namespace aotc {

#define GEN_PASS_DECL
#include "aotc/Test/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aotc/Test/Passes.h.inc"

} // namespace aotc

#endif // AOTC_TEST_PASSES_H
