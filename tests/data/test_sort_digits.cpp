#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "data/sort_digits.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("sort_digits") {
  TEST_CASE("targets are the sorted inputs and the decoder input is SOS then the target shifted right") {
    Rng rng(42);
    sort_digits::Batch b = sort_digits::make_batch(rng, 32);
    CHECK(b.src.shape == Shape({32, 10}));
    CHECK(b.tgt_in.shape == Shape({32, 10}));
    CHECK(b.tgt.shape == Shape({32, 10}));
    for (int64_t r = 0; r < 32; ++r) {
      std::vector<int32_t> src(b.src.data.begin() + r * 10, b.src.data.begin() + (r + 1) * 10);
      std::vector<int32_t> tgt(b.tgt.data.begin() + r * 10, b.tgt.data.begin() + (r + 1) * 10);
      std::sort(src.begin(), src.end());
      CHECK(tgt == src);
      CHECK(b.tgt_in.at(r * 10) == sort_digits::kSos);
      for (int64_t t = 1; t < 10; ++t) CHECK(b.tgt_in.at(r * 10 + t) == b.tgt.at(r * 10 + t - 1));
    }
  }

  TEST_CASE("digits are uniform over 0..9") {
    Rng rng(9);
    sort_digits::Batch b = sort_digits::make_batch(rng, 2000);
    std::vector<int> counts(11, 0);
    for (int32_t d : b.src.data) ++counts[static_cast<size_t>(d)];
    CHECK(counts[10] == 0);
    for (int d = 0; d < 10; ++d) CHECK(std::abs(counts[static_cast<size_t>(d)] - 2000) < 250);  // ~6 sigma
    CHECK(sort_digits::kVocabSize == 11);
    CHECK_THROWS_AS(sort_digits::make_batch(rng, 0), Error);
  }
}
