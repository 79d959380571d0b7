//===- OpLibrary.h - ONNX op specifications ------------------*- C++ -*-===//
//
// This file declares the ONNX op library: for every supported op, one shape
// function, one dtype function (the executable specification, readable next
// to the ONNX spec), a lowering to linalg/tensor/arith/math on tensors and,
// for ops that appear in shape arithmetic, a compile-time evaluator.
//
// Each group of ops lives in its own file under lib/Frontend/ONNX/Ops/ and
// registers itself through one register*Ops() function.
//
//===----------------------------------------------------------------------===//

#ifndef AOTC_FRONTEND_ONNX_OPLIBRARY_H
#define AOTC_FRONTEND_ONNX_OPLIBRARY_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>

namespace onnx {
class NodeProto;
class AttributeProto;
class TensorProto;
} // namespace onnx

namespace aotc::onnx_frontend {

/// ONNX TensorProto::DataType values used by the library.
enum OnnxType : int32_t {
  kUndefined = 0, kFloat = 1, kUInt8 = 2, kInt8 = 3, kUInt16 = 4,
  kInt16 = 5, kInt32 = 6, kInt64 = 7, kString = 8, kBool = 9, kFloat16 = 10,
  kDouble = 11, kUInt32 = 12, kUInt64 = 13, kBFloat16 = 16
};

/// The MLIR element type of an ONNX dtype (integers are signless; the ONNX
/// dtype keeps the signedness), or null when unsupported.
mlir::Type elementTypeOf(mlir::MLIRContext *ctx, int32_t onnxType);
/// A readable name ("float", "int64", ...).
llvm::StringRef onnxTypeName(int32_t onnxType);
bool isFloatType(int32_t onnxType);
bool isUnsignedType(int32_t onnxType);

/// A shape. Dimensions are sizes, except symbolic ones (a graph input's
/// `--max-dim` dimension), which are negative: symbolDim(k) for symbol k of
/// the importer's SymbolicDims. -1 never appears.
using Shape = llvm::SmallVector<int64_t, 4>;

inline int64_t symbolDim(unsigned k) { return -2 - static_cast<int64_t>(k); }
inline bool isSymbolDim(int64_t d) { return d <= -2; }
inline unsigned symbolIndex(int64_t d) { return static_cast<unsigned>(-2 - d); }
inline bool hasSymbolDims(llvm::ArrayRef<int64_t> shape) {
  return llvm::any_of(shape, isSymbolDim);
}

/// The tensor type of `shape`: symbolic dimensions are dynamic.
mlir::RankedTensorType tensorTypeOf(const Shape &shape, mlir::Type element);

/// The symbolic dimensions of a model being imported: names, bounds, their
/// index values in the function, and the equalities the graph relies on
/// (checked at run time by the entry point: AOT_ERROR_SHAPE).
///
/// A symbol is a monomial: a coefficient times a product of base symbols
/// (the graph inputs' `--max-dim` dimensions, which come first and are
/// their own single factor). Derived symbols ("4*N", "N*S") appear where
/// the graph reshapes symbolic dimensions together; each has one entry, so
/// equal monomials are equal dimensions.
struct SymbolicDims {
  llvm::SmallVector<std::string> names;
  llvm::SmallVector<int64_t> bounds;
  /// The index value of each symbol; a derived symbol's is created when
  /// first needed (valueOf).
  llvm::SmallVector<mlir::Value> values;
  llvm::SmallVector<int64_t> coefficients;
  /// Sorted base symbol indices multiplied together.
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>> factors;
  /// Pairs of dimensions (symbolic or static) that must be equal.
  llvm::SmallVector<std::pair<int64_t, int64_t>> guards;

  /// Adds a base symbol (a graph input's dimension); returns its dimension.
  int64_t addBase(llvm::StringRef name, int64_t bound);
  bool isBase(int64_t d) const {
    return isSymbolDim(d) && factors[symbolIndex(d)].size() == 1 &&
           coefficients[symbolIndex(d)] == 1 &&
           factors[symbolIndex(d)][0] == symbolIndex(d);
  }
  /// The product of dimensions (static or symbolic), as a dimension.
  int64_t product(llvm::ArrayRef<int64_t> dims);
  /// a / b when it is a dimension (exact division of monomials).
  std::optional<int64_t> quotient(int64_t a, int64_t b);
  /// The run-time index value of a symbolic dimension, created with `b` at
  /// its insertion point when derived and not yet built.
  mlir::Value valueOf(int64_t d, mlir::OpBuilder &b, mlir::Location loc);

  /// "N" (or "4*N") for a symbolic dimension, the decimal size otherwise.
  std::string describe(int64_t d) const {
    return isSymbolDim(d) ? names[symbolIndex(d)] : std::to_string(d);
  }

private:
  /// The dimension of `coefficient * product(bases)`.
  int64_t monomial(int64_t coefficient, llvm::SmallVector<unsigned, 2> bases);
};

/// A value flowing along a graph edge.
struct TensorValue {
  int32_t dtype = kUndefined; ///< ONNX dtype (signedness included)
  Shape shape;
  /// The SSA value, created lazily for compile-time constants.
  mlir::Value value;
  /// Contents when known at compile time (initializers, Constant, folded
  /// shape arithmetic); element type as elementTypeOf(dtype).
  std::optional<mlir::DenseElementsAttr> constant;
  /// The graph input's name when this value is one (diagnostics suggest
  /// `--bind-input` for it).
  std::string graphInput;
  /// Contents of a small integer tensor of shape arithmetic whose entries
  /// depend on symbolic dimensions (Shape of a symbolic tensor, and what
  /// Gather/Concat/Mul/... make of it): each entry is a constant >= -1 or a
  /// symbolic dimension. The SSA value is built only if an op needs it.
  std::optional<Shape> symbolicValue;

  mlir::RankedTensorType type(mlir::MLIRContext *ctx) const;
  int64_t numElements() const;
};

/// The SSA value of `v`, built at `b`'s insertion point from its contents
/// (constant or symbolic) the first time it is needed.
mlir::Value materializeValue(TensorValue &v, mlir::OpBuilder &b,
                             mlir::Location loc, SymbolicDims *symbols);

/// Everything an op function sees of one node.
class NodeContext {
public:
  NodeContext(const onnx::NodeProto &node, int64_t opset,
              llvm::ArrayRef<TensorValue *> inputs, mlir::OpBuilder &builder,
              mlir::Location loc, SymbolicDims *symbols = nullptr);

  const onnx::NodeProto &node() const { return nodeProto; }
  llvm::StringRef opType() const;
  llvm::StringRef name() const;
  int64_t opset() const { return opsetVersion; }
  mlir::OpBuilder &builder() { return b; }
  mlir::Location loc() const { return location; }
  mlir::MLIRContext *context() { return b.getContext(); }

  //===--- Inputs -------------------------------------------------------===//
  /// Number of input slots (including empty optional ones).
  size_t numInputs() const { return inputValues.size(); }
  /// False for a missing or empty ("") optional input.
  bool hasInput(size_t i) const {
    return i < inputValues.size() && inputValues[i];
  }
  const TensorValue &input(size_t i) const { return *inputValues[i]; }
  /// The SSA value of input `i` (materializing a constant if needed).
  mlir::Value inputValue(size_t i);
  /// Compile-time contents of input `i`, if known.
  std::optional<mlir::DenseElementsAttr> constantInput(size_t i) const;
  /// Contents of an integer input known at compile time, possibly with
  /// symbolic entries (TensorValue::symbolicValue); nullopt otherwise.
  std::optional<Shape> symbolicInts(size_t i) const;
  /// Contents of an integer input known at compile time (e.g. Reshape's
  /// shape), or an error naming the input when it is not constant.
  mlir::FailureOr<llvm::SmallVector<int64_t>> constantInts(size_t i,
                                                           llvm::StringRef what);

  //===--- Attributes ---------------------------------------------------===//
  const onnx::AttributeProto *attribute(llvm::StringRef name) const;
  bool hasAttribute(llvm::StringRef name) const {
    return attribute(name) != nullptr;
  }
  int64_t intAttr(llvm::StringRef name, int64_t defaultValue) const;
  float floatAttr(llvm::StringRef name, float defaultValue) const;
  std::string stringAttr(llvm::StringRef name,
                         llvm::StringRef defaultValue) const;
  llvm::SmallVector<int64_t> intsAttr(llvm::StringRef name) const;
  llvm::SmallVector<float> floatsAttr(llvm::StringRef name) const;
  /// A tensor attribute (Constant's `value`), or null.
  const onnx::TensorProto *tensorAttr(llvm::StringRef name) const;

  //===--- Diagnostics --------------------------------------------------===//
  /// An error naming the node and op: "node 'conv1' (Conv): ...".
  mlir::InFlightDiagnostic error();
  /// An error about one attribute: "... attribute 'auto_pad': ...".
  mlir::InFlightDiagnostic attributeError(llvm::StringRef attribute);
  /// The error for input `i` (described as `what`, e.g. "input 'shape'")
  /// not meeting `requirement` (e.g. "must be known at compile time"); when
  /// the input is a graph input, it names the --bind-input that fixes it.
  /// Always returns failure.
  mlir::LogicalResult notConstantError(size_t i, llvm::StringRef what,
                                       llvm::StringRef requirement);

  //===--- Building blocks shared by the op files ------------------------===//
  /// Normalizes a possibly negative axis against `rank`; error if invalid.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);
  /// The size of dimension `d`: a constant, or a symbolic dimension's
  /// run-time value.
  mlir::OpFoldResult dimSize(int64_t d);
  /// An empty tensor of the given shape and dtype (symbolic dimensions take
  /// their run-time values).
  mlir::Value emptyTensor(const Shape &shape, int32_t dtype);

  //===--- Symbolic dimensions -----------------------------------------===//
  /// Records that dimensions `a` and `b` (at least one symbolic) must be
  /// equal at run time. Guards relate base symbols and constants only: two
  /// different dimensions one of which is derived are an error.
  mlir::LogicalResult requireEqualDims(int64_t a, int64_t b);
  /// The symbol table (null when the model has no symbolic dimensions).
  SymbolicDims *symbolTable() { return symbols; }
  /// "N" or the decimal size.
  std::string describeDim(int64_t d) const;
  /// A scalar constant of dtype `dtype` (float or integer element type).
  mlir::Value scalarConstant(double value, int32_t dtype);

private:
  const onnx::NodeProto &nodeProto;
  int64_t opsetVersion;
  llvm::SmallVector<TensorValue *> inputValues;
  mlir::OpBuilder &b;
  mlir::Location location;
  SymbolicDims *symbols;
};

/// Output shapes of a node, from its inputs and attributes.
using ShapeFn = std::function<mlir::FailureOr<llvm::SmallVector<Shape>>(
    NodeContext &)>;
/// Output ONNX dtypes of a node.
using DtypeFn = std::function<mlir::FailureOr<llvm::SmallVector<int32_t>>(
    NodeContext &)>;
/// Emits the node; `outputs` carry the inferred dtype and shape, the function
/// returns one value of exactly that type per output.
using LowerFn = std::function<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
    NodeContext &, llvm::ArrayRef<TensorValue> outputs)>;
/// Computes the outputs at compile time when every input is constant;
/// returns failure (without a diagnostic) when it does not apply.
using FoldFn = std::function<mlir::FailureOr<
    llvm::SmallVector<mlir::DenseElementsAttr>>(NodeContext &,
                                                llvm::ArrayRef<TensorValue>)>;

/// Computes outputs whose entries may be symbolic dimensions (shape
/// arithmetic on symbolic shapes: TensorValue::symbolicValue) when every
/// input is constant or symbolic; failure (no diagnostic) when it does not
/// apply, and the op is lowered instead.
using SymbolicFoldFn =
    std::function<mlir::FailureOr<llvm::SmallVector<Shape>>(
        NodeContext &, llvm::ArrayRef<TensorValue>)>;

/// The specification of one ONNX op.
struct OpSpec {
  ShapeFn shape;
  DtypeFn dtype;
  LowerFn lower;
  FoldFn fold; ///< optional
  SymbolicFoldFn symbolicFold; ///< optional
  /// The fold reads only input shapes and dtypes (Shape, Size), so the
  /// importer calls it even when the inputs' contents are unknown.
  bool foldNeedsOnlyShapes = false;
  /// The shape function and lowering handle symbolic dimensions in the
  /// inputs; other ops reject them with an error naming the dimension.
  bool symbolicDims = false;
  /// Opset range this spec implements (ONNX default domain).
  int64_t minOpset = 1;
  int64_t maxOpset = 18;
};

/// All supported ops, by op_type.
class OpLibrary {
public:
  /// The library with every op group registered.
  static const OpLibrary &get();
  void add(llvm::StringRef opType, OpSpec spec);
  const OpSpec *lookup(llvm::StringRef opType) const;
  llvm::SmallVector<llvm::StringRef> opTypes() const;

private:
  llvm::StringMap<OpSpec> specs;
};

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Multidirectional (numpy) broadcasting of shapes; error on a mismatch.
mlir::FailureOr<Shape> broadcastShapes(NodeContext &ctx,
                                       llvm::ArrayRef<Shape> shapes);
/// The indexing map reading an input of shape `inputShape` inside a loop nest
/// over the broadcast `outputShape` (size-1 and missing dims read index 0).
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx, const Shape &inputShape,
                             const Shape &outputShape);
/// Builds an all-parallel linalg.generic over `shape` writing a new tensor
/// of dtype `resultDtype` through the identity map; `maps` read `inputs`, and
/// `body` maps their scalars to the result scalar.
mlir::Value buildParallelGeneric(
    NodeContext &ctx, llvm::ArrayRef<mlir::Value> inputs,
    llvm::ArrayRef<mlir::AffineMap> maps, const Shape &shape,
    int32_t resultDtype,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body);
/// Builds an elementwise linalg.generic over the broadcast of `inputs`,
/// producing dtype `resultDtype`; `body` maps scalar inputs to the scalar
/// result.
mlir::Value buildElementwise(
    NodeContext &ctx, llvm::ArrayRef<mlir::Value> inputs,
    const Shape &resultShape, int32_t resultDtype,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body);
/// Converts a scalar between ONNX dtypes (float/int/bool, signedness aware).
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value v, int32_t from, int32_t to);

/// Reads a TensorProto into an attribute (raw or typed data; external data
/// is resolved by the importer before this is called).
mlir::FailureOr<mlir::DenseElementsAttr>
tensorProtoToAttr(mlir::MLIRContext *ctx, const onnx::TensorProto &tensor,
                  llvm::StringRef externalBytes, std::string &error);

/// Op groups, one file each under lib/Frontend/ONNX/Ops/.
void registerElementwiseOps(OpLibrary &library);
void registerNNOps(OpLibrary &library);
void registerReductionOps(OpLibrary &library);
void registerShapeOps(OpLibrary &library);
/// The symbolic folds of shape arithmetic, by op (Ops/SymbolicShapes.cpp).
llvm::StringMap<SymbolicFoldFn> symbolicShapeFolds();

} // namespace aotc::onnx_frontend

#endif // AOTC_FRONTEND_ONNX_OPLIBRARY_H
