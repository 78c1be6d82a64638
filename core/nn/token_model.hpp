// The interface of the course's token-to-logits networks (NoTalking, WithPosition, MyTransformer): a batch
// of ids [B, T] in, logits [B, T, V] out, with the attention weights of the last call kept for viewing.
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
  // Per layer, the weights [B, heads, T, T] of the last forward; empty for networks without attention.
  virtual std::vector<Tensor> attention_weights() const { return {}; }

 protected:
  ModelConfig config_;
};

}  // namespace tf
