// The ops' values and errors: broadcasting arithmetic, shape ops (reshape views, permute, transpose, narrow,
// concat, split), masked fill and the causal mask, reductions, positional tables, finiteness checks, and a
// tf::Error with a clear message for every malformed call. Gradients are test_gradcheck's business.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace tf;

namespace {

Tensor iota(const Shape& s, float start = 0.f) {
  std::vector<float> v(static_cast<size_t>(s.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  return Tensor::from_vector(v, s);
}

// Checks that f throws tf::Error whose message contains `part`.
template <class F>
void check_error(F f, const std::string& part) {
  try {
    f();
    FAIL_CHECK("no error; expected one mentioning '", part, "'");
  } catch (const Error& e) {
    std::string message = e.what();
    CHECK_MESSAGE(message.find(part) != std::string::npos, "expected '", part, "' in: ", message);
  }
}

}  // namespace

TEST_SUITE("ops") {
  TEST_CASE("broadcast shapes align from the right and stretch size-1 dims") {
    CHECK(broadcast_shape(Shape{2, 3, 4}, Shape{4}) == Shape({2, 3, 4}));
    CHECK(broadcast_shape(Shape{2, 1, 4}, Shape{3, 1}) == Shape({2, 3, 4}));
    CHECK(broadcast_shape(Shape{}, Shape{5, 2}) == Shape({5, 2}));
    CHECK_THROWS_AS(broadcast_shape(Shape{2, 3}, Shape{4}), Error);
  }

  TEST_CASE("arithmetic broadcasts like numpy") {
    Tensor a = iota({2, 1, 3});                             // a[i, 0, k] = 3i + k
    Tensor b = Tensor::from_vector({10, 20}, Shape{2, 1});  // b[j, 0] = 10 (j + 1)
    std::vector<float> s = add(a, b).to_vector(), d = sub(a, b).to_vector(), m = mul(a, b).to_vector();
    REQUIRE(s.size() == 12);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 3; ++k) {
          size_t at = static_cast<size_t>((i * 2 + j) * 3 + k);
          float av = static_cast<float>(3 * i + k), bv = 10.f * static_cast<float>(j + 1);
          CHECK(s[at] == av + bv);
          CHECK(d[at] == av - bv);
          CHECK(m[at] == av * bv);
        }
    CHECK((a * 2.f).to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
    CHECK(scale(a, -1.f).to_vector() == std::vector<float>{0, -1, -2, -3, -4, -5});
  }

  TEST_CASE("the gradient of a broadcast operand sums over the stretched dims") {
    Tensor a = iota({2, 3});
    Tensor bias = Tensor::zeros(Shape{3}), col = Tensor::zeros(Shape{2, 1});
    bias.set_requires_grad(true);
    col.set_requires_grad(true);
    sum(mul(add(add(a, bias), col), a)).backward();
    CHECK(bias.grad().to_vector() == std::vector<float>{0 + 3, 1 + 4, 2 + 5});
    CHECK(col.grad().to_vector() == std::vector<float>{0 + 1 + 2, 3 + 4 + 5});
  }

  TEST_CASE("sum and mean reduce everything to a scalar") {
    Tensor x = iota({3, 4}, 1.f);
    CHECK(sum(x).ndim() == 0);
    CHECK(sum(x).item() == 78.f);
    CHECK(mean(x).item() == doctest::Approx(6.5f));
  }

  TEST_CASE("reshape is a view; the other shape ops copy") {
    Tensor x = iota({2, 3, 4});
    Tensor r = reshape(x, Shape{6, 4});
    CHECK(r.data() == x.data());
    CHECK(r.to_vector() == x.to_vector());
    Tensor p = permute(x, {2, 0, 1});
    CHECK(p.shape() == Shape({4, 2, 3}));
    CHECK(p.data() != x.data());
    std::vector<float> pv = p.to_vector();
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k)
          CHECK(pv[static_cast<size_t>((k * 2 + i) * 3 + j)] == static_cast<float>((i * 3 + j) * 4 + k));
    Tensor t = transpose(x, 0, -1);
    CHECK(t.shape() == Shape({4, 3, 2}));
    CHECK(t.to_vector()[1] == 12.f);  // t[0, 0, 1] = x[1, 0, 0]
  }

  TEST_CASE("narrow takes a slice along any axis") {
    Tensor x = iota({3, 5});
    CHECK(narrow(x, 1, 1, 3).to_vector() == std::vector<float>{1, 2, 3, 6, 7, 8, 11, 12, 13});
    CHECK(narrow(x, 0, 2, 1).to_vector() == std::vector<float>{10, 11, 12, 13, 14});
    CHECK(narrow(x, -1, 4, 1).shape() == Shape({3, 1}));
  }

  TEST_CASE("concat and split are inverses") {
    Tensor a = iota({2, 2}), b = iota({2, 3}, 10.f);
    Tensor c = concat({a, b}, 1);
    CHECK(c.to_vector() == std::vector<float>{0, 1, 10, 11, 12, 2, 3, 13, 14, 15});
    std::vector<Tensor> parts = split(c, 1, {2, 3});
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].to_vector() == a.to_vector());
    CHECK(parts[1].to_vector() == b.to_vector());
    Tensor rows = concat({a, iota({1, 2}, 7.f)}, 0);
    CHECK(rows.shape() == Shape({3, 2}));
    CHECK(rows.to_vector() == std::vector<float>{0, 1, 2, 3, 7, 8});
  }

  TEST_CASE("masked_fill replaces where the broadcast mask is nonzero") {
    Tensor x = iota({2, 3, 3});
    Tensor y = masked_fill(x, causal_mask(3), -1.f);
    std::vector<float> v = y.to_vector();
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          float want = j > i ? -1.f : static_cast<float>(b * 9 + i * 3 + j);
          CHECK(v[static_cast<size_t>(b * 9 + i * 3 + j)] == want);
        }
    Tensor rows = masked_fill(iota({2, 2}), Tensor::from_vector({0, 1}, Shape{2, 1}), 9.f);
    CHECK(rows.to_vector() == std::vector<float>{0, 1, 9, 9});
  }

  TEST_CASE("the causal mask marks the keys after each query") {
    CHECK(causal_mask(3).to_vector() == std::vector<float>{0, 1, 1, 0, 0, 1, 0, 0, 0});
  }

  TEST_CASE("the sinusoidal table follows sin/cos of pos / 10000^(i/d)") {
    Tensor pe = sinusoidal_encoding(5, 6);
    CHECK(pe.shape() == Shape({5, 6}));
    std::vector<float> v = pe.to_vector();
    for (int p = 0; p < 5; ++p)
      for (int i = 0; i < 6; i += 2) {
        double angle = p / std::pow(10000.0, i / 6.0);
        CHECK(v[static_cast<size_t>(p * 6 + i)] == doctest::Approx(std::sin(angle)));
        CHECK(v[static_cast<size_t>(p * 6 + i + 1)] == doctest::Approx(std::cos(angle)));
      }
  }

  TEST_CASE("rotary rotates pairs by the position and its inverse undoes it") {
    Tensor x = iota({1, 3, 4}, 1.f);
    std::vector<float> y = rotary(x, 4).to_vector(), xv = x.to_vector();
    for (int t = 0; t < 3; ++t)
      for (int i = 0; i < 2; ++i) {
        double theta = t * std::pow(10000.0, -2.0 * i / 4.0);
        float x0 = xv[static_cast<size_t>(t * 4 + 2 * i)], x1 = xv[static_cast<size_t>(t * 4 + 2 * i + 1)];
        CHECK(y[static_cast<size_t>(t * 4 + 2 * i)] ==
              doctest::Approx(x0 * std::cos(theta) - x1 * std::sin(theta)));
        CHECK(y[static_cast<size_t>(t * 4 + 2 * i + 1)] ==
              doctest::Approx(x0 * std::sin(theta) + x1 * std::cos(theta)));
      }
    Tensor partial = rotary(iota({1, 2, 6}), 2, 2);
    CHECK(narrow(partial, 2, 2, 4).to_vector() == narrow(iota({1, 2, 6}), 2, 2, 4).to_vector());
  }

  TEST_CASE("finiteness checks report NaN and infinities") {
    CHECK(all_finite(iota({4})));
    CHECK_FALSE(all_finite(Tensor::from_vector({1, NAN, 2}, Shape{3})));
    CHECK_FALSE(all_finite(Tensor::from_vector({1, 2, -INFINITY}, Shape{3})));
    check_error([] { check_finite(Tensor::from_vector({INFINITY}, Shape{1}), "the loss"); }, "the loss");
  }

  TEST_CASE("a NaN in a softmax row comes out as a NaN row, not a dropped value") {
    std::vector<float> x(2 * 37, 0.5f);
    x[30] = NAN;  // row 0, in the last partial SIMD register
    std::vector<float> y = softmax(Tensor::from_vector(x, Shape{2, 37})).to_vector();
    for (size_t i = 0; i < 37; ++i) CHECK(std::isnan(y[i]));
    for (size_t i = 37; i < 74; ++i) CHECK(y[i] == doctest::Approx(1.0 / 37));
  }

  TEST_CASE("malformed calls throw tf::Error with a clear message") {
    Tensor a = iota({2, 3}), b = iota({4});
    check_error([&] { add(a, b); }, "do not broadcast");
    check_error([&] { matmul(a, iota({2, 3})); }, "inner sizes differ");
    check_error([&] { matmul(iota({2, 2, 3}), iota({3, 3, 2})); }, "batch dims");
    check_error([&] { reshape(a, Shape{4, 2}); }, "cannot reshape");
    check_error([&] { narrow(a, 1, 2, 2); }, "outside axis");
    check_error([&] { concat({a, iota({3, 3})}, 1); }, "does not fit");
    check_error([&] { split(a, 1, {1, 1}); }, "add up to");
    check_error([&] { permute(a, {0, 0}); }, "repeated");
    check_error([&] { linear(a, iota({4, 5})); }, "features");
    check_error([&] { embedding(iota({5, 2}), Ids({1, 5}, Shape{2})); }, "outside [0, 5)");
    check_error([&] { cross_entropy(iota({2, 3}), Ids({0, 3}, Shape{2})); }, "outside [0, 3)");
    check_error([&] { cross_entropy(iota({2, 3}), Ids({0}, Shape{1})); }, "targets");
    check_error([&] { layer_norm(a, iota({2}), iota({2})); }, "gamma and beta");
    check_error([&] { masked_fill(a, iota({3, 1}), 0.f); }, "broadcast");
    check_error([&] { rotary(iota({1, 2, 6}), 3); }, "head_dim must be even");
    check_error([&] { attention(iota({1, 2, 6}), iota({1, 2, 6}), iota({1, 2, 6}), 4); }, "not divisible");
    check_error([&] { attention(iota({1, 2, 6}), iota({1, 3, 6}), iota({1, 2, 6}), 2); }, "rows");
    check_error(
        [&] {
          attention(Cols(iota({1, 2, 6}), 4, 4), iota({1, 2, 4}), iota({1, 2, 4}), 2);
        },
        "outside its width");
    AttentionOptions o;
    o.key_keep = iota({2, 2});
    check_error([&] { attention(iota({1, 2, 4}), iota({1, 2, 4}), iota({1, 2, 4}), 2, o); }, "key_keep");
  }
}
