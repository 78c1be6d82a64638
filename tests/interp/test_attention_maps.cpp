#include <doctest/doctest.h>

#include <cmath>

#include "interp/attention_maps.hpp"
#include "nn/my_transformer.hpp"
#include "support/model_configs.hpp"

using namespace tf;

namespace {
void check_rows_sum_to_one(const Tensor& t) {
  std::vector<float> v = t.to_vector();
  int64_t n = t.size(-1);
  for (size_t r = 0; r < v.size() / static_cast<size_t>(n); ++r) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += v[r * static_cast<size_t>(n) + static_cast<size_t>(j)];
    CHECK(std::abs(s - 1) < 1e-5);
  }
}
}  // namespace

TEST_SUITE("attention_maps") {
  TEST_CASE("a token model gives one [heads, T, T] map per block, its rollout and its logits") {
    Rng rng(0);
    MyTransformer net(testing::causal_transformer(14, 16, 2, 3), rng);
    Figure f = token_attention(net, Ids({0, 1, 3, 4}, Shape{1, 4}));
    CHECK(f.values["layers"] == 3);
    CHECK(f.array("layer.2").shape() == Shape({2, 4, 4}));
    CHECK(f.array("rollout").shape() == Shape({4, 4}));
    CHECK(f.array("logits").shape() == Shape({4, 14}));
    check_rows_sum_to_one(f.array("layer.0"));
    check_rows_sum_to_one(f.array("rollout"));
    CHECK(f.array("layer.0").to_vector()[1] == 0.f);  // causal: position 0 does not see position 1
  }

  TEST_CASE("the sorter's maps have one row per output step of its greedy answer") {
    Rng rng(1);
    Sorter net(ModelConfig::sorter(), rng);
    Figure f = sorter_attention(net, Ids({7, 2, 9, 0, 4, 4, 1, 8, 3, 6}, Shape{1, 10}));
    CHECK(f.array("encoder.1").shape() == Shape({4, 10, 10}));
    CHECK(f.array("cross.0").shape() == Shape({4, 10, 10}));
    CHECK(f.array("decoder_self.1").shape() == Shape({4, 10, 10}));
    check_rows_sum_to_one(f.array("cross.1"));
    CHECK(f.values["output"].size() == 10);
    CHECK(f.values["output"] == net.greedy(Ids({7, 2, 9, 0, 4, 4, 1, 8, 3, 6}, Shape{1, 10}), 10).data);
  }
}
