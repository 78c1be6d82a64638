// LayerNorm equals (x - mean) / std with the biased standard deviation (course A10), computed here on the
// host in double, to 1e-4; through the op and the LayerNorm module, on each CPU instruction set.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "nn/layers.hpp"
#include "ops/ops.hpp"
#include "support/backends.hpp"
#include "util/rng.hpp"

using namespace tf;
using test::for_each_cpu_backend;

namespace {

// (x - mean) / sqrt(biased var + eps) * gamma + beta, row by row, in double.
std::vector<float> textbook(const std::vector<float>& x, const std::vector<float>& gamma,
                            const std::vector<float>& beta, int64_t C, double eps) {
  std::vector<float> y(x.size());
  for (size_t r = 0; r < x.size() / static_cast<size_t>(C); ++r) {
    const float* row = x.data() + r * static_cast<size_t>(C);
    double mean = 0, var = 0;
    for (int64_t c = 0; c < C; ++c) mean += row[c];
    mean /= static_cast<double>(C);
    for (int64_t c = 0; c < C; ++c) var += (row[c] - mean) * (row[c] - mean);
    var /= static_cast<double>(C);  // biased: divide by C, not C - 1
    for (int64_t c = 0; c < C; ++c) {
      size_t i = r * static_cast<size_t>(C) + static_cast<size_t>(c);
      y[i] = static_cast<float>((row[c] - mean) / std::sqrt(var + eps) * gamma[static_cast<size_t>(c)] +
                                beta[static_cast<size_t>(c)]);
    }
  }
  return y;
}

std::vector<float> randn(Rng& rng, int64_t n, float scale, float shift) {
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = shift + scale * rng.normal();
  return v;
}

void check_close(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol)) ++bad;
  CHECK_MESSAGE(bad == 0, bad, " of ", got.size(), " values differ by more than ", tol);
}

}  // namespace

TEST_SUITE("layer_norm") {
  TEST_CASE("LayerNorm equals (x - mean) / std with the biased std") {
    for_each_cpu_backend([] {
      Rng rng(1);
      for (Shape s : {Shape{4, 32, 128}, Shape{3, 7}, Shape{5, 1, 33}, Shape{2, 1000}}) {
        int64_t C = s[-1];
        std::vector<float> x = randn(rng, s.numel(), 3.f, 2.f);
        std::vector<float> ones(static_cast<size_t>(C), 1.f), zeros(static_cast<size_t>(C), 0.f);
        Tensor y = layer_norm(Tensor::from_vector(x, s), Tensor::from_vector(ones, Shape{C}),
                              Tensor::from_vector(zeros, Shape{C}));
        check_close(y.to_vector(), textbook(x, ones, zeros, C, 1e-5), 1e-4f);
      }
    });
  }

  TEST_CASE("the learned scale and shift apply after normalising") {
    for_each_cpu_backend([] {
      Rng rng(2);
      int64_t C = 48;
      std::vector<float> x = randn(rng, 6 * C, 1.f, -1.f), g = randn(rng, C, 1.f, 1.f),
                         b = randn(rng, C, 1.f, 0.f);
      Tensor y = layer_norm(Tensor::from_vector(x, Shape{6, C}), Tensor::from_vector(g, Shape{C}),
                            Tensor::from_vector(b, Shape{C}));
      check_close(y.to_vector(), textbook(x, g, b, C, 1e-5), 1e-4f);
    });
  }

  TEST_CASE("the LayerNorm module starts as the plain normalisation") {
    for_each_cpu_backend([] {
      Rng rng(3);
      LayerNorm ln(20);
      std::vector<float> x = randn(rng, 3 * 20, 2.f, 0.5f);
      std::vector<float> ones(20, 1.f), zeros(20, 0.f);
      check_close(ln.forward(Tensor::from_vector(x, Shape{3, 20})).to_vector(),
                  textbook(x, ones, zeros, 20, 1e-5), 1e-4f);
    });
  }

  TEST_CASE("a constant row comes out as beta (eps keeps it finite)") {
    for_each_cpu_backend([] {
      std::vector<float> x(19, 4.25f), g(19, 2.f), b(19);
      for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(i);
      Tensor y = layer_norm(Tensor::from_vector(x, Shape{1, 19}), Tensor::from_vector(g, Shape{19}),
                            Tensor::from_vector(b, Shape{19}));
      check_close(y.to_vector(), b, 1e-6f);
    });
  }

  TEST_CASE("each row of the output has mean zero and biased variance one") {
    for_each_cpu_backend([] {
      Rng rng(4);
      int64_t C = 130;
      std::vector<float> x = randn(rng, 8 * C, 5.f, 3.f), ones(static_cast<size_t>(C), 1.f),
                         zeros(static_cast<size_t>(C), 0.f);
      std::vector<float> y =
          layer_norm(Tensor::from_vector(x, Shape{8, C}), Tensor::from_vector(ones, Shape{C}),
                     Tensor::from_vector(zeros, Shape{C}))
              .to_vector();
      for (int64_t r = 0; r < 8; ++r) {
        double mean = 0, var = 0;
        for (int64_t c = 0; c < C; ++c) mean += y[static_cast<size_t>(r * C + c)];
        mean /= static_cast<double>(C);
        for (int64_t c = 0; c < C; ++c) var += std::pow(y[static_cast<size_t>(r * C + c)] - mean, 2);
        var /= static_cast<double>(C);
        CHECK(std::fabs(mean) < 1e-5);
        CHECK(var == doctest::Approx(1.0).epsilon(1e-4));
      }
    });
  }
}
