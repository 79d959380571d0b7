//===- ONNXImporter.cpp - ONNX models to MLIR on tensors -----*- C++ -*-===//
//
// This file implements the ONNX importer. It walks the graph once, in node
// order: initializers and Constant nodes become compile-time contents, shape
// arithmetic (Shape -> Gather -> Concat -> Reshape, ...) is folded while
// importing, and every other node is lowered by its OpSpec. Every failure is
// a diagnostic naming the file and, where there is one, the node, op and
// attribute.
//
//===----------------------------------------------------------------------===//

#include "aotc/Frontend/ONNX/ONNXImporter.h"
#include "aotc/ABI/EntryPoint.h"
#include "aotc/Common/Attributes.h"
#include "aotc/Common/Dialects.h"
#include "aotc/Frontend/ONNX/OpLibrary.h"

#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace aotc::onnx_frontend;

namespace aotc {

namespace {

/// Supported opsets of the default ONNX domain. Models declaring an older
/// opset are accepted node by node when the op's definition at the model's
/// opset is the one in force at opset kModernOpset (see importNode).
constexpr int64_t kMinOpset = 1;
constexpr int64_t kModernOpset = 7;
constexpr int64_t kMaxOpset = 18;
/// Largest tensor aotc accepts (elements).
constexpr int64_t kMaxElements = int64_t(1) << 40;
/// A graph output dimension the graph itself determines (symbolic or
/// unnamed in the model).
constexpr int64_t kUnknownDim = std::numeric_limits<int64_t>::min();

/// Turns an ONNX value name into a unique C identifier that does not clash
/// with the entry point's own parameters.
class NameSanitizer {
public:
  NameSanitizer() {
    for (StringRef reserved : {"pool", "pool_bytes", "stream"})
      used.insert(reserved);
  }

  std::string operator()(StringRef name) {
    std::string id;
    for (char c : name)
      id.push_back(isalnum(static_cast<unsigned char>(c)) ? c : '_');
    if (id.empty() || isdigit(static_cast<unsigned char>(id[0])))
      id = "t_" + id;
    static const llvm::StringSet<> keywords = {
        "auto",   "break",  "case",     "char",   "const",    "continue",
        "default", "do",    "double",   "else",   "enum",     "extern",
        "float",  "for",    "goto",     "if",     "int",      "long",
        "register", "return", "short",  "signed", "sizeof",   "static",
        "struct", "switch", "typedef",  "union",  "unsigned", "void",
        "volatile", "while", "inline",  "restrict", "bool",   "class",
        "new",    "delete", "this",     "template", "namespace", "private"};
    if (keywords.contains(id))
      id += "_";
    std::string unique = id;
    for (int i = 1; !used.insert(unique).second; ++i)
      unique = id + "_" + std::to_string(i);
    return unique;
  }

private:
  llvm::StringSet<> used;
};

/// A node of an opset before 7 rewritten to its opset-7 definition.
struct LegacyUpgrade {
  onnx::NodeProto node;
  /// Legacy broadcasting of B along A from this axis (broadcast=1, axis).
  std::optional<int64_t> broadcastAxis;
  /// broadcast=0: A and B must have the same shape.
  bool requireEqualShapes = false;
};

/// The opset-7 equivalent of a node whose definition changed at opset 7
/// (PyTorch's opset-6 exports): Add/Sub/Mul/Div/Pow's `broadcast`/`axis`,
/// Gemm's `broadcast`, BatchNormalization's `is_test`/`spatial`,
/// `consumed_inputs` everywhere; AveragePool-1 is AveragePool-7 with
/// count_include_pad=0. Nullopt (and `why`) when there is none.
std::optional<LegacyUpgrade> upgradeLegacyNode(const onnx::NodeProto &node,
                                               std::string &why) {
  LegacyUpgrade up;
  up.node = node;
  up.node.clear_attribute();
  StringRef op = node.op_type();
  bool arithmetic = llvm::is_contained({"Add", "Sub", "Mul", "Div", "Pow"}, op);
  bool gemm = op == "Gemm", batchNorm = op == "BatchNormalization";
  if (!arithmetic && !gemm && !batchNorm && op != "AveragePool")
    return std::nullopt;
  int64_t broadcast = 0;
  std::optional<int64_t> axis;
  for (const onnx::AttributeProto &a : node.attribute()) {
    StringRef name = a.name();
    if (name == "consumed_inputs")
      continue;
    if ((arithmetic || gemm) && name == "broadcast") {
      broadcast = a.i();
      continue;
    }
    if (arithmetic && name == "axis") {
      axis = a.i();
      continue;
    }
    if (batchNorm && name == "is_test") {
      if (a.i() != 1) {
        why = " (is_test=0 is training)";
        return std::nullopt;
      }
      continue;
    }
    if (batchNorm && name == "spatial") {
      if (a.i() != 1) {
        why = " (spatial=0)";
        return std::nullopt;
      }
      continue;
    }
    *up.node.add_attribute() = a;
  }
  if (arithmetic) {
    up.requireEqualShapes = broadcast == 0;
    if (broadcast == 1)
      up.broadcastAxis = axis; // without an axis: trailing, as numpy
  }
  return up;
}

class Importer {
public:
  Importer(MLIRContext &ctx, StringRef path, const ONNXImportOptions &options)
      : ctx(ctx), path(path.str()), options(options), builder(&ctx),
        fileLoc(FileLineColLoc::get(&ctx, path, 0, 0)) {}

  OwningOpRef<ModuleOp> run();

private:
  InFlightDiagnostic error() { return mlir::emitError(fileLoc); }
  LogicalResult loadModel();
  LogicalResult importInitializers();
  /// The dtype and shape of a graph input (`isOutput` false) or output.
  /// Input dimensions named by `--max-dim` become symbols; an output's
  /// symbolic or unnamed dimension is left for the graph to determine
  /// (kUnknownDim).
  FailureOr<TensorValue> typeOfValueInfo(const onnx::ValueInfoProto &info,
                                         StringRef what, bool isOutput);
  /// Reads the contents of a `--bind-input` graph input from `file` and
  /// checks them against the input's declared dtype and shape.
  FailureOr<TensorValue> readBoundInput(const onnx::ValueInfoProto &info,
                                        StringRef file);
  LogicalResult importNode(const onnx::NodeProto &node, int index);
  /// The values `node` reads (null for an omitted optional input), or an
  /// error through `nodeError` naming an input no earlier node produces.
  FailureOr<SmallVector<TensorValue *>>
  nodeInputs(const onnx::NodeProto &node,
             llvm::function_ref<InFlightDiagnostic()> nodeError);
  /// A node of an `--extern` op: a call of the user's kernel `symbol`.
  LogicalResult importExternNode(const onnx::NodeProto &node,
                                 StringRef nodeName, Location loc,
                                 StringRef symbol);
  /// A call of the C kernel `symbol` (aot_extern.h) on `operands`, through
  /// a private declaration of its own; `attributes` become its JSON.
  SmallVector<Value> externCall(Location loc, StringRef symbol,
                                llvm::json::Object attributes,
                                int64_t scratchBytes, ValueRange operands,
                                TypeRange outputTypes);
  /// The node offloaded to a library kernel (--offload), when it is one
  /// such a kernel takes; its results, else an empty vector.
  SmallVector<Value> offload(NodeContext &context,
                             ArrayRef<TensorValue> outputs);
  /// The graph's value_info (or output) describing `name`, if any.
  const onnx::ValueInfoProto *valueInfo(StringRef name) const;
  FailureOr<std::string> readExternalData(const onnx::TensorProto &tensor);

  MLIRContext &ctx;
  std::string path;
  const ONNXImportOptions &options;
  OpBuilder builder;
  Location fileLoc;
  onnx::ModelProto model;
  int64_t opset = 0;
  llvm::StringMap<TensorValue> values;
  SymbolicDims symbols;
  /// Name of the node producing each value (for cycle diagnostics).
  llvm::StringMap<std::string> producers;
  /// Extern nodes imported so far (each declaration's name is unique).
  unsigned externNodes = 0;
};

LogicalResult Importer::loadModel() {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer) {
    error() << "cannot read the model: " << buffer.getError().message();
    return failure();
  }
  if (!model.ParseFromArray((*buffer)->getBufferStart(),
                            static_cast<int>((*buffer)->getBufferSize())) ||
      !model.has_graph()) {
    error() << "not a valid ONNX model (truncated or corrupt protobuf)";
    return failure();
  }
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      opset = set.version();
  if (opset == 0) {
    error() << "the model imports no opset of the default ONNX domain";
    return failure();
  }
  if (opset > kMaxOpset) {
    error() << "opset " << opset << " is newer than supported (" << kMinOpset
            << " to " << kMaxOpset << ")";
    return failure();
  }
  if (opset < kMinOpset) {
    error() << "opset " << opset << " is older than supported (" << kMinOpset
            << " to " << kMaxOpset << ")";
    return failure();
  }
  return success();
}

FailureOr<std::string>
Importer::readExternalData(const onnx::TensorProto &tensor) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
      continue;
    }
    if (entry.key() != "offset" && entry.key() != "length")
      continue;
    int64_t value;
    if (StringRef(entry.value()).getAsInteger(10, value) || value < 0) {
      error() << "initializer '" << tensor.name() << "': external data "
              << entry.key() << " '" << entry.value()
              << "' is not a non-negative integer";
      return failure();
    }
    (entry.key() == "offset" ? offset : length) = value;
  }
  if (location.empty() || llvm::sys::path::is_absolute(location) ||
      StringRef(location).contains("..")) {
    error() << "initializer '" << tensor.name()
            << "': invalid external data location '" << location << "'";
    return failure();
  }
  llvm::SmallString<256> file(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(file, location);
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false);
  if (!buffer) {
    error() << "initializer '" << tensor.name() << "': cannot read external "
            << "data file '" << file << "': " << buffer.getError().message();
    return failure();
  }
  int64_t size = (*buffer)->getBufferSize();
  if (offset > size || (length >= 0 && length > size - offset)) {
    error() << "initializer '" << tensor.name() << "': external data range ["
            << offset << ", +" << length << ") exceeds '" << file << "' ("
            << size << " bytes)";
    return failure();
  }
  if (length < 0)
    length = size - offset;
  return std::string((*buffer)->getBufferStart() + offset, length);
}

LogicalResult Importer::importInitializers() {
  for (const onnx::TensorProto &tensor : model.graph().initializer()) {
    int64_t elements = 1;
    for (int64_t d : tensor.dims()) {
      if (d < 0 || (d > 0 && elements > kMaxElements / d)) {
        error() << "initializer '" << tensor.name() << "' is larger than 2^40 "
                << "elements";
        return failure();
      }
      elements *= d;
    }
    std::string external;
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
      FailureOr<std::string> bytes = readExternalData(tensor);
      if (failed(bytes))
        return failure();
      external = std::move(*bytes);
    }
    std::string message;
    FailureOr<DenseElementsAttr> attr =
        tensorProtoToAttr(&ctx, tensor, external, message);
    if (failed(attr)) {
      error() << "initializer: " << message;
      return failure();
    }
    TensorValue value;
    value.dtype = tensor.data_type();
    value.shape.assign(tensor.dims().begin(), tensor.dims().end());
    value.constant = *attr;
    values[tensor.name()] = value;
    producers[tensor.name()] = "<initializer>";
  }
  return success();
}

FailureOr<TensorValue> Importer::typeOfValueInfo(const onnx::ValueInfoProto &info,
                                                 StringRef what,
                                                 bool isOutput) {
  if (!info.type().has_tensor_type()) {
    error() << what << " '" << info.name() << "' is not a tensor";
    return failure();
  }
  const onnx::TypeProto::Tensor &t = info.type().tensor_type();
  TensorValue value;
  value.dtype = t.elem_type();
  if (!elementTypeOf(&ctx, value.dtype)) {
    error() << what << " '" << info.name() << "' has unsupported dtype "
            << onnxTypeName(value.dtype);
    return failure();
  }
  if (!t.has_shape()) {
    error() << what << " '" << info.name() << "' has no shape";
    return failure();
  }
  int64_t elements = 1;
  for (const onnx::TensorShapeProto::Dimension &d : t.shape().dim()) {
    int64_t size;
    if (d.has_dim_value()) {
      size = d.dim_value();
    } else if (d.has_dim_param() && options.dimValues.count(d.dim_param())) {
      size = options.dimValues.lookup(d.dim_param());
    } else if (isOutput) {
      value.shape.push_back(kUnknownDim);
      continue;
    } else if (d.has_dim_param() &&
               options.symbolicDims.count(d.dim_param())) {
      auto it = llvm::find(symbols.names, d.dim_param());
      value.shape.push_back(
          it != symbols.names.end()
              ? symbolDim(it - symbols.names.begin())
              : symbols.addBase(d.dim_param(),
                                options.symbolicDims.lookup(d.dim_param())));
      continue;
    } else if (d.has_dim_param() && !d.dim_param().empty()) {
      error() << what << " '" << info.name() << "' has symbolic dimension '"
              << d.dim_param() << "'; give it a value (--dim "
              << d.dim_param() << "=VALUE) or a bound to keep it symbolic "
              << "(--max-dim " << d.dim_param() << "=BOUND)";
      return failure();
    } else {
      error() << what << " '" << info.name()
              << "' has a dimension with neither a size nor a name";
      return failure();
    }
    if (size < 0) {
      error() << what << " '" << info.name() << "' has a negative dimension ("
              << size << ")";
      return failure();
    }
    if (size > 0 && elements > kMaxElements / size) {
      error() << what << " '" << info.name()
              << "' is larger than 2^40 elements";
      return failure();
    }
    elements *= size;
    value.shape.push_back(size);
  }
  return value;
}

FailureOr<TensorValue>
Importer::readBoundInput(const onnx::ValueInfoProto &info, StringRef file) {
  auto fail = [&]() {
    return error() << "--bind-input " << info.name() << "=" << file << ": ";
  };
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false);
  if (!buffer) {
    fail() << "cannot read the file: " << buffer.getError().message();
    return failure();
  }
  onnx::TensorProto tensor;
  if (!tensor.ParseFromArray((*buffer)->getBufferStart(),
                             static_cast<int>((*buffer)->getBufferSize()))) {
    fail() << "not a serialized ONNX TensorProto";
    return failure();
  }
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    fail() << "external data is not supported for a bound input";
    return failure();
  }
  std::string message;
  FailureOr<DenseElementsAttr> attr =
      tensorProtoToAttr(&ctx, tensor, "", message);
  if (failed(attr)) {
    fail() << message;
    return failure();
  }
  TensorValue value;
  value.dtype = tensor.data_type();
  value.shape.assign(tensor.dims().begin(), tensor.dims().end());
  value.constant = *attr;
  // The declared type must admit the contents: same dtype and rank, equal
  // sizes where the model gives one.
  const onnx::TypeProto::Tensor &declared = info.type().tensor_type();
  bool matches = info.type().has_tensor_type() &&
                 declared.elem_type() == value.dtype;
  if (matches && declared.has_shape()) {
    matches = declared.shape().dim_size() ==
              static_cast<int>(value.shape.size());
    for (int i = 0; matches && i < declared.shape().dim_size(); ++i)
      matches = !declared.shape().dim(i).has_dim_value() ||
                declared.shape().dim(i).dim_value() == value.shape[i];
  }
  if (!matches) {
    InFlightDiagnostic diag = fail();
    diag << "the file holds " << onnxTypeName(value.dtype) << "[";
    llvm::interleave(value.shape, diag, ",");
    diag << "], which the graph input's declared type does not admit";
    return failure();
  }
  return value;
}

/// "shape: int64[2] = {3, 4}" (at most 8 values shown).
static std::string describeBoundInput(StringRef name, const TensorValue &v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << ": " << onnxTypeName(v.dtype) << "[";
  llvm::interleave(v.shape, os, ",");
  os << "] = {";
  int64_t shown = 0;
  auto print = [&](auto values) {
    for (auto x : values) {
      if (shown)
        os << ", ";
      if (shown++ == 8) {
        os << "...";
        break;
      }
      os << x;
    }
  };
  if (isFloatType(v.dtype))
    print(llvm::map_range(v.constant->getValues<APFloat>(),
                          [](APFloat f) { return f.convertToDouble(); }));
  else
    print(llvm::map_range(v.constant->getValues<APInt>(),
                          [](APInt i) { return i.getSExtValue(); }));
  os << "}";
  return text;
}

FailureOr<SmallVector<TensorValue *>>
Importer::nodeInputs(const onnx::NodeProto &node,
                     llvm::function_ref<InFlightDiagnostic()> nodeError) {
  SmallVector<TensorValue *> inputs;
  for (const std::string &name : node.input()) {
    if (name.empty()) {
      inputs.push_back(nullptr);
      continue;
    }
    auto it = values.find(name);
    if (it == values.end()) {
      // Produced later (a cycle, or nodes out of order) or never (dangling).
      for (const onnx::NodeProto &other : model.graph().node())
        for (const std::string &out : other.output())
          if (out == name) {
            nodeError() << "input '" << name << "' is produced by node '"
                        << other.name()
                        << "' that does not come before it: the graph has "
                           "a cycle or is not topologically sorted";
            return failure();
          }
      nodeError() << "input '" << name
                  << "' is not produced by any node, initializer or graph "
                     "input (dangling edge)";
      return failure();
    }
    inputs.push_back(&it->second);
  }
  return inputs;
}

LogicalResult Importer::importNode(const onnx::NodeProto &node, int index) {
  std::string nodeName = node.name().empty()
                             ? node.op_type() + "_" + std::to_string(index)
                             : node.name();
  Location loc = NameLoc::get(StringAttr::get(&ctx, nodeName), fileLoc);
  auto nodeError = [&]() {
    return mlir::emitError(fileLoc)
           << "node '" << nodeName << "' (" << node.op_type() << "): ";
  };
  auto extern_ =
      options.externOps.find((node.domain() + "::" + node.op_type()));
  if (extern_ != options.externOps.end())
    return importExternNode(node, nodeName, loc, extern_->second);
  if (!node.domain().empty() && node.domain() != "ai.onnx") {
    nodeError() << "op domain '" << node.domain()
                << "' is not supported (a kernel of yours: --extern "
                << node.domain() << "::" << node.op_type() << "=SYMBOL)";
    return failure();
  }
  const OpSpec *spec = OpLibrary::get().lookup(node.op_type());
  if (!spec) {
    nodeError() << "unsupported op '" << node.op_type() << "'";
    return failure();
  }
  // The node must be well formed for its ONNX schema: input/output counts,
  // required attributes, attribute types.
  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), opset, "");
  if (schema) {
    try {
      schema->Verify(node);
    } catch (const std::exception &e) {
      nodeError() << "invalid node: " << StringRef(e.what()).trim();
      return failure();
    }
  }
  // An older definition is imported as its opset-7 equivalent.
  int64_t nodeOpset = opset;
  std::optional<LegacyUpgrade> legacy;
  if (opset < kModernOpset) {
    const onnx::OpSchema *modern =
        onnx::OpSchemaRegistry::Schema(node.op_type(), kModernOpset, "");
    if (!schema || !modern ||
        schema->since_version() != modern->since_version()) {
      std::string why;
      legacy = upgradeLegacyNode(node, why);
      if (!legacy) {
        nodeError() << "the definition of '" << node.op_type() << "' at opset "
                    << opset << " differs from opset " << kModernOpset
                    << " and is not supported" << why;
        return failure();
      }
      nodeOpset = kModernOpset;
    }
  }
  if (nodeOpset < spec->minOpset || nodeOpset > spec->maxOpset) {
    nodeError() << "op '" << node.op_type() << "' at opset " << nodeOpset
                << " is not supported (supported: " << spec->minOpset
                << " to " << spec->maxOpset << ")";
    return failure();
  }

  FailureOr<SmallVector<TensorValue *>> found = nodeInputs(node, nodeError);
  if (failed(found))
    return failure();
  SmallVector<TensorValue *> inputs = std::move(*found);

  // Legacy broadcasting (opset < 7, broadcast=1 with an axis): B's
  // dimensions sit at `axis` of A's; padded with size-1 dimensions to A's
  // rank, numpy broadcasting reads it the same way.
  TensorValue alignedB;
  if (legacy && legacy->broadcastAxis) {
    if (inputs.size() < 2 || !inputs[0] || !inputs[1]) {
      nodeError() << "legacy broadcasting needs inputs A and B";
      return failure();
    }
    const Shape &a = inputs[0]->shape, &bShape = inputs[1]->shape;
    int64_t axis = *legacy->broadcastAxis;
    if (axis < 0)
      axis += a.size();
    if (axis < 0 || axis + bShape.size() > a.size() ||
        hasSymbolDims(a) || hasSymbolDims(bShape)) {
      nodeError() << "attribute 'axis': B of rank " << bShape.size()
                  << " does not fit A of rank " << a.size() << " at axis "
                  << *legacy->broadcastAxis;
      return failure();
    }
    alignedB = *inputs[1];
    alignedB.shape.assign(a.size(), 1);
    llvm::copy(bShape, alignedB.shape.begin() + axis);
    auto type = alignedB.type(&ctx);
    if (alignedB.constant) {
      alignedB.constant = alignedB.constant->reshape(type);
      alignedB.value = Value();
    } else {
      SmallVector<ReassociationIndices> groups;
      if (bShape.empty()) {
        alignedB.value = tensor::ExpandShapeOp::create(
            builder, loc, type, inputs[1]->value, groups);
      } else {
        for (size_t i = 0; i < bShape.size(); ++i)
          groups.push_back({static_cast<int64_t>(axis + i)});
        for (int64_t i = 0; i < axis; ++i)
          groups.front().insert(groups.front().begin(), axis - 1 - i);
        for (size_t i = axis + bShape.size(); i < a.size(); ++i)
          groups.back().push_back(i);
        alignedB.value = tensor::ExpandShapeOp::create(
            builder, loc, type, inputs[1]->value, groups);
      }
    }
    inputs[1] = &alignedB;
  }
  if (legacy && legacy->requireEqualShapes && inputs.size() == 2 &&
      inputs[0] && inputs[1] && inputs[0]->shape != inputs[1]->shape) {
    nodeError() << "with broadcast=0 the inputs must have equal shapes";
    return failure();
  }

  // Names in diagnostics use the node name chosen above.
  onnx::NodeProto named = legacy ? legacy->node : node;
  named.set_name(nodeName);
  NodeContext context(named, nodeOpset, inputs, builder, loc, &symbols);
  if (!spec->symbolicDims)
    for (TensorValue *input : inputs)
      if (input)
        for (int64_t d : input->shape)
          if (isSymbolDim(d)) {
            nodeError() << "symbolic dimension '" << symbols.describe(d)
                        << "' reaches this op, which supports only static "
                           "shapes; specialize "
                        << (symbols.isBase(d)
                                ? "it with --dim " + symbols.describe(d) +
                                      "=VALUE"
                                : std::string("its factors with --dim"));
            return failure();
          }
  FailureOr<SmallVector<int32_t>> dtypes = spec->dtype(context);
  if (failed(dtypes))
    return failure();
  FailureOr<SmallVector<Shape>> shapes = spec->shape(context);
  if (failed(shapes))
    return failure();
  if (dtypes->size() != shapes->size()) {
    nodeError() << "internal error: " << dtypes->size() << " dtypes for "
                << shapes->size() << " shapes";
    return failure();
  }
  size_t produced = shapes->size();
  for (int i = produced; i < node.output_size(); ++i)
    if (!node.output(i).empty()) {
      nodeError() << "output " << i << " ('" << node.output(i)
                  << "') is not supported";
      return failure();
    }

  SmallVector<TensorValue> outputs(produced);
  for (size_t i = 0; i < produced; ++i) {
    // A dtype read from the model (a Constant's tensor) may be none aotc
    // has (UNDEFINED, strings).
    if (!elementTypeOf(&ctx, (*dtypes)[i])) {
      nodeError() << "output " << i << " has unsupported dtype "
                  << onnxTypeName((*dtypes)[i]);
      return failure();
    }
    outputs[i].dtype = (*dtypes)[i];
    outputs[i].shape = (*shapes)[i];
    int64_t elements = 1;
    for (int64_t d : outputs[i].shape) {
      if (isSymbolDim(d))
        d = symbols.bounds[symbolIndex(d)];
      if (d < 0 || (d > 0 && elements > kMaxElements / d)) {
        nodeError() << "output " << i << " is larger than 2^40 elements";
        return failure();
      }
      elements *= d;
    }
  }

  // Compile-time evaluation when every input is known: shape arithmetic on
  // symbolic dimensions first (its entries may be symbols), then constants.
  bool allConstant = llvm::all_of(inputs, [](TensorValue *v) {
    return !v || v->constant.has_value();
  });
  bool folded = false;
  // Zero-element results have known (no) contents.
  if (llvm::all_of(outputs, [](const TensorValue &v) {
        return !hasSymbolDims(v.shape) && v.numElements() == 0;
      })) {
    for (TensorValue &v : outputs)
      v.constant = DenseElementsAttr::get(v.type(&ctx), ArrayRef<Attribute>());
    folded = true;
  }
  bool symbolicInputs = llvm::any_of(inputs, [](TensorValue *v) {
    return v && (v->symbolicValue || hasSymbolDims(v->shape));
  });
  bool allKnown = llvm::all_of(inputs, [](TensorValue *v) {
    return !v || v->constant || v->symbolicValue;
  });
  if (!folded && spec->symbolicFold && symbolicInputs &&
      (allKnown || spec->foldNeedsOnlyShapes)) {
    FailureOr<SmallVector<Shape>> results =
        spec->symbolicFold(context, outputs);
    if (succeeded(results)) {
      for (size_t i = 0; i < produced; ++i) {
        const Shape &entries = (*results)[i];
        if (hasSymbolDims(entries)) {
          outputs[i].symbolicValue = entries;
          continue;
        }
        // No symbol left (e.g. Gather of a static dimension): a constant.
        auto type = outputs[i].type(&ctx);
        unsigned width = type.getElementTypeBitWidth();
        SmallVector<APInt> ints = llvm::map_to_vector(entries, [&](int64_t e) {
          return APInt(width, e, /*isSigned=*/true, /*implicitTrunc=*/true);
        });
        outputs[i].constant = DenseElementsAttr::get(type, ints);
      }
      folded = true;
    }
  }
  if (!folded && spec->fold && !symbolicInputs &&
      (allConstant || spec->foldNeedsOnlyShapes)) {
    FailureOr<SmallVector<DenseElementsAttr>> results =
        spec->fold(context, outputs);
    if (succeeded(results)) {
      for (size_t i = 0; i < produced; ++i)
        outputs[i].constant = (*results)[i];
      folded = true;
    }
  }
  // A library's kernel (--offload) where it takes the node as it is.
  SmallVector<Value> offloaded;
  if (!folded && !options.offload.empty())
    offloaded = offload(context, outputs);
  for (size_t i = 0; i < offloaded.size(); ++i)
    outputs[i].value = offloaded[i];
  if (!folded && offloaded.empty()) {
    FailureOr<SmallVector<Value>> results = spec->lower(context, outputs);
    if (failed(results))
      return failure();
    for (size_t i = 0; i < produced; ++i) {
      Value v = (*results)[i];
      if (v.getType() != outputs[i].type(&ctx)) {
        nodeError() << "internal error: output " << i << " has type "
                    << v.getType() << ", its specification says "
                    << outputs[i].type(&ctx);
        return failure();
      }
      outputs[i].value = v;
    }
  }
  for (size_t i = 0; i < produced; ++i) {
    // Optional trailing outputs the node does not list are dropped.
    if (i >= static_cast<size_t>(node.output_size()) || node.output(i).empty())
      continue;
    if (values.count(node.output(i))) {
      nodeError() << "output '" << node.output(i)
                  << "' is already defined by '" << producers[node.output(i)]
                  << "' (every value must be defined once)";
      return failure();
    }
    values[node.output(i)] = outputs[i];
    producers[node.output(i)] = nodeName;
  }
  return success();
}

const onnx::ValueInfoProto *Importer::valueInfo(StringRef name) const {
  const onnx::GraphProto &graph = model.graph();
  for (const auto *list : {&graph.value_info(), &graph.output()})
    for (const onnx::ValueInfoProto &info : *list)
      if (info.name() == name)
        return &info;
  return nullptr;
}

/// The attributes of `node` as a JSON object (aot_extern.h): numbers,
/// strings and lists of them; nullopt naming the first attribute of another
/// kind in `unsupported`.
static std::optional<llvm::json::Object>
attributesJSON(const onnx::NodeProto &node, std::string &unsupported) {
  llvm::json::Object object;
  for (const onnx::AttributeProto &a : node.attribute()) {
    llvm::json::Array list;
    switch (a.type()) {
    case onnx::AttributeProto::INT:
      object[a.name()] = a.i();
      continue;
    case onnx::AttributeProto::FLOAT:
      object[a.name()] = static_cast<double>(a.f());
      continue;
    case onnx::AttributeProto::STRING:
      object[a.name()] = a.s();
      continue;
    case onnx::AttributeProto::INTS:
      for (int64_t v : a.ints())
        list.push_back(v);
      break;
    case onnx::AttributeProto::FLOATS:
      for (float v : a.floats())
        list.push_back(static_cast<double>(v));
      break;
    case onnx::AttributeProto::STRINGS:
      for (const std::string &v : a.strings())
        list.push_back(v);
      break;
    default:
      unsupported = a.name();
      return std::nullopt;
    }
    object[a.name()] = std::move(list);
  }
  return object;
}

LogicalResult Importer::importExternNode(const onnx::NodeProto &node,
                                         StringRef nodeName, Location loc,
                                         StringRef symbol) {
  auto nodeError = [&]() {
    return mlir::emitError(fileLoc)
           << "node '" << nodeName << "' (" << node.domain()
           << (node.domain().empty() ? "" : "::") << node.op_type()
           << ", --extern " << symbol << "): ";
  };
  FailureOr<SmallVector<TensorValue *>> inputs = nodeInputs(node, nodeError);
  if (failed(inputs))
    return failure();
  SmallVector<Value> operands;
  SmallVector<Type> outputTypes;
  for (auto [name, input] : llvm::zip(node.input(), *inputs)) {
    if (!input)
      continue; // an omitted optional input
    if (hasSymbolDims(input->shape)) {
      nodeError() << "input '" << name << "' has symbolic dimensions; "
                  << "extern kernels take static shapes (give --dim)";
      return failure();
    }
    operands.push_back(materializeValue(*input, builder, loc, &symbols));
  }
  SmallVector<TensorValue> outputs;
  for (const std::string &name : node.output()) {
    const onnx::ValueInfoProto *info = name.empty() ? nullptr
                                                    : valueInfo(name);
    if (!info) {
      nodeError() << "output '" << name
                  << "' has no value_info in the graph: its dtype and static "
                     "shape must be given there (onnx.helper."
                     "make_tensor_value_info)";
      return failure();
    }
    FailureOr<TensorValue> value =
        typeOfValueInfo(*info, "extern node output", /*isOutput=*/true);
    if (failed(value))
      return failure();
    if (llvm::any_of(value->shape, [](int64_t d) { return d < 0; })) {
      nodeError() << "output '" << name
                  << "' has no static shape in its value_info";
      return failure();
    }
    outputs.push_back(*value);
    outputTypes.push_back(value->type(&ctx));
  }
  std::string unsupported;
  std::optional<llvm::json::Object> json = attributesJSON(node, unsupported);
  if (!json) {
    nodeError() << "attribute '" << unsupported
                << "' is not a number, a string or a list of them";
    return failure();
  }
  SmallVector<Value> results = externCall(
      loc, symbol, std::move(*json), /*scratchBytes=*/0, operands, outputTypes);
  for (auto [i, name] : llvm::enumerate(node.output())) {
    if (values.count(name)) {
      nodeError() << "output '" << name << "' is already defined by '"
                  << producers[name] << "' (every value must be defined once)";
      return failure();
    }
    outputs[i].value = results[i];
    values[name] = outputs[i];
    producers[name] = nodeName.str();
  }
  return success();
}

SmallVector<Value> Importer::externCall(Location loc, StringRef symbol,
                                        llvm::json::Object attributes,
                                        int64_t scratchBytes,
                                        ValueRange operands,
                                        TypeRange outputTypes) {
  // One declaration per node: its own types, the same C symbol.
  auto module = builder.getBlock()->getParentOp()->getParentOfType<ModuleOp>();
  std::string declName = (options.functionName + "__" + symbol + "_" +
                          Twine(externNodes++))
                             .str();
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(
        builder, loc, declName,
        builder.getFunctionType(operands.getTypes(), outputTypes));
    decl.setPrivate();
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::json::Value(std::move(attributes));
    SmallVector<NamedAttribute> fields = {
        builder.getNamedAttr("symbol", builder.getStringAttr(symbol)),
        builder.getNamedAttr("attributes", builder.getStringAttr(json))};
    if (scratchBytes > 0)
      fields.push_back(builder.getNamedAttr(
          "scratch_bytes", builder.getI64IntegerAttr(scratchBytes)));
    decl->setAttr(kExternAttrName, builder.getDictionaryAttr(fields));
  }
  return func::CallOp::create(builder, loc, declName, outputTypes, operands)
      ->getResults();
}

SmallVector<Value> Importer::offload(NodeContext &context,
                                     ArrayRef<TensorValue> outputs) {
  // float32, static shapes: what the library kernels take.
  auto isF32 = [](const TensorValue &v) {
    return v.dtype == onnx::TensorProto::FLOAT && !hasSymbolDims(v.shape);
  };
  size_t numInputs = context.numInputs();
  if (outputs.size() != 1 || !isF32(outputs[0]))
    return {};
  for (size_t i = 0; i < numInputs; ++i)
    if (context.hasInput(i) && !isF32(context.input(i)))
      return {};
  auto operandsOf = [&](size_t count) {
    SmallVector<Value> operands;
    for (size_t i = 0; i < std::min(count, numInputs); ++i)
      if (context.hasInput(i))
        operands.push_back(context.inputValue(i));
    return operands;
  };
  auto orDefault = [](SmallVector<int64_t> values, ArrayRef<int64_t> absent) {
    return values.empty() ? SmallVector<int64_t>(absent) : values;
  };
  Location loc = context.loc();
  Type type = outputs[0].type(&ctx);
  StringRef op = context.opType();
  auto library = [&](StringRef kind) -> std::string {
    auto it = options.offload.find(kind);
    return it == options.offload.end() ? "" : it->second;
  };
  // Conv: 2-D, explicit padding; on OpenBLAS one group
  // (aot_blas_conv2d_f32: im2col in its scratch, then one GEMM per image),
  // on oneDNN any (aot_dnnl_conv2d_f32: one oneDNN convolution).
  std::string convLibrary = library("conv");
  if (op == "Conv" && !convLibrary.empty()) {
    const Shape &x = context.input(0).shape, &w = context.input(1).shape,
                &y = outputs[0].shape;
    int64_t group = context.intAttr("group", 1);
    if (x.size() != 4 || w.size() != 4 ||
        context.stringAttr("auto_pad", "NOTSET") != "NOTSET" ||
        (convLibrary == "openblas" && group != 1))
      return {};
    SmallVector<int64_t> strides =
        orDefault(context.intsAttr("strides"), {1, 1});
    SmallVector<int64_t> pads =
        orDefault(context.intsAttr("pads"), {0, 0, 0, 0});
    SmallVector<int64_t> dilations =
        orDefault(context.intsAttr("dilations"), {1, 1});
    if (strides.size() != 2 || pads.size() != 4 || dilations.size() != 2)
      return {};
    llvm::json::Object attributes{{"strides", llvm::json::Array(strides)},
                                  {"pads", llvm::json::Array(pads)},
                                  {"dilations", llvm::json::Array(dilations)}};
    if (convLibrary == "onednn") {
      attributes["group"] = group;
      return externCall(loc, "aot_dnnl_conv2d_f32", std::move(attributes), 0,
                        operandsOf(3), type);
    }
    bool direct = w[2] == 1 && w[3] == 1 &&
                  llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
                  llvm::all_of(pads, [](int64_t p) { return p == 0; });
    int64_t scratch = direct ? 0 : x[1] * w[2] * w[3] * y[2] * y[3] * 4;
    return externCall(loc, "aot_blas_conv2d_f32", std::move(attributes),
                      scratch, operandsOf(3), type);
  }
  // MatMul of matrices, Gemm with a bias of N, 1 x N or M x N: SGEMM of
  // OpenBLAS (aot_blas_gemm_f32) or cuBLAS (aot_cublas_gemm_f32).
  std::string matmulLibrary = library("matmul");
  if ((op == "MatMul" || op == "Gemm") && !matmulLibrary.empty()) {
    const Shape &y = outputs[0].shape;
    if (numInputs < 2 || context.input(0).shape.size() != 2 ||
        context.input(1).shape.size() != 2 || y.size() != 2)
      return {};
    int64_t transA = 0, transB = 0;
    double alpha = 1.0, beta = 0.0;
    if (op == "Gemm") {
      transA = context.intAttr("transA", 0);
      transB = context.intAttr("transB", 0);
      alpha = context.floatAttr("alpha", 1.0f);
      if (context.hasInput(2)) {
        beta = context.floatAttr("beta", 1.0f);
        const Shape &c = context.input(2).shape;
        bool row = (c.size() == 1 && c[0] == y[1]) ||
                   (c.size() == 2 && c[0] == 1 && c[1] == y[1]);
        if (!row && c != y)
          return {};
      }
    }
    return externCall(loc,
                      matmulLibrary == "cublas" ? "aot_cublas_gemm_f32"
                                                : "aot_blas_gemm_f32",
                      llvm::json::Object{{"transA", transA},
                                         {"transB", transB},
                                         {"alpha", alpha},
                                         {"beta", beta}},
                      0, operandsOf(op == "Gemm" ? 3 : 2), type);
  }
  return {};
}

OwningOpRef<ModuleOp> Importer::run() {
  if (failed(loadModel()) || failed(importInitializers()))
    return nullptr;
  const onnx::GraphProto &graph = model.graph();

  // Graph inputs that are not initializers are the entry point's arguments.
  NameSanitizer sanitize;
  SmallVector<Type> argTypes;
  SmallVector<std::pair<std::string, TensorValue>> arguments;
  auto checkAbiDtype = [&](const TensorValue &v, StringRef what,
                           StringRef name) {
    if (v.dtype == kUInt16 || v.dtype == kUInt32 || v.dtype == kUInt64) {
      error() << what << " '" << name << "' has dtype "
              << onnxTypeName(v.dtype) << ", which the ABI cannot describe";
      return failure();
    }
    return success();
  };
  llvm::StringSet<> inputNames;
  SmallVector<Attribute> boundInputs;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (!inputNames.insert(input.name()).second) {
      error() << "graph input '" << input.name() << "' is listed twice";
      return nullptr;
    }
    auto bound = options.boundInputs.find(input.name());
    if (bound != options.boundInputs.end()) {
      FailureOr<TensorValue> value = readBoundInput(input, bound->second);
      if (failed(value))
        return nullptr;
      values[input.name()] = *value;
      producers[input.name()] = "<bound input>";
      boundInputs.push_back(
          builder.getStringAttr(describeBoundInput(input.name(), *value)));
      continue;
    }
    if (values.count(input.name()))
      continue; // an initializer with a default value
    FailureOr<TensorValue> value =
        typeOfValueInfo(input, "graph input", /*isOutput=*/false);
    if (failed(value) ||
        failed(checkAbiDtype(*value, "graph input", input.name())))
      return nullptr;
    value->graphInput = input.name();
    argTypes.push_back(value->type(&ctx));
    arguments.push_back({input.name(), *value});
  }
  for (const auto &bound : options.boundInputs)
    if (!inputNames.contains(bound.getKey())) {
      error() << "--bind-input: the graph has no input '" << bound.getKey()
              << "'";
      return nullptr;
    }
  SmallVector<TensorValue> declaredOutputs;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    FailureOr<TensorValue> value =
        typeOfValueInfo(output, "graph output", /*isOutput=*/true);
    if (failed(value) ||
        failed(checkAbiDtype(*value, "graph output", output.name())))
      return nullptr;
    declaredOutputs.push_back(*value);
  }
  if (graph.output_size() == 0) {
    error() << "the graph has no outputs";
    return nullptr;
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  // Result types are set once the graph has computed them.
  auto func = func::FuncOp::create(builder, fileLoc, options.functionName,
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, arg] : llvm::enumerate(arguments)) {
    arg.second.value = entry->getArgument(i);
    // A zero-element input has known (no) contents: shape arithmetic on it
    // (e.g. an empty `axes`) folds; the entry point still takes it.
    if (!hasSymbolDims(arg.second.shape) && arg.second.numElements() == 0)
      arg.second.constant = DenseElementsAttr::get(arg.second.type(&ctx),
                                                   ArrayRef<Attribute>());
    values[arg.first] = arg.second;
    producers[arg.first] = "<graph input>";
    func.setArgAttr(i, kTensorNameAttrName,
                    builder.getStringAttr(sanitize(arg.first)));
    if (arg.second.dtype == kUInt8)
      func.setArgAttr(i, kTensorDtypeAttrName, builder.getStringAttr("u8"));
  }
  builder.setInsertionPointToStart(entry);
  // The run-time value of each symbolic dimension: its first graph input.
  for (auto [i, arg] : llvm::enumerate(arguments)) {
    const Shape &shape = arg.second.shape;
    if (!hasSymbolDims(shape))
      continue;
    SmallVector<Attribute> dims;
    for (auto [axis, d] : llvm::enumerate(shape)) {
      dims.push_back(builder.getStringAttr(
          isSymbolDim(d) ? symbols.names[symbolIndex(d)] : ""));
      if (isSymbolDim(d) && !symbols.values[symbolIndex(d)])
        symbols.values[symbolIndex(d)] =
            tensor::DimOp::create(builder, fileLoc, entry->getArgument(i),
                                  axis);
    }
    func.setArgAttr(i, kTensorDimsAttrName, builder.getArrayAttr(dims));
  }

  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(importNode(node, index)))
      return nullptr;

  SmallVector<Value> results;
  SmallVector<std::pair<size_t, ArrayAttr>> resultDims;
  for (auto [i, output] : llvm::enumerate(graph.output())) {
    auto it = values.find(output.name());
    if (it == values.end()) {
      error() << "graph output '" << output.name()
              << "' is not produced by any node (dangling edge)";
      return nullptr;
    }
    TensorValue &v = it->second;
    const Shape &declared = declaredOutputs[i].shape;
    bool matches = v.dtype == declaredOutputs[i].dtype &&
                   v.shape.size() == declared.size();
    for (size_t d = 0; matches && d < declared.size(); ++d)
      matches = declared[d] == kUnknownDim || declared[d] == v.shape[d];
    if (!matches) {
      InFlightDiagnostic diag = error();
      diag << "graph output '" << output.name() << "' is declared "
           << onnxTypeName(declaredOutputs[i].dtype) << "[";
      llvm::interleave(
          declared, diag,
          [&](int64_t d) { diag << (d == kUnknownDim ? "?" : symbols.describe(d)); },
          ",");
      diag << "] but computed as " << onnxTypeName(v.dtype) << "[";
      llvm::interleave(
          v.shape, diag, [&](int64_t d) { diag << symbols.describe(d); }, ",");
      diag << "]";
      return nullptr;
    }
    for (int64_t d : v.shape)
      if (isSymbolDim(d) && !symbols.isBase(d)) {
        error() << "graph output '" << output.name() << "' has dimension "
                << symbols.describe(d)
                << ", a product of symbolic dimensions, which the ABI "
                   "cannot describe";
        return nullptr;
      }
    if (hasSymbolDims(v.shape)) {
      SmallVector<Attribute> dims = llvm::map_to_vector(v.shape, [&](int64_t d) {
        return Attribute(builder.getStringAttr(
            isSymbolDim(d) ? symbols.names[symbolIndex(d)] : ""));
      });
      resultDims.push_back({i, builder.getArrayAttr(dims)});
    }
    // A zero-element output has nothing to compute.
    if (!hasSymbolDims(v.shape) && v.numElements() == 0)
      results.push_back(tensor::EmptyOp::create(
          builder, fileLoc, v.type(&ctx).getShape(),
          v.type(&ctx).getElementType()));
    else
      results.push_back(materializeValue(v, builder, fileLoc, &symbols));
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(builder.getFunctionType(
      argTypes, ValueRange(results).getTypes()));
  for (auto [i, output] : llvm::enumerate(graph.output())) {
    func.setResultAttr(i, kTensorNameAttrName,
                       builder.getStringAttr(sanitize(output.name())));
    if (values[output.name()].dtype == kUInt8)
      func.setResultAttr(i, kTensorDtypeAttrName, builder.getStringAttr("u8"));
  }
  for (auto [i, dims] : resultDims)
    func.setResultAttr(i, kTensorDimsAttrName, dims);
  if (!boundInputs.empty())
    func->setAttr(kBoundInputsAttrName, builder.getArrayAttr(boundInputs));
  // Equalities between dimensions the graph relies on: run-time guards.
  if (!symbols.guards.empty()) {
    SmallVector<Attribute> guards;
    for (auto [a, b] : symbols.guards)
      guards.push_back(builder.getStrArrayAttr(
          {symbols.describe(a), symbols.describe(b)}));
    func->setAttr(kGuardsAttrName, builder.getArrayAttr(guards));
  }

  if (failed(mlir::verify(*module))) {
    error() << "internal error: the imported module does not verify";
    return nullptr;
  }
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importONNXModel(MLIRContext &context, StringRef path,
                                      const ONNXImportOptions &options) {
  context.loadDialect<func::FuncDialect, arith::ArithDialect,
                      math::MathDialect, tensor::TensorDialect,
                      linalg::LinalgDialect>();
  Importer importer(context, path, options);
  return importer.run();
}

} // namespace aotc
