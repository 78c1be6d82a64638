// The course's first two networks (page 002, steps 2 and "Knowing where you are"): every position guesses
// alone. NoTalking = embed -> linear; WithPosition adds a learned position table to the embedding.
#pragma once
#include "nn/layers.hpp"
#include "nn/token_model.hpp"

namespace tf {

class NoTalking : public TokenModel {
 public:
  NoTalking(const ModelConfig& config, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Ids& x) const override;

 protected:
  Tensor embed_tokens(const Ids& x) const;  // [B, T, C]
  Embedding embed;
  Linear out;
};

class WithPosition : public NoTalking {
 public:
  WithPosition(const ModelConfig& config, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Ids& x) const override;

 private:
  Embedding position;
};

}  // namespace tf
