// Decoder-to-encoder attention of page 000's sorter: queries from the decoder stream, keys and values from
// the encoder's output (one projection makes both: [B, S, 2d] = k | v).
#pragma once
#include "nn/layers.hpp"
#include "ops/ops.hpp"

namespace tf {

class CrossAttention : public Module {
 public:
  CrossAttention(int64_t dim, int64_t heads, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Tensor& x, const Tensor& memory) const;  // x [B, T, d], memory [B, S, d] -> [B, T, d]
  Tensor heads(const Tensor& x, const Tensor& memory) const;    // every head's output [B, T, d], before mix
  const Tensor& last_weights() const { return weights_; }       // [B, heads, T, S]

  Linear q, kv, mix;

 private:
  int64_t dim_, heads_;
  mutable Tensor weights_;
};

}  // namespace tf
