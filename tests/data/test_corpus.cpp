#include <doctest/doctest.h>

#include <map>
#include <numeric>
#include <vector>

#include "data/corpus.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {
// A corpus whose id at position i is i, so a window's first id is its start.
Corpus counting_corpus(int32_t n) {
  std::vector<int32_t> ids(static_cast<size_t>(n));
  std::iota(ids.begin(), ids.end(), 0);
  return Corpus(ids);
}
}  // namespace

TEST_SUITE("corpus") {
  TEST_CASE("the ids of a text are its corpus tokens looked up in the vocabulary") {
    Vocabulary v = Vocabulary::from_text("the cat sat. the end", 3);
    Corpus c = Corpus::from_text("The cat ran.<|endoftext|>The end _", v);
    CHECK(c.ids() ==
          std::vector<int32_t>{v.id("the"), v.id("cat"), v.unk_id(), v.id("."), v.id("the"), v.unk_id()});
  }

  TEST_CASE("a batch is B contiguous windows of T tokens") {
    Corpus c = counting_corpus(100);
    Rng rng(5);
    Ids batch = c.batch(rng, 8, 16);
    CHECK(batch.shape == Shape({8, 16}));
    for (int64_t b = 0; b < 8; ++b)
      for (int64_t t = 1; t < 16; ++t) CHECK(batch.at(b * 16 + t) == batch.at(b * 16) + t);
  }

  TEST_CASE("window starts are uniform over [0, len - T) as torch.randint draws them") {
    Corpus c = counting_corpus(10);
    Rng rng(11);
    std::map<int32_t, int> starts;
    const int draws = 7000;
    Ids batch = c.batch(rng, draws, 3);
    for (int b = 0; b < draws; ++b) ++starts[batch.at(b * 3)];
    REQUIRE(starts.size() == 7);  // 0..6: the last window (start 7) is never drawn, as on the page
    CHECK(starts.begin()->first == 0);
    CHECK(starts.rbegin()->first == 6);
    for (const auto& [start, n] : starts) CHECK(std::abs(n - draws / 7) < 150);  // about 6 sigma
  }

  TEST_CASE("the same seed gives the same batches") {
    Corpus c = counting_corpus(1000);
    Rng a(3), b(3);
    CHECK(c.batch(a, 4, 8).data == c.batch(b, 4, 8).data);
  }

  TEST_CASE("windows and held-out splits") {
    Corpus c = counting_corpus(10);
    Ids w = c.windows(3, 3);
    CHECK(w.shape == Shape({3, 3}));
    CHECK(w.data == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8});
    auto [train, valid] = c.split_tail(0.2);
    CHECK(train.ids() == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(valid.ids() == std::vector<int32_t>{8, 9});
  }

  TEST_CASE("impossible requests are errors") {
    Corpus c = counting_corpus(5);
    Rng rng(1);
    CHECK_THROWS_AS(c.batch(rng, 1, 5), Error);
    CHECK_THROWS_AS(c.batch(rng, 0, 2), Error);
    CHECK_THROWS_AS(c.windows(2, 3), Error);
    CHECK_THROWS_AS(c.split_tail(1.0), Error);
  }
}
