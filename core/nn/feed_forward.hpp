// The position-wise MLP: Linear(C, hidden) -> GELU -> Linear(hidden, C). Children are named "0" and "2"
// like nn.Sequential's indices, so the parameter names match the pages' PyTorch modules.
#pragma once
#include "backend/kernels.hpp"
#include "nn/layers.hpp"

namespace tf {

class FeedForward : public Module {
 public:
  FeedForward(int64_t dim, int64_t hidden, GeluMode mode, Rng& rng, Device device = Device::CPU);
  Tensor forward(const Tensor& x) const;

  Linear up, down;
  GeluMode mode;
};

}  // namespace tf
