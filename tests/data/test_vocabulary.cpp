#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "data/vocabulary.hpp"
#include "io/text_file.hpp"
#include "support/data_paths.hpp"
#include "util/error.hpp"

using namespace tf;
using Words = std::vector<std::string>;

TEST_SUITE("vocabulary") {
  TEST_CASE("most common words first, then <unk> and the mask") {
    Vocabulary v = Vocabulary::from_text("b. b a b a c", 2000);
    CHECK(v.words() == Words{"b", "a", ".", "c", "<unk>", "_"});
    CHECK(v.size() == 6);
    CHECK(v.unk_id() == 4);
    CHECK(v.mask_id() == 5);
  }

  TEST_CASE("ties keep the order in which the words were first seen") {
    CHECK(Vocabulary::from_text("c a b b").words() == Words{"b", "c", "a", "<unk>", "_"});
    CHECK(Vocabulary::from_text("z y x y x z").words() == Words{"z", "y", "x", "<unk>", "_"});
    CHECK(Vocabulary::from_words({"q", "p", "p", "q", "r"}).words() == Words{"q", "p", "r", "<unk>", "_"});
  }

  TEST_CASE("only the top N words are kept") {
    Vocabulary v = Vocabulary::from_text("a a a b b c d", 2);
    CHECK(v.words() == Words{"a", "b", "<unk>", "_"});
    CHECK(v.id("c") == v.unk_id());
    CHECK_THROWS_AS(Vocabulary::from_text("a", 0), Error);
  }

  TEST_CASE("encoding a prompt maps unknown words to <unk> and _ to the mask") {
    Vocabulary v = Vocabulary::from_text("the cat sat . the dog sat .");
    const std::vector<int32_t> ids = v.encode("The cat _ on the mat.");
    CHECK(ids == std::vector<int32_t>{v.id("the"), v.id("cat"), v.mask_id(), v.unk_id(), v.id("the"),
                                      v.unk_id(), v.id(".")});
    CHECK(v.decode(ids) == "the cat _ <unk> the <unk> .");
    CHECK(v.encode_corpus("the _ cat") == std::vector<int32_t>{v.id("the"), v.id("cat")});
    CHECK_THROWS_AS(v.word(static_cast<int32_t>(v.size())), Error);
  }

  TEST_CASE("the JSON array round-trips and bad JSON is an error") {
    Vocabulary v = Vocabulary::from_text("\"hi,\" said tom's cat. hi!");
    Vocabulary back = Vocabulary::from_json(v.to_json());
    CHECK(back.words() == v.words());
    CHECK(back.id("tom's") == v.id("tom's"));
    CHECK(v.to_json().front() == '[');
    CHECK_THROWS_AS(Vocabulary::from_json("{\"a\": 1}"), Error);
    CHECK_THROWS_AS(Vocabulary::from_json("[\"a\", \"b\"]"), Error);  // no <unk>, _ at the end
    CHECK_THROWS_AS(Vocabulary::from_json("[\"a\", \"a\", \"<unk>\", \"_\"]"), Error);  // duplicate
    CHECK_THROWS_AS(Vocabulary::from_json("[\"a\", 3, \"<unk>\", \"_\"]"), Error);
    CHECK_THROWS_AS(Vocabulary::from_json("[\"a\""), Error);
  }

  TEST_CASE("real stories give the page's vocabulary and ids") {
    testing::for_each_real_text([](const nlohmann::json& entry, const std::string& text) {
      const Vocabulary v = Vocabulary::from_text(text, entry.value("top", int64_t{2000}));
      CHECK(v.size() == entry["vocab_size"].get<int64_t>());
      CHECK(testing::fnv1a64_joined(v.words()) == entry["vocab_fnv"].get<std::string>());
      const Words head = entry["vocab_head"].get<Words>(), tail = entry["vocab_tail"].get<Words>();
      CHECK(Words(v.words().begin(), v.words().begin() + head.size()) == head);
      CHECK(Words(v.words().end() - tail.size(), v.words().end()) == tail);
      const std::vector<int32_t> ids = v.encode_corpus(text);
      CHECK(std::count(ids.begin(), ids.end(), v.unk_id()) == entry["unk_count"].get<int64_t>());
      const auto ids_head = entry["ids_head"].get<std::vector<int32_t>>();
      CHECK(std::vector<int32_t>(ids.begin(), ids.begin() + ids_head.size()) == ids_head);
    });
  }
}
