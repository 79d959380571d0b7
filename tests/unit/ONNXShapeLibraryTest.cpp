//===- ONNXShapeLibraryTest.cpp - Op library vs ONNX shape inference -----===//
//
// This file checks the shape and dtype functions of the ONNX op library
// against ONNX's own shape inference (libonnx, an oracle nobody here wrote)
// on the models of ONNX's backend node tests (Debian's libonnx-testdata).
//
// For every node of every node/*/model.onnx whose op the library supports,
// the node's inputs are given the types the importer would give them (graph
// inputs, initializers and Constant outputs with their contents, and the
// outputs of earlier nodes as our own functions computed them, folded when
// the op has a compile-time evaluator; the outputs of ops the library does
// not support get the type ONNX inferred), spec->dtype and spec->shape are
// called, and every output is compared with ONNX's inferred type and, for
// graph outputs, with the type the model declares. A node whose function
// fails must have emitted an error: it is counted as "rejected", not as a
// mismatch.
//
//===----------------------------------------------------------------------===//

#include "aotc/Frontend/ONNX/OpLibrary.h"

#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace mlir;
using namespace aotc::onnx_frontend;

#ifndef AOTC_ONNX_TEST_DATA
#define AOTC_ONNX_TEST_DATA "/usr/include/onnx/backend/test/data"
#endif

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// An ONNX type as far as shape inference knows it: dtype 0 and/or
/// `hasShape` false when unknown; -1 marks an unknown dimension.
struct OnnxType {
  int32_t dtype = 0;
  bool hasShape = false;
  std::vector<int64_t> dims;
};

std::optional<OnnxType> typeOf(const onnx::TypeProto &type) {
  if (!type.has_tensor_type())
    return std::nullopt;
  const onnx::TypeProto::Tensor &t = type.tensor_type();
  OnnxType result;
  result.dtype = t.elem_type();
  if (t.has_shape()) {
    result.hasShape = true;
    for (const onnx::TensorShapeProto::Dimension &d : t.shape().dim())
      result.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
  }
  return result;
}

std::string shapeString(llvm::ArrayRef<int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + (dims[i] < 0 ? std::string("?")
                                       : std::to_string(dims[i]));
  return s + "]";
}

std::string typeString(int32_t dtype, llvm::ArrayRef<int64_t> dims,
                       bool hasShape = true) {
  return onnxTypeName(dtype).str() +
         (hasShape ? shapeString(dims) : std::string("[unranked]"));
}

/// Empty when ours is consistent with `theirs`, else what differs.
std::string difference(int32_t dtype, const Shape &shape,
                       const OnnxType &theirs) {
  std::string diff;
  if (theirs.dtype != 0 && theirs.dtype != dtype)
    diff = "dtype";
  if (theirs.hasShape) {
    bool same = theirs.dims.size() == shape.size();
    for (size_t i = 0; same && i < shape.size(); ++i)
      same = theirs.dims[i] < 0 || theirs.dims[i] == shape[i];
    if (!same)
      diff += diff.empty() ? "shape" : " and shape";
  }
  return diff;
}

int64_t defaultOpset(const onnx::ModelProto &model) {
  int64_t opset = 0;
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      opset = set.version();
  return opset;
}

/// Totals over all models.
struct Tally {
  int models = 0;
  int nodesSeen = 0;         ///< nodes in the default domain
  int unsupportedOp = 0;     ///< op not in the library
  int skippedOpset = 0;      ///< op supported, model opset out of its range
  int skippedInputs = 0;     ///< an input without usable type information
  int inputsFromONNX = 0;    ///< inputs typed by ONNX (unsupported producer)
  int compared = 0;          ///< nodes whose functions were called
  int matched = 0;           ///< every output agrees with ONNX
  int rejected = 0;          ///< a function failed with a diagnostic
  int mismatched = 0;        ///< disagrees with ONNX (a bug)
  int outputsCompared = 0;   ///< individual outputs checked against ONNX
  int outputsUnverified = 0; ///< outputs ONNX could not type either
  std::vector<std::string> mismatches;
  std::map<std::string, std::vector<std::string>> rejections; ///< by op
  std::map<std::string, int> matchedByOp;
};

//===----------------------------------------------------------------------===//
// One model
//===----------------------------------------------------------------------===//

class ModelChecker {
public:
  ModelChecker(MLIRContext &ctx, Tally &tally) : ctx(ctx), tally(tally) {}

  void check(const std::string &caseName, const std::string &path);

private:
  /// A TensorValue for a graph input / value_info, or nullopt if unusable.
  std::optional<TensorValue> fromType(const onnx::TypeProto &type);
  void checkNode(const onnx::NodeProto &node, int index);

  MLIRContext &ctx;
  Tally &tally;
  std::string caseName;
  int64_t opset = 0;
  OwningOpRef<ModuleOp> scratch;
  std::unique_ptr<OpBuilder> builder;
  llvm::StringMap<TensorValue> values;
  /// ONNX's types after InferShapes, and the model's declared outputs.
  llvm::StringMap<OnnxType> inferred, declared;
  /// The TypeProtos behind `inferred`.
  llvm::StringMap<onnx::TypeProto> inferredTypes;
};

std::optional<TensorValue> ModelChecker::fromType(const onnx::TypeProto &type) {
  std::optional<OnnxType> t = typeOf(type);
  if (!t || !t->hasShape || !elementTypeOf(&ctx, t->dtype))
    return std::nullopt;
  TensorValue v;
  v.dtype = t->dtype;
  for (int64_t d : t->dims) {
    if (d < 0)
      return std::nullopt; // symbolic: the importer needs --dim
    v.shape.push_back(d);
  }
  // A stand-in SSA value; shape/dtype functions only read dtype and shape.
  v.value = tensor::EmptyOp::create(*builder, UnknownLoc::get(&ctx), v.shape,
                                    elementTypeOf(&ctx, v.dtype));
  return v;
}

void ModelChecker::check(const std::string &name, const std::string &path) {
  caseName = name;
  onnx::ModelProto model;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in || !model.ParseFromIstream(&in)) {
      ADD_FAILURE() << name << ": cannot parse " << path;
      return;
    }
  }
  ++tally.models;
  opset = defaultOpset(model);
  for (const onnx::ValueInfoProto &out : model.graph().output())
    if (std::optional<OnnxType> t = typeOf(out.type()))
      declared[out.name()] = *t;

  onnx::ModelProto inferredModel = model;
  try {
    onnx::shape_inference::InferShapes(inferredModel);
  } catch (const std::exception &) {
    // Types ONNX could not infer stay unverified.
  }
  const onnx::GraphProto &ig = inferredModel.graph();
  for (const auto *list : {&ig.input(), &ig.value_info(), &ig.output()})
    for (const onnx::ValueInfoProto &info : *list)
      if (std::optional<OnnxType> t = typeOf(info.type())) {
        inferred[info.name()] = *t;
        inferredTypes[info.name()] = info.type();
      }

  Location loc = UnknownLoc::get(&ctx);
  scratch = ModuleOp::create(loc);
  builder = std::make_unique<OpBuilder>(&ctx);
  builder->setInsertionPointToEnd(scratch->getBody());
  auto func = func::FuncOp::create(*builder, loc, "scratch",
                                   builder->getFunctionType({}, {}));
  builder->setInsertionPointToStart(func.addEntryBlock());

  const onnx::GraphProto &graph = model.graph();
  for (const onnx::TensorProto &init : graph.initializer()) {
    std::string message;
    FailureOr<DenseElementsAttr> attr =
        tensorProtoToAttr(&ctx, init, "", message);
    if (failed(attr))
      continue;
    TensorValue v;
    v.dtype = init.data_type();
    v.shape.assign(init.dims().begin(), init.dims().end());
    v.constant = *attr;
    values[init.name()] = v;
  }
  for (const onnx::ValueInfoProto &input : graph.input())
    if (!values.count(input.name()))
      if (std::optional<TensorValue> v = fromType(input.type()))
        values[input.name()] = *v;
  for (auto [index, node] : llvm::enumerate(graph.node()))
    checkNode(node, index);
}

void ModelChecker::checkNode(const onnx::NodeProto &node, int index) {
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return;
  ++tally.nodesSeen;
  const std::string &op = node.op_type();
  const OpSpec *spec = OpLibrary::get().lookup(op);
  if (!spec) {
    ++tally.unsupportedOp;
    return;
  }
  if (opset < spec->minOpset || opset > spec->maxOpset) {
    ++tally.skippedOpset;
    return;
  }
  SmallVector<TensorValue *> inputs;
  for (const std::string &name : node.input()) {
    if (name.empty()) {
      inputs.push_back(nullptr);
      continue;
    }
    auto it = values.find(name);
    if (it == values.end()) {
      // Produced by a node the library does not support (or rejected):
      // take the type ONNX inferred for it, without contents.
      auto inferredIt = inferredTypes.find(name);
      std::optional<TensorValue> v;
      if (inferredIt != inferredTypes.end())
        v = fromType(inferredIt->second);
      if (!v) {
        ++tally.skippedInputs;
        return;
      }
      ++tally.inputsFromONNX;
      it = values.insert({name, *v}).first;
    }
    inputs.push_back(&it->second);
  }

  // As the importer names nodes in diagnostics.
  onnx::NodeProto named = node;
  if (named.name().empty())
    named.set_name(op + "_" + std::to_string(index));
  std::string where = caseName + ": node '" + named.name() + "' (" + op + ")";
  Location loc = NameLoc::get(StringAttr::get(&ctx, named.name()));
  NodeContext context(named, opset, inputs, *builder, loc);

  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      errors.push_back(diag.str());
    return success();
  });
  ++tally.compared;
  auto reject = [&](const char *what) {
    if (errors.empty()) {
      ++tally.mismatched;
      tally.mismatches.push_back(where + ": the " + what +
                                 " function failed without an error");
      return;
    }
    ++tally.rejected;
    tally.rejections[op].push_back(caseName + ": " + errors.front());
  };
  FailureOr<SmallVector<int32_t>> dtypes = spec->dtype(context);
  if (failed(dtypes))
    return reject("dtype");
  FailureOr<SmallVector<Shape>> shapes = spec->shape(context);
  if (failed(shapes))
    return reject("shape");
  if (dtypes->size() != shapes->size()) {
    ++tally.mismatched;
    tally.mismatches.push_back(where + ": " + std::to_string(dtypes->size()) +
                               " dtypes but " +
                               std::to_string(shapes->size()) + " shapes");
    return;
  }
  size_t produced = shapes->size();
  for (int i = produced; i < node.output_size(); ++i)
    if (!node.output(i).empty()) {
      // The importer rejects this node: "output i is not supported".
      ++tally.rejected;
      tally.rejections[op].push_back(caseName + ": output " +
                                     std::to_string(i) + " is not supported");
      return;
    }
  if (static_cast<int>(produced) > node.output_size()) {
    ++tally.mismatched;
    tally.mismatches.push_back(where + ": " + std::to_string(produced) +
                               " outputs for a node with " +
                               std::to_string(node.output_size()));
    return;
  }

  bool allMatch = true;
  SmallVector<TensorValue> outputs(produced);
  for (size_t i = 0; i < produced; ++i) {
    outputs[i].dtype = (*dtypes)[i];
    outputs[i].shape = (*shapes)[i];
    const std::string &name = node.output(i);
    if (name.empty())
      continue;
    std::string ours = typeString(outputs[i].dtype, outputs[i].shape);
    bool verified = false;
    for (auto [source, types] :
         {std::pair<const char *, llvm::StringMap<OnnxType> *>{
              "ONNX shape inference", &inferred},
          {"the model's declared output", &declared}}) {
      auto it = types->find(name);
      if (it == types->end() || (it->second.dtype == 0 && !it->second.hasShape))
        continue;
      verified = true;
      std::string diff =
          difference(outputs[i].dtype, outputs[i].shape, it->second);
      if (!diff.empty()) {
        allMatch = false;
        tally.mismatches.push_back(
            where + " output " + std::to_string(i) + " '" + name + "': " +
            diff + " differs: ours " + ours + ", " + source + " " +
            typeString(it->second.dtype, it->second.dims,
                       it->second.hasShape));
      }
    }
    if (verified)
      ++tally.outputsCompared;
    else
      ++tally.outputsUnverified;
  }
  if (allMatch) {
    ++tally.matched;
    ++tally.matchedByOp[op];
  } else {
    ++tally.mismatched;
  }

  // Propagate as the importer does: fold when every input is constant,
  // otherwise a stand-in value of the computed type.
  bool allConstant = llvm::all_of(inputs, [](TensorValue *v) {
    return !v || v->constant.has_value();
  });
  if (spec->fold && allConstant) {
    FailureOr<SmallVector<DenseElementsAttr>> folded =
        spec->fold(context, outputs);
    if (succeeded(folded))
      for (size_t i = 0; i < produced; ++i)
        outputs[i].constant = (*folded)[i];
  }
  for (size_t i = 0; i < produced; ++i) {
    if (node.output(i).empty() || !elementTypeOf(&ctx, outputs[i].dtype))
      continue;
    if (!outputs[i].constant)
      outputs[i].value = tensor::EmptyOp::create(
          *builder, loc, outputs[i].shape,
          elementTypeOf(&ctx, outputs[i].dtype));
    values[node.output(i)] = outputs[i];
  }
}

//===----------------------------------------------------------------------===//
// The test
//===----------------------------------------------------------------------===//

TEST(ONNXShapeLibrary, MatchesONNXShapeInferenceOnNodeTests) {
  std::string root = std::string(AOTC_ONNX_TEST_DATA) + "/node";
  if (!llvm::sys::fs::is_directory(root))
    GTEST_SKIP() << "no ONNX backend test data at " << root
                 << " (install libonnx-testdata)";
  std::vector<std::string> cases;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec)) {
    std::string model = it->path() + "/model.onnx";
    if (llvm::sys::fs::exists(model))
      cases.push_back(it->path());
  }
  std::sort(cases.begin(), cases.end());
  ASSERT_FALSE(cases.empty()) << "no node tests under " << root;

  MLIRContext ctx;
  ctx.loadDialect<func::FuncDialect, arith::ArithDialect, math::MathDialect,
                  tensor::TensorDialect, linalg::LinalgDialect>();
  Tally tally;
  for (const std::string &dir : cases) {
    ModelChecker checker(ctx, tally);
    checker.check(llvm::sys::path::filename(dir).str(), dir + "/model.onnx");
  }

  llvm::outs() << "ONNX shape library vs ONNX shape inference on "
               << tally.models << " node-test models (" << tally.nodesSeen
               << " nodes; op not in the library: " << tally.unsupportedOp
               << ", opset out of range: " << tally.skippedOpset
               << ", an input without a static type: "
               << tally.skippedInputs << "; inputs typed by ONNX because "
               << "their producer is not supported: " << tally.inputsFromONNX
               << ")\n"
               << "  compared " << tally.compared << " nodes: matched "
               << tally.matched << ", rejected " << tally.rejected
               << ", mismatched " << tally.mismatched << " ("
               << tally.outputsCompared << " outputs checked, "
               << tally.outputsUnverified << " without an ONNX type)\n";
  llvm::outs() << "  matched by op:";
  for (const auto &[op, n] : tally.matchedByOp)
    llvm::outs() << " " << op << "=" << n;
  llvm::outs() << "\n";
  for (const auto &[op, reasons] : tally.rejections) {
    llvm::outs() << "  rejected " << op << " (" << reasons.size() << "):\n";
    for (const std::string &r : reasons)
      llvm::outs() << "    " << r << "\n";
  }
  llvm::outs().flush();

  EXPECT_GT(tally.compared, 0) << "no supported op in the node tests";
  for (const std::string &m : tally.mismatches)
    ADD_FAILURE() << m;
  EXPECT_EQ(tally.mismatched, 0);
}

} // namespace
