#include <doctest/doctest.h>

#include "data/toy_language.hpp"
#include "data/word_codec.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("word_codec") {
  TEST_CASE("a story vocabulary reads prompts like the page: unknown words become <unk>, _ the mask") {
    WordCodec codec({"the", "cat", ".", "<unk>", "_"});
    CHECK(codec.mask_id() == 4);
    CHECK(codec.unk_id() == 3);
    CHECK(codec.encode("The cat, _ dog.") == std::vector<int32_t>{0, 1, 3, 4, 3, 2});
    CHECK(codec.join({0, 1, 2}) == "the cat .");
  }

  TEST_CASE("any other vocabulary splits on spaces and refuses unknown words") {
    WordCodec codec(toy::vocabulary());
    CHECK(codec.mask_id() == toy::kMask);
    CHECK(codec.unk_id() == -1);
    CHECK(codec.encode("the _ is alive") == toy::encode("the _ is alive"));
    CHECK_THROWS_AS(codec.encode("the dog is alive"), Error);
    CHECK(codec.decode({0, 13}) == std::vector<std::string>{"the", "_"});
    CHECK_THROWS_AS(codec.decode({14}), Error);
  }
}
