// The basic trainable pieces, with PyTorch's default initialisation: Linear (weight [out, in] and bias
// uniform in +-1/sqrt(in)), Embedding (N(0, 1)), LayerNorm (ones and zeros).
#pragma once
#include "nn/module.hpp"
#include "util/rng.hpp"

namespace tf {

class Linear : public Module {
 public:
  Linear(int64_t in, int64_t out, bool bias, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Tensor& x) const;
  Tensor weight, bias;  // bias undefined when built without one
};

class Embedding : public Module {
 public:
  Embedding(int64_t count, int64_t dim, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Ids& ids) const;
  Tensor weight;  // [count, dim]
};

class LayerNorm : public Module {
 public:
  explicit LayerNorm(int64_t dim, Device device = Device::CPU, float eps = 1e-5f);
  Tensor forward(const Tensor& x) const;
  Tensor weight, bias;
  float eps;
};

}  // namespace tf
