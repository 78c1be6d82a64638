#include "nn/block.hpp"

namespace tf {

Block::Block(int64_t dim, int64_t heads, bool causal, bool rotary, Rng& rng, Device device)
    : norm1(dim, device),
      attention(dim, heads, false, causal, rotary, rng, device),
      norm2(dim, device),
      mlp(dim, 4 * dim, GeluMode::Erf, rng, device) {
  register_module("norm1", norm1);
  register_module("attention", attention);
  register_module("norm2", norm2);
  register_module("mlp", mlp);
}

Tensor Block::forward(const Tensor& x) const {
  Tensor h = add(x, attention.forward(norm1.forward(x)));
  return add(h, mlp.forward(norm2.forward(h)));
}

Tensor Block::forward_cached(const Tensor& x, KvCacheLayer& cache) const {
  Tensor h = add(x, attention.forward_cached(norm1.forward(x), cache));
  return add(h, mlp.forward(norm2.forward(h)));
}

}  // namespace tf
