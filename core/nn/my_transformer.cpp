#include "nn/my_transformer.hpp"

#include "nn/init.hpp"
#include "nn/position_ids.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

MyTransformer::MyTransformer(const ModelConfig& config, Rng& rng, Device device)
    : TokenModel(config),
      embed(config.vocab, config.dim, rng, device),
      norm(config.dim, device),
      out(config.dim, config.vocab, true, rng, device) {
  config.validate();
  register_module("embed", embed);
  if (!config.rotary) {
    position = std::make_unique<Embedding>(config.max_length, config.dim, rng, device);
    register_module("position", *position);
  }
  for (int64_t i = 0; i < config.layers; ++i) {
    blocks_.push_back(
        std::make_unique<Block>(config.dim, config.heads, config.causal, config.rotary, rng, device));
    register_module("blocks." + std::to_string(i), *blocks_.back());
  }
  register_module("norm", norm);
  register_module("out", out);
  small_start(rng);
}

void MyTransformer::small_start(Rng& rng) {
  // SmallStart: the weights (not the biases) of every Linear and Embedding ~ N(0, 0.02).
  std::vector<Tensor> weights{embed.weight};
  if (position) weights.push_back(position->weight);
  for (const auto& b : blocks_)
    for (const Linear* l : {&b->attention.qkv, &b->attention.mix, &b->mlp.up, &b->mlp.down})
      weights.push_back(l->weight);
  weights.push_back(out.weight);
  for (const Tensor& w : weights) normal_(w, rng, 0.02f);
}

Tensor MyTransformer::embed_positions(const Ids& x, int64_t start) const {
  TF_CHECK(x.shape.ndim() == 2, "the network takes a batch of token ids [B, T], got ", x.shape.str());
  int64_t T = x.shape[1];
  Tensor h = embed.forward(x);
  if (!position) return h;
  TF_CHECK(start + T <= config_.max_length, "position ", start + T - 1, " is beyond max_length ",
           config_.max_length, " of this model");
  return add(h, position->forward(position_ids(T, start)));
}

Tensor MyTransformer::forward(const Ids& x) const { return forward_embedded(embed_positions(x, 0)); }

Tensor MyTransformer::forward_rows(const Ids& x, const Ids& rows) const {
  // Every block but the last needs every position (later blocks attend to them all). The last block's
  // mlp, the final norm and the output layer work row by row, so only the chosen rows go through them.
  Tensor y = embed_positions(x, 0);  // [B, T, C]
  if (blocks_.empty()) return unembed(pick_rows(y, rows));
  for (size_t i = 0; i + 1 < blocks_.size(); ++i) y = blocks_[i]->forward(y);
  return unembed(blocks_.back()->forward_rows(y, rows));  // [n, V]
}

Tensor MyTransformer::run_blocks(const Tensor& h, const Tap& tap, size_t first) const {
  Tensor y = h;
  for (size_t i = first; i < blocks_.size(); ++i) y = blocks_[i]->forward(y, tap, i);
  return y;
}

std::vector<Tensor> MyTransformer::attention_weights() const {
  std::vector<Tensor> w;
  for (const auto& b : blocks_) w.push_back(b->attention.last_weights());
  return w;
}

KvCache MyTransformer::new_cache(int64_t capacity) const {
  KvCache cache;
  Device d = device();
  for (size_t i = 0; i < blocks_.size(); ++i)
    cache.layers.push_back({Tensor::zeros(Shape{1, capacity, config_.dim}, d),
                            Tensor::zeros(Shape{1, capacity, config_.dim}, d), 0});
  return cache;
}

Tensor MyTransformer::forward_cached(const Ids& x, KvCache& cache) const {
  TF_CHECK(config_.causal, "a key/value cache only makes sense for a causal model");
  TF_CHECK(cache.layers.size() == blocks_.size(), "the cache was made for another model");
  Tensor h = embed_positions(x, cache.length());
  for (size_t i = 0; i < blocks_.size(); ++i) h = blocks_[i]->forward_cached(h, cache.layers[i]);
  return unembed(h);
}

void MyTransformer::set_causal(bool causal) {
  config_.causal = causal;
  for (auto& b : blocks_) b->attention.set_causal(causal);
}

}  // namespace tf
