#include "nn/init.hpp"

#include <vector>

namespace tf {

Tensor randn(const Shape& shape, Rng& rng, float std, Device device) {
  std::vector<float> v(static_cast<size_t>(shape.numel()));
  for (float& x : v) x = std * rng.normal();
  return Tensor::from_vector(v, shape, device);
}

Tensor rand_uniform(const Shape& shape, Rng& rng, float low, float high, Device device) {
  std::vector<float> v(static_cast<size_t>(shape.numel()));
  for (float& x : v) x = low + (high - low) * rng.uniform();
  return Tensor::from_vector(v, shape, device);
}

void normal_(const Tensor& t, Rng& rng, float std) { t.copy_from(randn(t.shape(), rng, std, t.device())); }

}  // namespace tf
