//===- Attributes.h - Names of aotc's IR attributes -------------*- C++ -*-===//
//
// This file declares the names of the attributes aotc's passes put on
// functions, arguments and ops to talk to each other.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_COMMON_ATTRIBUTES_H
#define AOTC_COMMON_ATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace aotc {

/// Name of the function attribute describing an entry point's ABI signature.
inline constexpr llvm::StringLiteral kEntryAttrName = "aotc.entry";
/// Name of the function attribute holding the applied memory plan.
inline constexpr llvm::StringLiteral kPoolAttrName = "aotc.pool";
/// Module attribute of aotc-hoist-device-constants: for each gpu.module,
/// [device symbol, host global, bytes] of the globals the runtime fills
/// from host data at load (read by aotc-emit-gpu-entry-points).
inline constexpr llvm::StringLiteral kDeviceGlobalsAttrName =
    "aotc.device_globals";
/// Function attribute of an extern kernel's declaration (aot_extern.h): a
/// dictionary with `symbol` (the C function), optionally `attributes` (the
/// JSON object it is passed) and `scratch_bytes` (pool bytes of its own).
/// After aotc-lower-extern-calls, the declaration of the call's lowered form
/// also has `inputs` and `outputs` (their memref types) and `scratch`
/// (whether a scratch buffer follows the outputs).
inline constexpr llvm::StringLiteral kExternAttrName = "aotc.extern";
/// Argument/result attribute naming a tensor in the ABI.
inline constexpr llvm::StringLiteral kTensorNameAttrName = "aotc.name";
/// Argument/result attribute overriding the ABI dtype of a tensor whose MLIR
/// element type is signless (e.g. "u8" for ONNX uint8 held as i8).
inline constexpr llvm::StringLiteral kTensorDtypeAttrName = "aotc.dtype";
/// Argument/result attribute naming each dimension of a tensor: an array of
/// strings, "" for a static dimension and the symbol (e.g. "N") for a
/// dynamic one. Every dynamic dimension of an entry point needs a name.
inline constexpr llvm::StringLiteral kTensorDimsAttrName = "aotc.dims";
/// Function attribute listing run-time shape guards the program relies on:
/// an array of [lhs, rhs] string pairs, each a symbol or a decimal integer,
/// that must be equal.
inline constexpr llvm::StringLiteral kGuardsAttrName = "aotc.guards";
/// Function attribute listing the graph inputs fixed at compile time
/// (`--bind-input`): an array of strings describing each one, e.g.
/// "shape: int64[2] = {3, 4}".
inline constexpr llvm::StringLiteral kBoundInputsAttrName = "aotc.bound_inputs";
/// Argument attribute marking the index argument that carries a symbolic
/// dimension's value inside a bufferized entry point.
inline constexpr llvm::StringLiteral kSymbolAttrName = "aotc.symbol";
/// Attribute of a pool view sized by symbolic dimensions: the index of its
/// buffer in `aotc.pool`.
inline constexpr llvm::StringLiteral kSlotAttrName = "aotc.slot";
/// Attribute of a view of a thread tile's scratch buffer in its thread
/// loop's pool slots (aotc-plan-memory): the slot's bytes. The view's byte
/// shift is the tile's slot; aotc-partition-omp-loops makes it the thread's,
/// each thread then using one slot for all its tiles.
inline constexpr llvm::StringLiteral kThreadSlotAttrName = "aotc.thread_slot";
/// Attribute of the parts one op was split into, each computing its box of
/// the result in place (aotc-peel-padded-windows: the interior first, then
/// the border strips; aotc-winograd-convolutions: the rows of a transform):
/// an integer shared by the parts of that op (aotc::newSiblingGroup).
/// aotc-distribute-to-forall computes them in one thread loop and drops it.
inline constexpr llvm::StringLiteral kSiblingPartsAttrName =
    "aotc.sibling_parts";
/// Attribute of an op recording the path aotc-select-cpu-strategy chose for
/// it ("winograd", "im2col", ...; aotc::ConvolutionPath), which the pass of
/// that path carries out.
inline constexpr llvm::StringLiteral kStrategyAttrName = "aotc.strategy";

/// Unit attribute of a function aotc-outline-thread-loops made of one
/// thread loop, so that vector lowering runs on the loops in parallel;
/// aotc-inline-thread-loops puts its body back at its one call.
inline constexpr llvm::StringLiteral kThreadLoopAttrName = "aotc.thread_loop";

} // namespace aotc

#endif // AOTC_COMMON_ATTRIBUTES_H
