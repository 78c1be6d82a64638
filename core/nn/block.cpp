#include "nn/block.hpp"

namespace tf {

PreNormBlock::PreNormBlock(const PreNormNames& names, int64_t dim, int64_t heads, bool qkv_bias, bool causal,
                           bool rotary, Rng& rng, Device device)
    : norm1(dim, device),
      attention(dim, heads, qkv_bias, causal, rotary, rng, device),
      norm2(dim, device),
      mlp(dim, 4 * dim, GeluMode::Erf, rng, device) {
  register_module(names.norm1, norm1);
  register_module(names.attention, attention);
  register_module(names.norm2, norm2);
  register_module(names.mlp, mlp);
}

Tensor PreNormBlock::forward(const Tensor& input, const Tap& tap, size_t index) const {
  Tensor x = tap ? tap(index, Site::Input, input) : input;
  Tensor heads = attention.heads(norm1.forward(x));
  Tensor h = add(x, attention.mix.forward(tap ? tap(index, Site::Heads, heads) : heads));
  return add(h, mlp.forward(norm2.forward(h)));
}

Tensor PreNormBlock::forward_rows(const Tensor& x, const Ids& rows) const {
  Tensor mixed = attention.mix.forward(pick_rows(attention.heads(norm1.forward(x)), rows));
  Tensor h = add(pick_rows(x, rows), mixed);
  return add(h, mlp.forward(norm2.forward(h)));
}

Block::Block(int64_t dim, int64_t heads, bool causal, bool rotary, Rng& rng, Device device)
    : PreNormBlock({"norm1", "attention", "norm2", "mlp"}, dim, heads, false, causal, rotary, rng, device) {}

Tensor Block::forward_cached(const Tensor& x, KvCacheLayer& cache) const {
  Tensor h = add(x, attention.forward_cached(norm1.forward(x), cache));
  return add(h, mlp.forward(norm2.forward(h)));
}

}  // namespace tf
