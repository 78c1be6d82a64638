#include "nn/cross_attention.hpp"

namespace tf {

CrossAttention::CrossAttention(int64_t dim, int64_t heads, Rng& rng, Device device)
    : q(dim, dim, true, rng, device),
      kv(dim, 2 * dim, true, rng, device),
      mix(dim, dim, true, rng, device),
      dim_(dim),
      heads_(heads) {
  register_module("q", q);
  register_module("kv", kv);
  register_module("mix", mix);
}

Tensor CrossAttention::forward(const Tensor& x, const Tensor& memory) const {
  return mix.forward(heads(x, memory));
}

Tensor CrossAttention::heads(const Tensor& x, const Tensor& memory) const {
  Tensor qs = q.forward(x), kvs = kv.forward(memory);
  return attention(Cols(qs), Cols(kvs, 0, dim_), Cols(kvs, dim_, dim_), static_cast<int>(heads_), {},
                   &weights_);
}

}  // namespace tf
