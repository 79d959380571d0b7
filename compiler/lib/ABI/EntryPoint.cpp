//===- EntryPoint.cpp - The ABI view of an entry point --------*- C++ -*-===//
//
// This file implements the helpers that read and describe entry point
// signatures (dtype names, C types, the `aotc.entry` attribute).
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/EntryPoint.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace aotc {

std::string dtypeName(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isUnsigned() && i.getWidth() == 8)
      return "u8";
    switch (i.getWidth()) {
    case 1:
      return "i1";
    case 8:
      return "i8";
    case 16:
      return "i16";
    case 32:
      return "i32";
    case 64:
      return "i64";
    default:
      break;
    }
  }
  return "";
}

int32_t dtypeCode(StringRef dtype) {
  // Values of AOT_DTYPE_* in include/aot_abi/aot_abi.h.
  return llvm::StringSwitch<int32_t>(dtype)
      .Case("f32", 1)
      .Case("f64", 2)
      .Case("f16", 3)
      .Case("bf16", 4)
      .Case("i8", 5)
      .Case("u8", 6)
      .Case("i16", 7)
      .Case("i32", 8)
      .Case("i64", 9)
      .Case("i1", 10)
      .Default(0);
}

StringRef dtypeCType(StringRef dtype) {
  return llvm::StringSwitch<StringRef>(dtype)
      .Case("f32", "float")
      .Case("f64", "double")
      .Cases({"f16", "bf16"}, "uint16_t")
      .Case("i8", "int8_t")
      .Cases({"u8", "i1"}, "uint8_t")
      .Case("i16", "int16_t")
      .Case("i32", "int32_t")
      .Case("i64", "int64_t")
      .Default("void");
}

int64_t dtypeBytes(StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"f64", "i64"}, 8)
      .Cases({"f32", "i32"}, 4)
      .Cases({"f16", "bf16", "i16"}, 2)
      .Default(1);
}

bool isValidCIdentifier(StringRef name) {
  if (name.empty() || !(isalpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return isalnum(c) || c == '_'; });
}

namespace {

/// Reads the records of `aotc.entry` and `aotc.pool`, each field checked:
/// a malformed one (hand-written IR given to aotc-opt; aotc-verify-input
/// rejects aotc's own input when it carries either) is an error on the
/// function, not a crash.
class EntryPointReader {
public:
  explicit EntryPointReader(Operation *func) : func(func) {}

  FailureOr<std::optional<EntryPointSignature>> read() {
    auto entry = func->getAttrOfType<DictionaryAttr>(kEntryAttrName);
    if (!entry) {
      if (func->hasAttr(kEntryAttrName))
        return fail(kEntryAttrName, "is not a dictionary");
      return std::optional<EntryPointSignature>();
    }
    EntryPointSignature sig;
    auto name = field<StringAttr>(entry, "name");
    auto inputs = name ? field<ArrayAttr>(entry, "inputs") : nullptr;
    auto outputs = inputs ? field<ArrayAttr>(entry, "outputs") : nullptr;
    if (!outputs || failed(readTensors(inputs, sig.inputs)) ||
        failed(readTensors(outputs, sig.outputs)))
      return failure();
    sig.name = name.str();
    if (failed(forEach<DictionaryAttr>(
            optionalArray(entry, "symbols"), "symbols",
            [&](DictionaryAttr dict) -> LogicalResult {
              auto symbol = field<StringAttr>(dict, "name");
              auto max = symbol ? field<IntegerAttr>(dict, "max") : nullptr;
              if (!max)
                return failure();
              sig.symbols.push_back({symbol.str(), max.getInt()});
              return success();
            })) ||
        failed(forEach<ArrayAttr>(
            optionalArray(entry, "guards"), "guards",
            [&](ArrayAttr pair) -> LogicalResult {
              if (pair.size() != 2 || !isa<StringAttr>(pair[0]) ||
                  !isa<StringAttr>(pair[1]))
                return fail("guards", "holds a guard that is not two strings");
              sig.guards.push_back({cast<StringAttr>(pair[0]).str(),
                                    cast<StringAttr>(pair[1]).str()});
              return success();
            })) ||
        failed(forEach<StringAttr>(optionalArray(entry, "bound_inputs"),
                                   "bound_inputs",
                                   [&](StringAttr text) -> LogicalResult {
                                     sig.boundInputs.push_back(text.str());
                                     return success();
                                   })))
      return failure();
    if (failed(readPool(sig)))
      return failure();
    return std::optional<EntryPointSignature>(std::move(sig));
  }

private:
  Operation *func;

  LogicalResult fail(StringRef what, StringRef problem) {
    return func->emitError() << "malformed " << what << ": " << problem;
  }

  /// `dict`'s field `key` as a T; null (an error emitted) when it is
  /// missing or of another type.
  template <typename T> T field(DictionaryAttr dict, StringRef key) {
    Attribute a = dict.get(key);
    if (auto typed = dyn_cast_or_null<T>(a))
      return typed;
    (void)fail(key, a ? "has an unexpected type" : "is missing");
    return nullptr;
  }
  /// `dict`'s array field `key`, empty when it is absent; null (an error
  /// emitted) when it is of another type.
  ArrayAttr optionalArray(DictionaryAttr dict, StringRef key) {
    if (!dict.get(key))
      return ArrayAttr::get(func->getContext(), {});
    return field<ArrayAttr>(dict, key);
  }
  /// Calls `read` on each element of `array` (null: an error emitted
  /// already) as a T; failure (an error emitted, naming the array `key`) at
  /// an element of another type or the first `read` that fails.
  template <typename T, typename Read>
  LogicalResult forEach(ArrayAttr array, StringRef key, Read read) {
    if (!array)
      return failure();
    for (Attribute a : array) {
      auto typed = dyn_cast<T>(a);
      if (!typed)
        return fail(key, "holds an element of an unexpected type");
      if (failed(read(typed)))
        return failure();
    }
    return success();
  }

  /// The `[{name, dtype, shape, dims?}]` array of an `aotc.entry`.
  LogicalResult readTensors(ArrayAttr array,
                            std::vector<TensorSignature> &result) {
    return forEach<DictionaryAttr>(
        array, "tensors", [&](DictionaryAttr dict) -> LogicalResult {
          auto name = field<StringAttr>(dict, "name");
          auto dtype = name ? field<StringAttr>(dict, "dtype") : nullptr;
          auto shape =
              dtype ? field<DenseI64ArrayAttr>(dict, "shape") : nullptr;
          if (!shape)
            return failure();
          TensorSignature t;
          t.name = name.str();
          t.dtype = dtype.str();
          llvm::append_range(t.shape, shape.asArrayRef());
          t.dims.assign(t.shape.size(), "");
          if (dict.get("dims")) {
            auto dims = field<ArrayAttr>(dict, "dims");
            if (!dims)
              return failure();
            if (dims.size() != t.shape.size() ||
                !llvm::all_of(dims, llvm::IsaPred<StringAttr>))
              return fail("dims", "is not one string per dimension");
            for (auto [i, d] :
                 llvm::enumerate(dims.getAsValueRange<StringAttr>()))
              t.dims[i] = d.str();
          }
          result.push_back(std::move(t));
          return success();
        });
  }

  /// `aotc.pool`, when present: bytes, lower_bound, alignment and buffers
  /// of four integers each.
  LogicalResult readPool(EntryPointSignature &sig) {
    if (!func->hasAttr(kPoolAttrName))
      return success();
    auto pool = func->getAttrOfType<DictionaryAttr>(kPoolAttrName);
    if (!pool)
      return fail(kPoolAttrName, "is not a dictionary");
    auto bytes = field<IntegerAttr>(pool, "bytes");
    auto lowerBound = bytes ? field<IntegerAttr>(pool, "lower_bound") : nullptr;
    auto alignment =
        lowerBound ? field<IntegerAttr>(pool, "alignment") : nullptr;
    auto buffers = alignment ? field<ArrayAttr>(pool, "buffers") : nullptr;
    if (!buffers)
      return failure();
    sig.poolBytes = bytes.getInt();
    sig.poolLowerBound = lowerBound.getInt();
    sig.poolAlignment = alignment.getInt();
    return forEach<DenseI64ArrayAttr>(
        buffers, "buffers", [&](DenseI64ArrayAttr v) -> LogicalResult {
          if (v.size() != 4)
            return fail("buffers", "holds a buffer that is not four integers");
          sig.buffers.push_back({v[0], v[1], v[2], v[3]});
          return success();
        });
  }
};

} // namespace

FailureOr<std::optional<EntryPointSignature>> readEntryPoint(Operation *func) {
  return EntryPointReader(func).read();
}

int64_t tensorBytes(const TensorSignature &tensor) {
  int64_t bytes = dtypeBytes(tensor.dtype);
  for (int64_t d : tensor.shape)
    bytes *= d;
  return bytes;
}

DictionaryAttr appendPoolSlots(DictionaryAttr pool,
                               const EntryPointSignature &sig,
                               ArrayRef<TensorSignature> tensors,
                               StringRef key) {
  uint64_t alignment = sig.poolAlignment;
  uint64_t end = llvm::alignTo(sig.poolBytes, alignment);
  uint64_t staged = 0;
  SmallVector<int64_t> offsets;
  for (const TensorSignature &t : tensors) {
    int64_t bytes = tensorBytes(t);
    offsets.push_back(end);
    staged += bytes;
    end = llvm::alignTo(end + bytes, alignment);
  }
  Builder b(pool.getContext());
  NamedAttrList attrs(pool);
  attrs.set("bytes", b.getI64IntegerAttr(end));
  attrs.set("lower_bound", b.getI64IntegerAttr(sig.poolLowerBound + staged));
  attrs.set(key, b.getDenseI64ArrayAttr(offsets));
  return attrs.getDictionary(pool.getContext());
}

} // namespace aotc
