#include <doctest/doctest.h>

#include "train/vocabulary_agreement.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("vocabulary_agreement") {
  TEST_CASE("equal or unknown vocabularies pass, different ones are refused with how far they differ") {
    CHECK_NOTHROW(require_same_vocabulary({"a", "b"}, {"a", "b"}));
    CHECK_NOTHROW(require_same_vocabulary({}, {"a", "b"}));
    CHECK_NOTHROW(require_same_vocabulary({"a", "b"}, {}));
    CHECK_THROWS_WITH_AS(require_same_vocabulary({"a", "c", "d"}, {"a", "b", "d"}),
                         doctest::Contains("2 of 3 token ids name the same word (token id 1 is \"c\""),
                         Error);
    CHECK_THROWS_WITH_AS(require_same_vocabulary({"a"}, {"a", "b"}),
                         doctest::Contains("the weights have 1 words"), Error);
  }
}
