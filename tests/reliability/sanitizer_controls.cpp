//===- sanitizer_controls.cpp - The sanitized e2e variants can fail -------===//
//
// Negative controls of the e2e programs compiled with --sanitize: the
// reuse_chain program ([64x64] f32 x 3 -> [64x64] f32) misused on purpose,
// so that its sanitizer must report an error in the generated code. Without
// them, a sanitizer that sees nothing of the generated code (ThreadSanitizer
// skips vector accesses wider than 16 bytes unless aotc reports them) would
// let the e2e_*_thread / e2e_*_address tests pass without checking anything.
//
//   thread:  two threads share one pool: their intermediates race.
//   address: the output buffer is one element short: the last row's store
//            runs past it.
//
// Built per sanitizer with AOT_ENTRY (the entry point), AOT_HEADER and
// AOT_POOL_BYTES defined; ctest expects the sanitizer's report.
//
//===----------------------------------------------------------------------===//

#include AOT_HEADER

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr size_t kElements = 64 * 64;

struct Inputs {
  std::vector<float> x = std::vector<float>(kElements, 0.5f);
  std::vector<float> w1 = std::vector<float>(kElements, 0.25f);
  std::vector<float> w2 = std::vector<float>(kElements, -0.125f);
};

void *makePool() {
  return std::aligned_alloc(64, (AOT_POOL_BYTES + 63) / 64 * 64);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  Inputs in;
  std::string mode = argv[1];
  if (mode == "shared-pool") {
    void *pool = makePool();
    auto caller = [&] {
      std::vector<float> out(kElements);
      for (int i = 0; i < 10; ++i)
        AOT_ENTRY(in.x.data(), in.w1.data(), in.w2.data(), out.data(), pool,
                  AOT_POOL_BYTES, nullptr);
    };
    std::thread a(caller), b(caller);
    a.join();
    b.join();
    std::free(pool);
    return 0;
  }
  if (mode == "short-output") {
    void *pool = makePool();
    std::vector<float> out(kElements - 1);
    AOT_ENTRY(in.x.data(), in.w1.data(), in.w2.data(), out.data(), pool,
              AOT_POOL_BYTES, nullptr);
    std::free(pool);
    return 0;
  }
  return 2;
}
