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

/// Reads the `[{name, dtype, shape}]` array of an `aotc.entry` dictionary.
static std::vector<TensorSignature> readTensors(ArrayAttr array) {
  std::vector<TensorSignature> result;
  for (Attribute a : array) {
    auto dict = cast<DictionaryAttr>(a);
    TensorSignature t;
    t.name = cast<StringAttr>(dict.get("name")).str();
    t.dtype = cast<StringAttr>(dict.get("dtype")).str();
    llvm::append_range(t.shape,
                       cast<DenseI64ArrayAttr>(dict.get("shape")).asArrayRef());
    t.dims.assign(t.shape.size(), "");
    if (auto dims = dict.getAs<ArrayAttr>("dims"))
      for (auto [i, d] : llvm::enumerate(dims.getAsValueRange<StringAttr>()))
        t.dims[i] = d.str();
    result.push_back(std::move(t));
  }
  return result;
}

std::optional<EntryPointSignature> readEntryPoint(Operation *func) {
  auto entry = func->getAttrOfType<DictionaryAttr>(kEntryAttrName);
  if (!entry)
    return std::nullopt;
  EntryPointSignature sig;
  sig.name = cast<StringAttr>(entry.get("name")).str();
  sig.inputs = readTensors(cast<ArrayAttr>(entry.get("inputs")));
  sig.outputs = readTensors(cast<ArrayAttr>(entry.get("outputs")));
  if (auto symbols = entry.getAs<ArrayAttr>("symbols"))
    for (Attribute a : symbols) {
      auto dict = cast<DictionaryAttr>(a);
      sig.symbols.push_back({cast<StringAttr>(dict.get("name")).str(),
                             cast<IntegerAttr>(dict.get("max")).getInt()});
    }
  if (auto guards = entry.getAs<ArrayAttr>("guards"))
    for (Attribute a : guards) {
      auto pair = cast<ArrayAttr>(a).getAsValueRange<StringAttr>();
      sig.guards.push_back({(*pair.begin()).str(),
                            (*std::next(pair.begin())).str()});
    }
  if (auto bound = entry.getAs<ArrayAttr>("bound_inputs"))
    for (StringRef text : bound.getAsValueRange<StringAttr>())
      sig.boundInputs.push_back(text.str());
  if (auto pool = func->getAttrOfType<DictionaryAttr>(kPoolAttrName)) {
    sig.poolBytes = cast<IntegerAttr>(pool.get("bytes")).getInt();
    sig.poolLowerBound = cast<IntegerAttr>(pool.get("lower_bound")).getInt();
    sig.poolAlignment = cast<IntegerAttr>(pool.get("alignment")).getInt();
    for (Attribute b : cast<ArrayAttr>(pool.get("buffers"))) {
      ArrayRef<int64_t> v = cast<DenseI64ArrayAttr>(b).asArrayRef();
      sig.buffers.push_back({v[0], v[1], v[2], v[3]});
    }
  }
  return sig;
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
