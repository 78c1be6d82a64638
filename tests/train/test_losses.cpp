// The diffusion loss scores the masked rows alone (forward_rows); these cases hold it to the all-rows
// formula it replaces: the same loss and the same gradients, for the model that overrides forward_rows and
// for one that uses the interface's default. And each loss split into the shards of a data-parallel run:
// the shards' losses and gradients add up to the whole batch's, and a diffusion batch's masked positions
// are split evenly over the shards.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "backend/backend.hpp"
#include "data/sort_digits.hpp"
#include "nn/my_transformer.hpp"
#include "nn/no_talking.hpp"
#include "nn/sorter.hpp"
#include "ops/ops.hpp"
#include "support/model_configs.hpp"
#include "support/random_ids.hpp"
#include "train/losses.hpp"

using namespace tf;

namespace {
// Every parameter's gradient after backward from `loss`, flattened in registration order.
std::vector<float> gradients(const Module& net, const Tensor& loss) {
  net.zero_grad();
  loss.backward();
  std::vector<float> g;
  for (const auto& [name, p] : net.named_parameters()) {
    std::vector<float> v = p.grad().to_vector();
    g.insert(g.end(), v.begin(), v.end());
  }
  return g;
}

// The worst difference between two gradients, as a fraction of b's largest number.
float relative_difference(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  float worst = 0, scale = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  REQUIRE(scale > 0.f);
  return worst / scale;
}

// loss(shard) for each of `ranks` shards against loss(the whole batch): the losses and gradients add up.
template <class Loss>
void check_shards_add_up(const Module& net, int ranks, Loss loss) {
  Tensor whole = loss(BatchShard{});
  std::vector<float> expected = gradients(net, whole), summed(expected.size(), 0.f);
  double total = 0;
  for (int r = 0; r < ranks; ++r) {
    Tensor part = loss(BatchShard{r, ranks});
    total += part.item();
    std::vector<float> g = gradients(net, part);
    for (size_t i = 0; i < g.size(); ++i) summed[i] += g[i];
  }
  CHECK(total == doctest::Approx(whole.item()).epsilon(1e-5));
  CHECK(relative_difference(summed, expected) <= 1e-5f);
}

// diffusion_loss against cross-entropy over every row of forward(), weighted by the same mask: a Net made
// from `config` with weights from `seed`, on a batch of 8 x 6 ids below the mask id 13 from `ids_seed`.
template <class Net>
void check_matches_all_rows(const ModelConfig& config, uint64_t seed, uint64_t ids_seed) {
  Rng rng(seed);
  const Net net(config, rng);
  const int32_t mask_id = 13;
  const Ids x0 = testing::random_ids(8, 6, mask_id, ids_seed);
  Rng a(11), b(11);
  Tensor picked = diffusion_loss(net, x0, mask_id, a);
  MaskedBatch m = mask_for_diffusion(x0, mask_id, b);
  Tensor all = cross_entropy(net.forward(m.x_t), x0, Tensor::from_vector(m.weights, Shape{x0.numel()}));
  CHECK(picked.item() == doctest::Approx(all.item()).epsilon(1e-5));
  CHECK(relative_difference(gradients(net, picked), gradients(net, all)) <= 1e-5f);
}
}  // namespace

TEST_SUITE("losses") {
  TEST_CASE("the diffusion loss over masked rows equals the all-rows loss and gradients (MyTransformer)") {
    check_matches_all_rows<MyTransformer>(ModelConfig::transformer(14, 32, 2, 2), 1, 2);
  }

  TEST_CASE("the diffusion loss over masked rows equals the all-rows loss and gradients (one block)") {
    // The last block picks the rows after attention: with one block, the token table's gradient reaches
    // unmasked positions only through the keys and values that the masked ones attend to.
    check_matches_all_rows<MyTransformer>(ModelConfig::transformer(14, 32, 2, 1), 3, 4);
  }

  TEST_CASE("the diffusion loss over masked rows equals the all-rows loss and gradients (default rows)") {
    check_matches_all_rows<NoTalking>(ModelConfig::transformer(14, 16, 1, 1), 2, 3);
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

  TEST_CASE("the shards of a batch add up to the whole batch: diffusion loss, masks drawn for the whole") {
    Rng init(6);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), init);
    Ids x0 = testing::random_ids(7, 6, 13, 7);  // 7 rows over 3 ranks: 2, 2 and 3
    std::vector<uint64_t> after_whole;
    check_shards_add_up(net, 3, [&](BatchShard shard) {
      Rng rng(12);
      Tensor loss = diffusion_loss(net, x0, 13, rng, shard);
      if (shard.whole()) after_whole = rng.state();
      CHECK(rng.state() == after_whole);  // every shard moves the generator as the whole batch does
      return loss;
    });
  }

  TEST_CASE("the shards of a diffusion batch score about as many masked positions each (the ranks' work)") {
    Rng init(6);
    MyTransformer net(ModelConfig::transformer(14, 32, 2, 2), init);
    Ids x0 = testing::random_ids(32, 16, 13, 8);  // 32 rows of 16, each masked at its own rate
    std::vector<uint64_t> flops;
    for (int r = 0; r < 2; ++r) {
      Rng rng(12);
      uint64_t before = flop_count();
      diffusion_loss(net, x0, 13, rng, BatchShard{r, 2});
      flops.push_back(flop_count() - before);  // the same rows' body; the unembedding of the masked ones
    }
    uint64_t unembed_one_row = 2 * 32 * 14 * 16,
             gap = std::max(flops[0], flops[1]) - std::min(flops[0], flops[1]);
    CHECK(gap <=
          unembed_one_row);  // within one row's masked positions (the halves [0, 16), [16, 32) are not)
  }

  TEST_CASE("the shards of a batch add up to the whole batch: next-token loss and sorter loss") {
    Rng init(7);
    MyTransformer gpt(testing::causal_transformer(14, 32, 2, 1), init);
    Ids x0 = testing::random_ids(5, 6, 14, 8);
    check_shards_add_up(gpt, 2, [&](BatchShard shard) { return next_token_loss(gpt, x0, shard); });
    Sorter sorter(ModelConfig::sorter(), init);
    sort_digits::Batch b = sort_digits::make_batch(init, 5);
    check_shards_add_up(sorter, 3,
                        [&](BatchShard shard) { return sorter_loss(sorter, b.src, b.tgt_in, b.tgt, shard); });
  }
}
