// Page 000's encoder-decoder transformer that learns to sort ten digits: sinusoidal positions added to
// embedding * sqrt(d), pre-norm encoder blocks (self-attention, FFN), pre-norm decoder blocks (causal
// self-attention, cross-attention to the encoder output, FFN), final LayerNorms and an output layer.
// PyTorch's default initialisation (no SmallStart), GELU in its exact erf form (nn.GELU()).
#pragma once
#include <memory>
#include <vector>

#include "nn/block.hpp"
#include "nn/cross_attention.hpp"
#include "nn/feed_forward.hpp"
#include "nn/model_config.hpp"
#include "nn/self_attention.hpp"

namespace tf {

// The pre-norm block with a qkv bias and full attention; its children are named ln1, attn, ln2, ffn.
class EncoderBlock : public PreNormBlock {
 public:
  EncoderBlock(int64_t d, int64_t heads, Rng& rng, Device device);
};

class DecoderBlock : public Module {
 public:
  DecoderBlock(int64_t d, int64_t heads, Rng& rng, Device device);
  // tap: Site::Heads is the cross-attention heads' output (what carries the source into the decoder).
  Tensor forward(const Tensor& input, const Tensor& memory, const Tap& tap = {}, size_t index = 0) const;
  LayerNorm ln1;
  SelfAttention self_attn;
  LayerNorm ln2;
  CrossAttention cross_attn;
  LayerNorm ln3;
  FeedForward ffn;
};

class Sorter : public Module {
 public:
  static constexpr int32_t kSos = 10;
  Sorter(const ModelConfig& config, Rng& rng, Device device = Device::CPU);
  const ModelConfig& config() const { return config_; }

  Tensor embed_source(const Ids& src) const;           // src_emb(src) * sqrt(d): [B, S, d]
  Tensor encode_embedded(const Tensor& scaled) const;  // + positions, encoder blocks, ln_enc
  Tensor encode(const Ids& src) const { return encode_embedded(embed_source(src)); }
  Tensor decode(const Ids& tgt_in, const Tensor& memory, const Tap& tap = {}) const;  // logits [B, T, V]
  Tensor forward(const Ids& src, const Ids& tgt_in) const { return decode(tgt_in, encode(src)); }
  // Greedy decoding of `length` digits after SOS (no gradients): [B, length].
  Ids greedy(const Ids& src, int64_t length) const;

  std::vector<Tensor> encoder_attention() const;  // per layer [B, heads, S, S] of the last call
  std::vector<Tensor> decoder_self_attention() const;
  std::vector<Tensor> decoder_cross_attention() const;  // per layer [B, heads, T, S]
  const EncoderBlock& encoder_block(size_t i) const { return *enc_[i]; }

 private:
  Tensor add_positions(const Tensor& x) const;
  ModelConfig config_;
  Embedding src_emb, tgt_emb;
  Tensor pe_;  // [max_length, d], a constant
  std::vector<std::unique_ptr<EncoderBlock>> enc_;
  std::vector<std::unique_ptr<DecoderBlock>> dec_;
  LayerNorm ln_enc, ln_dec;
  Linear out;
};

}  // namespace tf
