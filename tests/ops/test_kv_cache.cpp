// cache_append: new rows land after the filled ones, the result is a view of the cache, and a write past
// the capacity or of the wrong width is refused.
#include <doctest/doctest.h>

#include "ops/ops.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("kv_cache") {
  TEST_CASE("appended rows follow the filled ones and the result views the cache") {
    Tensor cache = Tensor::zeros(Shape{1, 4, 2});
    // Rows of width 6 ([q | k | v] of width 2 each); the middle two columns are copied.
    Tensor p = Tensor::from_vector({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, Shape{1, 2, 6});
    Tensor first = cache_append(cache, 0, Cols(p, 2, 2));
    CHECK(first.shape() == Shape({1, 2, 2}));
    CHECK(first.data() == cache.data());
    CHECK(first.to_vector() == std::vector<float>{3, 4, 9, 10});
    Tensor one = Tensor::from_vector({-1, -2}, Shape{1, 1, 2});
    Tensor second = cache_append(cache, 2, Cols(one));
    CHECK(second.shape() == Shape({1, 3, 2}));
    CHECK(cache.to_vector() == std::vector<float>{3, 4, 9, 10, -1, -2, 0, 0});
  }

  TEST_CASE("a write past the capacity, of another width or into a graph tensor throws") {
    Tensor cache = Tensor::zeros(Shape{1, 2, 2});
    Tensor rows = Tensor::zeros(Shape{1, 2, 2});
    CHECK_THROWS_WITH_AS(cache_append(cache, 1, Cols(rows)), doctest::Contains("holds 2 positions"), Error);
    CHECK_THROWS_AS(cache_append(cache, 0, Cols(rows, 0, 1)), Error);
    CHECK_THROWS_AS(cache_append(cache, 0, Cols(Tensor::zeros(Shape{2, 1, 2}))), Error);
    Tensor learned = Tensor::zeros(Shape{1, 2, 2});
    learned.set_requires_grad(true);
    CHECK_THROWS_AS(cache_append(learned, 0, Cols(rows)), Error);
    CHECK(cache.to_vector() == std::vector<float>(4, 0.f));
  }
}
