#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "data/tokenizer.hpp"
#include "io/text_file.hpp"
#include "support/data_paths.hpp"
#include "util/utf8.hpp"

using namespace tf;
using Words = std::vector<std::string>;

namespace {
std::string from_hex(const std::string& hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return bytes;
}

Words words_of(const nlohmann::json& array) { return array.get<Words>(); }
}  // namespace

TEST_SUITE("tokenizer") {
  TEST_CASE("words, apostrophes and the five punctuation marks are tokens") {
    CHECK(tokenize("Tom's dog can't run!") == Words{"tom's", "dog", "can't", "run", "!"});
    CHECK(tokenize("\"Hi,\" she said. Why?") == Words{"\"", "hi", ",", "\"", "she", "said", ".", "why", "?"});
    CHECK(tokenize("'' ok") == Words{"''", "ok"});
  }

  TEST_CASE("digits and other symbols only separate words") {
    CHECK(tokenize("abc123def; x-y (z)") == Words{"abc", "def", "x", "y", "z"});
    CHECK(tokenize("  \t\n ").empty());
  }

  TEST_CASE("the story separator is a space in a corpus and a word in a prompt") {
    CHECK(tokenize("end.<|endoftext|>Once") == Words{"end", ".", "once"});
    CHECK(tokenize("a<|EndOfText|>b") == Words{"a", "b"});
    CHECK(tokenize("end.<|endoftext|>Once", TokenMode::Prompt) == Words{"end", ".", "endoftext", "once"});
  }

  TEST_CASE("the mask is a token only in prompts") {
    CHECK(tokenize("the _ is __", TokenMode::Prompt) == Words{"the", "_", "is", "_", "_"});
    CHECK(tokenize("the _ is __") == Words{"the", "is"});
  }

  TEST_CASE("non-ASCII letters separate words except the two that Python lower-cases into a-z") {
    CHECK(tokenize("caf\xc3\xa9 na\xc3\xafve") == Words{"caf", "na", "ve"});
    CHECK(tokenize("\xe2\x84\xaa"
                   "elvin") == Words{"kelvin"});                  // U+212A KELVIN SIGN -> "k"
    CHECK(tokenize("\xc4\xb0stanbul") == Words{"i", "stanbul"});  // U+0130 -> "i" + combining dot
  }

  TEST_CASE("invalid UTF-8 bytes vanish without splitting a word") {
    CHECK(tokenize("jo\xe2\x82ined") == Words{"joined"});
    CHECK(tokenize("<|endo\xff"
                   "ftext|>x") == Words{"x"});
    CHECK(utf8_drop_invalid("ok\xe2\x82") == "ok");
    CHECK(utf8_drop_invalid("\xed\xa0\x80!") == "!");  // a surrogate is not UTF-8
    CHECK(utf8_drop_invalid("\xc0\xaf.") == ".");      // nor is an overlong '/'
    CHECK(utf8_drop_invalid("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");
  }

  TEST_CASE("tricky strings give the same tokens as the page's Python code") {
    const nlohmann::json fixture = testing::read_fixture_json("tokenizer.json");
    REQUIRE(fixture["tricky"].size() >= 10);
    for (const auto& item : fixture["tricky"]) {
      const std::string text = from_hex(item["hex"].get<std::string>());
      CAPTURE(item["hex"].get<std::string>());
      CHECK(tokenize(text, TokenMode::Corpus) == words_of(item["corpus"]));
      CHECK(tokenize(text, TokenMode::Prompt) == words_of(item["prompt"]));
    }
  }

  TEST_CASE("real stories give the same token sequence as the page's Python code") {
    testing::for_each_real_text([](const nlohmann::json& entry, const std::string& text) {
      const int64_t max_bytes = entry.value("max_bytes", int64_t{-1});
      CAPTURE(max_bytes);
      const Words words = tokenize(text);
      CHECK(static_cast<int64_t>(words.size()) == entry["tokens"].get<int64_t>());
      CHECK(testing::fnv1a64_joined(words) == entry["tokens_fnv"].get<std::string>());
      const Words first = words_of(entry["first_tokens"]), last = words_of(entry["last_tokens"]);
      CHECK(Words(words.begin(), words.begin() + first.size()) == first);
      CHECK(Words(words.end() - last.size(), words.end()) == last);
    });
  }
}
