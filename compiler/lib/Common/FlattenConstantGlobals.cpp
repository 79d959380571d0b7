//===- FlattenConstantGlobals.cpp - Constants as flat arrays -*- C++ -*-===//
//
// This file implements the aotc-flatten-constant-globals pass: a constant
// global initialized with a multi-dimensional dense array (a weight tensor)
// becomes a one-dimensional array of the same bytes. MLIR's translation to
// LLVM IR builds a nested constant of one LLVM constant per innermost row
// (a 512 x 512 x 3 x 3 filter: 262144 arrays of three floats, each uniqued
// in the LLVM context, walked by the optimizer and the code generator, and
// freed one by one); a flat array is one constant made from the raw data.
// Users are unaffected: with opaque pointers, the global's address is all
// they see (each getelementptr carries its own element type).
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace aotc {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALS
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// The innermost element type of a (nested) LLVM array type.
Type innermostElementType(Type type) {
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    type = array.getElementType();
  return type;
}

struct FlattenConstantGlobalsPass
    : aotc::impl::FlattenConstantGlobalsBase<FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto value =
          dyn_cast_if_present<DenseIntOrFPElementsAttr>(global.getValueAttr());
      if (!global.getConstant() || !value || value.getType().getRank() < 2)
        continue;
      // Element types the translation builds from raw data (integers and
      // floats of whole bytes: not i1, whose dense storage is bit-packed, nor
      // index or complex), stored as the global's elements.
      Type element = value.getElementType();
      if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
          innermostElementType(global.getGlobalType()) != element)
        continue;
      int64_t count = value.getNumElements();
      global.setGlobalTypeAttr(
          TypeAttr::get(LLVM::LLVMArrayType::get(element, count)));
      global.setValueAttr(
          value.reshape(RankedTensorType::get({count}, element)));
    }
  }
};

} // namespace
