//===- TsanWideAccesses.cpp - Wide and masked accesses for TSan -*- C++ -*-===//
//
// ThreadSanitizer's instrumentation checks plain loads and stores of 1 to 16
// bytes and nothing else: a 512-bit vector load, a masked store or a gather
// goes unchecked, and vectorized code is mostly those. This pass, run just
// before ThreadSanitizerPass on code compiled with --sanitize=thread, reports
// each of them to the TSan runtime by range:
//
//   %v = load <16 x float>, ptr %p        call @__tsan_read_range(%p, 64)
//                                          %v = load <16 x float>, ptr %p
//
// and a masked access lane by lane, each lane's range empty when its mask
// bit is clear (a masked remainder touches no byte of a neighbouring tile):
//
//   call @llvm.masked.store(%v, %p, %m)   %b0 = extractelement %m, 0
//                                          %n0 = select %b0, i64 4, i64 0
//                                          call @__tsan_write_range(%p, %n0)
//                                          ... one per lane, then the store
//
// unless its mask is a constant that sets the leading lanes only (a row's
// part register, aotc-mask-partial-vectors): one range of those lanes.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/TsanWideAccesses.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

namespace aotc {

namespace {

/// The largest access ThreadSanitizerPass checks itself.
constexpr uint64_t kTsanMaxAccessBytes = 16;

/// An access to report: `pointer` (one pointer, or a vector of them),
/// `mask` (a vector of i1, or null: every byte), `type` the accessed value.
struct Access {
  llvm::Instruction *inst;
  llvm::Value *pointer;
  llvm::Value *mask;
  llvm::Type *type;
  bool write;
};

std::optional<Access> wideAccess(llvm::Instruction &inst,
                                 const llvm::DataLayout &layout) {
  auto wide = [&](llvm::Type *type) {
    return layout.getTypeStoreSize(type).getKnownMinValue() >
           kTsanMaxAccessBytes;
  };
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    if (wide(load->getType()))
      return Access{load, load->getPointerOperand(), nullptr, load->getType(),
                    false};
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    if (wide(store->getValueOperand()->getType()))
      return Access{store, store->getPointerOperand(), nullptr,
                    store->getValueOperand()->getType(), true};
  auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
  if (!call || !llvm::any_of(call->args(), [](const llvm::Use &arg) {
        return llvm::isa<llvm::FixedVectorType>(arg->getType());
      }))
    return std::nullopt;
  switch (call->getIntrinsicID()) {
  case llvm::Intrinsic::masked_load:
  case llvm::Intrinsic::masked_gather:
    return Access{call, call->getArgOperand(0), call->getArgOperand(1),
                  call->getType(), false};
  case llvm::Intrinsic::masked_store:
  case llvm::Intrinsic::masked_scatter:
    return Access{call, call->getArgOperand(1), call->getArgOperand(2),
                  call->getArgOperand(0)->getType(), true};
  default:
    return std::nullopt;
  }
}

/// The lanes a contiguous masked access's constant `mask` sets when they
/// are its leading ones (the others clear); none otherwise.
std::optional<unsigned> leadingLanes(llvm::Value *mask) {
  auto *constant = llvm::dyn_cast<llvm::Constant>(mask);
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(mask->getType());
  if (!constant || !type)
    return std::nullopt;
  unsigned lanes = 0;
  for (unsigned lane = 0; lane < type->getNumElements(); ++lane) {
    auto *bit = llvm::dyn_cast_or_null<llvm::ConstantInt>(
        constant->getAggregateElement(lane));
    if (!bit || (bit->isOne() && lanes != lane))
      return std::nullopt;
    lanes += bit->isOne();
  }
  return lanes;
}

} // namespace

llvm::PreservedAnalyses
TsanWideAccessesPass::run(llvm::Function &function,
                          llvm::FunctionAnalysisManager &) {
  if (!function.hasFnAttribute(llvm::Attribute::SanitizeThread))
    return llvm::PreservedAnalyses::all();
  llvm::Module &module = *function.getParent();
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::SmallVector<Access> accesses;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    std::optional<Access> access = wideAccess(inst, layout);
    llvm::Type *pointer =
        access ? access->pointer->getType()->getScalarType() : nullptr;
    if (pointer && pointer->getPointerAddressSpace() == 0)
      accesses.push_back(*access);
  }
  if (accesses.empty())
    return llvm::PreservedAnalyses::all();

  llvm::LLVMContext &context = module.getContext();
  llvm::Type *sizeType = layout.getIntPtrType(context);
  llvm::Type *pointerType = llvm::PointerType::get(context, 0);
  llvm::FunctionCallee readRange = module.getOrInsertFunction(
      "__tsan_read_range", llvm::Type::getVoidTy(context), pointerType,
      sizeType);
  llvm::FunctionCallee writeRange = module.getOrInsertFunction(
      "__tsan_write_range", llvm::Type::getVoidTy(context), pointerType,
      sizeType);
  for (const Access &access : accesses) {
    llvm::IRBuilder<> builder(access.inst);
    llvm::FunctionCallee report = access.write ? writeRange : readRange;
    if (!access.mask) {
      llvm::Value *bytes = llvm::ConstantInt::get(
          sizeType, layout.getTypeStoreSize(access.type));
      builder.CreateCall(report, {access.pointer, bytes});
      continue;
    }
    auto *vector = llvm::cast<llvm::FixedVectorType>(access.type);
    llvm::Type *element = vector->getElementType();
    uint64_t elementBytes = layout.getTypeStoreSize(element);
    std::optional<unsigned> leading = leadingLanes(access.mask);
    if (leading && !access.pointer->getType()->isVectorTy()) {
      builder.CreateCall(
          report, {access.pointer,
                   llvm::ConstantInt::get(sizeType, *leading * elementBytes)});
      continue;
    }
    llvm::Value *laneBytes = llvm::ConstantInt::get(sizeType, elementBytes);
    llvm::Value *none = llvm::ConstantInt::get(sizeType, 0);
    for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
      llvm::Value *pointer =
          access.pointer->getType()->isVectorTy()
              ? builder.CreateExtractElement(access.pointer, lane)
              : builder.CreateConstInBoundsGEP1_64(element, access.pointer,
                                                   lane);
      llvm::Value *enabled = builder.CreateExtractElement(access.mask, lane);
      builder.CreateCall(
          report, {pointer, builder.CreateSelect(enabled, laneBytes, none)});
    }
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace aotc
