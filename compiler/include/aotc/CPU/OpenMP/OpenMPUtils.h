//===- OpenMPUtils.h - OpenMP runtime queries in generated code -*- C++ -*-===//
//
// This file declares the helper the passes that call the OpenMP runtime's
// thread queries share.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_TRANSFORMS_OPENMPUTILS_H
#define AOTC_TRANSFORMS_OPENMPUTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace aotc {

/// `name() -> i32` from the OpenMP runtime (omp_get_thread_num,
/// omp_get_num_threads), declared in `module` once.
inline mlir::func::FuncOp ompQueryFunction(mlir::ModuleOp module,
                                           llvm::StringRef name) {
  if (auto f = module.lookupSymbol<mlir::func::FuncOp>(name))
    return f;
  mlir::OpBuilder b = mlir::OpBuilder::atBlockBegin(module.getBody());
  auto f = mlir::func::FuncOp::create(
      b, module.getLoc(), name, b.getFunctionType({}, {b.getI32Type()}));
  f.setPrivate();
  return f;
}

} // namespace aotc

#endif // AOTC_TRANSFORMS_OPENMPUTILS_H
