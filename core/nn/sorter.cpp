#include "nn/sorter.hpp"

#include <cmath>

#include "autograd/node.hpp"
#include "util/error.hpp"

namespace tf {

EncoderBlock::EncoderBlock(int64_t d, int64_t heads, Rng& rng, Device device)
    : PreNormBlock({"ln1", "attn", "ln2", "ffn"}, d, heads, true, false, false, rng, device) {}

DecoderBlock::DecoderBlock(int64_t d, int64_t heads, Rng& rng, Device device)
    : ln1(d, device),
      self_attn(d, heads, true, true, false, rng, device),
      ln2(d, device),
      cross_attn(d, heads, rng, device),
      ln3(d, device),
      ffn(d, 4 * d, GeluMode::Erf, rng, device) {
  register_module("ln1", ln1);
  register_module("self_attn", self_attn);
  register_module("ln2", ln2);
  register_module("cross_attn", cross_attn);
  register_module("ln3", ln3);
  register_module("ffn", ffn);
}

Tensor DecoderBlock::forward(const Tensor& input, const Tensor& memory, const Tap& tap, size_t index) const {
  Tensor x = tap ? tap(index, Site::Input, input) : input;
  Tensor h = add(x, self_attn.forward(ln1.forward(x)));
  Tensor heads = cross_attn.heads(ln2.forward(h), memory);
  h = add(h, cross_attn.mix.forward(tap ? tap(index, Site::Heads, heads) : heads));
  return add(h, ffn.forward(ln3.forward(h)));
}

Sorter::Sorter(const ModelConfig& config, Rng& rng, Device device)
    : config_(config),
      src_emb(config.vocab, config.dim, rng, device),
      tgt_emb(config.vocab, config.dim, rng, device),
      pe_(sinusoidal_encoding(config.max_length, config.dim, device)),
      ln_enc(config.dim, device),
      ln_dec(config.dim, device),
      out(config.dim, config.vocab, true, rng, device) {
  config.validate();
  register_module("src_emb", src_emb);
  register_module("tgt_emb", tgt_emb);
  for (int64_t i = 0; i < config.encoder_layers; ++i) {
    enc_.push_back(std::make_unique<EncoderBlock>(config.dim, config.heads, rng, device));
    register_module("enc." + std::to_string(i), *enc_.back());
  }
  for (int64_t i = 0; i < config.decoder_layers; ++i) {
    dec_.push_back(std::make_unique<DecoderBlock>(config.dim, config.heads, rng, device));
    register_module("dec." + std::to_string(i), *dec_.back());
  }
  register_module("ln_enc", ln_enc);
  register_module("ln_dec", ln_dec);
  register_module("out", out);
}

Tensor Sorter::add_positions(const Tensor& x) const {
  int64_t T = x.size(1);
  TF_CHECK(T <= config_.max_length, "sequence of ", T, " is longer than max_length ", config_.max_length);
  return add(x, narrow(pe_, 0, 0, T));
}

Tensor Sorter::embed_source(const Ids& src) const {
  return scale(src_emb.forward(src), std::sqrt(static_cast<float>(config_.dim)));
}

Tensor Sorter::encode_embedded(const Tensor& scaled) const {
  Tensor x = add_positions(scaled);
  for (const auto& b : enc_) x = b->forward(x);
  return ln_enc.forward(x);
}

Tensor Sorter::decode(const Ids& tgt_in, const Tensor& memory, const Tap& tap) const {
  Tensor x = add_positions(scale(tgt_emb.forward(tgt_in), std::sqrt(static_cast<float>(config_.dim))));
  for (size_t i = 0; i < dec_.size(); ++i) x = dec_[i]->forward(x, memory, tap, i);
  return out.forward(ln_dec.forward(x));
}

Ids Sorter::greedy(const Ids& src, int64_t length) const {
  NoGrad no_grad;
  int64_t B = src.shape[0];
  Tensor memory = encode(src);
  std::vector<int32_t> seq(static_cast<size_t>(B), kSos);  // [B, t] grows one column per step
  for (int64_t t = 1; t <= length; ++t) {
    Tensor logits = decode(Ids(seq, Shape{B, t}), memory);  // [B, t, V]
    std::vector<float> last = narrow(logits, 1, t - 1, 1).to_vector();
    std::vector<int32_t> next(static_cast<size_t>(B * (t + 1)));
    for (int64_t b = 0; b < B; ++b) {
      const float* row = last.data() + b * config_.vocab;
      int64_t best = 0;
      for (int64_t v = 1; v < config_.vocab; ++v)
        if (row[v] > row[best]) best = v;
      for (int64_t i = 0; i < t; ++i)
        next[static_cast<size_t>(b * (t + 1) + i)] = seq[static_cast<size_t>(b * t + i)];
      next[static_cast<size_t>(b * (t + 1) + t)] = static_cast<int32_t>(best);
    }
    seq.swap(next);
  }
  std::vector<int32_t> outv;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 1; i <= length; ++i) outv.push_back(seq[static_cast<size_t>(b * (length + 1) + i)]);
  return Ids(outv, Shape{B, length});
}

std::vector<Tensor> Sorter::encoder_attention() const {
  std::vector<Tensor> w;
  for (const auto& b : enc_) w.push_back(b->attention.last_weights());
  return w;
}

std::vector<Tensor> Sorter::decoder_self_attention() const {
  std::vector<Tensor> w;
  for (const auto& b : dec_) w.push_back(b->self_attn.last_weights());
  return w;
}

std::vector<Tensor> Sorter::decoder_cross_attention() const {
  std::vector<Tensor> w;
  for (const auto& b : dec_) w.push_back(b->cross_attn.last_weights());
  return w;
}

}  // namespace tf
