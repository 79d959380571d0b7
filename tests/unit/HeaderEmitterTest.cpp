//===- HeaderEmitterTest.cpp - Generated header and manifest ---*- C++ -*-===//
//
// Unit tests of the text artifacts: the C header (docs/abi.md), the JSON
// manifest and the memory report, built from hand-written signatures.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/Emitters.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace aotc;

namespace {

EntryPointSignature makeEntry() {
  EntryPointSignature e;
  e.name = "resnet18";
  e.inputs = {{"input", "f32", {1, 3, 224, 224}}, {"mask", "i1", {4}}};
  e.outputs = {{"output", "f32", {1, 1000}}, {"count", "i64", {}}};
  e.poolBytes = 11239424;
  e.poolLowerBound = 11000000;
  e.poolAlignment = 64;
  e.buffers = {{4096, 0, 1, 3}, {8192, 4096, 2, 5}};
  return e;
}

bool contains(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

TEST(HeaderEmitter, DeclaresTheEntryPointInAbiOrder) {
  std::string h = emitHeader({"resnet18", "cpu"}, {makeEntry()});
  EXPECT_TRUE(contains(h, "#include \"aot_abi/aot_abi.h\"")) << h;
  EXPECT_TRUE(contains(h, "#define RESNET18_POOL_BYTES 11239424u\n")) << h;
  EXPECT_TRUE(contains(h, "#define RESNET18_POOL_ALIGNMENT 64u\n")) << h;
  EXPECT_TRUE(contains(
      h, "aot_status_t resnet18(const float *input, const uint8_t *mask, "
         "float *output, int64_t *count, void *pool, size_t pool_bytes, "
         "aot_stream_t stream);"))
      << h;
  EXPECT_TRUE(contains(h, "const aot_model_info_t *resnet18_info(void);"))
      << h;
}

TEST(HeaderEmitter, DocumentsEveryTensorAndThePool) {
  std::string h = emitHeader({"resnet18", "cpu"}, {makeEntry()});
  EXPECT_TRUE(contains(
      h, "/// input  0 \"input\": f32[1,3,224,224] row-major, contiguous"))
      << h;
  EXPECT_TRUE(contains(h, "/// input  1 \"mask\": i1[4]")) << h;
  EXPECT_TRUE(contains(h, "/// output 0 \"output\": f32[1,1000]")) << h;
  EXPECT_TRUE(contains(h, "/// output 1 \"count\": i64[]")) << h;
  EXPECT_TRUE(contains(h, "lower bound (most bytes live at once) 11000000"))
      << h;
  EXPECT_TRUE(contains(h, "ratio 1.022")) << h;
}

TEST(HeaderEmitter, IsUsableFromCAndCpp) {
  std::string h = emitHeader({"model", "cpu"}, {makeEntry()});
  EXPECT_TRUE(contains(h, "#ifndef AOTC_GENERATED_MODEL_H")) << h;
  EXPECT_TRUE(contains(h, "#define AOTC_GENERATED_MODEL_H")) << h;
  EXPECT_TRUE(contains(h, "extern \"C\" {")) << h;
  // The guard closes after the declarations.
  EXPECT_LT(h.find("resnet18_info"), h.rfind("#endif")) << h;
}

TEST(HeaderEmitter, LargePoolsUse64BitLiterals) {
  EntryPointSignature e = makeEntry();
  e.poolBytes = 5000000000ull;
  std::string h = emitHeader({"big", "cpu"}, {e});
  EXPECT_TRUE(contains(h, "#define RESNET18_POOL_BYTES 5000000000ull\n")) << h;
}

TEST(HeaderEmitter, SeveralEntryPoints) {
  EntryPointSignature a = makeEntry(), b = makeEntry();
  b.name = "second";
  b.poolBytes = 0;
  std::string h = emitHeader({"both", "cpu"}, {a, b});
  EXPECT_TRUE(contains(h, "#define RESNET18_POOL_BYTES")) << h;
  EXPECT_TRUE(contains(h, "#define SECOND_POOL_BYTES 0u")) << h;
  EXPECT_TRUE(contains(h, "aot_status_t second(")) << h;
}

TEST(Manifest, DescribesEntryPoints) {
  llvm::json::Value v = emitManifest({"resnet18", "cpu"}, {makeEntry()});
  llvm::json::Object *root = v.getAsObject();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->getInteger("abi_version"), 1);
  EXPECT_EQ(root->getString("target"), "cpu");
  EXPECT_EQ(root->getString("header"), "resnet18.h");
  EXPECT_EQ(root->getString("object"), "resnet18.o");
  llvm::json::Array *entries = root->getArray("entry_points");
  ASSERT_NE(entries, nullptr);
  ASSERT_EQ(entries->size(), 1u);
  llvm::json::Object *e = (*entries)[0].getAsObject();
  EXPECT_EQ(e->getString("name"), "resnet18");
  EXPECT_EQ(e->getInteger("pool_bytes"), 11239424);
  EXPECT_EQ(e->getInteger("pool_lower_bound"), 11000000);
  llvm::json::Array *inputs = e->getArray("inputs");
  ASSERT_EQ(inputs->size(), 2u);
  llvm::json::Object *mask = (*inputs)[1].getAsObject();
  EXPECT_EQ(mask->getString("dtype"), "i1");
  EXPECT_EQ(mask->getString("ctype"), "uint8_t");
  llvm::json::Object *count = (*e->getArray("outputs"))[1].getAsObject();
  EXPECT_TRUE(count->getArray("shape")->empty());
}

TEST(MemoryReport, ListsBuffersAndRatio) {
  llvm::json::Value v = emitMemoryReport({"resnet18", "cpu"}, {makeEntry()});
  llvm::json::Object *e =
      (*v.getAsObject()->getArray("entry_points"))[0].getAsObject();
  EXPECT_EQ(e->getInteger("lower_bound_bytes"), 11000000);
  EXPECT_NEAR(*e->getNumber("ratio"), 11239424.0 / 11000000.0, 1e-12);
  llvm::json::Array *buffers = e->getArray("buffers");
  ASSERT_EQ(buffers->size(), 2u);
  llvm::json::Object *b = (*buffers)[1].getAsObject();
  EXPECT_EQ(b->getInteger("size"), 8192);
  EXPECT_EQ(b->getInteger("offset"), 4096);
  EXPECT_EQ(b->getInteger("first_use"), 2);
  EXPECT_EQ(b->getInteger("last_use"), 5);
}

TEST(Dtypes, MatchTheAbiHeader) {
  EXPECT_EQ(dtypeCode("f32"), 1);
  EXPECT_EQ(dtypeCode("f64"), 2);
  EXPECT_EQ(dtypeCode("i8"), 5);
  EXPECT_EQ(dtypeCode("i32"), 8);
  EXPECT_EQ(dtypeCode("i64"), 9);
  EXPECT_EQ(dtypeCode("i1"), 10);
  EXPECT_EQ(dtypeCode("nope"), 0);
  EXPECT_EQ(dtypeBytes("f64"), 8);
  EXPECT_EQ(dtypeBytes("i1"), 1);
  EXPECT_TRUE(isValidCIdentifier("_model2"));
  EXPECT_FALSE(isValidCIdentifier("2model"));
  EXPECT_FALSE(isValidCIdentifier("a-b"));
}

} // namespace
