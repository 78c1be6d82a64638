#include "sample/left_to_right.hpp"

#include <algorithm>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

int32_t sample_next(std::vector<float> logits, const WriteOptions& o, int64_t V, Rng& rng) {
  logits_to_probabilities(logits, V, o.guess);
  if (o.top_k > 0 && o.top_k < V) {
    std::vector<float> sorted(logits);
    std::nth_element(sorted.begin(), sorted.begin() + (o.top_k - 1), sorted.end(), std::greater<float>());
    float kth = sorted[static_cast<size_t>(o.top_k - 1)];
    for (float& p : logits)
      if (p < kth) p = 0.f;
  }
  return static_cast<int32_t>(rng.categorical(logits));
}

std::vector<float> last_row(const Tensor& logits) {
  int64_t T = logits.size(1);
  return narrow(logits, 1, T - 1, 1).to_vector();
}

}  // namespace

WriteResult write_left_to_right(const MyTransformer& net, const std::vector<int32_t>& prompt,
                                const WriteOptions& o, Rng& rng) {
  TF_CHECK(net.config().causal, "left-to-right writing needs a causal model (train it with --causal)");
  TF_CHECK(!prompt.empty(), "left-to-right writing needs a prompt of at least one token");
  TF_CHECK(o.length >= static_cast<int64_t>(prompt.size()), "the story length ", o.length,
           " is shorter than the prompt");
  NoGrad no_grad;
  int64_t V = net.config().vocab;
  WriteResult r{prompt, 0};
  KvCache cache;
  if (o.use_cache) cache = net.new_cache(o.length);
  std::vector<int32_t> pending = prompt;  // tokens the network has not seen yet
  while (static_cast<int64_t>(r.tokens.size()) < o.length) {
    Tensor logits;
    if (o.use_cache) {
      logits = net.forward_cached(Ids(pending, Shape{1, static_cast<int64_t>(pending.size())}), cache);
    } else {
      logits = net.forward(Ids(r.tokens, Shape{1, static_cast<int64_t>(r.tokens.size())}));
    }
    ++r.network_calls;
    int32_t next = sample_next(last_row(logits), o, V, rng);
    r.tokens.push_back(next);
    pending.assign(1, next);
  }
  return r;
}

}  // namespace tf
