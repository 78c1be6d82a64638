#include <doctest/doctest.h>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("tensor") {
  TEST_CASE("reshape views share storage") {
    Tensor t = Tensor::from_vector({1, 2, 3, 4, 5, 6}, Shape{2, 3});
    Tensor r = reshape(t, Shape{3, 2});
    CHECK(r.data() == t.data());
    CHECK(r.shape() == Shape({3, 2}));
    CHECK_THROWS_AS(reshape(t, Shape{4, 2}), Error);
  }

  TEST_CASE("a scalar has one element and no dims") {
    Tensor s = Tensor::scalar(2.5f);
    CHECK(s.ndim() == 0);
    CHECK(s.item() == doctest::Approx(2.5f));
  }

  TEST_CASE("more than four dims is an error") { CHECK_THROWS_AS(Shape({1, 2, 3, 4, 5}), Error); }
}

TEST_SUITE("autograd") {
  TEST_CASE("gradients accumulate across backward passes") {
    Tensor x = Tensor::from_vector({1, 2, 3}, Shape{3});
    x.set_requires_grad(true);
    sum(x * x).backward();
    sum(x * x).backward();
    std::vector<float> g = x.grad().to_vector();
    CHECK(g[0] == doctest::Approx(4.f));
    CHECK(g[2] == doctest::Approx(12.f));
  }

  TEST_CASE("no-grad scope records nothing") {
    Tensor x = Tensor::ones(Shape{2});
    x.set_requires_grad(true);
    NoGrad guard;
    Tensor y = x * 3.f;
    CHECK_FALSE(y.requires_grad());
  }
}
