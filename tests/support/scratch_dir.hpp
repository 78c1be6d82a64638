// A scratch folder under the working directory (the build folder; NODERAWFS gives wasm the same disk),
// emptied on creation and removed with everything in it at the end of the test.
#pragma once
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace tf::test {

struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name) : path(std::filesystem::absolute("scratch_" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    namespace fs = std::filesystem;
    std::error_code ignored;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ignored);  // a test may lock it
    fs::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path))
      names.push_back(e.path().filename().string());
    return names;
  }
};

}  // namespace tf::test
