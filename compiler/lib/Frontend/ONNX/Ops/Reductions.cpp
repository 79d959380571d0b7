//===- Reductions.cpp - ONNX reduction and normalization ops -*- C++ -*-===//
//
// This file implements the specifications of ONNX's reductions (ReduceSum,
// ReduceMean, ..., ArgMax, CumSum) and normalizations (Softmax, LogSoftmax,
// LayerNormalization).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "onnx/onnx_pb.h"

using namespace mlir;

namespace aotc::onnx_frontend {

void registerReductionOps(OpLibrary &library) {}

} // namespace aotc::onnx_frontend
