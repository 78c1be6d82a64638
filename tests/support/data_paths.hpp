// Where the data tests find their files: fixtures in tests/fixtures (TF_FIXTURE_DIR) and real TinyStories
// text in ../shared/data beside the repository (TF_TEST_DATA_DIR; both set by tests/CMakeLists.txt). The
// project must not carry that text, so tests on it skip, with a message saying why, where it is absent.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/text_file.hpp"

namespace tf::testing {

inline std::string shared_data_dir() { return TF_TEST_DATA_DIR; }

// The path of a file in the shared data folder, or "" when it is not there.
inline std::string real_text_path(const std::string& name) {
  const std::string path = shared_data_dir() + "/" + name;
  return std::ifstream(path).good() ? path : std::string();
}

inline nlohmann::json read_fixture_json(const std::string& name) {
  std::ifstream in(std::string(TF_FIXTURE_DIR) + "/" + name);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << name);
  return nlohmann::json::parse(in);
}

// FNV-1a (64 bits, hex) over the words joined by newlines, as tests/fixtures/gen_tokenizer_fixture.py
// computes it: one number that pins a whole token sequence.
inline std::string fnv1a64_joined(const std::vector<std::string>& words) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) h = (h ^ static_cast<unsigned char>('\n')) * 0x100000001B3ull;
    for (unsigned char c : words[i]) h = (h ^ c) * 0x100000001B3ull;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace tf::testing

// Skips the rest of the test case (with a message) when `path` is empty.
#define TF_SKIP_WITHOUT_REAL_TEXT(path, name)                                             \
  if ((path).empty()) {                                                                   \
    MESSAGE("skipped: " << (name) << " not found in " << ::tf::testing::shared_data_dir() \
                        << " (real TinyStories text is not part of the repository)");     \
    return;                                                                               \
  }

namespace tf::testing {

// fn(entry, text) for each file of the tokenizer fixture (tokenizer.json's "files"), its real text read up to
// the entry's max_bytes; the rest of the test case is skipped (with a message) at the first file not here.
template <class Fn>
void for_each_real_text(Fn fn) {
  const nlohmann::json fixture = read_fixture_json("tokenizer.json");
  for (const auto& entry : fixture["files"]) {
    const std::string name = entry["file"].get<std::string>();
    const std::string path = real_text_path(name);
    TF_SKIP_WITHOUT_REAL_TEXT(path, name);
    CAPTURE(name);
    fn(entry, read_text_file(path, entry.value("max_bytes", int64_t{-1})));
  }
}

}  // namespace tf::testing
