#include "nn/layers.hpp"

#include <cmath>

#include "nn/init.hpp"
#include "ops/ops.hpp"

namespace tf {

Linear::Linear(int64_t in, int64_t out, bool has_bias, Rng& rng, Device device) {
  float bound = 1.f / std::sqrt(static_cast<float>(in));
  weight = register_parameter("weight", rand_uniform(Shape{out, in}, rng, -bound, bound, device));
  if (has_bias) bias = register_parameter("bias", rand_uniform(Shape{out}, rng, -bound, bound, device));
}

Tensor Linear::forward(const Tensor& x) const { return linear(x, weight, bias); }

Embedding::Embedding(int64_t count, int64_t dim, Rng& rng, Device device) {
  weight = register_parameter("weight", randn(Shape{count, dim}, rng, 1.f, device));
}

Tensor Embedding::forward(const Ids& ids) const { return embedding(weight, ids); }

LayerNorm::LayerNorm(int64_t dim, Device device, float e) : eps(e) {
  weight = register_parameter("weight", Tensor::ones(Shape{dim}, device));
  bias = register_parameter("bias", Tensor::zeros(Shape{dim}, device));
}

Tensor LayerNorm::forward(const Tensor& x) const { return layer_norm(x, weight, bias, eps); }

}  // namespace tf
