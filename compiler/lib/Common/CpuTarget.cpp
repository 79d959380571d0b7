//===- CpuTarget.cpp - The machine model of a CPU target ------*- C++ -*-===//
//
// This file implements aotc::CpuTarget's conversions to and from the
// `aotc.cpu_target` module attribute and its printing.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/CpuTarget.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace aotc {

namespace {

/// The integer fields, by attribute name.
struct IntegerField {
  llvm::StringLiteral name;
  int64_t CpuTarget::*field;
};

constexpr IntegerField kIntegerFields[] = {
    {"vector_bits", &CpuTarget::vectorBits},
    {"vector_registers", &CpuTarget::vectorRegisters},
    {kSveVectorBitsField, &CpuTarget::sveVectorBits},
    {"l1_bytes", &CpuTarget::l1Bytes},
    {"l1_ways", &CpuTarget::l1Ways},
    {"l2_bytes", &CpuTarget::l2Bytes},
    {"l2_ways", &CpuTarget::l2Ways},
    {"l3_bytes", &CpuTarget::l3Bytes},
    {"line_bytes", &CpuTarget::lineBytes},
};

} // namespace

void CpuTarget::setCaches(const CacheFigures &figures) {
  for (auto [field, value] :
       {std::pair{&l1Bytes, figures.l1Bytes}, {&l1Ways, figures.l1Ways},
        {&l2Bytes, figures.l2Bytes}, {&l2Ways, figures.l2Ways},
        {&l3Bytes, figures.l3Bytes},
        {&lineBytes, figures.lineBytes}})
    if (value > 0)
      *field = value;
}

bool CpuTarget::has(llvm::StringRef feature) const {
  return llvm::is_contained(features, feature);
}

DictionaryAttr CpuTarget::toAttr(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("triple", b.getStringAttr(triple)),
      b.getNamedAttr("cpu", b.getStringAttr(cpu)),
      b.getNamedAttr("features", b.getStrArrayAttr(llvm::to_vector_of<
                                                   StringRef>(features)))};
  for (const IntegerField &f : kIntegerFields)
    fields.push_back(
        b.getNamedAttr(f.name, b.getI64IntegerAttr(this->*f.field)));
  return b.getDictionaryAttr(fields);
}

CpuTarget CpuTarget::fromAttr(DictionaryAttr attr) {
  CpuTarget target;
  if (!attr)
    return target;
  if (auto s = attr.getAs<StringAttr>("triple"))
    target.triple = s.str();
  if (auto s = attr.getAs<StringAttr>("cpu"))
    target.cpu = s.str();
  if (auto list = attr.getAs<ArrayAttr>("features"))
    for (Attribute a : list)
      if (auto s = dyn_cast<StringAttr>(a))
        target.features.push_back(s.str());
  for (const IntegerField &f : kIntegerFields)
    if (auto i = attr.getAs<IntegerAttr>(f.name); i && i.getInt() > 0)
      target.*f.field = i.getInt();
  return target;
}

CpuTarget CpuTarget::of(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                                  : op->getParentOfType<ModuleOp>();
  if (!module)
    return CpuTarget();
  return fromAttr(module->getAttrOfType<DictionaryAttr>(kCpuTargetAttrName));
}

int64_t vectorBitsOf(Operation *op, int64_t option) {
  return vectorRegistersOf(op, option).bits;
}

VectorRegisters vectorRegistersOf(Operation *op, int64_t bitsOption) {
  if (bitsOption)
    return {bitsOption, bitsOption >= 512 ? 32 : 16};
  CpuTarget target = CpuTarget::of(op);
  return {target.vectorBits, target.vectorRegisters};
}

void CpuTarget::print(llvm::raw_ostream &os) const {
  os << "triple: " << triple << "\n"
     << "cpu: " << cpu << "\n"
     << "features: " << llvm::join(features, " ") << "\n";
  for (const IntegerField &f : kIntegerFields)
    os << f.name << ": " << this->*f.field << "\n";
  os << "caches: " << caches << "\n";
}

} // namespace aotc
