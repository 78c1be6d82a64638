#include <doctest/doctest.h>

#include <cmath>

#include "autograd/node.hpp"
#include "nn/my_transformer.hpp"
#include "nn/no_talking.hpp"
#include "nn/self_attention.hpp"
#include "ops/ops.hpp"
#include "support/model_configs.hpp"
#include "support/random_ids.hpp"

using namespace tf;

namespace {
float max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  float m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}
}  // namespace

TEST_SUITE("my_transformer") {
  TEST_CASE("the default MyTransformer(2002) has PyTorch's 1,314,514 parameters") {
    Rng rng(0);
    MyTransformer net(ModelConfig::transformer(2002), rng);
    CHECK(net.parameter_count() == 1314514);
  }

  TEST_CASE("MultiHead(32, 4) has 4128 parameters (course A8)") {
    Rng rng(0);
    SelfAttention multi(32, 4, false, false, false, rng);
    CHECK(multi.parameter_count() == 4128);
  }

  TEST_CASE("a (64, 4) batch gives (64, 4, 14) logits (course B5)") {
    Rng rng(1);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), rng);
    CHECK(net.forward(testing::random_ids(64, 4, 14, 2)).shape() == Shape({64, 4, 14}));
  }

  TEST_CASE("the logits of sentence 0 do not depend on the rest of the batch") {
    Rng rng(3);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), rng);
    Ids a = testing::random_ids(8, 4, 14, 4), b = testing::random_ids(8, 4, 14, 5);
    for (int i = 0; i < 4; ++i) b.data[static_cast<size_t>(i)] = a.data[static_cast<size_t>(i)];
    std::vector<float> la = narrow(net.forward(a), 0, 0, 1).to_vector();
    std::vector<float> lb = narrow(net.forward(b), 0, 0, 1).to_vector();
    CHECK(max_abs_diff(la, lb) < 1e-6f);
  }

  TEST_CASE("causal: the first three logits of 'the cat is alive' and 'the cat is empty' agree (course C5)") {
    Rng rng(6);
    MyTransformer net(testing::causal_transformer(14, 32, 2, 2), rng);
    Tensor alive = net.forward(Ids({0, 1, 3, 4}, Shape{1, 4}));
    Tensor empty = net.forward(Ids({0, 1, 3, 5}, Shape{1, 4}));
    CHECK(max_abs_diff(narrow(alive, 1, 0, 3).to_vector(), narrow(empty, 1, 0, 3).to_vector()) == 0.f);
    CHECK(max_abs_diff(narrow(alive, 1, 3, 1).to_vector(), narrow(empty, 1, 3, 1).to_vector()) > 1e-6f);
    net.set_causal(false);
    alive = net.forward(Ids({0, 1, 3, 4}, Shape{1, 4}));
    empty = net.forward(Ids({0, 1, 3, 5}, Shape{1, 4}));
    for (int64_t t = 0; t < 4; ++t)
      CHECK(max_abs_diff(narrow(alive, 1, t, 1).to_vector(), narrow(empty, 1, t, 1).to_vector()) > 1e-7f);
  }

  TEST_CASE("all heads at once compute the page's per-head attention") {
    Rng rng(7);
    int64_t C = 32, H = 4, D = C / H;
    SelfAttention multi(C, H, false, false, false, rng);
    Tensor x = Tensor::from_vector(std::vector<float>(2 * 5 * C, 0.f), Shape{2, 5, C});
    Rng xr(8);
    std::vector<float> xv(static_cast<size_t>(2 * 5 * C));
    for (auto& v : xv) v = xr.normal();
    x = Tensor::from_vector(xv, Shape{2, 5, C});
    Tensor fused = multi.forward(x);
    // Page 002's MultiHead: a list of Heads, each with its own Q, K, V (rows of the packed weight), each
    // computing softmax(q k^T / sqrt(D)) v; the heads are concatenated and mixed.
    std::vector<Tensor> heads;
    for (int64_t h = 0; h < H; ++h) {
      Tensor wq = narrow(multi.qkv.weight, 0, h * D, D), wk = narrow(multi.qkv.weight, 0, C + h * D, D),
             wv = narrow(multi.qkv.weight, 0, 2 * C + h * D, D);
      Tensor q = linear(x, wq), k = linear(x, wk), v = linear(x, wv);
      Tensor w = softmax(scale(matmul(q, k, false, true), 1.f / std::sqrt(static_cast<float>(D))));
      heads.push_back(matmul(w, v));
    }
    Tensor per_head = multi.mix.forward(concat(heads, -1));
    CHECK(max_abs_diff(fused.to_vector(), per_head.to_vector()) < 1e-5f);
  }

  TEST_CASE("the key/value cache gives the same logits as the full forward") {
    Rng rng(9);
    ModelConfig c = ModelConfig::transformer(50, 32, 4, 2);
    c.causal = true;
    for (bool rot : {false, true}) {
      c.rotary = rot;
      MyTransformer net(c, rng);
      Ids x = testing::random_ids(1, 7, 50, 10);
      NoGrad ng;
      std::vector<float> full = net.forward(x).to_vector();
      KvCache cache = net.new_cache(16);
      std::vector<float> step =
          net.forward_cached(Ids({x.data[0], x.data[1], x.data[2]}, Shape{1, 3}), cache).to_vector();
      for (int64_t t = 3; t < 7; ++t) {
        std::vector<float> one =
            net.forward_cached(Ids({x.data[static_cast<size_t>(t)]}, Shape{1, 1}), cache).to_vector();
        step.insert(step.end(), one.begin(), one.end());
      }
      CHECK(max_abs_diff(full, step) < 2e-5f);
    }
  }

  TEST_CASE("NoTalking and WithPosition give (B, T, V) logits") {
    Rng rng(11);
    ModelConfig c = ModelConfig::transformer(14, 32);
    c.kind = ModelKind::NoTalking;
    NoTalking a(c, rng);
    c.kind = ModelKind::WithPosition;
    WithPosition b(c, rng);
    CHECK(a.forward(testing::random_ids(3, 4, 14, 1)).shape() == Shape({3, 4, 14}));
    CHECK(b.forward(testing::random_ids(3, 4, 14, 1)).shape() == Shape({3, 4, 14}));
    CHECK(b.parameter_count() == a.parameter_count() + 64 * 32);
  }
}
