//===- GrowConcatsInPlace.cpp - Concatenations sharing a buffer -*- C++ -*-===//
//
// This file implements the aotc-grow-concats-in-place pass: concatenations
// each of which repeats the one before it and appends to it (DenseNet's
// blocks: [x], [x, f1], [x, f1, f2], ...) are computed as slices of one
// tensor of the last one's size, into which each appended part is inserted
// once. Each concatenation is then a view of that tensor's first elements
// along the concatenated dimension, where it used to be a new tensor with a
// copy of every part before it.
//
//===----------------------------------------------------------------------===//

#include "aotc/Common/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aotc {
#define GEN_PASS_DEF_GROWCONCATSINPLACE
#include "aotc/Common/Passes.h.inc"
} // namespace aotc

using namespace mlir;

namespace {

/// A concatenation along `dim`: a chain of static insert_slices (unit
/// strides, no rank change) into a tensor.empty, each but the last used only
/// by the next one, their sources at consecutive offsets from 0 along `dim`
/// covering it, whole along every other dimension.
struct Concat {
  SmallVector<tensor::InsertSliceOp> inserts; // the chain, first one first
  unsigned dim = 0;

  tensor::InsertSliceOp last() const { return inserts.back(); }
  Value source(unsigned i) const {
    return inserts[i]->getOperand(0); // the source
  }
};

std::optional<Concat> matchConcat(tensor::InsertSliceOp last) {
  // The end of a chain: not itself the destination of another insert.
  for (Operation *user : last->getUsers())
    if (auto next = dyn_cast<tensor::InsertSliceOp>(user))
      if (next.getDest() == last.getResult())
        return std::nullopt;
  Concat c;
  tensor::InsertSliceOp op = last;
  while (true) {
    c.inserts.push_back(op);
    Value dest = op.getDest();
    if (dest.getDefiningOp<tensor::EmptyOp>())
      break;
    op = dest.getDefiningOp<tensor::InsertSliceOp>();
    if (!op || !op->hasOneUse())
      return std::nullopt;
  }
  std::reverse(c.inserts.begin(), c.inserts.end());
  if (c.inserts.size() < 2)
    return std::nullopt;
  auto type = cast<RankedTensorType>(last.getType());
  if (!type.hasStaticShape())
    return std::nullopt;
  std::optional<unsigned> dim;
  int64_t offset = 0;
  for (tensor::InsertSliceOp insert : c.inserts) {
    if (!insert.hasUnitStride() ||
        insert.getSourceType().getRank() != type.getRank() ||
        !insert.getSourceType().hasStaticShape())
      return std::nullopt;
    for (unsigned d = 0; d < type.getRank(); ++d) {
      std::optional<int64_t> at =
          getConstantIntValue(insert.getMixedOffsets()[d]);
      int64_t size = insert.getSourceType().getDimSize(d);
      if (!at)
        return std::nullopt;
      if (size == type.getDimSize(d) && *at == 0 && (!dim || *dim != d))
        continue;
      // The concatenated dimension: the first one not whole.
      if (dim && *dim != d)
        return std::nullopt;
      dim = d;
      if (*at != offset)
        return std::nullopt;
    }
    if (dim)
      offset += insert.getSourceType().getDimSize(*dim);
  }
  if (!dim || offset != type.getDimSize(*dim))
    return std::nullopt;
  c.dim = *dim;
  return c;
}

/// True when `c` begins with every part of `prefix` (fewer parts), in the
/// same order along the same dimension.
bool extends(const Concat &c, const Concat &prefix) {
  if (c.dim != prefix.dim || c.inserts.size() <= prefix.inserts.size())
    return false;
  for (unsigned i = 0; i < prefix.inserts.size(); ++i)
    if (c.source(i) != prefix.source(i))
      return false;
  return true;
}

struct GrowConcatsInPlacePass
    : aotc::impl::GrowConcatsInPlaceBase<GrowConcatsInPlacePass> {
  void runOnOperation() override {
    SmallVector<Concat> concats;
    getOperation().walk([&](tensor::InsertSliceOp op) {
      if (std::optional<Concat> c = matchConcat(op))
        concats.push_back(std::move(*c));
    });
    // Each concatenation's successor: the first later one in the same block
    // that extends it, when every use of it comes before that one (then
    // appending into its buffer overwrites nothing still to be read).
    SmallVector<int> next(concats.size(), -1), previous(concats.size(), -1);
    for (unsigned i = 0; i < concats.size(); ++i) {
      tensor::InsertSliceOp end = concats[i].last();
      for (unsigned j = 0; j < concats.size(); ++j) {
        tensor::InsertSliceOp later = concats[j].last();
        if (i == j || previous[j] != -1 ||
            later->getBlock() != end->getBlock() ||
            !end->isBeforeInBlock(later) || !extends(concats[j], concats[i]))
          continue;
        bool usedBefore = llvm::all_of(end->getUsers(), [&](Operation *user) {
          Operation *inBlock = end->getBlock()->findAncestorOpInBlock(*user);
          return inBlock && inBlock->isBeforeInBlock(later);
        });
        if (!usedBefore)
          continue;
        if (next[i] == -1 || later->isBeforeInBlock(concats[next[i]].last())) {
          if (next[i] != -1)
            previous[next[i]] = -1;
          next[i] = j;
          previous[j] = i;
        }
      }
    }
    IRRewriter rewriter(&getContext());
    for (unsigned first = 0; first < concats.size(); ++first) {
      if (previous[first] != -1 || next[first] == -1)
        continue;
      SmallVector<unsigned> chain = {first};
      while (next[chain.back()] != -1)
        chain.push_back(next[chain.back()]);
      grow(rewriter, concats, chain);
    }
  }

  /// Rewrites the concatenations `chain` (each extending the one before)
  /// as slices of one tensor of the last one's size.
  void grow(RewriterBase &rewriter, ArrayRef<Concat> concats,
            ArrayRef<unsigned> chain) {
    const Concat &whole = concats[chain.back()];
    auto type = cast<RankedTensorType>(whole.last().getType());
    rewriter.setInsertionPoint(concats[chain.front()].inserts.front());
    Value grown =
        tensor::EmptyOp::create(rewriter, whole.last().getLoc(),
                                type.getShape(), type.getElementType());
    unsigned inserted = 0;
    for (unsigned index : chain) {
      const Concat &c = concats[index];
      tensor::InsertSliceOp end = c.last();
      rewriter.setInsertionPoint(end);
      for (; inserted < c.inserts.size(); ++inserted) {
        tensor::InsertSliceOp part = c.inserts[inserted];
        grown = tensor::InsertSliceOp::create(
            rewriter, part.getLoc(), part.getSource(), grown,
            part.getMixedOffsets(), part.getMixedSizes(),
            part.getMixedStrides());
      }
      auto cType = cast<RankedTensorType>(end.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes,
          strides(type.getRank(), rewriter.getIndexAttr(1));
      for (int64_t size : cType.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      Value view = grown;
      if (cType != type)
        view = tensor::ExtractSliceOp::create(rewriter, end.getLoc(), cType,
                                              grown, offsets, sizes, strides);
      rewriter.replaceAllUsesWith(end.getResult(), view);
    }
    // The old chains, now unused, last insert first.
    for (unsigned index : chain)
      for (tensor::InsertSliceOp insert : llvm::reverse(concats[index].inserts))
        rewriter.eraseOp(insert);
  }
};

} // namespace
