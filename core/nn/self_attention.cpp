#include "nn/self_attention.hpp"

#include "util/error.hpp"

namespace tf {

SelfAttention::SelfAttention(int64_t dim, int64_t heads, bool qkv_bias, bool causal, bool rotary, Rng& rng,
                             Device device)
    : qkv(dim, 3 * dim, qkv_bias, rng, device),
      mix(dim, dim, true, rng, device),
      dim_(dim),
      heads_(heads),
      causal_(causal),
      rotary_(rotary) {
  register_module("qkv", qkv);
  register_module("mix", mix);
}

Tensor SelfAttention::project(const Tensor& x, int64_t pos_offset) const {
  Tensor p = qkv.forward(x);
  return rotary_ ? rotary(p, dim_ / heads_, 2 * dim_, pos_offset) : p;
}

Tensor SelfAttention::forward(const Tensor& x) const { return mix.forward(heads(x)); }

Tensor SelfAttention::heads(const Tensor& x) const {
  Tensor p = project(x, 0);
  AttentionOptions opt;
  opt.causal = causal_;
  return attention(Cols(p, 0, dim_), Cols(p, dim_, dim_), Cols(p, 2 * dim_, dim_), static_cast<int>(heads_),
                   opt, &weights_);
}

Tensor SelfAttention::forward_cached(const Tensor& x, KvCacheLayer& cache) const {
  TF_CHECK(x.size(0) == 1, "the key/value cache writes one sequence at a time");
  int64_t T = x.size(1);
  Tensor p = project(x, cache.length);
  // The new keys and values go after the cached ones; attention reads the filled part [1, length, C].
  Tensor keys = cache_append(cache.k, cache.length, Cols(p, dim_, dim_));
  Tensor values = cache_append(cache.v, cache.length, Cols(p, 2 * dim_, dim_));
  cache.length += T;
  AttentionOptions opt;
  opt.causal = true;
  opt.q_offset = static_cast<int>(cache.length - T);
  Tensor o = attention(Cols(p, 0, dim_), Cols(keys), Cols(values), static_cast<int>(heads_), opt, &weights_);
  return mix.forward(o);
}

}  // namespace tf
