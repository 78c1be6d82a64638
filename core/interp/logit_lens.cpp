#include "interp/logit_lens.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// The word each position should predict (-1: none), as logit_lens's header says.
std::vector<int32_t> lens_targets(const std::vector<int32_t>& words, bool causal, int32_t mask_id) {
  std::vector<int32_t> t(words.size(), -1);
  for (size_t i = 0; i < words.size(); ++i)
    if (causal ? i + 1 < words.size() : words[i] != mask_id) t[i] = causal ? words[i + 1] : words[i];
  return t;
}

// The lens's rows as they are read: the likeliest words and their probabilities, the targets' ranks.
struct LensRows {
  std::vector<int32_t> targets;
  int64_t top;
  std::vector<float> probs, target_prob;
  nlohmann::json words = nlohmann::json::array(), ranks = nlohmann::json::array();

  void add(const std::vector<float>& p, int64_t V) {  // p [T, V]
    nlohmann::json row_words = nlohmann::json::array(), row_ranks = nlohmann::json::array();
    std::vector<int32_t> order(static_cast<size_t>(V));
    for (size_t t = 0; t < targets.size(); ++t) {
      const float* pt = p.data() + t * static_cast<size_t>(V);
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + top, order.end(),
                        [pt](int32_t a, int32_t b) { return pt[a] > pt[b] || (pt[a] == pt[b] && a < b); });
      row_words.push_back(std::vector<int32_t>(order.begin(), order.begin() + top));
      for (int64_t k = 0; k < top; ++k) probs.push_back(pt[order[static_cast<size_t>(k)]]);
      const int32_t w = targets[t];
      target_prob.push_back(w < 0 ? 0.f : pt[w]);
      row_ranks.push_back(w < 0 ? -1 : std::count_if(pt, pt + V, [&](float q) { return q > pt[w]; }));
    }
    words.push_back(row_words);
    ranks.push_back(row_ranks);
  }
};

}  // namespace

Figure logit_lens(const MyTransformer& net, const std::vector<int32_t>& words,
                  const std::vector<int64_t>& masked, int32_t mask_id, int64_t top) {
  const int64_t T = static_cast<int64_t>(words.size()), V = net.config().vocab;
  TF_CHECK(T >= 1 && T <= net.config().max_length, "the logit lens reads 1 to ", net.config().max_length,
           " words, got ", T);
  TF_CHECK(top >= 1 && top <= V, "the logit lens shows 1 to ", V, " words per position, got ", top);
  TF_CHECK(masked.empty() || (mask_id >= 0 && mask_id < V), "this model's vocabulary has no mask word");
  std::vector<int32_t> input = words;
  for (int64_t m : masked) {
    TF_CHECK(m >= 0 && m < T, "masked position ", m, " is outside the ", T, " words");
    input[static_cast<size_t>(m)] = mask_id;
  }
  NoGrad no_grad;
  std::vector<Tensor> streams;  // [1, T, C]: each block's input, then the last one's output
  Tensor last =
      net.run_blocks(net.embed_input(Ids(input, Shape{1, T})), [&](size_t, Site site, const Tensor& h) {
        if (site == Site::Input) streams.push_back(h);
        return h;
      });
  streams.push_back(last);
  LensRows rows{lens_targets(words, net.config().causal, mask_id), top};
  for (const Tensor& h : streams) {
    std::vector<float> p = softmax(net.unembed(h)).to_vector();  // [T * V]
    TF_CHECK(std::none_of(p.begin(), p.end(), [](float q) { return std::isnan(q); }),
             "the model's numbers are not finite: it has nothing to show");
    rows.add(p, V);
  }
  const int64_t R = static_cast<int64_t>(streams.size());
  Figure f;
  f.add("probs", Tensor::from_vector(rows.probs, Shape{R, T, top}));
  f.add("target_prob", Tensor::from_vector(rows.target_prob, Shape{R, T}));
  f.values = {{"top_words", rows.words},
              {"target_rank", rows.ranks},
              {"input", input},
              {"targets", rows.targets},
              {"layers", R - 1}};
  return f;
}

}  // namespace tf
