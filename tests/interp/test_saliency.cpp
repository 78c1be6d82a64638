#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "interp/saliency.hpp"
#include "ops/ops.hpp"
#include "support/model_configs.hpp"

using namespace tf;

TEST_SUITE("saliency") {
  TEST_CASE("a story model's saliency rows sum to one and explain the word it would write") {
    Rng rng(4);
    MyTransformer net(ModelConfig::transformer(20, 16, 2, 2), rng);
    Ids x({3, 19, 7, 1, 19}, Shape{1, 5});
    SaliencyResult r = token_saliency(net, x);
    REQUIRE(r.saliency.shape() == Shape({5, 5}));
    std::vector<float> s = r.saliency.to_vector();
    std::vector<float> logits = net.forward(x).to_vector();  // [1, 5, 20]
    for (int64_t k = 0; k < 5; ++k) {
      double total = 0;
      for (int64_t j = 0; j < 5; ++j) total += s[static_cast<size_t>(k * 5 + j)];
      CHECK(std::abs(total - 1) < 1e-5);
      const float* row = logits.data() + k * 20;
      CHECK(r.output.at(k) == std::max_element(row, row + 20) - row);
    }
  }

  TEST_CASE("in a causal story model no word depends on the words after it") {
    Rng rng(5);
    MyTransformer net(testing::causal_transformer(20, 16, 2, 2), rng);
    SaliencyResult r = token_saliency(net, Ids({3, 4, 5, 6}, Shape{1, 4}));
    std::vector<float> s = r.saliency.to_vector();
    for (int64_t k = 0; k < 4; ++k) {
      for (int64_t j = 0; j < 4; ++j) {
        INFO("row " << k << ", column " << j);
        if (j > k)
          CHECK(s[static_cast<size_t>(k * 4 + j)] == 0.f);
        else
          CHECK(s[static_cast<size_t>(k * 4 + j)] > 0.f);
      }
    }
  }

  TEST_CASE("the page's figures hold the saliency and the words it explains") {
    Rng rng(6);
    MyTransformer net(ModelConfig::transformer(20, 16, 2, 1), rng);
    Ids x({3, 19, 7}, Shape{1, 3});
    SaliencyResult r = token_saliency(net, x);
    Figure f = token_saliency_figure(net, x);
    CHECK(f.array("saliency").to_vector() == r.saliency.to_vector());
    CHECK(f.values["written"].get<std::vector<int32_t>>() == r.output.data);

    Sorter sorter(ModelConfig::sorter(), rng);
    Ids digits({5, 1, 4}, Shape{1, 3});
    SaliencyResult sr = sorter_saliency(sorter, digits);
    Figure sf = sorter_saliency_figure(sorter, digits);
    CHECK(sf.array("saliency").shape() == sr.saliency.shape());
    CHECK(sf.array("saliency").to_vector() == sr.saliency.to_vector());
    CHECK(sf.values["output"].get<std::vector<int32_t>>() == sr.output.data);
    CHECK_FALSE(sf.values.contains("written"));
  }
}
