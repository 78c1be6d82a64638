// The pre-norm transformer block of page 002: x + attention(norm1(x)), then x + mlp(norm2(x)), with the
// mlp Linear(C, 4C) -> GELU -> Linear(4C, C) acting on every position separately.
#pragma once
#include "nn/feed_forward.hpp"
#include "nn/self_attention.hpp"

namespace tf {

class Block : public Module {
 public:
  Block(int64_t dim, int64_t heads, bool causal, bool rotary, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Tensor& x) const;
  Tensor forward_cached(const Tensor& x, KvCacheLayer& cache) const;

  LayerNorm norm1;
  SelfAttention attention;
  LayerNorm norm2;
  FeedForward mlp;
};

}  // namespace tf
