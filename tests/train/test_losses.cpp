// The diffusion loss scores the masked rows alone (forward_rows); these cases hold it to the all-rows
// formula it replaces: the same loss and the same gradients, for the model that overrides forward_rows and
// for one that uses the interface's default.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "nn/my_transformer.hpp"
#include "nn/no_talking.hpp"
#include "ops/ops.hpp"
#include "support/random_ids.hpp"
#include "train/losses.hpp"

using namespace tf;

namespace {
// Every parameter's gradient after backward from `loss`, flattened in registration order.
std::vector<float> gradients(const TokenModel& net, const Tensor& loss) {
  net.zero_grad();
  loss.backward();
  std::vector<float> g;
  for (const auto& [name, p] : net.named_parameters()) {
    std::vector<float> v = p.grad().to_vector();
    g.insert(g.end(), v.begin(), v.end());
  }
  return g;
}

// diffusion_loss against cross-entropy over every row of forward(), weighted by the same mask.
void check_matches_all_rows(const TokenModel& net, const Ids& x0, int32_t mask_id) {
  Rng a(11), b(11);
  Tensor picked = diffusion_loss(net, x0, mask_id, a);
  MaskedBatch m = mask_for_diffusion(x0, mask_id, b);
  Tensor all = cross_entropy(net.forward(m.x_t), x0, Tensor::from_vector(m.weights, Shape{x0.numel()}));
  CHECK(picked.item() == doctest::Approx(all.item()).epsilon(1e-5));
  std::vector<float> gp = gradients(net, picked), ga = gradients(net, all);
  REQUIRE(gp.size() == ga.size());
  float worst = 0, scale = 0;
  for (size_t i = 0; i < gp.size(); ++i) {
    worst = std::max(worst, std::abs(gp[i] - ga[i]));
    scale = std::max(scale, std::abs(ga[i]));
  }
  CHECK(scale > 0.f);
  CHECK(worst <= 1e-5f * scale);
}
}  // namespace

TEST_SUITE("losses") {
  TEST_CASE("the diffusion loss over masked rows equals the all-rows loss and gradients (MyTransformer)") {
    Rng rng(1);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), rng);
    check_matches_all_rows(net, testing::random_ids(8, 6, 13, 2), 13);
  }

  TEST_CASE("the diffusion loss over masked rows equals the all-rows loss and gradients (one block)") {
    // The last block picks the rows after attention: with one block, the token table's gradient reaches
    // unmasked positions only through the keys and values that the masked ones attend to.
    Rng rng(3);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 1), rng);
    check_matches_all_rows(net, testing::random_ids(8, 6, 13, 4), 13);
  }

  TEST_CASE("the diffusion loss over masked rows equals the all-rows loss and gradients (default rows)") {
    Rng rng(2);
    NoTalking net(ModelConfig::transformer(14, 16, 1, 1), rng);
    check_matches_all_rows(net, testing::random_ids(8, 6, 13, 3), 13);
  }

  TEST_CASE("forward_rows gives the chosen rows of forward") {
    Rng rng(4);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), rng);
    Ids x = testing::random_ids(3, 5, 14, 5);
    std::vector<float> all = net.forward(x).to_vector();
    std::vector<int32_t> rows{14, 0, 7, 7};
    std::vector<float> some = net.forward_rows(x, Ids(rows, Shape{4})).to_vector();
    REQUIRE(some.size() == rows.size() * 14);
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t v = 0; v < 14; ++v)
        CHECK(some[r * 14 + v] == doctest::Approx(all[static_cast<size_t>(rows[r]) * 14 + v]).epsilon(1e-5));
  }

  TEST_CASE("a batch with nothing masked gives a zero loss that backward still runs through") {
    Rng rng(5);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), rng);
    Ids x0 = testing::random_ids(1, 1, 13, 6);
    // Find a seed whose one position stays unmasked (probability 1 - t per draw).
    for (uint64_t seed = 0; seed < 64; ++seed) {
      Rng probe(seed);
      if (mask_for_diffusion(x0, 13, probe).weights[0] != 0.f) continue;
      Rng r(seed);
      Tensor loss = diffusion_loss(net, x0, 13, r);
      CHECK(loss.item() == 0.f);
      std::vector<float> g = gradients(net, loss);
      for (float v : g) CHECK(v == 0.f);
      return;
    }
    FAIL("no seed left the position unmasked");
  }
}
