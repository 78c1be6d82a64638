// The kernel list of backend/kernels.hpp against the source tree: every stem it names has its file in
// each backend folder (cpu/<stem>.hpp, reference/<stem>.cpp, cuda/<stem>.cu, and webgpu/<stem>.cpp, the
// launchers, beside webgpu/<stem>.wgsl, the shaders), so the folders line up.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

#include "backend/kernels.hpp"

namespace {

std::set<std::string> kernel_stems() {
  std::set<std::string> stems;
#define TF_KERNEL_STEM(stem, ret, name, params) stems.insert(#stem);
  TF_BACKEND_KERNELS(TF_KERNEL_STEM)
#undef TF_KERNEL_STEM
  return stems;
}

}  // namespace

TEST_SUITE("kernels") {
  TEST_CASE("every kernel stem has its file in every backend folder") {
    namespace fs = std::filesystem;
    const fs::path backend = fs::path(TF_FIXTURE_DIR) / ".." / ".." / "core" / "backend";
    REQUIRE(fs::is_directory(backend));
    std::set<std::string> stems = kernel_stems();
    CHECK(stems.count("softmax") == 1);
    for (const std::string& stem : stems) {
      CHECK_MESSAGE(fs::exists(backend / "cpu" / (stem + ".hpp")), "cpu/", stem, ".hpp");
      CHECK_MESSAGE(fs::exists(backend / "reference" / (stem + ".cpp")), "reference/", stem, ".cpp");
      CHECK_MESSAGE(fs::exists(backend / "cuda" / (stem + ".cu")), "cuda/", stem, ".cu");
      CHECK_MESSAGE(fs::exists(backend / "webgpu" / (stem + ".cpp")), "webgpu/", stem, ".cpp");
      CHECK_MESSAGE(fs::exists(backend / "webgpu" / (stem + ".wgsl")), "webgpu/", stem, ".wgsl");
    }
  }
}
