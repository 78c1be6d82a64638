// Multi-head self-attention with all heads in one matrix (TinyDenoiser's way): one projection makes q, k
// and v for every head ([B, T, 3C]: q | k | v, head h in columns h*D..h*D+D-1 of each), the fused attention
// op reads them in place, and `mix` combines the heads. The same function as the page's list of Heads.
#pragma once
#include "nn/layers.hpp"
#include "ops/ops.hpp"

namespace tf {

struct KvCacheLayer;

class SelfAttention : public Module {
 public:
  SelfAttention(int64_t dim, int64_t heads, bool qkv_bias, bool causal, bool rotary, Rng& rng,
                Device device = Device::CPU);
  Tensor forward(const Tensor& x) const;  // x [B, T, C] -> mix(heads(x)) [B, T, C]
  // Every head's output side by side [B, T, C], before `mix` (a caller that needs a few rows mixes those).
  Tensor heads(const Tensor& x) const;
  // Incremental decoding: x holds the new positions only; keys and values are appended to the cache.
  Tensor forward_cached(const Tensor& x, KvCacheLayer& cache) const;
  const Tensor& last_weights() const { return weights_; }  // [B, heads, T, T] of the last call
  int64_t heads() const { return heads_; }
  bool causal() const { return causal_; }
  void set_causal(bool causal) { causal_ = causal; }

  Linear qkv, mix;

 private:
  Tensor project(const Tensor& x, int64_t pos_offset) const;  // [B, T, 3C], q and k rotated when rotary
  int64_t dim_, heads_;
  bool causal_, rotary_;
  mutable Tensor weights_;
};

// One layer's cached keys and values for left-to-right writing of one sequence (batch 1).
struct KvCacheLayer {
  Tensor k, v;         // [1, capacity, C]
  int64_t length = 0;  // positions filled
};

}  // namespace tf
