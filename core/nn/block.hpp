// The pre-norm transformer block: x + attention(norm1(x)), then x + mlp(norm2(x)), with the mlp
// Linear(C, 4C) -> GELU -> Linear(4C, C) acting on every position separately. Page 002's transformer
// (Block) and the sorter's encoder (nn/sorter.hpp) are this block; their files name the children
// differently (norm1/attention/norm2/mlp and ln1/attn/ln2/ffn), so the names are given.
#pragma once
#include <functional>

#include "nn/feed_forward.hpp"
#include "nn/self_attention.hpp"

namespace tf {

// Where a forward pass lets interpretability read or replace an activation (the logit lens reads the
// residual stream, activation patching copies one run's activations into another): a block's input, the
// residual stream before it [B, T, C], and its heads' outputs side by side [B, T, C] before they are mixed
// (a decoder block's: its cross-attention heads). The tap gets the block's index and returns the
// activation the pass goes on with.
enum class Site { Input, Heads };
using Tap = std::function<Tensor(size_t block, Site site, const Tensor& value)>;

// The names the four children are registered under (their parameters' name prefixes).
struct PreNormNames {
  const char *norm1, *attention, *norm2, *mlp;
};

class PreNormBlock : public Module {
 public:
  PreNormBlock(const PreNormNames& names, int64_t dim, int64_t heads, bool qkv_bias, bool causal, bool rotary,
               Rng& rng, Device device);
  Tensor forward(const Tensor& input, const Tap& tap = {}, size_t index = 0) const;  // tap: as block `index`
  // forward()'s rows [n] (flat positions b * T + t) alone -> [n, C]. Every position still attends and is
  // attended to, but the head mixing, the residuals and the mlp run on the chosen rows only: a loss that
  // reads a few positions skips most of the last block's work for the others.
  Tensor forward_rows(const Tensor& x, const Ids& rows) const;

  LayerNorm norm1;
  SelfAttention attention;
  LayerNorm norm2;
  FeedForward mlp;
};

// Page 002's block: no qkv bias, causal or full attention, learned or rotary positions.
class Block : public PreNormBlock {
 public:
  Block(int64_t dim, int64_t heads, bool causal, bool rotary, Rng& rng, Device device = Device::CPU);
  Tensor forward_cached(const Tensor& x, KvCacheLayer& cache) const;
};

}  // namespace tf
