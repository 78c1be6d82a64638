#include "nn/no_talking.hpp"

#include "nn/position_ids.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

NoTalking::NoTalking(const ModelConfig& config, Rng& rng, Device device)
    : TokenModel(config),
      embed(config.vocab, config.dim, rng, device),
      out(config.dim, config.vocab, true, rng, device) {
  register_module("embed", embed);
  register_module("out", out);
}

Tensor NoTalking::embed_tokens(const Ids& x) const {
  TF_CHECK(x.shape.ndim() == 2, "the network takes a batch of token ids [B, T], got ", x.shape.str());
  return embed.forward(x);
}

Tensor NoTalking::forward(const Ids& x) const { return out.forward(embed_tokens(x)); }

WithPosition::WithPosition(const ModelConfig& config, Rng& rng, Device device)
    : NoTalking(config, rng, device), position(config.max_length, config.dim, rng, device) {
  register_module("position", position);
}

Tensor WithPosition::forward(const Ids& x) const {
  int64_t T = x.shape.ndim() == 2 ? x.shape[1] : 0;
  TF_CHECK(T <= config_.max_length, "sequence of ", T, " tokens is longer than max_length ",
           config_.max_length);
  return out.forward(add(embed_tokens(x), position.forward(position_ids(T))));
}

}  // namespace tf
