//===- CachesTest.cpp - Cache figures of known and host CPUs --------------===//
//
// aotc::hostCaches on hand-made sysfs trees (the layout Linux documents in
// Documentation/ABI/testing/sysfs-devices-system-cpu) and
// aotc::knownCpuCaches' table.
//
//===----------------------------------------------------------------------===//

#include "aotc/CPU/Target/Caches.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

/// A temporary directory of sysfs-style cache entries, removed at the end.
class FakeSysfs {
public:
  FakeSysfs() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("aotc-caches", root));
  }
  ~FakeSysfs() { llvm::sys::fs::remove_directories(root); }

  /// Writes index`index`/<name> = <value> for each entry of `files`.
  void entry(int index, const std::map<std::string, std::string> &files) {
    llvm::SmallString<128> dir(root);
    llvm::sys::path::append(dir, "index" + std::to_string(index));
    ASSERT_FALSE(llvm::sys::fs::create_directories(dir));
    for (const auto &[name, value] : files) {
      llvm::SmallString<128> path(dir);
      llvm::sys::path::append(path, name);
      std::error_code error;
      llvm::raw_fd_ostream os(path, error);
      ASSERT_FALSE(error);
      os << value << "\n";
    }
  }
  llvm::StringRef path() const { return root; }

private:
  llvm::SmallString<128> root;
};

std::map<std::string, std::string> cache(std::string level, std::string type,
                                         std::string size, std::string ways,
                                         std::string line = "64") {
  return {{"level", level},
          {"type", type},
          {"size", size},
          {"ways_of_associativity", ways},
          {"coherency_line_size", line}};
}

TEST(HostCachesTest, ReadsEachLevelAndSkipsTheInstructionCache) {
  FakeSysfs sysfs;
  sysfs.entry(0, cache("1", "Data", "48K", "12"));
  sysfs.entry(1, cache("1", "Instruction", "64K", "16"));
  sysfs.entry(2, cache("2", "Unified", "2048K", "16"));
  sysfs.entry(3, cache("3", "Unified", "105M", "15"));
  std::optional<aotc::CacheFigures> figures = aotc::hostCaches(sysfs.path());
  ASSERT_TRUE(figures);
  EXPECT_EQ(figures->l1Bytes, 48 * 1024);
  EXPECT_EQ(figures->l1Ways, 12);
  EXPECT_EQ(figures->l2Bytes, 2 * 1024 * 1024);
  EXPECT_EQ(figures->l2Ways, 16);
  EXPECT_EQ(figures->l3Bytes, 105 * 1024 * 1024);
  EXPECT_EQ(figures->lineBytes, 64);
}

TEST(HostCachesTest, MissingFiguresStayZero) {
  // No L3, no associativity, a 128-byte line (Apple's cores).
  FakeSysfs sysfs;
  sysfs.entry(0, cache("1", "Data", "128K", "", "128"));
  sysfs.entry(1, cache("2", "Unified", "4M", "8", "128"));
  std::optional<aotc::CacheFigures> figures = aotc::hostCaches(sysfs.path());
  ASSERT_TRUE(figures);
  EXPECT_EQ(figures->l1Bytes, 128 * 1024);
  EXPECT_EQ(figures->l1Ways, 0);
  EXPECT_EQ(figures->l2Bytes, 4 * 1024 * 1024);
  EXPECT_EQ(figures->l3Bytes, 0);
  EXPECT_EQ(figures->lineBytes, 128);
}

TEST(HostCachesTest, NoneWithoutL1OrL2) {
  FakeSysfs empty;
  EXPECT_FALSE(aotc::hostCaches(empty.path()));
  FakeSysfs l1Only;
  l1Only.entry(0, cache("1", "Data", "32K", "8"));
  EXPECT_FALSE(aotc::hostCaches(l1Only.path()));
  FakeSysfs garbled;
  garbled.entry(0, cache("1", "Data", "lots", "8"));
  garbled.entry(1, cache("2", "Unified", "-1K", "8"));
  EXPECT_FALSE(aotc::hostCaches(garbled.path()));
  EXPECT_FALSE(aotc::hostCaches("/nonexistent/aotc/cache"));
}

TEST(KnownCpuCachesTest, NamedCpus) {
  std::optional<aotc::CacheFigures> zen4 = aotc::knownCpuCaches("znver4");
  ASSERT_TRUE(zen4);
  EXPECT_EQ(zen4->l1Bytes, 32 * 1024);
  EXPECT_EQ(zen4->l2Bytes, 1024 * 1024);
  EXPECT_EQ(zen4->l2Ways, 8);
  std::optional<aotc::CacheFigures> spr =
      aotc::knownCpuCaches("sapphirerapids");
  ASSERT_TRUE(spr);
  EXPECT_EQ(spr->l1Ways, 12);
  EXPECT_EQ(spr->l2Bytes, 2 * 1024 * 1024);
  EXPECT_EQ(spr->l2Ways, 16);
  std::optional<aotc::CacheFigures> v1 = aotc::knownCpuCaches("neoverse-v1");
  ASSERT_TRUE(v1);
  EXPECT_EQ(v1->l1Bytes / v1->l1Ways, 16 * 1024);
  EXPECT_FALSE(aotc::knownCpuCaches("generic"));
  EXPECT_FALSE(aotc::knownCpuCaches("x86-64-v3"));
  EXPECT_FALSE(aotc::knownCpuCaches(""));
}

} // namespace
