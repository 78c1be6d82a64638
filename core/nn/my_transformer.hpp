// MyTransformer of page 002: token table (+ position table), a stack of pre-norm blocks, a final LayerNorm
// and the output layer, started small (every Linear and Embedding weight ~ N(0, 0.02)). causal=true makes
// it the left-to-right (GPT-style) model; rotary=true rotates q and k by position instead of adding a
// learned position vector (the TinyDenoiser way).
#pragma once
#include <memory>
#include <vector>

#include "nn/block.hpp"
#include "nn/token_model.hpp"

namespace tf {

// Cached keys and values of every block, for writing one sequence left to right.
struct KvCache {
  std::vector<KvCacheLayer> layers;
  int64_t length() const { return layers.empty() ? 0 : layers.front().length; }
};

class MyTransformer : public TokenModel {
 public:
  MyTransformer(const ModelConfig& config, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Ids& x) const override;
  Tensor forward_rows(const Ids& x, const Ids& rows) const override;  // picks rows in the last block
  std::vector<Tensor> attention_weights() const override;
  // forward() in two halves, so an input's embeddings can be a gradient leaf (saliency): the token (and
  // learned position) vectors [B, T, C], then the blocks, final norm and output layer -> logits [B, T, V].
  Tensor embed_input(const Ids& x) const { return embed_positions(x, 0); }
  Tensor forward_embedded(const Tensor& h) const { return unembed(run_blocks(h)); }
  // The blocks from `first` on ([B, T, C] -> [B, T, C]), each shown to `tap`; and the final norm and output
  // layer alone ([B, T, C] -> logits [B, T, V]). The logit lens and activation patching are made of these.
  Tensor run_blocks(const Tensor& h, const Tap& tap = {}, size_t first = 0) const;
  Tensor unembed(const Tensor& h) const { return out.forward(norm.forward(h)); }

  // Left-to-right decoding (causal models): feed the new tokens [1, T_new], get their logits [1, T_new, V].
  KvCache new_cache(int64_t capacity) const;
  Tensor forward_cached(const Ids& x, KvCache& cache) const;
  // Switches every block's attention between causal and full (course C10: diffusion from a causal model).
  void set_causal(bool causal);

  const Block& block(size_t i) const { return *blocks_[i]; }
  size_t block_count() const { return blocks_.size(); }

 private:
  Tensor embed_positions(const Ids& x, int64_t start) const;  // [B, T, C]
  void small_start(Rng& rng);

  Embedding embed;
  std::unique_ptr<Embedding> position;  // absent with rotary positions
  std::vector<std::unique_ptr<Block>> blocks_;
  LayerNorm norm;
  Linear out;
};

}  // namespace tf
