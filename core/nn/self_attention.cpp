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

Tensor SelfAttention::forward(const Tensor& x) const {
  Tensor p = project(x, 0);
  AttentionOptions opt;
  opt.causal = causal_;
  Tensor o = attention(Cols(p, 0, dim_), Cols(p, dim_, dim_), Cols(p, 2 * dim_, dim_),
                       static_cast<int>(heads_), opt, &weights_);
  return mix.forward(o);
}

Tensor SelfAttention::forward_cached(const Tensor& x, KvCacheLayer& cache) const {
  TF_CHECK(x.size(0) == 1, "the key/value cache writes one sequence at a time");
  int64_t T = x.size(1), capacity = cache.k.size(1);
  TF_CHECK(cache.length + T <= capacity, "the key/value cache holds ", capacity, " positions; ",
           cache.length + T, " asked for");
  Tensor p = project(x, cache.length);
  // Append the new keys and values: rows [length, length + T) of the cache.
  Backend& be = backend_for(x.device());
  Dims4 d{{1, 1, T, dim_}};
  Strides4 src{0, 0, 3 * dim_, 1}, dst{0, 0, dim_, 1};
  be.copy_strided(p.data() + dim_, src, cache.k.data() + cache.length * dim_, dst, d, false);
  be.copy_strided(p.data() + 2 * dim_, src, cache.v.data() + cache.length * dim_, dst, d, false);
  cache.length += T;
  // The filled part of the cache as [1, length, C] views (batch 1: rows are contiguous).
  auto filled = [&](const Tensor& c) {
    Tensor view = c.detach();
    view.impl()->shape = Shape{1, cache.length, dim_};
    return view;
  };
  AttentionOptions opt;
  opt.causal = true;
  opt.q_offset = static_cast<int>(cache.length - T);
  Tensor o = attention(Cols(p, 0, dim_), Cols(filled(cache.k)), Cols(filled(cache.v)),
                       static_cast<int>(heads_), opt, &weights_);
  return mix.forward(o);
}

}  // namespace tf
