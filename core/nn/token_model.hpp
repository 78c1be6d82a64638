// The interface of the course's token-to-logits networks (NoTalking, WithPosition, MyTransformer): a batch
// of ids [B, T] in, logits [B, T, V] out, with the attention weights of the last call kept for viewing.
// forward_rows scores chosen positions only: a loss that reads a few positions (the diffusion loss reads the
// masked ones) skips the output projection, the largest product of a small model, for all the others.
#pragma once
#include <vector>

#include "nn/model_config.hpp"
#include "nn/module.hpp"

namespace tf {

class TokenModel : public Module {
 public:
  explicit TokenModel(const ModelConfig& config) : config_(config) {}
  const ModelConfig& config() const { return config_; }
  virtual Tensor forward(const Ids& x) const = 0;  // x [B, T] -> logits [B, T, V]
  // x [B, T], rows [n] of flat positions b * T + t -> logits [n, V] of those positions. This default
  // projects every position and picks; models with a separate output layer project the picked rows only.
  virtual Tensor forward_rows(const Ids& x, const Ids& rows) const;
  // Per layer, the weights [B, heads, T, T] of the last forward; empty for networks without attention.
  virtual std::vector<Tensor> attention_weights() const { return {}; }

 protected:
  ModelConfig config_;
};

}  // namespace tf
