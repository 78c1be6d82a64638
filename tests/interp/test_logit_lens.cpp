// The logit lens against the model itself: its last row is the model's prediction bit for bit, every other
// row is the final norm and output layer applied by hand to the stream after that many blocks, and a trained
// toy model's last row fills in the toy's sentences.
#include <doctest/doctest.h>

#include <algorithm>

#include "data/toy_language.hpp"
#include "interp/logit_lens.hpp"
#include "ops/ops.hpp"
#include "run/session.hpp"
#include "support/model_configs.hpp"

using namespace tf;

namespace {

// Row r of the lens as [T][top] probabilities and words.
std::vector<float> row_probs(const Figure& f, int64_t r) {
  const Tensor& p = f.array("probs");
  std::vector<float> v = p.to_vector();
  const int64_t n = p.size(1) * p.size(2);
  return std::vector<float>(v.begin() + r * n, v.begin() + (r + 1) * n);
}

// Every entry the lens shows for row r equals `probs` [T, V] at the word it names, exactly.
void check_row_is(const Figure& f, int64_t r, const std::vector<float>& probs, int64_t V) {
  std::vector<float> shown = row_probs(f, r);
  const auto& words = f.values["top_words"][r];
  const int64_t top = f.array("probs").size(2);
  for (size_t t = 0; t < words.size(); ++t) {
    const float* pt = probs.data() + t * static_cast<size_t>(V);
    CHECK(words[t][0].get<int64_t>() == std::max_element(pt, pt + V) - pt);
    for (int64_t k = 0; k < top; ++k)
      CHECK(shown[t * static_cast<size_t>(top) + static_cast<size_t>(k)] == pt[words[t][k].get<int32_t>()]);
  }
}

}  // namespace

TEST_SUITE("logit_lens") {
  TEST_CASE("the last block's row is the model's own prediction, bit for bit (diffusion and causal)") {
    for (bool causal : {false, true}) {
      Rng rng(causal ? 2 : 1);
      MyTransformer net(
          causal ? testing::causal_transformer(20, 16, 2, 3) : ModelConfig::transformer(20, 16, 2, 3), rng);
      std::vector<int32_t> words{3, 7, 11, 2, 5, 8};
      Figure f = logit_lens(net, words, {1, 4}, 19, 20);
      CHECK(f.values["layers"] == 3);
      CHECK(f.array("probs").shape() == Shape({4, 6, 20}));
      std::vector<int32_t> input{3, 19, 11, 2, 19, 8};
      CHECK(f.values["input"].get<std::vector<int32_t>>() == input);
      std::vector<float> own = softmax(net.forward(Ids(input, Shape{1, 6}))).to_vector();  // [6 * 20]
      check_row_is(f, 3, own, 20);
      std::vector<float> target_prob = f.array("target_prob").to_vector();
      std::vector<int32_t> targets = f.values["targets"].get<std::vector<int32_t>>();
      for (size_t t = 0; t < 6; ++t) {
        int32_t want = causal ? (t + 1 < 6 ? words[t + 1] : -1) : words[t];
        CHECK(targets[t] == want);
        if (want < 0) continue;
        CHECK(target_prob[18 + t] == own[t * 20 + static_cast<size_t>(want)]);
        int64_t higher = std::count_if(own.begin() + t * 20, own.begin() + t * 20 + 20,
                                       [&](float q) { return q > own[t * 20 + static_cast<size_t>(want)]; });
        CHECK(f.values["target_rank"][3][t] == higher);
      }
    }
  }

  TEST_CASE("each earlier row is the final norm and output layer on the stream after that many blocks") {
    Rng rng(3);
    MyTransformer net(ModelConfig::transformer(16, 8, 2, 2), rng);
    std::vector<int32_t> words{1, 2, 3, 4, 5};
    Figure f = logit_lens(net, words, {}, 15, 3);
    Tensor h = net.embed_input(Ids(words, Shape{1, 5}));
    for (int64_t r = 0; r < 3; ++r) {
      check_row_is(f, r, softmax(net.unembed(h)).to_vector(), 16);
      if (r < 2) h = net.block(static_cast<size_t>(r)).forward(h);
    }
  }

  TEST_CASE("a sentence it cannot read is refused with the reason") {
    Rng rng(4);
    MyTransformer net(ModelConfig::transformer(16, 8, 2, 1), rng);
    CHECK_THROWS_WITH(logit_lens(net, {}, {}, 15, 3), doctest::Contains("1 to 64 words"));
    CHECK_THROWS_WITH(logit_lens(net, {1, 2}, {2}, 15, 3), doctest::Contains("masked position 2"));
    CHECK_THROWS_WITH(logit_lens(net, {1, 2}, {}, 15, 17), doctest::Contains("1 to 16 words per position"));
  }

  TEST_CASE("a trained toy model's last block fills in the toy's sentences") {
    TrainConfig c = TrainConfig::for_task("toy");
    c.seed = 1;
    std::unique_ptr<Session> run = Session::create(c, nullptr);
    run->advance(600);
    const MyTransformer& net = run->model().transformer_model("the lens test");
    for (const char* sentence : {"the cat is alive", "the box is empty"}) {
      std::vector<int32_t> words = toy::encode(sentence);
      for (int64_t masked : {1, 3}) {
        INFO(sentence << ", masked " << masked);
        Figure f = logit_lens(net, words, {masked}, toy::kMask, 3);
        CHECK(f.values["top_words"][1][masked][0] == words[static_cast<size_t>(masked)]);
        CHECK(f.values["target_rank"][1][masked] == 0);
      }
    }
  }
}
