// Activation patching on the three families (a diffusion and a causal MyTransformer, the sorter): patching
// nothing is the corrupted run and patching all the difference flows through is the clean run, bit for bit
// against the models' own forward; every grid cell is a single patched run; one cell against a patch done
// by hand with the block's own pieces.
#include <doctest/doctest.h>

#include <cmath>

#include "interp/patching.hpp"
#include "ops/ops.hpp"
#include "support/model_configs.hpp"

using namespace tf;

namespace {

// The probability the model's own forward gives `word` at `position` of x.
float own_probability(const MyTransformer& net, const Ids& x, int64_t position, int32_t word) {
  return softmax(net.forward(x)).to_vector()[static_cast<size_t>(position * net.config().vocab + word)];
}

PatchSet every_head(int64_t blocks, int64_t heads) {
  PatchSet p;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t h = 0; h < heads; ++h) p.heads.push_back({b, h});
  return p;
}

// Clean and corrupted differ in words 1 and 2; the target is read at position 4, whose word is the same.
const Ids kClean({3, 7, 11, 2, 9, 8}, Shape{1, 6});
const Ids kCorrupted({3, 12, 5, 2, 9, 8}, Shape{1, 6});

}  // namespace

TEST_SUITE("patching") {
  TEST_CASE("a token model: nothing patched is the corrupted run, every head the clean run, exactly") {
    for (bool causal : {false, true}) {
      INFO("causal " << causal);
      Rng rng(causal ? 6 : 5);
      MyTransformer net(
          causal ? testing::causal_transformer(20, 16, 4, 3) : ModelConfig::transformer(20, 16, 4, 3), rng);
      const float clean = own_probability(net, kClean, 4, 13),
                  corrupted = own_probability(net, kCorrupted, 4, 13);
      REQUIRE(clean != corrupted);
      CHECK(patched_probability(net, kClean, kCorrupted, 4, 13, {}) == corrupted);
      CHECK(patched_probability(net, kClean, kCorrupted, 4, 13, every_head(3, 4)) == clean);
      for (int64_t b = 0; b < 3; ++b) {
        PatchSet block_input;  // the whole residual stream entering block b
        for (int64_t t = 0; t < 6; ++t) block_input.residuals.push_back({b, t});
        CHECK(patched_probability(net, kClean, kCorrupted, 4, 13, block_input) == clean);
      }

      Figure f = token_patching(net, kClean, kCorrupted, 4, 13);
      CHECK(f.values["clean"].get<float>() == clean);
      CHECK(f.values["corrupted"].get<float>() == corrupted);
      std::vector<float> heads = f.array("heads").to_vector(), residuals = f.array("residuals").to_vector();
      std::vector<float> back = f.array("heads_restored").to_vector();
      REQUIRE(heads.size() == 12);
      REQUIRE(residuals.size() == 18);
      for (int64_t b = 0; b < 3; ++b) {
        for (int64_t h = 0; h < 4; ++h) {
          float p = patched_probability(net, kClean, kCorrupted, 4, 13, {{{b, h}}, {}});
          CHECK(heads[static_cast<size_t>(b * 4 + h)] == p);
          if (std::abs(clean - corrupted) >= 0.01f)
            CHECK(back[static_cast<size_t>(b * 4 + h)] ==
                  doctest::Approx((p - corrupted) / (clean - corrupted)));
        }
        for (int64_t t = 0; t < 6; ++t)
          CHECK(residuals[static_cast<size_t>(b * 6 + t)] ==
                patched_probability(net, kClean, kCorrupted, 4, 13, {{}, {{b, t}}}));
      }
      CHECK(residuals[0] == corrupted);  // the embeddings at position 0: the same word in both
      CHECK(residuals[1] != corrupted);
    }
  }

  TEST_CASE("one head patched equals the patch done by hand with the block's own pieces") {
    Rng rng(7);
    MyTransformer net(ModelConfig::transformer(20, 8, 2, 1), rng);
    const Block& block = net.block(0);
    Tensor x_clean = net.embed_input(kClean), x_corrupted = net.embed_input(kCorrupted);
    std::vector<float> heads = block.attention.heads(block.norm1.forward(x_corrupted)).to_vector();
    std::vector<float> clean_heads = block.attention.heads(block.norm1.forward(x_clean)).to_vector();
    for (size_t t = 0; t < 6; ++t)  // head 1: columns 4..7 of 8
      for (size_t c = 4; c < 8; ++c) heads[t * 8 + c] = clean_heads[t * 8 + c];
    Tensor h = add(x_corrupted, block.attention.mix.forward(Tensor::from_vector(heads, Shape{1, 6, 8})));
    h = add(h, block.mlp.forward(block.norm2.forward(h)));
    float by_hand = softmax(net.unembed(h)).to_vector()[4 * 20 + 13];
    CHECK(patched_probability(net, kClean, kCorrupted, 4, 13, {{{0, 1}}, {}}) == by_hand);
    CHECK(token_patching(net, kClean, kCorrupted, 4, 13).array("heads").to_vector()[1] == by_hand);
  }

  TEST_CASE("the sorter: nothing patched is the corrupted run, every cross-attention head the clean run") {
    Rng rng(8);
    Sorter net(ModelConfig::sorter(), rng);
    Ids clean({7, 2, 9, 0, 4, 4, 1, 8, 3, 6}, Shape{1, 10}),
        corrupted({7, 2, 5, 0, 4, 4, 1, 8, 3, 6}, Shape{1, 10});
    Ids answer = net.greedy(clean, 10);
    std::vector<int32_t> in{Sorter::kSos};
    in.insert(in.end(), answer.data.begin(), answer.data.end() - 1);
    Ids tgt_in(in, Shape{1, 10});
    auto own = [&](const Ids& src) {
      std::vector<float> l = softmax(net.forward(src, tgt_in)).to_vector(), p;
      for (size_t k = 0; k < 10; ++k) p.push_back(l[k * 11 + static_cast<size_t>(answer.data[k])]);
      return p;
    };
    std::vector<float> p_clean = own(clean), p_corrupted = own(corrupted);
    CHECK(p_clean != p_corrupted);
    CHECK(sorter_patched_probabilities(net, clean, corrupted, {}) == p_corrupted);
    CHECK(sorter_patched_probabilities(net, clean, corrupted, every_head(2, 4)) == p_clean);

    Figure f = sorter_patching(net, clean, corrupted);
    CHECK(f.values["answer"].get<std::vector<int32_t>>() == answer.data);
    CHECK(f.values["clean"].get<std::vector<float>>() == p_clean);
    CHECK(f.values["corrupted"].get<std::vector<float>>() == p_corrupted);
    REQUIRE(f.array("heads").shape() == Shape({2, 4, 10}));
    std::vector<float> heads = f.array("heads").to_vector();
    std::vector<float> one = sorter_patched_probabilities(net, clean, corrupted, {{{1, 2}}, {}});
    CHECK(std::vector<float>(heads.begin() + 60, heads.begin() + 70) == one);
  }

  TEST_CASE("patches outside the model or inputs of different lengths are refused") {
    Rng rng(9);
    MyTransformer net(ModelConfig::transformer(20, 8, 2, 1), rng);
    CHECK_THROWS_WITH(patched_probability(net, kClean, kCorrupted, 4, 13, {{{0, 2}}, {}}),
                      doctest::Contains("no head 2 in block 0"));
    CHECK_THROWS_WITH(patched_probability(net, kClean, kCorrupted, 4, 13, {{}, {{1, 0}}}),
                      doctest::Contains("no position 0 in block 1"));
    CHECK_THROWS_WITH(token_patching(net, kClean, Ids({1, 2}, Shape{1, 2}), 0, 1),
                      doctest::Contains("the same length"));
    CHECK_THROWS_WITH(token_patching(net, kClean, kCorrupted, 6, 1), doctest::Contains("position 6"));
  }
}
