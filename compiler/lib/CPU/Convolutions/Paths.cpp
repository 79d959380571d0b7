//===- Paths.cpp - The CPU convolution paths' records ----------*- C++ -*-===//
//
// This file implements the `aotc.strategy` record of the convolution path
// chosen for an op (aotc-select-cpu-strategy) and its reading by the passes
// that carry the paths out.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Convolutions/Paths.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/NameTable.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace aotc {

namespace {

constexpr std::pair<ConvolutionPath, llvm::StringLiteral> kPathNames[] = {
    {ConvolutionPath::PointwiseMatmul, "pointwise-matmul"},
    {ConvolutionPath::Winograd, "winograd"},
    {ConvolutionPath::ChannelLanes, "channel-lanes"},
    {ConvolutionPath::Im2col, "im2col"},
    {ConvolutionPath::StridePhases, "stride-phases"},
    {ConvolutionPath::FlatImage, "flat-image"},
    {ConvolutionPath::FlatDepthwise, "flat-depthwise"},
    {ConvolutionPath::PeeledWindows, "peeled-windows"},
    {ConvolutionPath::ColumnPhases, "column-phases"},
    {ConvolutionPath::Direct, "direct"},
    {ConvolutionPath::Generic, "generic"},
};

} // namespace

llvm::StringRef pathName(ConvolutionPath path) {
  return nameIn(kPathNames, path);
}

std::optional<ConvolutionPath> pathNamed(llvm::StringRef name) {
  return valueNamed(kPathNames, name);
}

std::optional<ConvolutionPath> recordedPath(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>(kStrategyAttrName);
  return name ? pathNamed(name.getValue()) : std::nullopt;
}

void recordPath(Operation *op, ConvolutionPath path) {
  op->setAttr(kStrategyAttrName,
              StringAttr::get(op->getContext(), pathName(path)));
}

bool isSelectedFor(Operation *op, ConvolutionPath path) {
  std::optional<ConvolutionPath> recorded = recordedPath(op);
  return !recorded || *recorded == path;
}

void revertPath(Operation *op, ConvolutionPath path, llvm::StringRef reason) {
  op->removeAttr(kStrategyAttrName);
  op->emitRemark() << "strategy " << pathName(path)
                   << " not carried out (" << reason
                   << "): the op is left to the paths after it";
}

} // namespace aotc
